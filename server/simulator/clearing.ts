// The simulator's clearing institute: which payments it settles, on which day, for what fee, and
// the chargebacks its test amounts trigger. Pure and deterministic: the same payments always give
// the same settlements, so reports are computed on read (docs/decisions.md).
import { fromMinor, isWholeCurrency } from '../money.ts';
import type { ResultCode } from '../results.ts';
import { POS_MERCHANT_ID } from './simulator.ts';
import { chargebackAmounts } from './testCards.ts';

export const CLEARING_INSTITUTE = {
  name: 'GATEWAY SIMULATOR CLEARING',
  /** The merchant's id at the clearing institute (AN64, 5-64): the simulator's acquirer merchant id. */
  merchantId: POS_MERCHANT_ID,
  /** The settlement file's format (settlement.format). */
  format: 'SIMULATOR_V1',
} as const;

/** The fee of every settled record: 1.90 % of the amount, rounded half up to the minor unit, plus 0.25. */
export const FEE = { basisPoints: 190n, fixedMinor: 25n } as const;

/** The exchange rate of every record: the simulator settles in the payment's currency. */
export const FX_RATE = '1.0000';

/** Payment types that move money, and how the clearing institute books them; PA and RV move none. */
export const SETTLED_TYPES: Readonly<Record<string, 'DEBIT' | 'CREDIT' | 'REFUND'>> = { DB: 'DEBIT', CP: 'DEBIT', RB: 'DEBIT', CD: 'CREDIT', RF: 'REFUND' };

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The fee in minor units (hundredths), computed in integers: amount × 190 / 10000 rounded half up
 * (an exact half cent goes up), plus 25, in the currency's own minor unit: in a currency without
 * one (JPY) that is the whole unit, so that the fee can be paid (1000 JPY → 19 + 25 = 44 JPY).
 * BigInt so that no amount of the spec's N10.N2 range loses a digit.
 */
export function settlementFee(amountMinor: number, currency: string): number {
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0) throw new RangeError(`not a minor-unit amount: ${amountMinor}`);
  const hundredths = isWholeCurrency(currency) ? 100n : 1n;
  const percent = ((BigInt(amountMinor) / hundredths) * FEE.basisPoints + 5000n) / 10000n;
  return Number((percent + FEE.fixedMinor) * hundredths);
}

/** yyyy-MM-dd of a moment, UTC (the clearing institute's time zone). */
export function dayOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** Start of a yyyy-MM-dd day, UTC, in epoch milliseconds. */
export function startOfDay(day: string): number {
  return Date.parse(`${day}T00:00:00.000Z`);
}

/** A day moved by whole days. */
export function addDays(day: string, days: number): string {
  return dayOf(startOfDay(day) + days * DAY_MS);
}

/** The settlement date of a payment: the day after the day it was made. */
export function settlementDateOf(createdAt: number): string {
  return addDays(dayOf(createdAt), 1);
}

/**
 * Whether a successful payment settles: its type moves money, and no successful reversal of it
 * came before the end of its day (the cut-off of the day's file). A later reversal cannot take
 * back a settlement already made.
 */
export function settles(payment: { paymentType: string; status: string; createdAt: number }, reversals: Array<{ createdAt: number }>): boolean {
  if (payment.status !== 'success' || !(payment.paymentType in SETTLED_TYPES)) return false;
  const cutoff = startOfDay(settlementDateOf(payment.createdAt));
  return !reversals.some((rv) => rv.createdAt < cutoff);
}

/** The chargeback reason of a settled debit or capture whose amount is one of the test amounts. */
export function chargebackOf(payment: { paymentType: string; amountMinor: number }): ResultCode | undefined {
  if (SETTLED_TYPES[payment.paymentType] !== 'DEBIT') return undefined;
  return chargebackAmounts[fromMinor(payment.amountMinor)];
}

/** The test amounts (minor units) whose debits are charged back with this reason (any reason: undefined); none for other codes. */
export function chargebackAmountsOf(reason?: string): number[] {
  return Object.entries(chargebackAmounts)
    .filter(([, code]) => reason === undefined || code === reason)
    .map(([amount]) => Number(amount.replace('.', '')));
}
