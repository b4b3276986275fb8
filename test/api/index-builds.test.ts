// Indexes that migrations add to the tables every payment writes (payments, checkouts) are built
// on PostgreSQL with CREATE INDEX CONCURRENTLY after startup, not in the migrations' transaction,
// where the build blocked every write to the table until it committed. Each test has a database
// of its own: a concurrent build waits for every older transaction of its database.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Kysely, Migrator, PostgresDialect, sql, type Migration } from 'kysely';
import pg from 'pg';
import { openStore } from '../../server/store/db.ts';
import { INDEX_BUILD_LOCK, migrations } from '../../server/store/migrations.ts';
import { cardDebit, databaseUrl, freshPostgresDatabase, pgSkip, startGateway } from '../support/gateway.ts';

const BUSY_INDEXES = ['payments_pending_updated', 'checkouts_expires'];

/** The database's migrations run up to `last`, with `replaced` standing in for some of them. */
async function migrateTo(url: string, last: string, replaced: Record<string, Migration> = {}): Promise<void> {
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }) });
  try {
    const provider = { getMigrations: async () => ({ ...migrations, ...replaced }) };
    const { error } = await new Migrator({ db, provider, migrationTableSchema: 'public' }).migrateTo(last);
    assert.equal(error, undefined);
  } finally {
    await db.destroy();
  }
}

async function client(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}

/** A pending payment row as migration 0001 has the table. */
async function insertPayment(c: pg.Client, id: string, currency = 'EUR'): Promise<void> {
  await c.query(
    `insert into payments (id, entity_id, payment_type, method, payment_brand, amount_minor, currency, status, result_code, ndc, details, acquirer, created_at, updated_at)
     values ($1, 'e', 'DB', 'CC', 'VISA', 100, $2, 'pending', '000.200.000', 'n', '{}', '{}', 1, 1)`,
    [id, currency],
  );
}

/** The index of that name in the public schema: its oid, whether it is valid, its definition. */
async function indexState(c: pg.Client, name: string): Promise<{ oid: number; valid: boolean; def: string } | undefined> {
  const { rows } = await c.query(
    `select c.oid::int as oid, i.indisvalid as valid, pg_get_indexdef(c.oid) as def
       from pg_class c join pg_index i on i.indexrelid = c.oid join pg_namespace n on n.oid = c.relnamespace
      where c.relname = $1 and n.nspname = 'public'`,
    [name],
  );
  return rows[0];
}

