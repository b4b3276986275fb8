// Last step of `npm run build`: the SRI manifest of every built script (scripts/sri.ts).
import { DEFAULT_FILES, manifestFor } from './sri.ts';

const manifest = manifestFor('dist', DEFAULT_FILES);
for (const [file, entry] of Object.entries(manifest.files)) {
  console.log(`${file.padEnd(18)} ${String(entry.bytes).padStart(7)} B  ${String(entry.gzipBytes).padStart(6)} B gzip  ${entry.integrity}`);
}
