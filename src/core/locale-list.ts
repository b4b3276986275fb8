// The widget's locales: English is in the bundle, every other one is a file of the build (i18n.ts).
// A module of its own, so that the service worker lists those files, and the gateway's pages pick
// their language, without taking any text along.
export const LOCALES = ['ar', 'de', 'en', 'es', 'fa', 'fr', 'he', 'it', 'ja', 'nl', 'pl', 'pt', 'pt-BR', 'sv', 'tr', 'ur', 'zh', 'zh-Hant'] as const;
export type Locale = (typeof LOCALES)[number];

const RTL: readonly string[] = ['ar', 'fa', 'he', 'ur'];

export const dirOf = (locale: Locale): 'rtl' | 'ltr' => (RTL.includes(locale) ? 'rtl' : 'ltr');

/**
 * The locale of a BCP 47 tag or a Java-style one (de_AT, zh_TW_#Hant), undefined when none is
 * supported: its language (de-AT → de), iw (Java's and older Android's Hebrew) → he; Chinese by
 * its script, else its region: zh-Hant, zh-TW, zh-HK, zh-MO → zh-Hant (Traditional); zh, zh-CN,
 * zh-SG, zh-Hans-HK → zh (Simplified); Portuguese of Brazil → pt-BR, any other (pt, pt-PT, pt-AO,
 * pt-MZ …) → pt, which is Portugal's.
 */
export function localeOf(tag: string): Locale | undefined {
  // Subtags up to the first extension (-u-…, -x-…), whose values are no region or script.
  const [language, ...subtags] = tag.trim().toLowerCase().replace(/[-_][a-z\d](?![a-z\d]).*/, '').split(/[-_#]+/);
  if (language === 'pt') return subtags.includes('br') ? 'pt-BR' : 'pt';
  if (language === 'zh') return subtags.includes('hant') || (!subtags.includes('hans') && subtags.some((s) => s === 'tw' || s === 'hk' || s === 'mo')) ? 'zh-Hant' : 'zh';
  const code = language === 'iw' ? 'he' : language;
  return (LOCALES as readonly string[]).includes(code!) ? (code as Locale) : undefined;
}
