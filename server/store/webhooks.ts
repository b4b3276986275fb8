// Webhooks repository: the webhooks registered through the API, and the outbox of notifications
// (written in the commit of the change they report; claimed with a lease for delivery).
import { sql, type Kysely, type Selectable } from 'kysely';
import { deleteInBatches, type Dialect, type Trx, type Writer } from './db.ts';
import type { Database, WebhookOutboxTable, WebhooksTable } from './tables.ts';

export type WebhookRow = Selectable<WebhooksTable>;
export type OutboxRow = Selectable<WebhookOutboxTable>;

/** The predicate of the partial unique index webhooks_entity_url, written out: a bound value would not match it. */
const ACTIVE = sql<boolean>`status = 'active'`;

/** false when the entity has an active webhook of that URL already (one per URL: migration 0008). */
export async function insertWebhook(trx: Trx, row: WebhooksTable): Promise<boolean> {
  const result = await trx
    .insertInto('webhooks')
    .values(row)
    .onConflict((oc) => oc.columns(['entity_id', 'url']).where(ACTIVE).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Active webhooks: of one entity, or of every entity (the registry's cache). */
export async function activeWebhooks(db: Kysely<Database> | Trx, entityId?: string): Promise<WebhookRow[]> {
  let query = db.selectFrom('webhooks').selectAll().where('status', '=', 'active');
  if (entityId !== undefined) query = query.where('entity_id', '=', entityId);
  return query.orderBy('created_at').orderBy('id').execute();
}

/** The NOTIFY channel of a webhook registered or deleted (store/db.ts › notifyOf): other processes reload theirs. */
export const WEBHOOKS_CHANGED = 'pw_webhooks_changed';

/** Cancel the notifications not yet delivered of these webhooks, those the store has as deleted. */
export async function cancelPendingOf(trx: Trx, webhookIds: string[], now: number): Promise<void> {
  await trx
    .updateTable('webhook_outbox')
    .set({ status: 'cancelled', claimed_by: null, claim_expires_at: null, updated_at: now })
    .where('webhook_id', 'in', webhookIds)
    .where('webhook_id', 'not in', (eb) => eb.selectFrom('webhooks').select('id').where('status', '=', 'active'))
    .where('status', '=', 'pending')
    .execute();
}

/**
 * Delete a webhook of the entity, and cancel its notifications not yet delivered (nobody would
 * decrypt them any more). false when the entity has no such active webhook.
 */
export async function deleteWebhook(trx: Trx, entityId: string, id: string, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('webhooks')
    .set({ status: 'deleted', updated_at: now })
    .where('id', '=', id)
    .where('entity_id', '=', entityId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  await cancelPendingOf(trx, [id], now);
  return true;
}

/**
 * Claim up to `limit` due notifications for `owner` until `now + leaseMs`, none of `skipWebhooks`: one conditional
 * UPDATE, so that of several processes exactly one gets each row (PostgreSQL re-checks the
 * condition on the locked row; SKIP LOCKED lets the others take the next rows instead of waiting).
 */
export async function claimDue(trx: Trx, dialect: Dialect, owner: string, now: number, leaseMs: number, limit: number, skipWebhooks: readonly string[] = []): Promise<OutboxRow[]> {
  let candidates = trx
    .selectFrom('webhook_outbox')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('claim_expires_at', 'is', null), eb('claim_expires_at', '<=', now)]))
    .orderBy('next_attempt_at')
    .limit(limit);
  // The webhooks whose slots this process has all taken (a receiver that hangs): their backlog waits.
  if (skipWebhooks.length) candidates = candidates.where('webhook_id', 'not in', skipWebhooks);
  if (dialect === 'postgres') candidates = candidates.forUpdate().skipLocked();
  return trx
    .updateTable('webhook_outbox')
    .set({ claimed_by: owner, claim_expires_at: now + leaseMs })
    .where('id', 'in', candidates)
    // No status test here: SQLite would then find the rows by scanning every pending one (the
    // status index) instead of by id, which grows with a backlog. The candidates are pending.
    .where((eb) => eb.or([eb('claim_expires_at', 'is', null), eb('claim_expires_at', '<=', now)]))
    .returningAll()
    .execute();
}

/** What an attempt ended with; written only while `owner` still holds the row. */
export interface Attempt {
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: number;
  lastStatus: number | null;
  lastError: string | null;
  now: number;
}

export async function recordAttempt(trx: Trx, id: string, owner: string, a: Attempt): Promise<boolean> {
  const result = await trx
    .updateTable('webhook_outbox')
    .set({
      status: a.status,
      attempts: a.attempts,
      next_attempt_at: a.nextAttemptAt,
      claimed_by: null,
      claim_expires_at: null,
      last_status: a.lastStatus,
      last_error: a.lastError,
      delivered_at: a.status === 'delivered' ? a.now : null,
      updated_at: a.now,
    })
    .where('id', '=', id)
    .where('claimed_by', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Notifications deleted per transaction by purgeFinished. */
export const PURGE_BATCH = 1_000;

/**
 * Forget notifications that ended (delivered, failed, cancelled) before `before`, `batch` at a
 * time, each batch its own transaction with the event loop free in between: an hour of a busy
 * gateway's notifications is hundreds of thousands of rows, and one DELETE of them holds SQLite's
 * only connection (and the event loop) for seconds. Resolves with how many were deleted.
 */
export async function purgeFinished(store: Writer, before: number, batch = PURGE_BATCH): Promise<number> {
  const ended = ['delivered', 'failed', 'cancelled'];
  return deleteInBatches(store, batch, async (trx) => {
    const oldest = trx.selectFrom('webhook_outbox').select('id').where('status', 'in', ended).where('updated_at', '<', before).limit(batch);
    const result = await trx.deleteFrom('webhook_outbox').where('id', 'in', oldest).where('status', 'in', ended).where('updated_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}

/** Give a row back untried (the process is stopping): it is due again at once for anyone. */
export async function releaseClaim(trx: Trx, id: string, owner: string): Promise<void> {
  await trx.updateTable('webhook_outbox').set({ claimed_by: null, claim_expires_at: null }).where('id', '=', id).where('claimed_by', '=', owner).execute();
}
