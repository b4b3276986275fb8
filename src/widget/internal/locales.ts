// The texts of a locale other than English: a file of the build the gateway serves,
// GET {gateway}/v1/locales/{locale}.json (a JSON array in KEYS order), fetched with the integrity
// the build wrote into the widget, so that the browser refuses any other bytes.
import { KEYS } from '../../core/locales/en.ts';
import type { Locale } from '../../core/i18n.ts';

/** "sha384-…" of each non-English locale's file, written by the widget's build (vite.config.ts). */
declare const __PW_LOCALES__: Readonly<Partial<Record<Locale, string>>>;

/**
 * The locale's texts, or undefined when they cannot be had (no such file, network error, integrity
 * mismatch, not one text per key): the widget then speaks English. The URL carries a piece of the
 * hash, so the year-long cache of an old build's file is never asked for a new one (the webview
 * page preloads this very URL: localePreload in server/http/pages.ts).
 */
export async function loadTexts(gateway: string, locale: Locale): Promise<readonly string[] | undefined> {
  try {
    // Inside the try: a build without the define (no locale files) speaks English.
    const integrity = __PW_LOCALES__[locale];
    if (!integrity) return undefined;
    const response = await fetch(`${gateway}/v1/locales/${locale}.json?v=${encodeURIComponent(integrity.slice(7, 23))}`, { integrity });
    const texts: unknown = response.ok ? await response.json() : undefined;
    return Array.isArray(texts) && texts.length === KEYS.length && texts.every((text) => typeof text === 'string') ? texts : undefined;
  } catch {
    return undefined;
  }
}
