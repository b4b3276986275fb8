// The size budgets of docs/widget-protocol.md, read from dist/manifest.json (npm run build), and
// the locale files the build writes beside the widget.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LOCALES } from '../../src/core/locale-list.ts';

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

  it("paymentWidgets.js ships none of the styles' comments (css`` templates are minified)", () => {
    const code = readFileSync(join(DIST, 'paymentWidgets.js'), 'utf8');
    assert.deepEqual(code.match(/\/\*[\s\S]*?\*\//g) ?? [], []);
    // The minified styles are there: a rule of payment-widget.styles.ts.
    assert.match(code, /@keyframes pw-spin\{to\{transform:rotate\(1turn\);\}\}/);
  });
});

describe('the built locale files', () => {
  const others = LOCALES.filter((locale) => locale !== 'en');

  it('are in the manifest, one per locale but English, each within 2 KiB gzip and matching its integrity', () => {
    const files = manifest();
    assert.deepEqual(Object.keys(files).filter((file) => file.startsWith('locales/')).sort(), others.map((locale) => `locales/${locale}.json`).sort());
    for (const locale of others) {
      const entry = files[`locales/${locale}.json`]!;
      const bytes = readFileSync(join(DIST, 'locales', `${locale}.json`));
      assert.equal(entry.integrity, `sha384-${createHash('sha384').update(bytes).digest('base64')}`, `${locale}.json changed after the manifest was written: run \`npm run build\``);
      assert.ok(entry.gzipBytes <= 2 * KIB, `${locale}.json is ${entry.gzipBytes} B gzip`);
    }
  });

  it('hold exactly the texts of src/core/locales, and the widget holds their integrity, not their texts', async () => {
    const files = manifest();
    const widget = readFileSync(join(DIST, 'paymentWidgets.js'), 'utf8');
    for (const locale of others) {
      // zh-Hant.ts exports zhHant.
      const texts = (await import(`../../src/core/locales/${locale}.ts`))[locale.replace(/-(\w)/, (_, c: string) => c.toUpperCase())] as readonly string[];
      assert.deepEqual(JSON.parse(readFileSync(join(DIST, 'locales', `${locale}.json`), 'utf8')), [...texts]);
      assert.ok(widget.includes(files[`locales/${locale}.json`]!.integrity), `paymentWidgets.js lacks the integrity of ${locale}.json: run \`npm run build\``);
      // A text of the locale's own (not shared with English) shows whether it was bundled.
      assert.equal(widget.includes(JSON.stringify(texts[8]).slice(1, -1)), false, `paymentWidgets.js holds ${locale}'s texts`);
    }
  });
});
