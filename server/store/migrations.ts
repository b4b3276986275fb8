// One set of migrations, written once with Kysely's schema builder, for SQLite and PostgreSQL.
// Every table carries entity_id so that a distributed PostgreSQL can shard by entity.
import { setTimeout as sleep } from 'node:timers/promises';
import { Migrator, PostgresAdapter, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';

/**
 * One receiver's URL as migration 0008 wrote it: the API's canonical form of that day (routes/
 * webhooks.ts › canonicalUrl), frozen here so that the migration does what it did whatever that
 * function becomes. WHATWG URL's form, no trailing dot on the host, no fragment, no empty query.
 */
function receiverUrl(url: string): string {
  const parsed = URL.parse(url);
  if (!parsed) return url;
  if (parsed.hostname.endsWith('.')) parsed.hostname = parsed.hostname.slice(0, -1);
  parsed.hash = '';
  return parsed.search === '' ? parsed.href.replace(/\?$/, '') : parsed.href;
}

/**
 * A new index on a table every payment writes (payments, checkouts), which may be large: `definition`
 * is what follows `create index <name>`. SQLite builds it here (it has one writer and no concurrent
 * build). On PostgreSQL a plain build in the migrations' transaction would block every write to the
 * table until that transaction commits, minutes on a large table: the migration records the index
 * in pending_indexes instead (in its transaction, so only with the migration), and
 * buildPendingIndexes builds it CONCURRENTLY once the migrations ran, while the gateway serves.
 * A later migration cannot count on such an index; one that drops it deletes its row too.
 */
async function busyTableIndex(db: Kysely<unknown>, name: string, definition: string): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    await sql.raw(`create index "${name}" ${definition}`).execute(db);
    return;
  }
  // Bookkeeping, as Kysely's own tables are: no entity_id. seq: the order the migrations ran in.
  await sql`create table if not exists pending_indexes (name varchar(63) primary key, definition text not null, seq integer generated always as identity, created_at bigint not null)`.execute(db);
  await sql`insert into pending_indexes (name, definition, created_at) values (${name}, ${definition}, ${Date.now()})`.execute(db);
}

