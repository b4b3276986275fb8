// Every locale of the widget has every text (src/core/locales/): tsc checks the count, this
// checks the content.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { en, KEYS } from '../../src/core/locales/en.ts';

const DIR = join(import.meta.dirname, '..', '..', 'src', 'core', 'locales');

describe('widget locales', async () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.ts'));
  const locales = await Promise.all(files.map(async (f) => [f.slice(0, -3), (await import(join(DIR, f)))[f.slice(0, -3)] as readonly string[]] as const));

  it('has at least 12 locales, Arabic among them', () => {
    assert.ok(locales.length >= 12, `${locales.length} locales`);
    assert.ok(locales.some(([name]) => name === 'ar'));
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
