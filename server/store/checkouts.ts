// Checkouts repository. State changes are conditional updates, so that two requests racing on
// one checkout (two payments, a payment and a cancel) can never both win, on SQLite or PostgreSQL.
import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import { deleteInBatches, insertRows, preparedQuery, type RowInsert, type Trx, type Writer } from './db.ts';
import type { CheckoutsTable, Database } from './tables.ts';

/** Stored states; "expired" is not one of them: an open checkout past expiresAt is expired. */
export type CheckoutStatus = 'open' | 'processing' | 'paid' | 'cancelled';

export interface CheckoutRecord<R = Record<string, unknown>> {
  id: string;
  entityId: string;
  status: CheckoutStatus;
  /** The merchant's checkout request as accepted: never account data. */
  request: R;
  paymentId: string | null;
  registrationId: string | null;
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
}

function fromRow<R>(r: Selectable<CheckoutsTable>): CheckoutRecord<R> {
  return {
    id: r.id,
    entityId: r.entity_id,
    status: r.status as CheckoutStatus,
    request: JSON.parse(r.request) as R,
    paymentId: r.payment_id,
    registrationId: r.registration_id,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    expiresAt: Number(r.expires_at),
  };
}

/**
 * A hold of no payment yet (payment_id null) older than this was left by a process that stopped
 * while the acquirer answered (no attempt takes minutes): the checkout is open again to a new
 * attempt or a cancel, and the first holder is fenced out by its hold's time (updated_at).
 */
export const CHECKOUT_HOLD_LEASE_MS = 5 * 60 * 1000;

/**
 * Declined payment attempts a checkout takes: the one that reaches this ends it as expired. Ten is
 * generous to a shopper who mistypes a few times or tries another card or two, and useless to a
 * bot testing hundreds of stolen cards through one checkout id, which is public on the shop's page.
 */
export const CHECKOUT_DECLINES_LIMIT = 10;

/**
 * One more decline counted, in the statement that ends the attempt: the row's own values (the
 * count before it), so that no other writer's count is lost on either database. The decline that
 * reaches the limit moves expires_at to `now`: the checkout is expired from then on to every reader.
 */
const declined = (now: unknown, count: unknown = 1) => ({
  declines: sql<number>`declines + ${count}`,
  expires_at: sql<number>`CASE WHEN declines + ${count} >= ${CHECKOUT_DECLINES_LIMIT} AND expires_at > ${now} THEN ${now} ELSE expires_at END`,
});

/** Open, or held for no payment since before `abandonedBefore` (a hold its process left behind). */
const openOrAbandoned = (eb: ExpressionBuilder<Database, 'checkouts'>, abandonedBefore: number) =>
  eb.or([eb('status', '=', 'open'), eb.and([eb('status', '=', 'processing'), eb('payment_id', 'is', null), eb('updated_at', '<', abandonedBefore)])]);

