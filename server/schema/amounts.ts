// The exponent rule for the amounts besides the main one: in a currency without minor units (JPY)
// a fraction is refused (100.550.303, naming the parameter), whatever group the amount sits in.
// After the schema, since it depends on the currency; each amount keeps its two-decimal format.
// And the amounts amount includes (taxAmount, shipping.cost) may not exceed it (100.550.301).
import type { z } from 'zod';
import { isWholeCurrency, toMinor } from '../money.ts';
import type { airline } from './airline.ts';
import type { forex } from './basic.ts';
import type { cart } from './cart.ts';
import { paramError, type CodedParamError } from './errors.ts';
import type { marketPlace } from './marketplace.ts';
import type { risk } from './risk.ts';
import type { shipping } from './shipping.ts';
import type { threeDSecure } from './threeDSecure.ts';

/** A fraction in a currency without minor units, 100.550.303 naming `name`; nothing in any other currency. */
export function wholeAmountError(name: string, amount: string, currency: string | undefined): CodedParamError | undefined {
  if (currency === undefined || !isWholeCurrency(currency) || !/\.\d*[1-9]/.test(amount)) return undefined;
  const whole = amount.split('.')[0];
  return paramError(name, amount, `must be a whole amount in ${currency}, a currency without minor units (such as ${whole} or ${whole}.00)`, '100.550.303');
}

/** The groups of a payment or checkout that hold amounts besides the main one. */
export interface OtherAmounts {
  amount?: string | undefined;
  currency?: string | undefined;
  taxAmount?: string | undefined;
  discountAmount?: string | undefined;
  forex?: z.infer<typeof forex> | undefined;
  shipping?: z.infer<typeof shipping> | undefined;
  cart?: z.infer<typeof cart> | undefined;
  marketPlace?: z.infer<typeof marketPlace> | undefined;
  airline?: z.infer<typeof airline> | undefined;
  threeDSecure?: z.infer<typeof threeDSecure> | undefined;
  risk?: z.infer<typeof risk> | undefined;
}

const ITEM_AMOUNTS = ['price', 'totalAmount', 'taxAmount', 'totalTaxAmount', 'shipping', 'originalPrice', 'totalDiscountAmount'] as const;
const LEG_AMOUNTS = ['taxAmount', 'feesAmount', 'fareAmount', 'departureTaxAmount'] as const;

/** Of amount, taxAmount and shipping.cost, those a checkout holds from before rather than its update sent. */
export type StoredAmounts = ReadonlySet<'amount' | 'taxAmount' | 'shipping.cost'>;

const NONE_STORED: StoredAmounts = new Set();

/**
 * Every amount other than the main one, whole in its currency when that has no minor units: the
 * payment's, or the group's own where it names one (a cart item, a cart payment, forex, threeDSecure).
 * Then taxAmount and shipping.cost against amount, which includes them. Runs on every payment:
 * with no whole currency in sight and neither of those sent it reads nothing but the currencies.
 * `stored`: on a checkout's update, the amounts it holds from before (includedAmountErrors).
 */
export function checkOtherAmounts(v: OtherAmounts, stored: StoredAmounts = NONE_STORED): CodedParamError[] {
  const errors: CodedParamError[] = [];
  const check = (name: string, amount: string | undefined, currency: string | undefined) => {
    if (amount === undefined) return;
    const error = wholeAmountError(name, amount, currency);
    if (error) errors.push(error);
  };
  const main = v.currency;
  if (main !== undefined && isWholeCurrency(main)) {
    check('taxAmount', v.taxAmount, main);
    check('discountAmount', v.discountAmount, main);
    check('shipping.cost', v.shipping?.cost, main);
    v.marketPlace?.sellers?.forEach((s, i) => check(`marketPlace.sellers[${i}].amount`, s.amount, main));
    check('risk.amount', v.risk?.amount, main);
    const a = v.airline;
    if (a) {
      check('airline.totalTaxAmount', a.totalTaxAmount, main);
      check('airline.totalFeesAmount', a.totalFeesAmount, main);
      check('airline.totalFareAmount', a.totalFareAmount, main);
      a.passengers?.forEach((p, i) =>
        p.legs?.forEach((leg, j) => {
          for (const field of LEG_AMOUNTS) check(`airline.passengers[${i}].legs[${j}].${field}`, leg[field], main);
        }),
      );
    }
  }
  // Groups that may name their own currency: theirs, else the payment's.
  if (v.forex) {
    const currency = v.forex.currency ?? main;
    check('forex.amount', v.forex.amount, currency);
    check('forex.tax', v.forex.tax, currency);
  }
  check('threeDSecure.amount', v.threeDSecure?.amount, v.threeDSecure?.currency ?? main);
  v.cart?.items?.forEach((item, i) => {
    const currency = item.currency ?? main;
    if (currency === undefined || !isWholeCurrency(currency)) return;
    for (const field of ITEM_AMOUNTS) check(`cart.items[${i}].${field}`, item[field], currency);
  });
  v.cart?.payments?.forEach((p, i) => check(`cart.payments[${i}].amount`, p.amount, p.currency ?? main));
  errors.push(...includedAmountErrors(v, stored));
  return errors;
}

/**
 * The spec: amount is "the only processing-relevant amount; other amounts (taxAmount,
 * shipping.cost) are already included". So neither, nor both together, may exceed it (100.550.301).
 * The error names a parameter the request sent: on a checkout's update that lowers amount below a
 * stored shipping.cost, amount (the stored one was not wrong until then), saying what it is below.
 */
function includedAmountErrors(v: OtherAmounts, stored: StoredAmounts): CodedParamError[] {
  // Most payments send neither: nothing to read or allocate for them.
  if (v.taxAmount === undefined && v.shipping?.cost === undefined) return [];
  const amount = v.amount === undefined ? undefined : toMinor(v.amount);
  if (amount === undefined) return [];
  const included = ([['taxAmount', v.taxAmount], ['shipping.cost', v.shipping?.cost]] as const).flatMap(([name, value]) => {
    const minor = value === undefined ? undefined : toMinor(value);
    return minor === undefined ? [] : [{ name, value: value!, minor }];
  });
  const amountSent = !stored.has('amount');
  const over = included.filter((a) => a.minor > amount);
  if (over.length) {
    // An amount sent below one held from before: amount is what changed.
    const below = amountSent ? over.filter((a) => stored.has(a.name)) : [];
    const errors = over.filter((a) => !below.includes(a)).map((a) => paramError(a.name, a.value, `must not exceed amount ${v.amount}, which includes it`, '100.550.301'));
    if (below.length) errors.push(paramError('amount', v.amount!, `is below the checkout's ${below.map((a) => `${a.name} ${a.value}`).join(' and ')}, which it includes`, '100.550.301'));
    return errors;
  }
  if (included.length === 2 && included[0]!.minor + included[1]!.minor > amount) {
    const [tax, shipping] = included as [(typeof included)[0], (typeof included)[0]];
    if (!stored.has('shipping.cost') || (!amountSent && stored.has('taxAmount'))) {
      return [paramError('shipping.cost', shipping.value, `with taxAmount ${tax.value} exceeds amount ${v.amount}, which includes both`, '100.550.301')];
    }
    if (!stored.has('taxAmount')) return [paramError('taxAmount', tax.value, `with the checkout's shipping.cost ${shipping.value} exceeds amount ${v.amount}, which includes both`, '100.550.301')];
    return [paramError('amount', v.amount!, `is below the checkout's taxAmount ${tax.value} and shipping.cost ${shipping.value} together, which it includes`, '100.550.301')];
  }
  return [];
}
