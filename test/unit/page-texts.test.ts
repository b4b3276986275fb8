// The gateway's shopper pages: which language they speak, and what their result page says.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { failureReason, pageAmount, pageLocale, resultHeading, type PageTexts } from '../../server/http/pageTexts.ts';
import { LOCALES } from '../../src/core/locale-list.ts';

const english = pageLocale([], undefined).texts;
const KEYS = Object.keys(english) as Array<keyof PageTexts>;

describe('gateway page texts', () => {
  it('speak every language of the widget, each text its own (none left in English but the ones that read alike)', () => {
    for (const locale of LOCALES) {
      const { lang, texts } = pageLocale([locale], undefined);
      assert.equal(lang, locale);
      assert.deepEqual(Object.keys(texts).sort(), [...KEYS].sort(), locale);
      for (const key of KEYS) assert.ok(texts[key].trim().length > 0, `${locale}.${key}`);
      if (locale !== 'en') assert.ok(KEYS.filter((key) => texts[key] === english[key]).length <= 1, `${locale} repeats English texts`);
    }
  });

  it('take the first language they speak: the payment\u2019s locale, its browser language, then Accept-Language by q', () => {
    assert.equal(pageLocale(['fr_FR', 'de-DE'], 'es').lang, 'fr');
    assert.equal(pageLocale(['FR'], undefined).lang, 'fr');
    assert.equal(pageLocale(['ko-KR', 'de-DE'], 'es').lang, 'de');
    assert.equal(pageLocale([undefined, 'ko'], 'ko-KR, pt-BR;q=0.5, ja;q=0.7').lang, 'ja');
    // q=0 means "not this one", * names none, and equal weights keep the header's order.
    assert.equal(pageLocale([], 'it;q=0, *, nl;q=0.4, sv;q=0.4').lang, 'nl');
    assert.equal(pageLocale([], 'it;q=0').lang, 'en');
    assert.equal(pageLocale([], ';;;q=,,,=,').lang, 'en');
    assert.equal(pageLocale([], 'zh-Hant-TW;q=0.9, en;q=0.8').lang, 'zh-Hant');
  });

  it('write the amount as their language does: separators, the currency\u2019s place and its minor units, Western digits', () => {
    const plain = (text: string) => text.replace(/[\u200e\u200f\u061c]/g, '').replace(/\s/g, ' ');
    assert.equal(plain(pageAmount('92.00', 'EUR', 'de')), '92,00 €');
    assert.equal(plain(pageAmount('1234.50', 'EUR', 'fr')), '1 234,50 €');
    assert.equal(plain(pageAmount('92.00', 'EUR', 'en')), '€92.00');
    // No minor units in yen, three in dinars: never "1000.00 JPY" or "12.34 KWD".
    assert.equal(plain(pageAmount('1000.00', 'JPY', 'ja')), '￥1,000');
    assert.equal(plain(pageAmount('1000.00', 'JPY', 'de')), '1.000 ¥');
    assert.equal(plain(pageAmount('12.34', 'KWD', 'en')), 'KWD 12.340');
    assert.equal(plain(pageAmount('92.00', 'EUR', 'ar')), '92.00 €');
  });

  it('are right to left in Arabic, Persian, Hebrew and Urdu only', () => {
    for (const locale of LOCALES) assert.equal(pageLocale([locale], undefined).dir, ['ar', 'fa', 'he', 'ur'].includes(locale) ? 'rtl' : 'ltr', locale);
  });

  it('speak Hebrew, Persian and Urdu, right to left, to those who ask (Hebrew by Java\u2019s old code iw too)', () => {
    assert.deepEqual(pageLocale(['he-IL'], undefined), { lang: 'he', dir: 'rtl', texts: pageLocale(['he'], undefined).texts });
    assert.equal(pageLocale(['iw_IL'], undefined).lang, 'he');
    assert.equal(pageLocale([], 'ko, fa-IR;q=0.9, en;q=0.8').lang, 'fa');
    assert.equal(pageLocale([undefined, 'ur-PK'], 'en').lang, 'ur');
    assert.equal(pageLocale(['he'], undefined).texts.paySuccess, 'התשלום בוצע בהצלחה');
    assert.equal(pageLocale(['fa'], undefined).texts.paySuccess, 'پرداخت موفق بود');
    assert.equal(pageLocale(['ur'], undefined).texts.paySuccess, 'ادائیگی کامیاب');
    // In their own letters, not Arabic's look-alikes (yeh, kaf; Urdu's heh is heh goal), as the widget's.
    assert.doesNotMatch(Object.values(pageLocale(['fa'], undefined).texts).join(' '), /[\u064a\u0643]/);
    assert.doesNotMatch(Object.values(pageLocale(['ur'], undefined).texts).join(' '), /[\u064a\u0643\u0647]/);
  });

  it('speak Brazil\u2019s Portuguese to Brazil, Portugal\u2019s to the rest', () => {
    assert.equal(pageLocale(['pt_BR'], undefined).lang, 'pt-BR');
    assert.equal(pageLocale([], 'pt-BR,pt;q=0.9,en;q=0.8').lang, 'pt-BR');
    for (const tag of ['pt', 'pt-PT', 'pt_AO']) assert.equal(pageLocale([tag], undefined).lang, 'pt', tag);
    assert.equal(pageLocale(['pt-BR'], undefined).texts.checking, 'Verificando o pagamento');
    assert.equal(pageLocale(['pt-PT'], undefined).texts.checking, 'A verificar o pagamento');
  });

  it('speak Traditional Chinese to Taiwan, Hong Kong and Macau, Simplified to the rest', () => {
    for (const tag of ['zh-TW', 'zh_HK', 'zh-MO', 'zh-Hant', 'zh-Hant-CN']) assert.equal(pageLocale([tag], undefined).lang, 'zh-Hant', tag);
    for (const tag of ['zh', 'zh-CN', 'zh-SG', 'zh-Hans-HK']) assert.equal(pageLocale([tag], undefined).lang, 'zh', tag);
    assert.equal(pageLocale([], 'zh-HK,zh;q=0.9').texts.paySuccess, '付款成功');
    assert.equal(pageLocale([], 'zh-HK,zh;q=0.9').texts.checking, '正在確認付款');
    assert.equal(pageLocale([], 'zh-CN,zh;q=0.9').texts.checking, '正在确认付款');
  });

  it('head the result by what ended and how', () => {
    const { texts } = pageLocale(['de'], undefined);
    assert.equal(resultHeading(texts, '000.100.110', false), 'Zahlung erfolgreich');
    assert.equal(resultHeading(texts, '000.400.110', true), 'Prüfung erfolgreich');
    assert.equal(resultHeading(texts, '000.200.000', false), 'Zahlung ausstehend');
    assert.equal(resultHeading(texts, '800.100.151', false), 'Zahlung nicht abgeschlossen');
    assert.equal(resultHeading(texts, '100.380.401', true), 'Prüfung nicht abgeschlossen');
  });

  it('say why a payment failed as the widget\u2019s groups do, and nothing when the heading says it all', () => {
    const reason = (code: string) => failureReason(english, code);
    assert.equal(reason('100.380.401'), english.authentication);
    assert.equal(reason('000.400.103'), english.authentication);
    assert.equal(reason('300.100.100'), english.authentication);
    assert.equal(reason('100.396.101'), english.cancelled);
    assert.equal(reason('800.100.151'), english.declined);
    assert.equal(reason('800.300.101'), english.declined);
    assert.equal(reason('900.100.100'), english.technical);
    assert.equal(reason('100.396.103'), '');
    assert.equal(reason('000.100.110'), '');
    assert.equal(reason('000.200.000'), '');
  });
});