// The queries of the widget's path, compiled once (store/db.ts › preparedQuery).
const byId = preparedQuery<'id', Selectable<CheckoutsTable>>((db, p) => db.selectFrom('checkouts').selectAll().where('id', '=', p.id));
const hold = preparedQuery<'id' | 'now' | 'abandonedBefore', Selectable<CheckoutsTable>>((db, p) =>
  db
    .updateTable('checkouts')
    // A new attempt replaces the last one the checkout named.
    .set({ status: 'processing', updated_at: p.now, payment_id: null })
    .where('id', '=', p.id)
    .where((eb) => openOrAbandoned(eb, p.abandonedBefore))
    .where('expires_at', '>', p.now)
    .returningAll(),
);
// The end of a hold, only by its holder: still held at heldAt for no payment yet.
const endHeld = preparedQuery<'id' | 'heldAt' | 'status' | 'paymentId' | 'registrationId' | 'now'>((db, p) =>
  db
    .updateTable('checkouts')
    .set({ status: p.status, payment_id: p.paymentId, registration_id: p.registrationId, updated_at: p.now })
    .where('id', '=', p.id)
    .where('status', '=', 'processing')
    .where('payment_id', 'is', null)
    .where('updated_at', '=', p.heldAt),
);
// The end of a hold by its holder whose payment was declined: open again, one more decline.
const endDeclined = preparedQuery<'id' | 'heldAt' | 'now'>((db, p) =>
  db
    .updateTable('checkouts')
    .set({ status: 'open', payment_id: null, registration_id: null, updated_at: p.now, ...declined(p.now) })
    .where('id', '=', p.id)
    .where('status', '=', 'processing')
    .where('payment_id', 'is', null)
    .where('updated_at', '=', p.heldAt),
);
const settlePaid = preparedQuery<'id' | 'paymentId' | 'registrationId' | 'now'>((db, p) =>
  db.updateTable('checkouts').set({ status: 'paid', payment_id: p.paymentId, registration_id: p.registrationId, updated_at: p.now }).where('id', '=', p.id).where('status', '=', 'processing'),
);
const settleOpen = preparedQuery<'id' | 'attemptId' | 'now' | 'count'>((db, p) =>
  db.updateTable('checkouts').set({ status: 'open', payment_id: p.attemptId, updated_at: p.now, ...declined(p.now, p.count) }).where('id', '=', p.id).where('status', '=', 'processing'),
);

export async function insertCheckout(trx: Trx, c: CheckoutRecord<unknown>): Promise<void> {
  await insertRows(trx, [checkoutRow(c)]);
}

/** A new checkout as a row (store.insert, insertRows). */
export function checkoutRow(c: CheckoutRecord<unknown>): RowInsert {
  return {
    table: 'checkouts',
    row: {
      id: c.id,
      entity_id: c.entityId,
      status: c.status,
      request: JSON.stringify(c.request),
      payment_id: c.paymentId,
      registration_id: c.registrationId,
      created_at: c.createdAt,
      updated_at: c.updatedAt,
      expires_at: c.expiresAt,
    },
  };
}

/** A checkout by id alone: the checkout-scoped endpoints learn the entity from it. */
export async function findCheckout<R>(db: Kysely<Database> | Trx, id: string): Promise<CheckoutRecord<R> | undefined> {
  const row = (await byId(db, { id })).rows[0];
  return row && fromRow<R>(row);
}

/** A checkout of the entity; another entity's checkout is as good as missing. */
export async function findEntityCheckout<R>(db: Kysely<Database> | Trx, entityId: string, id: string): Promise<CheckoutRecord<R> | undefined> {
  const row = await db.selectFrom('checkouts').selectAll().where('id', '=', id).where('entity_id', '=', entityId).executeTakeFirst();
  return row && fromRow<R>(row);
}

