import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { minorUnitsOf } from '../../server/currencies.ts';
import { fromMinor, fromMinorSum, isWholeCurrency, toMinor } from '../../server/money.ts';

describe('toMinor', () => {
  it('reads a whole amount without decimals as minor units ("10" is 1000)', () => {
    assert.equal(toMinor('10'), 1000);
    assert.equal(toMinor('0'), 0);
    assert.equal(toMinor('7'), 700);
  });

  it('reads an amount with two decimals as minor units', () => {
    assert.equal(toMinor('10.00'), 1000);
    assert.equal(toMinor('92.50'), 9250);
    assert.equal(toMinor('0.01'), 1);
    assert.equal(toMinor('0.99'), 99);
    assert.equal(toMinor('100.51'), 10051);
  });

  it('accepts up to ten integer digits', () => {
    assert.equal(toMinor('9999999999.99'), 999_999_999_999);
    assert.equal(toMinor('1234567890'), 123_456_789_000);
  });

  it('refuses eleven integer digits', () => {
    assert.equal(toMinor('12345678901'), undefined);
    assert.equal(toMinor('10000000000.00'), undefined);
  });

  it('refuses one decimal ("10.5")', () => {
    assert.equal(toMinor('10.5'), undefined);
  });

  it('refuses three decimals ("10.001")', () => {
    assert.equal(toMinor('10.001'), undefined);
  });

  it('refuses exponent notation ("1e3")', () => {
    assert.equal(toMinor('1e3'), undefined);
  });

  it('refuses a sign ("-1", "+1")', () => {
    assert.equal(toMinor('-1'), undefined);
    assert.equal(toMinor('+1'), undefined);
  });

  it('refuses surrounding whitespace (" 1", "1 ")', () => {
    assert.equal(toMinor(' 1'), undefined);
    assert.equal(toMinor('1 '), undefined);
    assert.equal(toMinor('1\n'), undefined);
  });

  it('refuses a comma, a bare dot, a missing integer part and the empty string', () => {
    assert.equal(toMinor('10,00'), undefined);
    assert.equal(toMinor('10.'), undefined);
    assert.equal(toMinor('.50'), undefined);
    assert.equal(toMinor(''), undefined);
    assert.equal(toMinor('ten'), undefined);
  });

  it('refuses non-ASCII digits', () => {
    assert.equal(toMinor('١٠'), undefined);
  });
});

describe('fromMinor', () => {
  it('formats minor units with exactly two decimals', () => {
    assert.equal(fromMinor(1000), '10.00');
    assert.equal(fromMinor(9250), '92.50');
    assert.equal(fromMinor(10051), '100.51');
  });

  it('pads cents below ten and amounts below one unit', () => {
    assert.equal(fromMinor(0), '0.00');
    assert.equal(fromMinor(1), '0.01');
    assert.equal(fromMinor(5), '0.05');
    assert.equal(fromMinor(99), '0.99');
    assert.equal(fromMinor(101), '1.01');
  });

  it('formats the largest amount of ten integer digits', () => {
    assert.equal(fromMinor(999_999_999_999), '9999999999.99');
  });

  it('refuses negative, fractional and unsafe minor amounts', () => {
    assert.throws(() => fromMinor(-1), RangeError);
    assert.throws(() => fromMinor(10.5), RangeError);
    assert.throws(() => fromMinor(Number.NaN), RangeError);
    assert.throws(() => fromMinor(Number.MAX_SAFE_INTEGER + 1), RangeError);
  });
});

describe('toMinor and fromMinor together', () => {
  it('gives back a two-decimal amount unchanged', () => {
    for (const amount of ['0.00', '0.01', '0.10', '1.00', '10.05', '92.00', '100.51', '1234567.89', '9999999999.99']) {
      assert.equal(fromMinor(toMinor(amount)!), amount);
    }
  });

  it('gives back the minor units unchanged', () => {
    for (const minor of [0, 1, 9, 10, 99, 100, 12_345, 999_999_999_999]) {
      assert.equal(toMinor(fromMinor(minor)), minor);
    }
  });

  it('normalizes an amount without decimals to two decimals', () => {
    assert.equal(fromMinor(toMinor('10')!), '10.00');
  });
});

describe('fromMinorSum', () => {
  it('writes a signed BigInt sum of minor units with two decimals, past 2^53 exactly', () => {
    assert.equal(fromMinorSum(0n), '0.00');
    assert.equal(fromMinorSum(5n), '0.05');
    assert.equal(fromMinorSum(-5n), '-0.05');
    assert.equal(fromMinorSum(-4164n), '-41.64');
    assert.equal(fromMinorSum(123456n), '1234.56');
    assert.equal(fromMinorSum(9_007_199_254_740_993n), '90071992547409.93');
  });
});

describe('isWholeCurrency', () => {
  it('is true for ISO 4217 exponent 0 only: JPY, KRW, CLP, ISK, XOF, not HUF (two by ISO, none by ICU) or KWD (three)', () => {
    for (const currency of ['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']) assert.equal(isWholeCurrency(currency), true, currency);
    for (const currency of ['EUR', 'HUF', 'KWD', 'XCG', 'UYI', 'XDR']) assert.equal(isWholeCurrency(currency), false, currency);
    assert.equal(minorUnitsOf('KWD'), 3);
    assert.equal(minorUnitsOf('HUF'), 2);
    assert.equal(minorUnitsOf('XDR'), undefined);
  });
});
