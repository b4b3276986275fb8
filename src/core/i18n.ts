// The widget's texts in 13 locales: labels, placeholders, field errors and one message per group
// of gateway result codes (results.ts picks the key). Arabic is right-to-left; card fields keep
// Western digits in every locale (format.ts maps other digit scripts to ASCII).
import { ar } from './locales/ar.ts';
import { de } from './locales/de.ts';
import { en, KEYS, type MessageKey, type Texts } from './locales/en.ts';
import { es } from './locales/es.ts';
import { fr } from './locales/fr.ts';
import { it } from './locales/it.ts';
import { ja } from './locales/ja.ts';
import { nl } from './locales/nl.ts';
import { pl } from './locales/pl.ts';
import { pt } from './locales/pt.ts';
import { sv } from './locales/sv.ts';
import { tr } from './locales/tr.ts';
import { zh } from './locales/zh.ts';

export type { MessageKey };
export type Strings = Readonly<Record<MessageKey, string>>;

export const LOCALES = { ar, de, en, es, fr, it, ja, nl, pl, pt, sv, tr, zh } as const satisfies Record<string, Texts>;
export type Locale = keyof typeof LOCALES;

const RTL: ReadonlySet<string> = new Set(['ar']);

/** The closest supported locale: "pt-BR" → "pt", "zh-Hant-TW" → "zh", anything unknown → "en". */
export function resolveLocale(requested: string | undefined): Locale {
  const language = (requested ?? '').toLowerCase().split(/[-_]/)[0] ?? '';
  return Object.hasOwn(LOCALES, language) ? (language as Locale) : 'en';
}

export const dirOf = (locale: Locale): 'rtl' | 'ltr' => (RTL.has(locale) ? 'rtl' : 'ltr');

/** wpwlOptions.labels names that integrations of this kind of widget already use. */
const ALIASES: Readonly<Record<string, MessageKey>> = { cardNumber: 'number', cardHolder: 'holder', expiryDate: 'expiry', submit: 'payAmount' };

/** The locale's texts with a shop's overrides (wpwlOptions.labels) for known keys. */
export function stringsFor(locale: Locale, overrides?: Readonly<Record<string, unknown>>): Strings {
  const texts: readonly string[] = LOCALES[locale];
  const strings = Object.fromEntries(KEYS.map((key, i) => [key, texts[i]!])) as Record<MessageKey, string>;
  for (const [name, value] of Object.entries(overrides ?? {})) {
    const key = Object.hasOwn(ALIASES, name) ? ALIASES[name]! : name;
    if (Object.hasOwn(strings, key) && typeof value === 'string') strings[key as MessageKey] = value;
  }
  return strings;
}

/** "{0} ending in {1}" with its arguments. */
export const fmt = (template: string, ...args: string[]): string => template.replace(/\{(\d)\}/g, (_, i: string) => args[Number(i)] ?? '');
