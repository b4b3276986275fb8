// The size budgets of docs/widget-protocol.md, read from dist/manifest.json (npm run build).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const DIST = join(import.meta.dirname, '..', '..', 'dist');
const MANIFEST = join(DIST, 'manifest.json');
const KIB = 1024;

/** gzip budget of each built file, in bytes, and the least a real build of it weighs. */
const BUDGETS: Record<string, { budget: number; least: number }> = {
  'paymentWidgets.js': { budget: 25 * KIB, least: 10_000 },
  'secure-frame.js': { budget: 10 * KIB, least: 3_000 },
  // The script of the gateway's 3-D Secure pages.
  'threeds.js': { budget: 10 * KIB, least: 400 },
  // The webview page's script (workbox-window) and its service worker.
  'webview.js': { budget: 10 * KIB, least: 800 },
  'sw.js': { budget: 10 * KIB, least: 500 },
};

interface Entry {
  integrity: string;
  bytes: number;
  gzipBytes: number;
}

function manifest(): Record<string, Entry> {
  assert.ok(existsSync(MANIFEST), `${MANIFEST} is missing: run \`npm run build\` before this test (npm test does).`);
  return (JSON.parse(readFileSync(MANIFEST, 'utf8')) as { files: Record<string, Entry> }).files;
}

describe('bundle size budgets', () => {
  for (const [file, { budget, least }] of Object.entries(BUDGETS)) {
    it(`${file} stays within ${budget / KIB} KiB gzip`, () => {
      const entry = manifest()[file];
      assert.ok(entry, `dist/manifest.json lists no ${file}: run \`npm run build\``);
      const bytes = readFileSync(join(DIST, file));
      assert.equal(entry.bytes, bytes.length, `${file} changed after the manifest was written: run \`npm run build\``);
      assert.ok(entry.gzipBytes > least, `${file}: ${entry.gzipBytes} B gzip is not a real bundle`);
      assert.ok(
        entry.gzipBytes <= budget,
        `${file} is ${entry.gzipBytes} B gzip (${(entry.gzipBytes / KIB).toFixed(2)} KiB), over its budget of ${budget} B (${budget / KIB} KiB) by ${entry.gzipBytes - budget} B`,
      );
    });
  }
});
