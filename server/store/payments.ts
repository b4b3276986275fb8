// Payments repository: rows in, records out.
import type { Kysely } from 'kysely';
import { insertRows, type Dialect, type RowInsert, type Trx } from './db.ts';
import type { Database, PaymentsTable } from './tables.ts';

export type PaymentStatus = 'success' | 'rejected' | 'pending';

/** What the acquirer told us, kept for the response and for support. */
export interface AcquirerFacts {
  avsResponse?: string;
  cvvResponse?: string;
  riskScore?: string;
  connectorDetails?: Record<string, string>;
  /** The terminal's answer of a point-of-sale payment (pos.* of the response). */
  pos?: Record<string, unknown>;
}

export interface PaymentRecord {
  id: string;
  entityId: string;
  paymentType: string;
  method: string;
  paymentBrand: string;
  amountMinor: number;
  currency: string;
  status: PaymentStatus;
  resultCode: string;
  referencedId: string | null;
  registrationId: string | null;
  sequence: string | null;
  numberOfCaptures: number | null;
  merchantTransactionId: string | null;
  ndc: string;
  /** Echoed request structures: never a full card number or a security code. */
  details: Record<string, unknown>;
  acquirer: AcquirerFacts;
  testMode: string | null;
  createdAt: number;
  updatedAt: number;
}

function toRow(p: PaymentRecord): PaymentsTable {
  return {
    id: p.id,
    entity_id: p.entityId,
    payment_type: p.paymentType,
    method: p.method,
    payment_brand: p.paymentBrand,
    amount_minor: p.amountMinor,
    currency: p.currency,
    status: p.status,
    result_code: p.resultCode,
    referenced_id: p.referencedId,
    registration_id: p.registrationId,
    sequence: p.sequence,
    number_of_captures: p.numberOfCaptures,
    merchant_transaction_id: p.merchantTransactionId,
    ndc: p.ndc,
    details: JSON.stringify(p.details),
    acquirer: JSON.stringify(p.acquirer),
    test_mode: p.testMode,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

export function fromRow(r: PaymentsTable): PaymentRecord {
  return {
    id: r.id,
    entityId: r.entity_id,
    paymentType: r.payment_type,
    method: r.method,
    paymentBrand: r.payment_brand,
    amountMinor: Number(r.amount_minor),
    currency: r.currency,
    status: r.status as PaymentStatus,
    resultCode: r.result_code,
    referencedId: r.referenced_id,
    registrationId: r.registration_id,
    sequence: r.sequence,
    numberOfCaptures: r.number_of_captures,
    merchantTransactionId: r.merchant_transaction_id,
    ndc: r.ndc,
    details: JSON.parse(r.details) as Record<string, unknown>,
    acquirer: JSON.parse(r.acquirer) as AcquirerFacts,
    testMode: r.test_mode,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

/** The payment as a new row (Store.insert merges it with other payments' rows). */
export function paymentRow(payment: PaymentRecord): RowInsert {
  return { table: 'payments', row: toRow(payment) };
}

export async function insertPayment(trx: Trx, payment: PaymentRecord): Promise<void> {
  await insertRows(trx, [paymentRow(payment)]);
}

/** The outcome of a pending payment (after its redirect step); false when it was no longer pending. */
export async function settlePendingPayment(trx: Trx, p: PaymentRecord): Promise<boolean> {
  const result = await trx
    .updateTable('payments')
    .set({
      status: p.status,
      result_code: p.resultCode,
      acquirer: JSON.stringify(p.acquirer),
      details: JSON.stringify(p.details),
      registration_id: p.registrationId,
      updated_at: p.updatedAt,
    })
    .where('id', '=', p.id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A payment of the entity, or undefined: another entity's payment is as good as missing. */
export async function findPayment(db: Kysely<Database> | Trx, entityId: string, id: string): Promise<PaymentRecord | undefined> {
  const row = await db.selectFrom('payments').selectAll().where('id', '=', id).where('entity_id', '=', entityId).executeTakeFirst();
  return row && fromRow(row);
}

/** The same, holding the row until the transaction ends so that references to it are serialized. */
export async function lockPayment(trx: Trx, dialect: Dialect, entityId: string, id: string): Promise<PaymentRecord | undefined> {
  let query = trx.selectFrom('payments').selectAll().where('id', '=', id).where('entity_id', '=', entityId);
  // SQLite has one writer at a time already; PostgreSQL needs the row lock.
  if (dialect === 'postgres') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row && fromRow(row);
}

/** Payments that reference this one and count against it: successful or still pending. */
export async function referencesOf(trx: Trx | Kysely<Database>, id: string): Promise<PaymentRecord[]> {
  const rows = await trx
    .selectFrom('payments')
    .selectAll()
    .where('referenced_id', '=', id)
    .where('status', 'in', ['success', 'pending'])
    .orderBy('created_at')
    .execute();
  return rows.map(fromRow);
}

/**
 * The lease of a pending reference untouched since `staleBefore`, renewed to `now` for the one
 * caller that gets it (the others see false): only that one asks the acquirer again.
 */
export async function leaseReservation(trx: Trx, id: string, now: number, staleBefore: number): Promise<boolean> {
  const result = await trx.updateTable('payments').set({ updated_at: now }).where('id', '=', id).where('status', '=', 'pending').where('updated_at', '<', staleBefore).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Pending payments reserved on another (referenced_id) that a stopped process may have left: the
 * references (of `referenceTypes`) untouched since `referencesBefore`, the PAs made before `authorizationsBefore`;
 * oldest first, at most 500 (the sweep's share of a minute). The partial index of pending
 * payments serves it.
 */
export async function staleReservations(db: Kysely<Database>, referenceTypes: readonly string[], referencesBefore: number, authorizationsBefore: number): Promise<PaymentRecord[]> {
  const rows = await db
    .selectFrom('payments')
    .selectAll()
    .where('status', '=', 'pending')
    .where('updated_at', '<', referencesBefore)
    .where('referenced_id', 'is not', null)
    .where((eb) => eb.or([eb('payment_type', 'in', referenceTypes), eb.and([eb('payment_type', '=', 'PA'), eb('created_at', '<', authorizationsBefore)])]))
    .orderBy('updated_at')
    .limit(500)
    .execute();
  return rows.map(fromRow);
}
