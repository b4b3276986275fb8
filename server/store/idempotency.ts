// Idempotency records: the first response to a key, replayed for retries within 24 hours.
import type { Kysely } from 'kysely';
import type { Trx } from './db.ts';
import type { Database } from './tables.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface IdempotencyRecord {
  operation: string;
  requestHash: string;
  status: 'pending' | 'done';
  httpStatus: number | null;
  response: string | null;
  createdAt: number;
}

/** Claim a key; false when it is already taken (by a finished or a running request). */
export async function claimKey(trx: Trx, entityId: string, key: string, operation: string, requestHash: string, now: number): Promise<boolean> {
  // An expired record no longer protects anything: it is replaced.
  await trx.deleteFrom('idempotency_keys').where('entity_id', '=', entityId).where('key', '=', key).where('created_at', '<', now - IDEMPOTENCY_TTL_MS).execute();
  const result = await trx
    .insertInto('idempotency_keys')
    .values({ entity_id: entityId, key, operation, request_hash: requestHash, status: 'pending', http_status: null, response: null, created_at: now })
    .onConflict((oc) => oc.columns(['entity_id', 'key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export async function findKey(db: Kysely<Database> | Trx, entityId: string, key: string): Promise<IdempotencyRecord | undefined> {
  const row = await db.selectFrom('idempotency_keys').selectAll().where('entity_id', '=', entityId).where('key', '=', key).executeTakeFirst();
  if (!row) return undefined;
  return {
    operation: row.operation,
    requestHash: row.request_hash,
    status: row.status as IdempotencyRecord['status'],
    httpStatus: row.http_status,
    response: row.response,
    createdAt: Number(row.created_at),
  };
}

export async function completeKey(trx: Trx, entityId: string, key: string, httpStatus: number, response: string): Promise<void> {
  await trx
    .updateTable('idempotency_keys')
    .set({ status: 'done', http_status: httpStatus, response })
    .where('entity_id', '=', entityId)
    .where('key', '=', key)
    .execute();
}

/** A request that failed before it could answer frees its key for a retry. */
export async function releaseKey(trx: Trx, entityId: string, key: string): Promise<void> {
  await trx.deleteFrom('idempotency_keys').where('entity_id', '=', entityId).where('key', '=', key).where('status', '=', 'pending').execute();
}

export async function purgeExpiredKeys(trx: Trx, now: number): Promise<number> {
  const result = await trx.deleteFrom('idempotency_keys').where('created_at', '<', now - IDEMPOTENCY_TTL_MS).executeTakeFirst();
  return Number(result.numDeletedRows);
}
