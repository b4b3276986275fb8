// The widget's non-English texts as files of their own, dist/locales/{locale}.json: a JSON array of
// the texts in KEYS order (src/core/locales/en.ts). The widget's build (vite.config.ts) writes them
// and gives the widget their integrity (__PW_LOCALES__); build-manifest.ts lists them for SRI;
// the component tests serve the same bytes.
import { LOCALES, type Locale } from '../src/core/locale-list.ts';
import { ar } from '../src/core/locales/ar.ts';
import { de } from '../src/core/locales/de.ts';
import type { Texts } from '../src/core/locales/en.ts';
import { es } from '../src/core/locales/es.ts';
import { fa } from '../src/core/locales/fa.ts';
import { fr } from '../src/core/locales/fr.ts';
import { he } from '../src/core/locales/he.ts';
import { it } from '../src/core/locales/it.ts';
import { ja } from '../src/core/locales/ja.ts';
import { nl } from '../src/core/locales/nl.ts';
import { pl } from '../src/core/locales/pl.ts';
import { pt } from '../src/core/locales/pt.ts';
import { ptBR } from '../src/core/locales/pt-BR.ts';
import { sv } from '../src/core/locales/sv.ts';
import { tr } from '../src/core/locales/tr.ts';
import { ur } from '../src/core/locales/ur.ts';
import { zh } from '../src/core/locales/zh.ts';
import { zhHant } from '../src/core/locales/zh-Hant.ts';
import { localeFileName, sri } from './sri.ts';

const TEXTS: Record<Exclude<Locale, 'en'>, Texts> = { ar, de, es, fa, fr, he, it, ja, nl, pl, pt, 'pt-BR': ptBR, sv, tr, ur, zh, 'zh-Hant': zhHant };

export interface LocaleFile {
  locale: Exclude<Locale, 'en'>;
  /** Relative to dist/: "locales/de.json". */
  fileName: string;
  source: string;
  /** "sha384-<base64>" of the source's UTF-8 bytes. */
  integrity: string;
}

/** Every non-English locale's file, in LOCALES order. */
export function localeFiles(): LocaleFile[] {
  return LOCALES.filter((locale): locale is Exclude<Locale, 'en'> => locale !== 'en').map((locale) => {
    const source = JSON.stringify(TEXTS[locale]);
    return { locale, fileName: localeFileName(locale), source, integrity: sri(Buffer.from(source, 'utf8')) };
  });
}
