// The page's SEPA table (src/core/bank.ts) against ibantools, which the gateway checks with
// (server/schema/requests.ts): the same SEPA countries, lengths and BBAN formats, and the same
// answer for valid IBANs, typos and non-SEPA IBANs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getCountrySpecifications, isSEPACountry, isValidBIC, isValidIBAN } from 'ibantools';
import { bicValid, compactBic, compactIban, ibanProblem, SEPA_FORMATS } from '../../src/core/bank.ts';

const specs = getCountrySpecifications();
const sepaCountries = Object.keys(specs).filter((code) => specs[code]!.SEPA);

/** A BBAN of the country's format: every block filled with its first allowed character, shifted by `seed`. */
function sampleBban(pattern: RegExp, seed: number): string {
  let out = '';
  for (const [, kind, count] of pattern.source.matchAll(/(\\d|\[A-Z\]|\[A-Z\\d\])\{(\d+)\}/g)) {
    for (let i = 0; i < Number(count); i++) {
      const n = (seed + i * 7 + out.length) % 10;
      out += kind === '\\d' ? String(n) : kind === '[A-Z]' ? String.fromCharCode(65 + n) : n % 2 ? String(n) : String.fromCharCode(65 + n);
    }
  }
  return out;
}

/** The IBAN of a country and BBAN with the right check digits (ISO 13616). */
function withCheckDigits(country: string, bban: string): string {
  const digits = [...`${bban}${country}00`].map((c) => parseInt(c, 36)).join('');
  const check = 98 - Number(BigInt(digits) % 97n);
  return `${country}${String(check).padStart(2, '0')}${bban}`;
}

describe('SEPA IBAN checks of the page', () => {
  it('knows exactly the SEPA countries ibantools knows, with their lengths', () => {
    assert.deepEqual([...SEPA_FORMATS.keys()].sort(), sepaCountries.sort());
    for (const code of sepaCountries) {
      const sample = sampleBban(SEPA_FORMATS.get(code)!, 3);
      assert.equal(sample.length + 4, specs[code]!.chars, `${code}: length`);
      assert.match(sample, new RegExp(specs[code]!.bban_regexp!), `${code}: a BBAN of the page's format is one of ibantools' format`);
    }
  });

  it('accepts what ibantools accepts among IBANs of every SEPA country', () => {
    let compared = 0;
    for (const code of sepaCountries) {
      for (let seed = 0; seed < 20; seed++) {
        const iban = withCheckDigits(code, sampleBban(SEPA_FORMATS.get(code)!, seed));
        // ibantools also checks national check digits of some countries; the page leaves those to the gateway.
        if (isValidIBAN(iban)) {
          assert.equal(ibanProblem(iban), false, `${iban} is valid for ibantools`);
          compared++;
        }
        assert.equal(ibanProblem(iban), false, `${iban}: format and check digits are right`);
      }
    }
    assert.ok(compared > 400, `only ${compared} samples passed ibantools' national checks`);
  });

  it('refuses typos, wrong lengths, wrong formats and IBANs outside SEPA', () => {
    assert.equal(ibanProblem('DE89 3704 0044 0532 0130 00'), false);
    assert.equal(ibanProblem('de89370400440532013000'), false);
    for (const bad of ['DE89 3704 0044 0532 0130 01', 'DE98 3704 0044 0532 0130 00', 'DE89 3704 0044 0532 0130 0', 'DE89 3704 0044 0532 0130 000', 'DE89 3704 0044 0532 0130 0A', 'GB82 1234 5698 7654 32', 'BR1800360305000010009795493C1', 'XX89370400440532013000', '', 'DE']) {
      assert.equal(ibanProblem(bad), true, bad);
      assert.equal(isValidIBAN(bad.replace(/\s/g, '').toUpperCase()) && isSEPACountry(bad.slice(0, 2)), false, `ibantools agrees on ${bad}`);
    }
    assert.equal(isValidIBAN('BR1800360305000010009795493C1'), true, 'Brazil is valid, only not SEPA');
  });

  it('reads an IBAN and a BIC typed with an IME left on full width (ＤＥ８９…) as ASCII, sent so', () => {
    assert.equal(ibanProblem('ＤＥ８９\u30003704 0044 0532 0130 00'), false);
    assert.equal(compactIban('ｄｅ８９３７０４００４４０５３２０１３０００'), 'DE89370400440532013000');
    assert.equal(bicValid('ＣＯＢＡＤＥＦＦＸＸＸ'), true);
    assert.equal(compactBic('ｃｏｂａ ｄｅｆｆ'), 'COBADEFF');
  });

  it('checks the form of a BIC (optional)', () => {
    for (const bic of ['', 'COBADEFFXXX', 'cobadeff', 'COBA DE FF XXX', 'NEDSZAJJXXX']) assert.equal(bicValid(bic), true, bic);
    for (const bic of ['COBADEF', 'COBADEFFXX', 'COB4DEFF', 'COBADEFF-XX']) {
      assert.equal(bicValid(bic), false, bic);
      assert.equal(isValidBIC(bic), false, `ibantools agrees on ${bic}`);
    }
  });
});