export const migrations: Record<string, Migration> = {
  '0001_payments_registrations_idempotency': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('payments')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('entity_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('payment_type', 'varchar(2)', (c) => c.notNull())
        .addColumn('method', 'varchar(2)', (c) => c.notNull())
        .addColumn('payment_brand', 'varchar(32)', (c) => c.notNull())
        .addColumn('amount_minor', 'bigint', (c) => c.notNull())
        .addColumn('currency', 'varchar(3)', (c) => c.notNull())
        .addColumn('status', 'varchar(10)', (c) => c.notNull())
        .addColumn('result_code', 'varchar(11)', (c) => c.notNull())
        .addColumn('referenced_id', 'varchar(32)')
        .addColumn('registration_id', 'varchar(32)')
        .addColumn('sequence', 'varchar(10)')
        .addColumn('number_of_captures', 'integer')
        .addColumn('merchant_transaction_id', 'varchar(255)')
        .addColumn('ndc', 'varchar(69)', (c) => c.notNull())
        .addColumn('details', 'text', (c) => c.notNull())
        .addColumn('acquirer', 'text', (c) => c.notNull())
        .addColumn('test_mode', 'varchar(10)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payments_referenced').on('payments').columns(['referenced_id']).execute();
      await db.schema.createIndex('payments_entity_created').on('payments').columns(['entity_id', 'created_at']).execute();
      await db.schema.createIndex('payments_entity_merchant_tx').on('payments').columns(['entity_id', 'merchant_transaction_id']).execute();

      await db.schema
        .createTable('registrations')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('entity_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('method', 'varchar(2)', (c) => c.notNull())
        .addColumn('payment_brand', 'varchar(32)', (c) => c.notNull())
        .addColumn('status', 'varchar(10)', (c) => c.notNull())
        .addColumn('details', 'text', (c) => c.notNull())
        .addColumn('secret', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('entity_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('key', 'varchar(255)', (c) => c.notNull())
        .addColumn('operation', 'varchar(64)', (c) => c.notNull())
        .addColumn('request_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('status', 'varchar(10)', (c) => c.notNull())
        .addColumn('http_status', 'integer')
        .addColumn('response', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['entity_id', 'key'])
        .execute();
      await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').columns(['created_at']).execute();
    },
  },
  // Checkouts of the payment widget: the merchant's prepared request and its state (open,
  // processing, paid, cancelled; expiry is read from expires_at, never written).
  '0002_checkouts': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('checkouts')
        .addColumn('id', 'varchar(48)', (c) => c.primaryKey())
        .addColumn('entity_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('status', 'varchar(10)', (c) => c.notNull())
        .addColumn('request', 'text', (c) => c.notNull())
        .addColumn('payment_id', 'varchar(32)')
        .addColumn('registration_id', 'varchar(32)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('checkouts_entity_created').on('checkouts').columns(['entity_id', 'created_at']).execute();
    },
  },
  // Redirect steps of pending payments: 3-D Secure authentications (of a payment, or standalone)
  // and approvals at a simulated provider's page. The account a payment needs after the step is
  // kept vault-sealed in `secret` while the step is open, and wiped when it ends.
  '0003_threeds': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('threeds')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('entity_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('kind', 'varchar(12)', (c) => c.notNull())
        .addColumn('status', 'varchar(12)', (c) => c.notNull())
        .addColumn('path', 'varchar(16)', (c) => c.notNull())
        .addColumn('payment_id', 'varchar(32)')
        .addColumn('checkout_id', 'varchar(48)')
        .addColumn('payment_brand', 'varchar(32)', (c) => c.notNull())
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('result_code', 'varchar(11)')
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('secret', 'text')
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('threeds_status_expires').on('threeds').columns(['status', 'expires_at']).execute();
      await db.schema.createIndex('threeds_payment').on('threeds').columns(['payment_id']).execute();
      await db.schema.createIndex('threeds_entity_created').on('threeds').columns(['entity_id', 'created_at']).execute();
    },
  },
  // Webhooks registered through the API (the merchants file's apply too), and the outbox of
  // notifications: one row per notification and webhook URL, written in the commit of the change
  // it reports, encrypted for its webhook; delivery claims due rows with a lease (claimed_by and
  // claim_expires_at), so that several processes deliver each once and a crashed claimer's
  // rows come back when its lease runs out.
  '0004_webhooks': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('webhooks')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('entity_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('url', 'varchar(2048)', (c) => c.notNull())
        .addColumn('wrapper', 'varchar(8)', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(10)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhooks_entity').on('webhooks').columns(['entity_id', 'status']).execute();

      await db.schema
        .createTable('webhook_outbox')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('entity_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('webhook_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('url', 'varchar(2048)', (c) => c.notNull())
        .addColumn('event_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('event_action', 'varchar(16)', (c) => c.notNull())
        .addColumn('resource_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('content_type', 'varchar(32)', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('iv', 'varchar(24)', (c) => c.notNull())
        .addColumn('tag', 'varchar(32)', (c) => c.notNull())
        .addColumn('status', 'varchar(10)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('claimed_by', 'varchar(64)')
        .addColumn('claim_expires_at', 'bigint')
        .addColumn('last_status', 'integer')
        .addColumn('last_error', 'varchar(255)')
        .addColumn('delivered_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_outbox_due').on('webhook_outbox').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('webhook_outbox_webhook').on('webhook_outbox').columns(['webhook_id', 'status']).execute();
      await db.schema.createIndex('webhook_outbox_entity_created').on('webhook_outbox').columns(['entity_id', 'created_at']).execute();
      await db.schema.createIndex('webhook_outbox_status_updated').on('webhook_outbox').columns(['status', 'updated_at']).execute();
    },
  },
  // Scheduled subscription payments (job.*): a registration paid on a Quartz schedule. next_run_at
  // is the next occurrence; a process fires it only if its conditional UPDATE advanced next_run_at
  // from that value, so several processes on one database fire each occurrence once.
  '0005_schedules': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('schedules')
        .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('entity_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('registration_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('status', 'varchar(10)', (c) => c.notNull())
        .addColumn('expression', 'varchar(256)', (c) => c.notNull())
        .addColumn('request', 'text', (c) => c.notNull())
        .addColumn('start_at', 'bigint')
        .addColumn('end_at', 'bigint')
        .addColumn('next_run_at', 'bigint')
        .addColumn('firings', 'integer', (c) => c.notNull())
        .addColumn('last_run_at', 'bigint')
        .addColumn('last_payment_id', 'varchar(32)')
        .addColumn('last_result_code', 'varchar(11)')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('schedules_due').on('schedules').columns(['status', 'next_run_at']).execute();
      await db.schema.createIndex('schedules_entity_created').on('schedules').columns(['entity_id', 'created_at']).execute();
    },
  },
  // A keyed digest of the CARD_KEY the database's registrations are sealed with, so that a process
  // started with another key refuses to start instead of sealing cards no other process can open.
  // One gateway-wide row: entity_id '' (every table carries the column).
  '0006_card_key_check': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('card_key_check')
        .addColumn('entity_id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('digest', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  // Exactly-once schedules: claimed_at is when the firing of last_run_at was claimed, null once it
  // is recorded (in the payment's commit). A firing left unrecorded past the scheduler's lease was
  // never paid, and is taken over by another claim of the same occurrence. Firings left unrecorded
  // before this migration stay as they were (null): they were claimed under the at-most-once rule.
  // The index serves the poll's search for stale claims (only firings in flight are not null).
  '0007_schedule_claims': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('schedules').addColumn('claimed_at', 'bigint').execute();
      await db.schema.createIndex('schedules_claimed').on('schedules').columns(['claimed_at']).execute();
    },
  },
  // One active webhook per entity and URL: two POSTs of one URL at once, or on two processes,
  // could both pass the API's check and register it twice, each notification then sent twice.
  // Twins registered before, however spelt (the API's notion of one receiver grew over time), are
  // ended first, the oldest kept with its URL written canonical, with their notifications not yet
  // delivered, as a DELETE ends them.
  '0008_webhook_urls': {
    async up(db: Kysely<unknown>) {
      const now = Date.now();
      const { rows } = await sql<{ id: string; entity_id: string; url: string }>`SELECT id, entity_id, url FROM webhooks WHERE status = 'active' ORDER BY created_at, id`.execute(db);
      const kept = new Set<string>();
      for (const row of rows) {
        const url = receiverUrl(row.url);
        const key = `${row.entity_id} ${url}`;
        if (!kept.has(key)) {
          kept.add(key);
          if (url !== row.url) await sql`UPDATE webhooks SET url = ${url}, updated_at = ${now} WHERE id = ${row.id}`.execute(db);
          continue;
        }
        await sql`UPDATE webhook_outbox SET status = 'cancelled', claimed_by = NULL, claim_expires_at = NULL, updated_at = ${now} WHERE webhook_id = ${row.id} AND status = 'pending'`.execute(db);
        await sql`UPDATE webhooks SET status = 'deleted', updated_at = ${now} WHERE id = ${row.id}`.execute(db);
      }
      await db.schema.createIndex('webhooks_entity_url').on('webhooks').columns(['entity_id', 'url']).unique().where(sql<boolean>`status = 'active'`).execute();
    },
  },
  // Reservations a process left when it stopped between its two commits (payments/reference.ts):
  // the keyed request's record names the payment it reserved, so that a retry taking the key over
  // finishes that payment instead of making another; the partial index finds the pending ones.
  // Databases that ran this before busyTableIndex existed got the index by a plain build.
  '0009_reservations': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('idempotency_keys').addColumn('payment_id', 'varchar(32)').execute();
      await busyTableIndex(db, 'payments_pending_updated', `on payments (updated_at) where status = 'pending'`);
    },
  },
  // Checkouts are deleted some time after they expired (store/checkouts.ts › purgeEndedCheckouts):
  // the index lets the hourly purge read only the oldest, not the whole table. Redirect steps'
  // purge uses threeds_status_expires (0003). Built as 0009's index is.
  '0010_checkouts_expires': {
    async up(db: Kysely<unknown>) {
      await busyTableIndex(db, 'checkouts_expires', 'on checkouts (expires_at)');
    },
  },
  // A checkout's declined payment attempts, counted in each decline's commit: the one that reaches
  // store/checkouts.ts › CHECKOUT_DECLINES_LIMIT ends the checkout as expired. Checkouts made
  // before count from 0.
  '0011_checkout_declines': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('checkouts').addColumn('declines', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
  },
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * `migrationTableSchema`: the schema of Kysely's own bookkeeping tables. Under PostgreSQL pass the
 * connection's current schema: without it Kysely looks for its lock table in every schema of the
 * database and, when another schema already has one, never creates its own.
 */
export async function migrate(db: Kysely<unknown>, migrationTableSchema?: string): Promise<void> {
  const { error, results } = await new Migrator({ db, provider, migrationTableSchema }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

/**
 * The advisory lock a process holds while it builds pending indexes: this key and
 * hashtext(current_schema()), so that schemas of one database build apart. Any constant no other
 * lock uses.
 */
export const INDEX_BUILD_LOCK = 1_885_436_209;
const LOCK_POLL_MS = 500;
/** PostgreSQL's codes for a statement it ended so that another could go on: deadlock_detected, serialization_failure. */
const BROKEN_OFF = new Set(['40P01', '40001']);
const BUILD_ATTEMPTS = 3;

/** What buildPendingIndexes did: the indexes this process built, and the error that stopped it. */
export interface IndexBuilds {
  built: string[];
  error?: Error;
}

/**
 * PostgreSQL: builds the indexes migrations recorded in pending_indexes (busyTableIndex), each with
 * CREATE INDEX CONCURRENTLY, which lets the table take writes meanwhile but cannot run in a
 * transaction (so not in a migration), and deletes each row once its index is valid. Run on a
 * connection without query timeouts, after the migrations; never rejects.
 *
 * One process of a schema builds at a time, holding a session advisory lock: a concurrent build
 * under way is INVALID (indisvalid = false) until it ends, just as the leftover of a failed one
 * is, and only the lock tells them apart. A leftover found under the lock is a failed build's
 * (a process killed mid-build keeps its session, and the lock, until the server ends the
 * build): it is dropped and the index built again. The lock is polled, never waited for: a
 * session waiting in pg_advisory_lock holds a snapshot, which the holder's concurrent build
 * waits for in turn, a deadlock. `signal` stops the polling and any further build; a build under
 * way runs to its end.
 */
export async function buildPendingIndexes(db: Kysely<unknown>, signal: AbortSignal): Promise<IndexBuilds> {
  const built: string[] = [];
  try {
    await db.connection().execute(async (conn) => {
      if ((await pendingIndexes(conn)).length === 0) return;
      while (!(await sql<{ locked: boolean }>`select pg_try_advisory_lock(${sql.lit(INDEX_BUILD_LOCK)}, hashtext(current_schema())) as locked`.execute(conn)).rows[0]?.locked) {
        await sleep(LOCK_POLL_MS, undefined, { signal });
      }
      try {
        for (const { name, definition } of await pendingIndexes(conn)) {
          if (signal.aborted) break;
          if (await buildIndex(conn, name, definition)) built.push(name);
          await sql`delete from pending_indexes where name = ${name}`.execute(conn);
        }
      } finally {
        await sql`select pg_advisory_unlock(${sql.lit(INDEX_BUILD_LOCK)}, hashtext(current_schema()))`.execute(conn);
      }
    });
    return { built };
  } catch (error) {
    return signal.aborted && (error as Error).name === 'AbortError' ? { built } : { built, error: error as Error };
  }
}

async function pendingIndexes(db: Kysely<unknown>): Promise<Array<{ name: string; definition: string }>> {
  const { rows } = await sql<{ present: boolean }>`select to_regclass(format('%I.pending_indexes', current_schema())) is not null as present`.execute(db);
  if (!rows[0]?.present) return [];
  return (await sql<{ name: string; definition: string }>`select name, definition from pending_indexes order by seq`.execute(db)).rows;
}

/** Under the build lock: builds the index unless it is there and valid (built before this process could delete its row); false if it was. */
async function buildIndex(db: Kysely<unknown>, name: string, definition: string): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    const { rows } = await sql<{ schema: string; valid: boolean | null }>`
      select current_schema() as schema,
        (select i.indisvalid from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
          where c.relname = ${name} and n.nspname = current_schema()) as valid`.execute(db);
    const { schema, valid } = rows[0]!;
    if (valid) return false;
    try {
      if (valid === false) await sql`drop index concurrently ${sql.id(schema, name)}`.execute(db);
      await sql`create index concurrently ${sql.id(name)} ${sql.raw(definition)}`.execute(db);
      return true;
    } catch (error) {
      if (attempt >= BUILD_ATTEMPTS || !BROKEN_OFF.has((error as { code?: string }).code ?? '')) throw error;
    }
  }
}
