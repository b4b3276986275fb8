// The widget's texts in the locales of locale-list.ts: labels, placeholders, field errors and one
// message per group of gateway result codes (results.ts picks the key). Only English is in the
// bundle; each other locale is a file of its own (dist/locales/{locale}.json, a JSON array in KEYS
// order, written by the widget's build from src/core/locales/) that the widget fetches with the
// integrity the build gave it (widget/internal/locales.ts). Arabic, Persian, Hebrew and Urdu are
// right-to-left; card fields keep Western digits in every locale (format.ts maps other digit
// scripts to ASCII).
import { dirOf, localeOf, LOCALES, type Locale } from './locale-list.ts';
import { en, KEYS, type MessageKey } from './locales/en.ts';

export { dirOf, LOCALES, type Locale, type MessageKey };
export type Strings = Readonly<Record<MessageKey, string>>;

/** The closest supported locale: "de-AT" → "de", "pt-BR" → "pt-BR", "pt-PT" → "pt", "zh-TW" → "zh-Hant", anything unknown → "en" (locale-list.ts › localeOf). */
export const resolveLocale = (requested: string | undefined): Locale => localeOf(requested ?? '') ?? 'en';

/**
 * The tag amounts are formatted with: the requested one with its region (pt-PT writes 92,00 €,
 * pt alone the Brazilian € 92,00) when it is of the locale the texts are in, else that locale.
 */
export function formattingLocale(requested: string | undefined, locale: Locale): string {
  const tag = (requested ?? '').replace(/_/g, '-');
  if (resolveLocale(tag) !== locale) return locale;
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? locale;
  } catch {
    return locale;
  }
}

/** wpwlOptions.labels names that integrations of this kind of widget already use. */
const ALIASES: Readonly<Record<string, MessageKey>> = { cardNumber: 'number', cardHolder: 'holder', expiryDate: 'expiry', submit: 'payAmount' };

/** A locale's texts (one per key, in KEYS order; English when none are given) with a shop's overrides (wpwlOptions.labels) for known keys. */
export function stringsFor(texts: readonly string[] = en, overrides?: Readonly<Record<string, unknown>>): Strings {
  const strings = Object.fromEntries(KEYS.map((key, i) => [key, texts[i]!])) as Record<MessageKey, string>;
  for (const [name, value] of Object.entries(overrides ?? {})) {
    const key = Object.hasOwn(ALIASES, name) ? ALIASES[name]! : name;
    if (Object.hasOwn(strings, key) && typeof value === 'string') strings[key as MessageKey] = value;
  }
  return strings;
}

/** "{0} ending in {1}" with its arguments. */
export const fmt = (template: string, ...args: string[]): string => template.replace(/\{(\d)\}/g, (_, i: string) => args[Number(i)] ?? '');
