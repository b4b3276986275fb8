// Idempotency records: the first response to a key, replayed for retries within 24 hours.
import { sql, type Kysely } from 'kysely';
import { deleteInBatches, preparedQuery, type Trx, type Writer } from './db.ts';
import type { Database, IdempotencyKeysTable } from './tables.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A claim still pending after this long was left by a process that stopped mid-request (no
 * request runs for minutes): a retry takes it over. The claim's time fences the first holder out.
 */
export const IDEMPOTENCY_LEASE_MS = 5 * 60 * 1000;

export interface IdempotencyRecord {
  operation: string;
  requestHash: string;
  status: 'pending' | 'done';
  httpStatus: number | null;
  response: string | null;
  createdAt: number;
  /** The payment the request reserved before its answer (payments/reference.ts). */
  paymentId: string | null;
}

// The queries of every idempotent request, compiled once (store/db.ts › preparedQuery).
const claim = preparedQuery<'entityId' | 'key' | 'operation' | 'requestHash' | 'now' | 'expiredBefore' | 'abandonedBefore', { payment_id: string | null }>((db, p) =>
  db
    .insertInto('idempotency_keys')
    .values({ entity_id: p.entityId, key: p.key, operation: p.operation, request_hash: p.requestHash, status: 'pending', http_status: null, response: null, created_at: p.now })
    // An expired record no longer protects anything, nor does an abandoned claim: it is replaced;
    // a live one keeps the key taken.
    .onConflict((oc) =>
      oc
        .columns(['entity_id', 'key'])
        .doUpdateSet({
          operation: p.operation,
          request_hash: p.requestHash,
          status: 'pending',
          http_status: null,
          response: null,
          created_at: p.now,
          // A retry taking over an abandoned claim finishes the payment that claim reserved.
          payment_id: sql<string | null>`case when idempotency_keys.created_at < ${p.expiredBefore} then null else idempotency_keys.payment_id end`,
        })
        .where((eb) =>
          eb.or([
            eb('idempotency_keys.created_at', '<', p.expiredBefore),
            // Taken over only by the same request: another one's answer is a 400 (the caller's wait loop).
            eb.and([
              eb('idempotency_keys.status', '=', 'pending'),
              eb('idempotency_keys.created_at', '<', p.abandonedBefore),
              eb('idempotency_keys.request_hash', '=', p.requestHash),
              eb('idempotency_keys.operation', '=', p.operation),
            ]),
          ]),
        ),
    )
    // A row only when claimed (a live record is left as it is).
    .returning('payment_id'),
);
const find = preparedQuery<'entityId' | 'key', IdempotencyKeysTable>((db, p) => db.selectFrom('idempotency_keys').selectAll().where('entity_id', '=', p.entityId).where('key', '=', p.key));
// Both only for the claim of claimedAt: a holder whose claim was taken over changes nothing.
const complete = preparedQuery<'entityId' | 'key' | 'httpStatus' | 'response' | 'claimedAt'>((db, p) =>
  db
    .updateTable('idempotency_keys')
    .set({ status: 'done', http_status: p.httpStatus, response: p.response })
    .where('entity_id', '=', p.entityId)
    .where('key', '=', p.key)
    .where('status', '=', 'pending')
    .where('created_at', '=', p.claimedAt),
);
const release = preparedQuery<'entityId' | 'key' | 'claimedAt'>((db, p) =>
  db.deleteFrom('idempotency_keys').where('entity_id', '=', p.entityId).where('key', '=', p.key).where('status', '=', 'pending').where('created_at', '=', p.claimedAt),
);

/**
 * Claim a key at `now` (the claim's time, which completeKey and releaseKey name); undefined when
 * it is taken (by a finished or a running request). `reserved`: the payment an abandoned claim
 * this one took over had reserved (linkKeyToPayment).
 */
export async function claimKey(trx: Trx, entityId: string, key: string, operation: string, requestHash: string, now: number): Promise<{ reserved: string | null } | undefined> {
  const { rows } = await claim(trx, { entityId, key, operation, requestHash, now, expiredBefore: now - IDEMPOTENCY_TTL_MS, abandonedBefore: now - IDEMPOTENCY_LEASE_MS });
  return rows.length === 1 ? { reserved: rows[0]!.payment_id } : undefined;
}

export async function findKey(db: Kysely<Database> | Trx, entityId: string, key: string): Promise<IdempotencyRecord | undefined> {
  const row = (await find(db, { entityId, key })).rows[0];
  if (!row) return undefined;
  return {
    operation: row.operation,
    requestHash: row.request_hash,
    status: row.status as IdempotencyRecord['status'],
    httpStatus: row.http_status,
    response: row.response,
    createdAt: Number(row.created_at),
    paymentId: row.payment_id,
  };
}

/** The claim of `claimedAt` reserved this payment: in the reservation's commit. */
export async function linkKeyToPayment(trx: Trx, entityId: string, key: string, claimedAt: number, paymentId: string): Promise<void> {
  await trx
    .updateTable('idempotency_keys')
    .set({ payment_id: paymentId })
    .where('entity_id', '=', entityId)
    .where('key', '=', key)
    .where('status', '=', 'pending')
    .where('created_at', '=', claimedAt)
    .execute();
}

