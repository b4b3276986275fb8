// The simulated clearing institute's arithmetic and rules: the fee in integer minor units with
// its rounding, the settlement date, which payments settle, which are charged back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chargebackAmountsOf, chargebackOf, settlementDateOf, settlementFee, settles } from '../../server/simulator/clearing.ts';

const at = (iso: string) => Date.parse(iso);

describe('settlement fee: 1.90 % rounded half up to the minor unit, plus 0.25', () => {
  it('charges the fixed part alone on nothing', () => {
    assert.equal(settlementFee(0, 'EUR'), 25);
  });

  it('computes the percentage exactly: 92.00 → 1.748 → 1.75 + 0.25 = 2.00', () => {
    assert.equal(settlementFee(9200, 'EUR'), 200);
    assert.equal(settlementFee(10000, 'EUR'), 215);
    assert.equal(settlementFee(1, 'EUR'), 25);
  });

  it('rounds an exact half cent up and anything below it down', () => {
    // 5.00 × 1.9 % = 0.095 exactly: up to 0.10.
    assert.equal(settlementFee(500, 'EUR'), 35);
    // 4.99 × 1.9 % = 0.09481: down to 0.09.
    assert.equal(settlementFee(499, 'EUR'), 34);
    // 0.27 × 1.9 % = 0.00513: 0.01; 0.26 × 1.9 % = 0.00494: 0.00.
    assert.equal(settlementFee(27, 'EUR'), 26);
    assert.equal(settlementFee(26, 'EUR'), 25);
  });

  it('loses no digit at the largest amount the spec allows (9999999999.99)', () => {
    // 999999999999 × 190 = 189999999999810; + 5000 = 190000000004810; / 10000 = 19000000000 (integer part).
    assert.equal(settlementFee(999_999_999_999, 'EUR'), 19_000_000_025);
    assert.ok(Number.isSafeInteger(settlementFee(999_999_999_999, 'EUR')));
  });

  it('is whole in a currency without minor units: 1.90 % of 1000 JPY rounded to the yen, plus 25 yen', () => {
    assert.equal(settlementFee(100_000, 'JPY'), 4_400);
    // 1026 × 1.9 % = 19.494: 19 yen; 1027 × 1.9 % = 19.513: 20 yen.
    assert.equal(settlementFee(102_600, 'JPY'), 4_400);
    assert.equal(settlementFee(102_700, 'JPY'), 4_500);
    assert.equal(settlementFee(100_000, 'KRW') % 100, 0);
    assert.equal(settlementFee(100_000, 'EUR'), 1_925);
  });

  it('refuses what is not a minor-unit amount', () => {
    assert.throws(() => settlementFee(1.5, 'EUR'), RangeError);
    assert.throws(() => settlementFee(-1, 'EUR'), RangeError);
    assert.throws(() => settlementFee(Number.MAX_SAFE_INTEGER + 1, 'EUR'), RangeError);
  });
});

describe('settlement date and what settles', () => {
  it('settles on the day after the payment, UTC, across month and year ends', () => {
    assert.equal(settlementDateOf(at('2026-03-10T00:00:00.000Z')), '2026-03-11');
    assert.equal(settlementDateOf(at('2026-03-10T23:59:59.999Z')), '2026-03-11');
    assert.equal(settlementDateOf(at('2026-02-28T12:00:00Z')), '2026-03-01');
    assert.equal(settlementDateOf(at('2026-12-31T23:59:59Z')), '2027-01-01');
  });

  it('settles successful DB, CP, RB, CD and RF; never PA, RV or an unsuccessful payment', () => {
    const p = (paymentType: string, status = 'success') => ({ paymentType, status, createdAt: at('2026-03-10T09:00:00Z') });
    for (const type of ['DB', 'CP', 'RB', 'CD', 'RF']) assert.equal(settles(p(type), []), true, type);
    for (const type of ['PA', 'RV']) assert.equal(settles(p(type), []), false, type);
    assert.equal(settles(p('DB', 'rejected'), []), false);
    assert.equal(settles(p('DB', 'pending'), []), false);
  });

  it('does not settle a payment reversed before the end of its day; a later reversal does not undo the settlement', () => {
    const db = { paymentType: 'DB', status: 'success', createdAt: at('2026-03-10T09:00:00Z') };
    assert.equal(settles(db, [{ createdAt: at('2026-03-10T23:59:59.999Z') }]), false);
    assert.equal(settles(db, [{ createdAt: at('2026-03-11T00:00:00.000Z') }]), true);
  });

  it('charges back debits and captures of the test amounts, with the amount\u2019s reason; never credits or refunds', () => {
    assert.equal(chargebackOf({ paymentType: 'DB', amountMinor: 10020 }), '000.100.220');
    assert.equal(chargebackOf({ paymentType: 'CP', amountMinor: 10021 }), '000.100.221');
    assert.equal(chargebackOf({ paymentType: 'DB', amountMinor: 10022 }), '000.100.222');
    assert.equal(chargebackOf({ paymentType: 'CD', amountMinor: 10020 }), undefined);
    assert.equal(chargebackOf({ paymentType: 'RF', amountMinor: 10020 }), undefined);
    assert.equal(chargebackOf({ paymentType: 'DB', amountMinor: 9200 }), undefined);
    assert.deepEqual(chargebackAmountsOf('000.100.220'), [10020]);
    assert.deepEqual(chargebackAmountsOf('000.100.299'), []);
  });
});
