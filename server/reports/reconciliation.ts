// Reconciliation records as the spec names them: the CSV columns in the spec's order with the
// API name of each (one table, so the JSON and the CSV cannot disagree), the aggregation of a
// settlement date and currency, its id, and the sort order of SettlementTxDate.
import { createHash } from 'node:crypto';
import { fromMinor, fromMinorSum } from '../money.ts';
import { toCsv } from './csv.ts';
import type { ReconciliationRecord } from './settlement.ts';
import type { SortOrder } from './params.ts';

interface Column {
  /** The CSV header; null for the API-only fields the spec's column order leaves out (TransactionId, InvoiceId). */
  csv: string | null;
  /** The API name (dotted path in the JSON record). */
  api: string | ((r: ReconciliationRecord) => string);
  value: (r: ReconciliationRecord) => string;
  /** The JSON value when it is not the text (matchedTransactions.payment[n].id is a list). */
  json?: (r: ReconciliationRecord) => unknown;
}

const account = (r: ReconciliationRecord) => r.account ?? 'card';

/** The spec's table, in its column order; TransactionId and InvoiceId after their neighbours. */
export const COLUMNS: readonly Column[] = [
  { csv: 'ReconciliationType', api: 'recordType', value: (r) => r.recordType },
  { csv: 'PaymentType', api: 'transactionType', value: (r) => r.transactionType },
  { csv: 'Cashflow', api: 'settlement.cashflow', value: (r) => r.cashflow },
  { csv: 'ClearingInstituteMerchantId', api: 'clearingInstitute.merchantId', value: (r) => r.clearingInstituteMerchantId },
  { csv: 'MerchantAccountId', api: 'merchantAccount.id', value: (r) => r.merchantAccountId },
  { csv: 'MerchantAccountName', api: 'merchantAccount.name', value: (r) => r.merchantAccountName },
  { csv: 'PspId', api: 'pspEntityId', value: (r) => r.pspEntityId },
  { csv: 'DivisionId', api: 'divisionEntityId', value: (r) => r.divisionEntityId },
  { csv: 'MerchantId', api: 'merchantEntityId', value: (r) => r.merchantEntityId },
  { csv: 'SettlementTxId', api: 'settlement.id', value: (r) => r.settlementId },
  { csv: 'UniqueID', api: 'payment.id', value: (r) => r.paymentId },
  { csv: 'ShortId', api: 'shortId', value: (r) => r.shortId },
  { csv: 'ConnectorTxId1', api: 'clearingInstitute.txId1', value: (r) => r.txId1 },
  { csv: 'ConnectorTxId2', api: 'clearingInstitute.txId2', value: (r) => r.txId2 },
  { csv: 'ConnectorTxId3', api: 'clearingInstitute.txId3', value: (r) => r.txId3 },
  { csv: null, api: 'merchantTransactionId', value: (r) => r.merchantTransactionId },
  { csv: null, api: 'merchantInvoiceId', value: (r) => r.merchantInvoiceId },
  { csv: 'Amount', api: 'amount', value: (r) => fromMinor(r.amountMinor) },
  { csv: 'Currency', api: 'currency', value: (r) => r.currency },
  { csv: 'Brand', api: 'paymentBrand', value: (r) => r.paymentBrand },
  { csv: 'TxRequestTime', api: 'presentmentDate', value: (r) => r.presentmentDate },
  { csv: 'SettlementAmount', api: 'settlement.amount', value: (r) => fromMinor(r.settlementAmountMinor) },
  { csv: 'SettlementCurrency', api: 'settlement.currency', value: (r) => r.settlementCurrency },
  { csv: 'SettlementFee', api: 'settlement.fee', value: (r) => fromMinor(r.feeMinor) },
  { csv: 'SettlementFxRate', api: 'settlement.fxRate', value: (r) => r.fxRate },
  { csv: 'SettlementDate', api: 'settlement.date', value: (r) => r.settlementDate },
  { csv: 'SettlementStatus', api: 'settlement.status', value: (r) => r.settlementStatus },
  { csv: 'Descriptor', api: 'descriptor', value: (r) => r.descriptor },
  { csv: 'AccountNumberLast4', api: (r) => `${account(r)}.last4Digits`, value: (r) => r.accountLast4 },
  { csv: 'BankCode', api: 'bankAccount.bankCode', value: (r) => r.bankCode },
  { csv: 'AccountHolder', api: (r) => `${account(r)}.holder`, value: (r) => r.accountHolder },
  { csv: 'ReasonCode', api: 'result.code', value: (r) => r.reasonCode },
  { csv: 'ReasonDesc', api: 'result.description', value: (r) => r.reasonDescription },
  { csv: 'SettlementFileFormat', api: 'settlement.format', value: (r) => r.format },
  { csv: 'ClearingInsitituteName', api: 'clearingInstitute.name', value: (r) => r.clearingInstituteName },
  { csv: 'MatchingStatus', api: 'matchedTransactions.status', value: (r) => r.matchingStatus },
  { csv: 'MatchedTransactions', api: 'matchedTransactions.payment', value: (r) => r.matchedPaymentIds.join(','), json: (r) => r.matchedPaymentIds.map((id) => ({ id })) },
  { csv: 'ChargebackId', api: 'chargeback.id', value: (r) => r.chargebackId },
];

