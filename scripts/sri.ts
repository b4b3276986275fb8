// Subresource-integrity manifest of the built widget: sha384 (base64) of every emitted file (the
// scripts and the locale files), with its size and gzip size. `npm run build` calls manifestFor
// after Vite; the gateway serves the files' bytes and takes integrity values from dist/manifest.json.
//   tsx scripts/sri.ts [dir] [file…]   (defaults: dist and DEFAULT_FILES)
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { LOCALES } from '../src/core/locale-list.ts';

export interface ManifestEntry {
  /** "sha384-<base64>", as the integrity attribute of a script tag takes it. */
  integrity: string;
  bytes: number;
  gzipBytes: number;
}

export interface Manifest {
  files: Record<string, ManifestEntry>;
}

export const MANIFEST = 'manifest.json';
/** dist/ name of a locale's texts (every locale but English; the gateway serves it as /v1/locales/{locale}.json). */
export const localeFileName = (locale: string): string => `locales/${locale}.json`;
export const DEFAULT_FILES = ['paymentWidgets.js', 'secure-frame.js', 'threeds.js', 'webview.js', 'sw.js', ...LOCALES.filter((locale) => locale !== 'en').map(localeFileName)];

/** The integrity value of some bytes: "sha384-" and the base64 digest. */
export function sri(bytes: Uint8Array): string {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

/** Write `dir/manifest.json` for `files` (names relative to dir) and return it. */
export function manifestFor(dir: string, files: string[]): Manifest {
  const manifest: Manifest = { files: {} };
  for (const file of files) {
    const bytes = readFileSync(join(dir, file));
    manifest.files[file] = { integrity: sri(bytes), bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
  }
  writeFileSync(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dir = 'dist', ...files] = process.argv.slice(2);
  const manifest = manifestFor(dir, files.length ? files : DEFAULT_FILES);
  for (const [file, entry] of Object.entries(manifest.files)) console.log(`${file}  ${entry.bytes} B, ${entry.gzipBytes} B gzip  ${entry.integrity}`);
}
