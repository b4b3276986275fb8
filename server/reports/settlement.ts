// Settlement records of the simulated clearing institute, computed on read from the entity's
// payments (deterministic: the same payments and day always give the same records). A payment of
// day D settles on D+1; the file of a settlement date exists once that date has begun (UTC).
import { createHash } from 'node:crypto';
import type { Entity } from '../config.ts';
import { catalogue, type ResultCode } from '../results.ts';
import type { Deps } from '../payments/deps.ts';
import {
  addDays,
  chargebackOf,
  CLEARING_INSTITUTE,
  dayOf,
  FX_RATE,
  settlementDateOf,
  settlementFee,
  settles,
  SETTLED_TYPES,
  startOfDay,
} from '../simulator/clearing.ts';
import type { PaymentRecord } from '../store/payments.ts';
import { paymentsByIds, reversalsOf, successfulPaymentsMade } from '../store/reports.ts';
import { shortIdOf } from './shortId.ts';

export interface ReconciliationRecord {
  recordType: 'SETTLED' | 'CHARGEBACK';
  transactionType: 'DEBIT' | 'CREDIT' | 'REFUND';
  cashflow: 'POS' | 'NEG';
  clearingInstituteMerchantId: string;
  merchantAccountId: string;
  merchantAccountName: string;
  pspEntityId: string;
  divisionEntityId: string;
  merchantEntityId: string;
  settlementId: string;
  paymentId: string;
  shortId: string;
  txId1: string;
  txId2: string;
  txId3: string;
  merchantTransactionId: string;
  merchantInvoiceId: string;
  amountMinor: number;
  currency: string;
  paymentBrand: string;
  /** The payment's time, yyyy-MM-dd HH:mm:ss in the clearing institute's zone (UTC). */
  presentmentDate: string;
  settlementAmountMinor: number;
  settlementCurrency: string;
  feeMinor: number;
  fxRate: string;
  settlementDate: string;
  settlementStatus: 'SUCCESS' | 'FAILED';
  descriptor: string;
  /** Which account the last four digits, bank code and holder are of. */
  account: 'card' | 'bankAccount' | undefined;
  accountLast4: string;
  bankCode: string;
  accountHolder: string;
  reasonCode: string;
  reasonDescription: string;
  format: string;
  clearingInstituteName: string;
  matchingStatus: 'MATCHED' | 'MULTIPLE_MATCHES' | 'NOT_MATCHED';
  matchedPaymentIds: string[];
  chargebackId: string;
  /** The payment's creation (epoch ms): what SettlementTxDate sorts by. */
  txTime: number;
}

const hex32 = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

/** The gateway's own entity id as the PSP (pspEntityId): one for the whole gateway. */
export const PSP_ENTITY_ID = hex32('psp:payment-gateway');

/** The merchant's entity id (merchantEntityId): merchants.json names merchants without ids, so it is derived from the name. */
export const merchantEntityIdOf = (entity: Pick<Entity, 'merchantName'>) => hex32(`merchant:${entity.merchantName}`);

