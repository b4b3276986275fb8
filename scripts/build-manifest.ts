// Last step of `npm run build`: the SRI manifest of every built script (scripts/sri.ts), and each
// file's compressed copies (name.br at brotli's best, name.gz), which the gateway serves to
// browsers that take them: made once here, not on the first shopper's request.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { DEFAULT_FILES, manifestFor } from './sri.ts';

const manifest = manifestFor('dist', DEFAULT_FILES);
for (const file of Object.keys(manifest.files)) {
  const bytes = readFileSync(join('dist', file));
  writeFileSync(join('dist', `${file}.br`), brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }));
  writeFileSync(join('dist', `${file}.gz`), gzipSync(bytes, { level: 9 }));
}
for (const [file, entry] of Object.entries(manifest.files)) {
  console.log(`${file.padEnd(20)} ${String(entry.bytes).padStart(7)} B  ${String(entry.gzipBytes).padStart(6)} B gzip  ${entry.integrity}`);
}