/** The CSV header, exactly the spec's column order. */
export const CSV_HEADER: readonly string[] = COLUMNS.flatMap((c) => (c.csv === null ? [] : [c.csv]));

/** A record as JSON under the API names; empty optional fields are left out. */
export function recordJson(r: ReconciliationRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of COLUMNS) {
    const value = column.json ? column.json(r) : column.value(r);
    if (value === '') continue;
    const path = (typeof column.api === 'string' ? column.api : column.api(r)).split('.');
    let node = out;
    for (const key of path.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
    node[path[path.length - 1]!] = value;
  }
  return out;
}

/** The records as the spec's CSV file. */
export function recordsCsv(records: readonly ReconciliationRecord[]): string {
  return toCsv(
    CSV_HEADER,
    records.map((r) => COLUMNS.flatMap((c) => (c.csv === null ? [] : [c.value(r)]))),
  );
}

/**
 * SettlementTxDate order: by the payment's time, then its id, a payment's settlement before its
 * chargeback; DESC is the exact reverse.
 */
export function sortRecords(records: readonly ReconciliationRecord[], order: SortOrder): ReconciliationRecord[] {
  const rank = (r: ReconciliationRecord) => (r.recordType === 'SETTLED' ? 0 : 1);
  const sorted = [...records].sort((a, b) => a.txTime - b.txTime || (a.paymentId < b.paymentId ? -1 : a.paymentId > b.paymentId ? 1 : rank(a) - rank(b)));
  return order === 'DESC' ? sorted.reverse() : sorted;
}

export interface Aggregation {
  id: string;
  settlementDate: string;
  currency: string;
  records: number;
  /** Minor units: POS records, NEG records, fees of all, and POS - NEG - fees. BigInt: a day's sum may pass 2^53. */
  positiveMinor: bigint;
  negativeMinor: bigint;
  feeMinor: bigint;
  netMinor: bigint;
}

/**
 * An aggregation's id (32 lowercase hex): the date's digits, the currency's letters in hex and a
 * digest of the entity with both, so the id names its records without being stored, and another
 * entity's id (or a made-up one) is found for nobody.
 */
export function aggregationId(entityId: string, date: string, currency: string): string {
  const digest = createHash('sha256').update(`aggregation:${entityId}:${date}:${currency}`).digest('hex');
  return `${date.replace(/-/g, '')}${Buffer.from(currency, 'latin1').toString('hex')}${digest.slice(0, 18)}`;
}

/** The settlement date and currency an id names for this entity, or undefined. */
export function decodeAggregationId(entityId: string, id: string): { date: string; currency: string } | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})((?:[0-9a-f]{2}){3})[0-9a-f]{18}$/.exec(id);
  if (!match) return undefined;
  const date = `${match[1]}-${match[2]}-${match[3]}`;
  const currency = Buffer.from(match[4]!, 'hex').toString('latin1');
  if (!/^[A-Z]{3}$/.test(currency)) return undefined;
  return aggregationId(entityId, date, currency) === id ? { date, currency } : undefined;
}

/** One aggregation per settlement date and currency, ordered by date (then currency). */
export function aggregate(entityId: string, records: readonly ReconciliationRecord[], order: SortOrder): Aggregation[] {
  const byKey = new Map<string, Aggregation>();
  for (const r of records) {
    const key = `${r.settlementDate}:${r.settlementCurrency}`;
    let a = byKey.get(key);
    if (!a) {
      a = { id: aggregationId(entityId, r.settlementDate, r.settlementCurrency), settlementDate: r.settlementDate, currency: r.settlementCurrency, records: 0, positiveMinor: 0n, negativeMinor: 0n, feeMinor: 0n, netMinor: 0n };
      byKey.set(key, a);
    }
    a.records++;
    if (r.cashflow === 'POS') a.positiveMinor += BigInt(r.settlementAmountMinor);
    else a.negativeMinor += BigInt(r.settlementAmountMinor);
    a.feeMinor += BigInt(r.feeMinor);
    a.netMinor = a.positiveMinor - a.negativeMinor - a.feeMinor;
  }
  const sorted = [...byKey.values()].sort((a, b) => (a.settlementDate < b.settlementDate ? -1 : a.settlementDate > b.settlementDate ? 1 : a.currency < b.currency ? -1 : 1));
  return order === 'DESC' ? sorted.reverse() : sorted;
}

export function aggregationJson(a: Aggregation): Record<string, unknown> {
  return {
    id: a.id,
    settlementDate: a.settlementDate,
    currency: a.currency,
    numberOfRecords: a.records,
    totalPositiveAmount: fromMinorSum(a.positiveMinor),
    totalNegativeAmount: fromMinorSum(a.negativeMinor),
    totalFee: fromMinorSum(a.feeMinor),
    netAmount: fromMinorSum(a.netMinor),
  };
}