const pad = (n: number) => String(n).padStart(2, '0');
function presentment(time: number): string {
  const d = new Date(time);
  return `${dayOf(time)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The account of the payment as a record shows it: last four digits, bank code, holder. */
function accountOf(p: PaymentRecord): Pick<ReconciliationRecord, 'account' | 'accountLast4' | 'bankCode' | 'accountHolder'> {
  const card = p.details.card as Record<string, unknown> | undefined;
  if (card) return { account: 'card', accountLast4: text(card.last4Digits), bankCode: '', accountHolder: text(card.holder) };
  const bank = p.details.bankAccount as Record<string, unknown> | undefined;
  if (bank) {
    const number = text(bank.iban) || text(bank.number);
    return { account: 'bankAccount', accountLast4: number.slice(-4), bankCode: text(bank.bankCode), accountHolder: text(bank.holder) };
  }
  return { account: undefined, accountLast4: '', bankCode: '', accountHolder: '' };
}

/** The record of a settled payment, or of its chargeback (reason given). */
export function recordOf(p: PaymentRecord, entity: Pick<Entity, 'id' | 'name' | 'merchantName'>, referenced: PaymentRecord | undefined, reason?: ResultCode): ReconciliationRecord {
  const chargeback = reason !== undefined;
  const transactionType = SETTLED_TYPES[p.paymentType]!;
  return {
    recordType: chargeback ? 'CHARGEBACK' : 'SETTLED',
    transactionType,
    cashflow: !chargeback && transactionType === 'DEBIT' ? 'POS' : 'NEG',
    clearingInstituteMerchantId: CLEARING_INSTITUTE.merchantId,
    merchantAccountId: entity.id,
    merchantAccountName: entity.name.slice(0, 32),
    pspEntityId: PSP_ENTITY_ID,
    divisionEntityId: '',
    merchantEntityId: merchantEntityIdOf(entity),
    settlementId: hex32(`settlement:${chargeback ? 'chargeback' : 'settled'}:${p.id}`),
    paymentId: p.id,
    shortId: shortIdOf(p.id),
    txId1: p.acquirer.connectorDetails?.ConnectorTxID1 ?? '',
    // The connector's id of the referenced payment (the PA of a capture, the DB of a refund).
    txId2: referenced?.acquirer.connectorDetails?.ConnectorTxID1 ?? '',
    txId3: '',
    merchantTransactionId: p.merchantTransactionId ?? '',
    merchantInvoiceId: text(p.details.merchantInvoiceId),
    amountMinor: p.amountMinor,
    currency: p.currency,
    paymentBrand: p.paymentBrand,
    presentmentDate: presentment(p.createdAt),
    settlementAmountMinor: p.amountMinor,
    settlementCurrency: p.currency,
    feeMinor: settlementFee(p.amountMinor, p.currency),
    fxRate: FX_RATE,
    settlementDate: settlementDateOf(p.createdAt),
    settlementStatus: 'SUCCESS',
    descriptor: text(p.details.descriptor),
    ...accountOf(p),
    reasonCode: reason ?? '',
    reasonDescription: reason === undefined ? '' : catalogue[reason],
    format: CLEARING_INSTITUTE.format,
    clearingInstituteName: CLEARING_INSTITUTE.name,
    matchingStatus: 'MATCHED',
    matchedPaymentIds: [p.id],
    chargebackId: chargeback ? hex32(`chargeback:${p.id}`) : '',
    txTime: p.createdAt,
  };
}

/**
 * Every record of the entity with a settlement date from `from` to `to` (yyyy-MM-dd, both
 * included) that has begun by now: each settled payment's record, followed by its chargeback's.
 */
export async function settlementRecords(deps: Deps, entity: Pick<Entity, 'id' | 'name' | 'merchantName'>, from: string, to: string): Promise<ReconciliationRecord[]> {
  const today = dayOf(deps.clock().getTime());
  const last = to < today ? to : today;
  if (last < from) return [];
  const db = deps.store.db;
  // Settlement dates from..last are the payments of the days before each.
  const payments = await successfulPaymentsMade(db, entity.id, Object.keys(SETTLED_TYPES), startOfDay(addDays(from, -1)), startOfDay(last));
  const reversals = await reversalsOf(db, entity.id, payments.filter((p) => p.paymentType === 'DB' || p.paymentType === 'CD').map((p) => p.id));
  const settled = payments.filter((p) => settles(p, reversals.get(p.id) ?? []));
  const referencedIds = [...new Set(settled.map((p) => p.referencedId).filter((id): id is string => id !== null))];
  const referenced = new Map((await paymentsByIds(db, entity.id, referencedIds)).map((p) => [p.id, p]));
  const records: ReconciliationRecord[] = [];
  for (const p of settled) {
    const ref = p.referencedId === null ? undefined : referenced.get(p.referencedId);
    records.push(recordOf(p, entity, ref));
    const reason = chargebackOf(p);
    if (reason) records.push(recordOf(p, entity, ref, reason));
  }
  return records;
}