/** Replace the request of a checkout that is open and unexpired; false when it is not. */
export async function updateOpenCheckout(trx: Trx, id: string, request: unknown, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('checkouts')
    .set({ request: JSON.stringify(request), updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** open (or held and abandoned) → cancelled; false when it was not open and unexpired. */
export async function cancelOpenCheckout(trx: Trx, id: string, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('checkouts')
    .set({ status: 'cancelled', updated_at: now })
    .where('id', '=', id)
    .where((eb) => openOrAbandoned(eb, now - CHECKOUT_HOLD_LEASE_MS))
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * open → processing (a payment is under way): the checkout as held, from the same statement, so
 * that the payment is built from what no one can change any more (its updatedAt is the hold's
 * time, which endHold names); undefined when it was not open, or held and abandoned, and unexpired.
 */
export async function holdOpenCheckout<R>(trx: Trx, id: string, now: number): Promise<CheckoutRecord<R> | undefined> {
  const row = (await hold(trx, { id, now, abandonedBefore: now - CHECKOUT_HOLD_LEASE_MS })).rows[0];
  return row && fromRow<R>(row);
}

/**
 * The end of an asynchronous payment attempt (after its redirect step): paid with its payment (and
 * registration), or open again. One that failed is a decline (CHECKOUT_DECLINES_LIMIT) unless
 * the acquirer could not be reached (`declined` false: it says nothing of the card, and an outage
 * must not end a shopper's checkout), and stays named as the checkout's last attempt
 * (`attemptId`), so that the merchant reads its outcome.
 */
export async function settleCheckout(
  trx: Trx,
  id: string,
  outcome: { paid: false; attemptId?: string; declined: boolean } | { paid: true; paymentId: string; registrationId: string | null },
  now: number,
): Promise<void> {
  if (outcome.paid) await settlePaid(trx, { id, paymentId: outcome.paymentId, registrationId: outcome.registrationId, now });
  else await settleOpen(trx, { id, attemptId: outcome.attemptId ?? null, now, count: outcome.declined ? 1 : 0 });
}

/**
 * The end of the hold of `heldAt` by its holder: paid; open again after a declined payment (a
 * decline, counted: CHECKOUT_DECLINES_LIMIT; it names no attempt); open again with nothing tried
 * (invalid input, an error: the acquirer was not asked); or still held for a pending payment (a
 * redirect step, which settleCheckout ends). Throws when the hold was taken over (its holder
 * stalled past the lease), so that the payment committed with it rolls back; opening again never
 * throws (there is nothing left to undo).
 */
export async function endHold(
  trx: Trx,
  id: string,
  heldAt: number,
  outcome: { paid: true; paymentId: string; registrationId: string | null } | { pending: string } | { declined: true } | { open: true },
  now: number,
): Promise<void> {
  if ('declined' in outcome) {
    await endDeclined(trx, { id, heldAt, now });
    return;
  }
  // Paid; still held, naming its pending payment; or open again. The registration is a paid one's only.
  const [status, paymentId, registrationId] = 'paid' in outcome ? ['paid', outcome.paymentId, outcome.registrationId] : 'pending' in outcome ? ['processing', outcome.pending, null] : ['open', null, null];
  const result = await endHeld(trx, { id, heldAt, status, paymentId, registrationId, now });
  if ('open' in outcome) return;
  if (Number(result.numAffectedRows ?? 0n) !== 1) throw new Error(`checkout ${id}: its hold was taken over by another attempt`);
}

/** Checkouts deleted per transaction by purgeEndedCheckouts. */
export const PURGE_BATCH = 1_000;

/** Naming no pending payment: a checkout whose payment waits at its redirect reads as open, and the step's end settles it. */
const noPendingPayment = (eb: ExpressionBuilder<Database, 'checkouts'>) =>
  eb.not(eb.exists(eb.selectFrom('payments').select('payments.id').whereRef('payments.id', '=', 'checkouts.payment_id').where('payments.status', '=', 'pending')));

/**
 * Forget checkouts that ended before `before`: expired by then and unchanged since (a paid or
 * cancelled one ended at its last change), never one naming a pending payment, whatever its age.
 * `batch` at a time, each batch its own transaction with the event loop free in between (as the
 * purges of notifications and idempotency records). A batch is found by checkouts_expires and
 * deleted by id, rechecking what a change in between would move (updated_at, the payment): a
 * DELETE that repeats the range is planned over the range, every ended row read for each batch.
 * Their payments stay (their ndc still names the checkout). Resolves with how many were deleted.
 */
export async function purgeEndedCheckouts(store: Writer, before: number, batch = PURGE_BATCH): Promise<number> {
  return deleteInBatches(store, batch, async (trx) => {
    const found = await trx.selectFrom('checkouts').select('id').where('expires_at', '<', before).where('updated_at', '<', before).where(noPendingPayment).limit(batch).execute();
    if (found.length === 0) return 0;
    const ids = found.map((row) => row.id);
    const result = await trx.deleteFrom('checkouts').where('id', 'in', ids).where('updated_at', '<', before).where(noPendingPayment).executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}
