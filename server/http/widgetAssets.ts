// The built checkout widget (dist/, written by npm run build): the bytes of each script and locale
// file the gateway serves and their subresource integrity, read once at startup. A missing or
// stale build never stops the gateway: the widget's endpoints answer 503 saying what to run.

/** What the public is told when the widget cannot be served (the details are logged at startup). */
export const NOT_BUILT = 'the checkout widget is not built on this server: run npm run build, then restart the gateway';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { verifiedCopy, type StaticContent } from './staticAnswer.ts';

export const WIDGET_FILES = ['paymentWidgets.js', 'secure-frame.js'] as const;
export type WidgetFile = (typeof WIDGET_FILES)[number];

/**
 * Files of later builds: the 3-D Secure pages' script, the webview page's script and its service
 * worker. A build without one still serves the widget; the pages that need it answer 503.
 */
export const OPTIONAL_FILES = ['threeds.js', 'webview.js', 'sw.js'] as const;
export type OptionalFile = (typeof OPTIONAL_FILES)[number];

/** What the public is told when an optional file cannot be served. */
export const notBuiltFile = (file: OptionalFile) => `${file} is not built on this server: run npm run build, then restart the gateway`;

export interface Asset extends StaticContent {
  /** "sha384-<base64>" of the bytes, as the manifest has it. */
  integrity: string;
  /** 16 hex characters of the hash: a version to put in URLs, so that a cached old file is never taken for the new one. */
  version: string;
}

/**
 * The texts of the widget's locales but English, `locales/{locale}.json` in the manifest: the
 * widget fetches its shopper's with the integrity its build gave it, and speaks English when it
 * cannot. A build from before these files (its widget holds every text) has none to serve. A
 * listed file that is missing or does not match is kept as undefined: its requests answer 503.
 */
export const LOCALE_FILE = /^locales\/([a-z]{2,3}(?:-[A-Z][a-z]{3}|-[A-Z]{2})?)\.json$/;

export type WidgetAssets =
  | { ready: true; files: Record<WidgetFile, Asset>; optional: Partial<Record<OptionalFile, Asset>>; locales: ReadonlyMap<string, Asset | undefined>; problems: string[] }
  | { ready: false; problem: string };

/** The texts of a locale file (a JSON array of strings in KEYS order), or undefined when it holds none. */
export function localeTexts(asset: Asset): string[] | undefined {
  try {
    const texts: unknown = JSON.parse(asset.bytes.toString('utf8'));
    return Array.isArray(texts) && texts.length && texts.every((text) => typeof text === 'string') ? texts : undefined;
  } catch {
    return undefined;
  }
}

/** An optional file of a ready build, or undefined. */
export function optionalAsset(assets: WidgetAssets, file: OptionalFile): Asset | undefined {
  return assets.ready ? assets.optional[file] : undefined;
}

const manifestSchema = z.object({
  files: z.record(z.string(), z.looseObject({ integrity: z.string().regex(/^sha384-[A-Za-z0-9+/]{64}$/) })),
});

export function loadWidgetAssets(distDir: string): WidgetAssets {
  const manifestPath = join(distDir, 'manifest.json');
  if (!existsSync(manifestPath)) return { ready: false, problem: `the checkout widget is not built (${manifestPath} is missing): run npm run build` };
  try {
    const manifest = manifestSchema.parse(JSON.parse(readFileSync(manifestPath, 'utf8')));
    const read = (name: string, expected: string): Asset | string => {
      const bytes = readFileSync(join(distDir, name));
      const digest = createHash('sha384').update(bytes).digest();
      const integrity = `sha384-${digest.toString('base64')}`;
      // Served bytes that do not match the integrity shops were given would be refused by every browser.
      if (integrity !== expected) return `${join(distDir, name)} does not match its integrity in ${manifestPath}: run npm run build`;
      return { bytes, integrity, etag: `"${integrity}"`, version: digest.toString('hex', 0, 8), coded: compressedCopies(join(distDir, name), bytes) };
    };
    const files: Partial<Record<WidgetFile, Asset>> = {};
    for (const name of WIDGET_FILES) {
      const entry = manifest.files[name];
      if (!entry) return { ready: false, problem: `${manifestPath} lists no ${name}: run npm run build` };
      const asset = read(name, entry.integrity);
      if (typeof asset === 'string') return { ready: false, problem: asset };
      files[name] = asset;
    }
    const optional: Partial<Record<OptionalFile, Asset>> = {};
    const problems: string[] = [];
    /** A file whose absence or mismatch only its own requests see (they answer 503); the problem is logged. */
    const readOptional = (name: string, integrity: string): Asset | undefined => {
      try {
        const asset = read(name, integrity);
        if (typeof asset !== 'string') return asset;
        problems.push(asset);
      } catch (error) {
        problems.push(`${join(distDir, name)} could not be read (${(error as Error).message}): run npm run build`);
      }
      return undefined;
    };
    for (const name of OPTIONAL_FILES) {
      const entry = manifest.files[name];
      if (!entry) {
        problems.push(`${manifestPath} lists no ${name}: its pages answer 503 until npm run build makes it`);
        continue;
      }
      const asset = readOptional(name, entry.integrity);
      if (asset) optional[name] = asset;
    }
    const locales = new Map<string, Asset | undefined>();
    for (const [name, entry] of Object.entries(manifest.files)) {
      const locale = LOCALE_FILE.exec(name)?.[1];
      if (locale) locales.set(locale, readOptional(name, entry.integrity));
    }
    return { ready: true, files: files as Record<WidgetFile, Asset>, optional, locales, problems };
  } catch (error) {
    return { ready: false, problem: `the checkout widget in ${distDir} could not be read (${(error as Error).message}): run npm run build` };
  }
}

/** The build's compressed copies of a file (name.br, name.gz) that hold exactly its bytes. */
function compressedCopies(path: string, bytes: Buffer): StaticContent['coded'] {
  const coded: StaticContent['coded'] = {};
  for (const [coding, suffix] of [['br', '.br'], ['gzip', '.gz']] as const) {
    const copy = existsSync(path + suffix) ? verifiedCopy(coding, readFileSync(path + suffix), bytes) : undefined;
    if (copy) coded[coding] = copy;
  }
  return coded;
}

/**
 * A built file is kept for a year only at a URL that names its version (?v=): any other URL (the
 * plain one, a checkout's ?checkoutId=) may outlive the file across an upgrade, so the browser
 * asks again (a 304 while the file is unchanged); otherwise it could run an old file against the
 * new integrity, and the page would show no form.
 */
export function cacheControlFor(query: unknown, version: string): string {
  return (query as Record<string, unknown> | undefined)?.v === version ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/** The version in a locale file's URL: the first 16 characters of its integrity hash, which the widget knows from the manifest. */
export const localeFileVersion = (asset: Asset): string => asset.integrity.slice(7, 23);
