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
  // zh-Hant.ts exports zhHant.
  const exportOf = (name: string) => name.replace(/-(\w)/, (_, c: string) => c.toUpperCase()).replace(/-/g, '');
  const locales = await Promise.all(files.map(async (f) => [f.slice(0, -3), (await import(join(DIR, f)))[exportOf(f.slice(0, -3))] as readonly string[]] as const));

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

  it('writes Traditional Chinese in Traditional characters, not the Simplified ones of zh', () => {
    const traditional = locales.find(([n]) => n === 'zh-Hant')![1];
    const simplified = locales.find(([n]) => n === 'zh')![1];
    // Characters of zh.ts whose Traditional form differs (银 銀, 账 帳, 过 過, 请 請 …).
    assert.doesNotMatch(traditional.join(''), /[银账户过请输无验证败误处网络连载会话页邮编国区项额余为码]/);
    // Texts with no character of the two forms (城市, 取消, MM/YY …) read alike; a copy of zh would not pass.
    assert.ok(traditional.filter((text, i) => text === simplified[i]).length < 10, 'zh-Hant repeats zh');
  });

  it('writes Brazil\u2019s Portuguese in pt-BR and Portugal\u2019s in pt, each in its own checkout words', () => {
    const brazil = locales.find(([n]) => n === 'pt-BR')![1].join(' ');
    const portugal = locales.find(([n]) => n === 'pt')![1].join(' ');
    // Portugal: introduza, guardado, ligação, morada, aceite, "A carregar"; Brazil: digite, salvo, conexão, endereço, aceito, "Carregando".
    assert.doesNotMatch(brazil, /Introduza|guardad|ligação|Morada|aceite\.|A carregar|A processar|Experimente/);
    assert.doesNotMatch(portugal, /Digite|salv[oa]s?\b|conexão|Endereço|aceito\.|Carregando|Processando/);
    assert.match(brazil, /Digite.*Sem conexão.*Endereço de cobrança.*Salvar/);
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
      ['pt', 'pt'],
      ['pt-PT', 'pt'],
      ['pt_PT', 'pt'],
      ['pt-AO', 'pt'],
      ['pt-BR', 'pt-BR'],
      ['pt_BR', 'pt-BR'],
      ['PT-br', 'pt-BR'],
      ['pt-Latn-BR', 'pt-BR'],
      ['zh-TW', 'zh-Hant'],
      ['zh_TW', 'zh-Hant'],
      ['zh-HK', 'zh-Hant'],
      ['zh-MO', 'zh-Hant'],
      ['zh-Hant', 'zh-Hant'],
      ['zh-Hant-CN', 'zh-Hant'],
      ['zh__#Hant', 'zh-Hant'],
      ['zh-TW-u-nu-hanidec', 'zh-Hant'],
      ['zh', 'zh'],
      ['zh-CN', 'zh'],
      ['zh-SG', 'zh'],
      ['zh-Hans', 'zh'],
      ['zh-Hans-HK', 'zh'],
      ['zh-CN-u-rg-twzzzz', 'zh'],
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
