// The gateway's startup check of the built widget's locale files against dist/manifest.json
// (server/http/widgetAssets.ts): what it serves, and what a broken or older build leaves out.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { loadWidgetAssets, type Asset } from '../../server/http/widgetAssets.ts';
import { manifestFor } from '../../scripts/sri.ts';
import { FAKE_LOCALES, fakeDist } from '../support/checkouts.ts';

describe('the widget files read at startup', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('holds each locale file the manifest lists, with the bytes of its integrity', () => {
    const dist = fakeDist();
    dir = dist.dir;
    const assets = loadWidgetAssets(dir);
    assert.ok(assets.ready);
    assert.deepEqual([...assets.locales.keys()], ['de', 'ar', 'zh-Hant']);
    for (const [locale, texts] of Object.entries(FAKE_LOCALES)) {
      const asset: Asset = assets.locales.get(locale)!;
      assert.equal(asset.integrity, dist.manifest.files[`locales/${locale}.json`]!.integrity);
      assert.deepEqual(JSON.parse(asset.bytes.toString('utf8')), texts);
    }
    assert.deepEqual(assets.problems.filter((p) => p.includes('locales')), []);
  });

  it('keeps serving the widget when a locale file does not match, and says which', () => {
    dir = fakeDist({ later: true }).dir;
    writeFileSync(join(dir, 'locales', 'de.json'), JSON.stringify(['Zahlungsart', 'Tampered']));
    const assets = loadWidgetAssets(dir);
    assert.ok(assets.ready);
    assert.equal(assets.locales.has('de'), true, 'the locale is known: its requests answer 503, not 404');
    assert.equal(assets.locales.get('de'), undefined);
    assert.ok(assets.locales.get('ar'));
    assert.deepEqual(assets.problems, [`${join(dir, 'locales', 'de.json')} does not match its integrity in ${join(dir, 'manifest.json')}: run npm run build`]);
  });

  it('reads a build from before the locale files (its widget holds every text) as having none', () => {
    dir = fakeDist().dir;
    manifestFor(dir, ['paymentWidgets.js', 'secure-frame.js']);
    const assets = loadWidgetAssets(dir);
    assert.ok(assets.ready);
    assert.equal(assets.locales.size, 0);
  });
});
