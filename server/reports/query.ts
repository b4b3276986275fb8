// The transaction query: one payment of the entity with its linked payments, or a search of the
// entity's payments. Another entity's payment is never found.
import { ID } from '../ids.ts';
import type { Context, Deps } from '../payments/deps.ts';
import { BANK_TRANSFER } from '../payments/create.ts';
import { recoverPayment } from '../payments/reference.ts';
import { chargebackAmountsOf, dayOf, SETTLED_TYPES, startOfDay } from '../simulator/clearing.ts';
import { findPayment, type PaymentRecord } from '../store/payments.ts';
import { linkedPayments, searchPayments, type PaymentSearch } from '../store/reports.ts';
import type { QueryCriteria } from './params.ts';
import { idRangeOf } from './shortId.ts';

const DEBIT_TYPES = Object.keys(SETTLED_TYPES).filter((type) => SETTLED_TYPES[type] === 'DEBIT');

/**
 * The spec's paymentMethods codes as stored methods. A token account payment (stored as TA, a code
 * the spec's list lacks) is NT when its tokenAccount.type is NETWORK (a scheme token) and ET when
 * EXTERNAL (an acquirer's or external provider's token); without these no code ever found one.
 * A bank transfer (BANKTRANSFER, stored with the direct debits as DD: a bank account) is CT, the
 * shopper's credit transfer, and DD finds the other bank brands; DC finds the card payments (CC,
 * every card) whose BIN data types the card DEBIT.
 */
function methodsOf(codes: readonly string[] | undefined): Pick<PaymentSearch, 'methods' | 'tokenTypes' | 'debitCards' | 'bankBrands'> {
  if (codes === undefined) return {};
  const tokenTypes = [...(codes.includes('NT') ? ['NETWORK' as const] : []), ...(codes.includes('ET') ? ['EXTERNAL' as const] : [])];
  const [debits, transfers] = [codes.includes('DD'), codes.includes('CT')];
  const bankBrands = debits === transfers ? undefined : transfers ? { only: [BANK_TRANSFER] } : { except: [BANK_TRANSFER] };
  const methods = codes.filter((code) => !['NT', 'ET', 'DC', 'CT'].includes(code) && (code !== 'DD' || bankBrands === undefined));
  return { methods, tokenTypes, debitCards: codes.includes('DC'), bankBrands };
}

/** Pending payments past their time are ended (or finished) first, as every read does. */
const current = (deps: Deps, payments: PaymentRecord[]) => Promise.all(payments.map((p) => recoverPayment(deps, p)));

/** The payment, then (includeLinked) the payments that reference it or that it references; undefined when the entity has no such payment. */
export async function queryPayment(deps: Deps, ctx: Context, id: string, includeLinked: boolean): Promise<PaymentRecord[] | undefined> {
  // An id of the path no payment can have is not looked up (PostgreSQL refuses a U+0000 in it).
  const payment = ID.test(id) ? await findPayment(deps.store.db, ctx.entity.id, id) : undefined;
  if (!payment) return undefined;
  const found = await current(deps, [payment]);
  return includeLinked ? [...found, ...(await current(deps, await linkedPayments(deps.store.db, ctx.entity.id, found)))] : found;
}

/**
 * The entity's payments matching every criterion, oldest first, at most `limit`; then
 * (includeLinked) the payments linked to them, which the limit does not count.
 */
export async function queryPayments(deps: Deps, ctx: Context, c: QueryCriteria): Promise<PaymentRecord[]> {
  // Charged back once settled: the settlement date (the day after the payment) has come.
  const chargeback = (amountsMinor: number[]) => ({ amountsMinor, types: DEBIT_TYPES, settledBefore: startOfDay(dayOf(deps.clock().getTime())) });
  // A chargeback is no payment of its own here (the reconciliation file has its record): CB
  // finds the payments charged back, as chargebackResultCode does for one reason.
  const wantsChargebacks = c.paymentTypes?.includes('CB') ?? false;
  const search: PaymentSearch = {
    entityId: ctx.entity.id,
    merchantTransactionId: c.merchantTransactionId,
    createdFrom: c.from,
    createdTo: c.to,
    paymentTypes: c.paymentTypes?.filter((type) => type !== 'CB'),
    orChargedBack: wantsChargebacks ? chargeback(chargebackAmountsOf()) : undefined,
    ...methodsOf(c.paymentMethods),
    limit: c.limit,
  };
  if (c.shortId !== undefined) {
    const range = idRangeOf(c.shortId);
    // A well-formed short id no payment id can have (not dddd.dddd.dddd, or above the range) finds nothing.
    if (!range) return [];
    search.idFrom = range.from;
    search.idTo = range.to;
  }
  if (c.chargebackResultCode !== undefined) {
    const amountsMinor = chargebackAmountsOf(c.chargebackResultCode);
    if (!amountsMinor.length) return [];
    search.chargeback = chargeback(amountsMinor);
  }
  const found = await current(deps, await searchPayments(deps.store.db, deps.store.dialect, search));
  if (!c.includeLinked || !found.length) return found;
  return [...found, ...(await current(deps, await linkedPayments(deps.store.db, ctx.entity.id, found)))];
}