/**
 * Records the answer of the claim of `claimedAt`. Throws when that claim was taken over (its
 * holder stalled past the lease): the transaction it is part of, the payment too, rolls back.
 */
export async function completeKey(trx: Trx, entityId: string, key: string, httpStatus: number, response: string, claimedAt: number): Promise<void> {
  const result = await complete(trx, { entityId, key, httpStatus, response, claimedAt });
  if (Number(result.numAffectedRows ?? 0n) !== 1) throw new Error('the Idempotency-Key claim of this request was taken over by a retry');
}

/** A request that failed before it could answer frees its key for a retry (unless a retry already took it over). */
export async function releaseKey(trx: Trx, entityId: string, key: string, claimedAt: number): Promise<void> {
  await release(trx, { entityId, key, claimedAt });
}

/** Records deleted per transaction by purgeExpiredKeys. */
export const PURGE_BATCH = 1_000;

/**
 * Delete the expired records, `batch` at a time, each batch its own transaction with the event
 * loop free in between: a day's keys of a busy gateway are hundreds of thousands, and one DELETE
 * of them all holds SQLite's only connection (and the event loop, better-sqlite3 being
 * synchronous) for seconds, every request with it. Resolves with how many were deleted.
 */
export async function purgeExpiredKeys(store: Writer, now: number, batch = PURGE_BATCH): Promise<number> {
  const expiredBefore = now - IDEMPOTENCY_TTL_MS;
  return deleteInBatches(store, batch, async (trx) => {
    const oldest = trx.selectFrom('idempotency_keys').select(['entity_id', 'key']).where('created_at', '<', expiredBefore).limit(batch);
    const result = await trx
      .deleteFrom('idempotency_keys')
      .where((eb) => eb(eb.refTuple('entity_id', 'key'), 'in', oldest.$asTuple('entity_id', 'key')))
      .where('created_at', '<', expiredBefore)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}

/**
 * A merchant's key as stored: a keyed digest (the card key's), never the key itself, which may
 * hold anything, even a card number; a plain hash of a card number is no protection.
 */
export const merchantKey = (digest: (data: string) => string, key: string): string => `merchant/${digest(`idempotency-key:${key}`)}`;

/**
 * A shopper's key (checkout:{id}/ and 43 characters) or a merchant's as merchantKey writes it
 * (merchant/ and 64), told in SQL by its prefix and shape, case-sensitive in both databases, so
 * that every start reads only the keys left as sent, not the whole day's. A merchant's own key of
 * exactly that shape would pass for hashed.
 */
// A key shorter than 44 characters is no shopper's: substr from a position below 1 counts from
// the end in SQLite and from nowhere in PostgreSQL, so that one key would be told otherwise by each.
const HASHED = sql<boolean>`((substr(${sql.ref('key')}, 1, 9) = 'merchant/' and length(${sql.ref('key')}) = 73) or (substr(${sql.ref('key')}, 1, 9) = 'checkout:' and length(${sql.ref('key')}) > 43 and substr(${sql.ref('key')}, length(${sql.ref('key')}) - 43, 1) = '/'))`;

/**
 * Merchants' keys kept as sent by an earlier version, rewritten as merchantKey at startup (a
 * migration has no card key), so that a retry across the upgrade still finds its record; expired
 * records are dropped first. A key rewritten meanwhile by another process is left; one whose
 * digest is already there (written by this version, even between the check and the rename)
 * gives way to it. Answers stay sealed as they were: their context names the key as sent, which
 * the pipeline still uses. Old processes must be stopped first: what they write after this ran is
 * not found by this version.
 */
export async function hashMerchantKeys(
  store: { db: Kysely<Database>; write<T>(unit: (trx: Trx) => Promise<T>): Promise<T> },
  digest: (data: string) => string,
  now: number,
): Promise<number> {
  await purgeExpiredKeys(store, now);
  // One a merchant sent may look like a namespace (checkout:…, merchant/…) and still be as sent.
  const asSent = await store.db.selectFrom('idempotency_keys').select(['entity_id', 'key']).where((eb) => eb.not(HASHED)).execute();
  let rewritten = 0;
  for (const row of asSent) {
    const hashed = merchantKey(digest, row.key);
    const taken = (trx: Trx) => trx.selectFrom('idempotency_keys').select('key').where('entity_id', '=', row.entity_id).where('key', '=', hashed).executeTakeFirst();
    // Its digest is there already: that record stands, this one goes.
    const giveWay = async (trx: Trx) => {
      if (!(await taken(trx))) throw new Error(`an Idempotency-Key of entity ${row.entity_id} could not be rewritten`);
      await trx.deleteFrom('idempotency_keys').where('entity_id', '=', row.entity_id).where('key', '=', row.key).execute();
      return 0;
    };
    const rename = async (trx: Trx) => {
      const result = await trx.updateTable('idempotency_keys').set({ key: hashed }).where('entity_id', '=', row.entity_id).where('key', '=', row.key).executeTakeFirst();
      return Number(result.numUpdatedRows);
    };
    // The rename fails on the unique key when the digest was claimed meanwhile (another process, a request).
    rewritten += await store.write(async (trx) => ((await taken(trx)) ? giveWay(trx) : rename(trx))).catch(() => store.write(giveWay));
  }
  return rewritten;
}
