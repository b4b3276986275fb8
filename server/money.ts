// Money is never a float: amounts travel as decimal strings and are computed as integer minor units.
import { minorUnitsOf } from './currencies.ts';

const AMOUNT = /^(\d{1,10})(?:\.(\d{2}))?$/;

/** Minor units of a decimal amount string ("10", "10.00" → 1000), or undefined when malformed. */
export function toMinor(amount: string): number | undefined {
  const match = AMOUNT.exec(amount);
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number(match[2] ?? '0');
}

/** The two-decimal string of a minor-unit amount (1000 → "10.00"). */
export function fromMinor(minor: number): string {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new RangeError(`not a minor-unit amount: ${minor}`);
  const units = Math.floor(minor / 100);
  const cents = minor % 100;
  return `${units}.${cents < 10 ? '0' : ''}${cents}`;
}

/**
 * The two-decimal string of a signed minor-unit sum (123456n → "1234.56", -5n → "-0.05"). BigInt,
 * for sums: a day's totals in one currency pass 2^53 minor units long before any one amount does.
 */
export function fromMinorSum(minor: bigint): string {
  const sign = minor < 0n ? '-' : '';
  const digits = (minor < 0n ? -minor : minor).toString().padStart(3, '0');
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** Whether a currency has no minor units (ISO 4217 exponent 0): its amounts are whole (hundredths that are multiples of 100 here). */
export function isWholeCurrency(currency: string): boolean {
  // ISO 4217's exponent, not ICU's: ICU gives HUF none, where ISO 4217 and the card schemes give it two.
  return minorUnitsOf(currency) === 0;
}
