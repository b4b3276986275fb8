// Every locale of the widget has every text (src/core/locales/): tsc checks the count, this
// checks the content.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { dirOf, localeOf, LOCALES } from '../../src/core/locale-list.ts';
import { en, KEYS } from '../../src/core/locales/en.ts';

const DIR = join(import.meta.dirname, '..', '..', 'src', 'core', 'locales');

describe('widget locales', async () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.ts'));
  const locales = await Promise.all(files.map(async (f) => [f.slice(0, -3), (await import(join(DIR, f)))[f.slice(0, -3)] as readonly string[]] as const));

  it('has at least 12 locales, Arabic among them', () => {
    assert.ok(locales.length >= 12, `${locales.length} locales`);
    assert.ok(locales.some(([name]) => name === 'ar'));
  });

  it('has a file of texts for each locale of LOCALES, and none besides', () => {
    assert.deepEqual(locales.map(([name]) => name).sort(), [...LOCALES].sort());
  });

  it('writes Persian and Urdu in their own letters, not Arabic\u2019s look-alikes', () => {
    const texts = (name: string) => locales.find(([n]) => n === name)![1].join(' ');
    // Arabic yeh and kaf; Urdu writes heh as heh goal (U+06C1) and do-chashmi heh (U+06BE).
    assert.doesNotMatch(texts('fa'), /[\u064a\u0643]/);
    assert.doesNotMatch(texts('ur'), /[\u064a\u0643\u0647]/);
    assert.match(texts('ur'), /\u06d4/, 'Urdu ends its sentences with its full stop');
  });

  it('resolves a page\u2019s tag to its locale: the language, Hebrew\u2019s old code iw, right to left for ar, fa, he, ur', () => {
    const cases: Array<[string, string | undefined]> = [
      ['de-AT', 'de'],
      ['he-IL', 'he'],
      ['iw', 'he'],
      ['iw_IL', 'he'],
      ['fa-IR', 'fa'],
      ['fa-AF', 'fa'],
      ['ur-PK', 'ur'],
      ['ur_IN', 'ur'],
      [' FR ', 'fr'],
      ['ko-KR', undefined],
      ['', undefined],
    ];
    for (const [tag, locale] of cases) assert.equal(localeOf(tag), locale, tag);
    assert.deepEqual(
      LOCALES.filter((locale) => dirOf(locale) === 'rtl'),
      ['ar', 'fa', 'he', 'ur'],
    );
  });

  for (const [name, texts] of locales) {
    it(`${name} has a non-empty text for each key, with the same placeholders as English`, () => {
      assert.equal(texts.length, KEYS.length);
      texts.forEach((text, i) => {
        assert.ok(text.trim(), `${name}.${KEYS[i]} is empty`);
        assert.deepEqual(text.match(/\{\d\}/g) ?? [], en[i]!.match(/\{\d\}/g) ?? [], `${name}.${KEYS[i]} placeholders`);
      });
      if (name !== 'en') {
        const same = texts.filter((text, i) => text === en[i]).length;
        assert.ok(same < 5, `${name}: ${same} texts are still English`);
      }
    });
  }
});
