// Redirect steps repository (table threeds): 3-D Secure authentications and provider approvals of
// pending payments. State changes are conditional updates, so that two requests racing on one
// step (a double click, the sweep and a late approval) can never both win, on SQLite or PostgreSQL.
import type { ExpressionBuilder, Kysely } from 'kysely';
import { deleteInBatches, insertRows, type RowInsert, type Trx, type Writer } from './db.ts';
import type { Database, ThreedsTable } from './tables.ts';

export type StepKind = 'payment' | 'standalone' | 'provider';
/** method: waiting for the method outcome; challenge: for the shopper; provider: for the provider's page; completing: the acquirer is being asked. */
export type StepStatus = 'method' | 'challenge' | 'provider' | 'completing' | 'done';
/** States in which a step still waits for the shopper. */
export const WAITING: StepStatus[] = ['method', 'challenge', 'provider'];

export interface StepRecord<D = Record<string, unknown>> {
  id: string;
  entityId: string;
  kind: StepKind;
  status: StepStatus;
  path: string;
  paymentId: string | null;
  checkoutId: string | null;
  paymentBrand: string;
  tokenHash: string;
  resultCode: string | null;
  data: D;
  secret: string | null;
  expiresAt: number;
  createdAt: number;
  updatedAt: number;
}

function fromRow<D>(r: ThreedsTable): StepRecord<D> {
  return {
    id: r.id,
    entityId: r.entity_id,
    kind: r.kind as StepKind,
    status: r.status as StepStatus,
    path: r.path,
    paymentId: r.payment_id,
    checkoutId: r.checkout_id,
    paymentBrand: r.payment_brand,
    tokenHash: r.token_hash,
    resultCode: r.result_code,
    data: JSON.parse(r.data) as D,
    secret: r.secret,
    expiresAt: Number(r.expires_at),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

/** The step as a new row. */
export function stepRow(s: StepRecord<unknown>): RowInsert {
  return {
    table: 'threeds',
    row: {
      id: s.id,
      entity_id: s.entityId,
      kind: s.kind,
      status: s.status,
      path: s.path,
      payment_id: s.paymentId,
      checkout_id: s.checkoutId,
      payment_brand: s.paymentBrand,
      token_hash: s.tokenHash,
      result_code: s.resultCode,
      data: JSON.stringify(s.data),
      secret: s.secret,
      expires_at: s.expiresAt,
      created_at: s.createdAt,
      updated_at: s.updatedAt,
    },
  };
}

export async function insertStep(trx: Trx, s: StepRecord<unknown>): Promise<void> {
  await insertRows(trx, [stepRow(s)]);
}

/** A step by its id alone: the shopper's pages are credentialed by the id and the token. */
export async function findStep<D>(db: Kysely<Database> | Trx, id: string): Promise<StepRecord<D> | undefined> {
  const row = await db.selectFrom('threeds').selectAll().where('id', '=', id).executeTakeFirst();
  return row && fromRow<D>(row);
}

/** A step of the entity; another entity's is as good as missing. */
export async function findEntityStep<D>(db: Kysely<Database> | Trx, entityId: string, id: string, kind: StepKind): Promise<StepRecord<D> | undefined> {
  const row = await db.selectFrom('threeds').selectAll().where('id', '=', id).where('entity_id', '=', entityId).where('kind', '=', kind).executeTakeFirst();
  return row && fromRow<D>(row);
}

/** The step a pending payment waits for. */
export async function findStepOfPayment<D>(db: Kysely<Database> | Trx, paymentId: string): Promise<StepRecord<D> | undefined> {
  const row = await db.selectFrom('threeds').selectAll().where('payment_id', '=', paymentId).executeTakeFirst();
  return row && fromRow<D>(row);
}

/** from → to, when the step is in one of `from` and has not expired; false when it was not. */
export async function moveStep(trx: Trx, id: string, from: StepStatus[], to: StepStatus, now: number, data?: unknown): Promise<boolean> {
  const result = await trx
    .updateTable('threeds')
    .set({ status: to, updated_at: now, ...(data === undefined ? {} : { data: JSON.stringify(data) }) })
    .where('id', '=', id)
    .where('status', 'in', from)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * The end of a step: done with its code and final data, its secret wiped. Only from `from`; with
 * `dueBy`, only when it expired by then (the sweep, the lazy check). false when someone else ended it.
 */
export async function finishStep(trx: Trx, id: string, from: StepStatus[], end: { resultCode: string; data: unknown; now: number; dueBy?: number }): Promise<boolean> {
  let query = trx
    .updateTable('threeds')
    .set({ status: 'done', result_code: end.resultCode, data: JSON.stringify(end.data), secret: null, updated_at: end.now })
    .where('id', '=', id)
    .where('status', 'in', from);
  if (end.dueBy !== undefined) query = query.where('expires_at', '<=', end.dueBy);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Steps still open whose time is up (waiting ones at expires_at; completing ones `grace` later). */
export async function dueSteps<D>(db: Kysely<Database>, now: number, grace: number, limit = 100): Promise<StepRecord<D>[]> {
  const rows = await db
    .selectFrom('threeds')
    .selectAll()
    .where((eb) => eb.or([eb.and([eb('status', 'in', WAITING), eb('expires_at', '<=', now)]), eb.and([eb('status', '=', 'completing'), eb('expires_at', '<=', now - grace)])]))
    .orderBy('expires_at')
    .limit(limit)
    .execute();
  return rows.map(fromRow<D>);
}

/** Steps deleted per transaction by purgeEndedSteps. */
export const PURGE_BATCH = 1_000;

/** Of no pending payment: the payment's end is read from its step (steps.ts › currentPayment, reference.ts › finishStale). */
const noPendingPayment = (eb: ExpressionBuilder<Database, 'threeds'>) =>
  eb.not(eb.exists(eb.selectFrom('payments').select('payments.id').whereRef('payments.id', '=', 'threeds.payment_id').where('payments.status', '=', 'pending')));

/**
 * Forget redirect steps (of payments, standalone authentications, provider approvals) that ended
 * before `before`: done (their secret wiped in that commit), past their expiry by then and
 * unchanged since, never one of a pending payment, whatever its age. `batch` at a time, each batch
 * its own transaction with the event loop free in between; a batch is found by
 * threeds_status_expires and deleted by id, rechecking what a change would move (updated_at, the
 * payment), as purgeEndedCheckouts does. Resolves with how many were deleted.
 */
export async function purgeEndedSteps(store: Writer, before: number, batch = PURGE_BATCH): Promise<number> {
  return deleteInBatches(store, batch, async (trx) => {
    const found = await trx
      .selectFrom('threeds')
      .select('id')
      .where('status', '=', 'done')
      .where('expires_at', '<', before)
      .where('updated_at', '<', before)
      .where(noPendingPayment)
      .limit(batch)
      .execute();
    if (found.length === 0) return 0;
    const ids = found.map((row) => row.id);
    const result = await trx.deleteFrom('threeds').where('id', 'in', ids).where('updated_at', '<', before).where(noPendingPayment).executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}