/** Whether the index of that name is valid, and its definition. */
async function validity(c: pg.Client, name: string): Promise<{ valid: boolean; def: string } | undefined> {
  const state = await indexState(c, name);
  return state && { valid: state.valid, def: state.def };
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) assert.fail(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** The statement of a concurrent build of `name` under way in the database, if any. */
async function buildUnderWay(c: pg.Client, name: string): Promise<string | undefined> {
  const { rows } = await c.query(`select query from pg_stat_activity where datname = current_database() and state = 'active' and query ilike 'create index concurrently%' and query like '%' || $1 || '%'`, [name]);
  return rows[0]?.query;
}

const PENDING_UPDATED_DEF = `CREATE INDEX payments_pending_updated ON public.payments USING btree (updated_at) WHERE ((status)::text = 'pending'::text)`;
const CHECKOUTS_EXPIRES_DEF = 'CREATE INDEX checkouts_expires ON public.checkouts USING btree (expires_at)';

describe('indexes on busy tables: built CONCURRENTLY on PostgreSQL', { skip: pgSkip }, () => {
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  const clients: pg.Client[] = [];
  const open = async () => {
    const c = await client(database.url);
    clients.push(c);
    return c;
  };
  beforeEach(async () => {
    database = await freshPostgresDatabase(databaseUrl!);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.end().catch(() => undefined)));
    await database.drop();
  });

  it('an upgrade leaves payments writable while its migrations wait: their transaction holds no lock on payments', async () => {
    await migrateTo(database.url, '0008_webhook_urls');
    // A reader of checkouts keeps migration 0011's ALTER TABLE checkouts waiting, and with it the
    // commit of the migrations' transaction.
    const reader = await open();
    await reader.query('begin');
    await reader.query('select count(*) from checkouts');
    const opening = openStore({ dataDir: '', databaseUrl: database.url });
    const watcher = await open();
    await waitFor('migration 0011 waiting for its lock', async () => (await watcher.query(`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike 'alter table "checkouts"%'`)).rows[0]);
    const writer = await open();
    await writer.query('set statement_timeout = 3000');
    await insertPayment(writer, 'written-during-migrations');
    assert.equal((await writer.query(`select count(*)::int as n from payments`)).rows[0].n, 1);
    await reader.query('commit');
    const store = await opening;
    assert.deepEqual(await store.indexes, { built: BUSY_INDEXES });
    await store.close();
  });

  it('the index is built CONCURRENTLY once the gateway started, which takes payments while the build is under way', async () => {
    await migrateTo(database.url, '0008_webhook_urls');
    const setup = await open();
    await insertPayment(setup, 'older-pending');
    // A concurrent build waits for every transaction whose snapshot is older than its own: one
    // held open keeps the first build under way.
    const holder = await open();
    await holder.query('begin isolation level repeatable read');
    await holder.query('select 1');
    const gw = await startGateway({ schemaUrl: database.url });
    try {
      const watcher = await open();
      const statement = await waitFor('the build of payments_pending_updated', () => buildUnderWay(watcher, 'payments_pending_updated'));
      assert.equal(statement, `create index concurrently "payments_pending_updated" on payments (updated_at) where status = 'pending'`);
      const paid = await gw.client.post('/v1/payments', cardDebit());
      assert.equal(paid.status, 200);
      assert.equal(paid.body.result.code, '000.100.110');
      assert.equal(await buildUnderWay(watcher, 'payments_pending_updated'), statement, 'the build is still under way');
      assert.equal((await indexState(watcher, 'payments_pending_updated'))?.valid, false);
      await holder.query('commit');
      assert.deepEqual(await gw.running.store.indexes, { built: BUSY_INDEXES });
      assert.deepEqual(await validity(watcher, 'payments_pending_updated'), { valid: true, def: PENDING_UPDATED_DEF });
      assert.deepEqual(await validity(watcher, 'checkouts_expires'), { valid: true, def: CHECKOUTS_EXPIRES_DEF });
      assert.equal((await watcher.query(`select count(*)::int as n from pending_indexes`)).rows[0].n, 0);
      assert.equal((await watcher.query(`select count(*)::int as n from payments where id = $1`, [paid.body.id])).rows[0].n, 1);
    } finally {
      await holder.query('rollback').catch(() => undefined);
      await gw.close();
    }
  });

  it('the INVALID leftover of a failed build is dropped and the index built again, valid', async () => {
    await migrateTo(database.url, '0008_webhook_urls');
    const c = await open();
    await insertPayment(c, 'a');
    await insertPayment(c, 'b');
    // A unique build over two EUR payments fails, and leaves its index behind, INVALID.
    await assert.rejects(c.query('create unique index concurrently payments_pending_updated on payments (currency)'), { code: '23505' });
    assert.equal((await indexState(c, 'payments_pending_updated'))?.valid, false);
    const store = await openStore({ dataDir: '', databaseUrl: database.url });
    try {
      assert.deepEqual(await store.indexes, { built: BUSY_INDEXES });
      assert.deepEqual(await validity(c, 'payments_pending_updated'), { valid: true, def: PENDING_UPDATED_DEF });
    } finally {
      await store.close();
    }
  });

  it('an INVALID index whose build another process holds the lock for is left to it, and built once that lock is free', async () => {
    await migrateTo(database.url, '0008_webhook_urls');
    const other = await open();
    await insertPayment(other, 'a');
    await insertPayment(other, 'b');
    // Another process building: it holds the lock, and its index is INVALID while the build runs
    // (a failed one stands in for it here: both are indisvalid = false).
    await other.query(`select pg_advisory_lock(${INDEX_BUILD_LOCK}, hashtext(current_schema()))`);
    await assert.rejects(other.query('create unique index concurrently payments_pending_updated on payments (currency)'), { code: '23505' });
    const building = (await indexState(other, 'payments_pending_updated'))!;
    const store = await openStore({ dataDir: '', databaseUrl: database.url });
    try {
      await sleep(1500);
      assert.deepEqual(await indexState(other, 'payments_pending_updated'), building, 'the other process\'s index is untouched');
      assert.deepEqual((await other.query('select name from pending_indexes order by name')).rows, [{ name: 'checkouts_expires' }, { name: 'payments_pending_updated' }]);
      await other.query(`select pg_advisory_unlock(${INDEX_BUILD_LOCK}, hashtext(current_schema()))`);
      assert.deepEqual(await store.indexes, { built: BUSY_INDEXES });
      const built = (await indexState(other, 'payments_pending_updated'))!;
      assert.notEqual(built.oid, building.oid);
      assert.deepEqual({ valid: built.valid, def: built.def }, { valid: true, def: PENDING_UPDATED_DEF });
    } finally {
      await store.close();
    }
  });

  it('two gateways starting at once on a fresh database both start, and each index is built once, by one of them, valid', async () => {
    const cardKey = 'c7'.repeat(32);
    const gateways = await Promise.all([startGateway({ schemaUrl: database.url, cardKey }), startGateway({ schemaUrl: database.url, cardKey })]);
    try {
      const outcomes = await Promise.all(gateways.map((gw) => gw.running.store.indexes!));
      assert.deepEqual(
        outcomes.map((o) => o.error),
        [undefined, undefined],
      );
      assert.deepEqual(outcomes.flatMap((o) => o.built).sort(), [...BUSY_INDEXES].sort());
      const c = await open();
      for (const [name, def] of [
        ['payments_pending_updated', PENDING_UPDATED_DEF],
        ['checkouts_expires', CHECKOUTS_EXPIRES_DEF],
      ] as const) {
        assert.deepEqual(await validity(c, name), { valid: true, def });
      }
      assert.equal((await c.query(`select count(*)::int as n from pending_indexes`)).rows[0].n, 0);
      for (const gw of gateways) assert.equal((await gw.client.post('/v1/payments', cardDebit())).status, 200);
    } finally {
      await Promise.all(gateways.map((gw) => gw.close()));
    }
  });

  it('a database that ran 0009 and 0010 before keeps their indexes as they were built: nothing is built again', async () => {
    // 0009 and 0010 as they were: the index built in the migrations' transaction.
    const asBefore: Record<string, Migration> = {
      '0009_reservations': {
        async up(db) {
          await db.schema.alterTable('idempotency_keys').addColumn('payment_id', 'varchar(32)').execute();
          await db.schema.createIndex('payments_pending_updated').on('payments').columns(['updated_at']).where(sql<boolean>`status = 'pending'`).execute();
        },
      },
      '0010_checkouts_expires': {
        async up(db) {
          await db.schema.createIndex('checkouts_expires').on('checkouts').columns(['expires_at']).execute();
        },
      },
    };
    await migrateTo(database.url, '0010_checkouts_expires', asBefore);
    const c = await open();
    const before = await Promise.all(BUSY_INDEXES.map((name) => indexState(c, name)));
    const store = await openStore({ dataDir: '', databaseUrl: database.url });
    try {
      assert.deepEqual(await store.indexes, { built: [] });
      assert.deepEqual(await Promise.all(BUSY_INDEXES.map((name) => indexState(c, name))), before);
      assert.equal((await c.query(`select to_regclass('pending_indexes') as t`)).rows[0].t, null);
    } finally {
      await store.close();
    }
  });
});
