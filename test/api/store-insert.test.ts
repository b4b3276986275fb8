// Store.insert: rows of concurrent units are committed together (one multi-row INSERT per table on
// PostgreSQL), each unit stays atomic, and one unit's bad row fails that unit alone. SQLite's
// group commit acknowledges a batch only after the WAL's fsync.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { GroupCommitter, multiRowInserts, openStore, type RowInsert, type Store } from '../../server/store/db.ts';
import type { Database } from '../../server/store/tables.ts';
import { paymentRow, type PaymentRecord } from '../../server/store/payments.ts';
import { registrationRow } from '../../server/store/registrations.ts';
import { databaseUrl, freshPostgresSchema, pgSkip } from '../support/gateway.ts';
import { paymentRecord } from '../support/records.ts';

const entityId = '8a8294174b7ecb28014b9699220015ca';

let serial = 0;
function payment(): PaymentRecord {
  serial += 1;
  return paymentRecord({ entityId, amountMinor: 9200 + serial, details: { card: { bin: '420000', last4Digits: '0000' } } });
}

function registration(id: string): RowInsert {
  return registrationRow({ id, entityId, method: 'CC', paymentBrand: 'VISA', status: 'active', details: {}, secret: 'sealed', createdAt: 1, updatedAt: 1 });
}

async function paymentIds(store: Store): Promise<string[]> {
  return (await store.db.selectFrom('payments').select('id').orderBy('id').execute()).map((r) => r.id);
}

function behaves(open: () => Promise<{ store: Store; close(): Promise<void> }>) {
  it('commits the rows of 40 concurrent units, every one readable with its values', async () => {
    const { store, close } = await open();
    try {
      const payments = Array.from({ length: 40 }, () => payment());
      await Promise.all(payments.map((p) => store.insert([paymentRow(p)])));
      assert.deepEqual(await paymentIds(store), payments.map((p) => p.id).sort());
      const row = await store.db.selectFrom('payments').selectAll().where('id', '=', payments[7]!.id).executeTakeFirstOrThrow();
      assert.equal(Number(row.amount_minor), payments[7]!.amountMinor);
      assert.equal(row.details, JSON.stringify(payments[7]!.details));
    } finally {
      await close();
    }
  });

  it('fails only the unit whose row is a duplicate; the units beside it are kept', async () => {
    const { store, close } = await open();
    try {
      const first = payment();
      await store.insert([paymentRow(first)]);
      const others = Array.from({ length: 10 }, () => payment());
      const outcomes = await Promise.allSettled([...others.slice(0, 5), first, ...others.slice(5)].map((p) => store.insert([paymentRow(p)])));
      assert.deepEqual(
        outcomes.map((o) => o.status),
        [...Array(5).fill('fulfilled'), 'rejected', ...Array(5).fill('fulfilled')],
      );
      assert.deepEqual(await paymentIds(store), [first, ...others].map((p) => p.id).sort());
    } finally {
      await close();
    }
  });

  it('keeps a unit of two tables atomic: a duplicate payment leaves no registration behind', async () => {
    const { store, close } = await open();
    try {
      const taken = payment();
      await store.insert([paymentRow(taken)]);
      const registrationId = 'f'.repeat(32);
      await assert.rejects(store.insert([registration(registrationId), paymentRow(taken)]));
      assert.equal(await store.db.selectFrom('registrations').select('id').where('id', '=', registrationId).executeTakeFirst(), undefined);
      const fresh = payment();
      await store.insert([registration(registrationId), paymentRow(fresh)]);
      assert.equal((await store.db.selectFrom('registrations').select('id').where('id', '=', registrationId).executeTakeFirst())?.id, registrationId);
      assert.ok((await paymentIds(store)).includes(fresh.id));
    } finally {
      await close();
    }
  });
}

describe('Store.insert on SQLite', () => {
  behaves(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'store-insert-'));
    const store = await openStore({ dataDir });
    return { store, close: async () => (await store.close(), rmSync(dataDir, { recursive: true, force: true })) };
  });
});

describe('Store.insert on PostgreSQL', { skip: pgSkip }, () => {
  const schemas: Array<{ drop(): Promise<void> }> = [];
  after(async () => {
    for (const schema of schemas) await schema.drop();
  });
  behaves(async () => {
    const schema = await freshPostgresSchema(databaseUrl!);
    schemas.push(schema);
    const store = await openStore({ dataDir: '', databaseUrl: schema.url });
    return { store, close: () => store.close() };
  });
});

describe('Store.write on PostgreSQL', { skip: pgSkip }, () => {
  it('runs again a unit PostgreSQL broke off in a deadlock: both units of a lock cycle commit', async () => {
    const schema = await freshPostgresSchema(databaseUrl!);
    const store = await openStore({ dataDir: '', databaseUrl: schema.url });
    try {
      await sql`create table probe (id int primary key, v int not null)`.execute(store.db);
      await sql`insert into probe values (1, 0), (2, 0)`.execute(store.db);
      // Each unit locks one row, waits until the other holds its own, then asks for the other's: a cycle.
      let locked = 0;
      let bothLocked!: () => void;
      const cycle = new Promise<void>((resolve) => (bothLocked = resolve));
      const unit = (first: number, second: number) => {
        let runs = 0;
        return async (trx: Kysely<Database>) => {
          runs += 1;
          await sql`update probe set v = v + 1 where id = ${first}`.execute(trx);
          if (runs === 1 && ++locked === 2) bothLocked();
          if (runs === 1) await cycle;
          await sql`update probe set v = v + 10 where id = ${second}`.execute(trx);
          return runs;
        };
      };
      const runs = await Promise.all([store.write(unit(1, 2)), store.write(unit(2, 1))]);
      assert.deepEqual([...runs].sort(), [1, 2], 'one unit ran twice, after PostgreSQL ended its first run');
      const rows = await sql<{ id: number; v: number }>`select id, v from probe order by id`.execute(store.db);
      assert.deepEqual(rows.rows, [{ id: 1, v: 11 }, { id: 2, v: 11 }]);
    } finally {
      await store.close();
      await schema.drop();
    }
  });
});

describe('multiRowInserts', () => {
  it('makes one prepared INSERT per table and column set, rows in order, values bound in column order', () => {
    const [a, b, c] = [payment(), payment(), payment()];
    const statements = multiRowInserts([registration('e'.repeat(32)), paymentRow(a), paymentRow(b), registration('d'.repeat(32)), paymentRow(c)]);
    assert.equal(statements.length, 2);
    const [registrations, payments] = statements as [any, any];
    assert.match(registrations.text, /^insert into "registrations" \("id", "entity_id", .*\) values \(\$1, .*\), \(\$10, .*\$18\)$/);
    assert.deepEqual([registrations.values[0], registrations.values[9]], ['e'.repeat(32), 'd'.repeat(32)]);
    const columns = Object.keys(paymentRow(a).row).length;
    assert.equal(payments.values.length, 3 * columns);
    assert.deepEqual([payments.values[0], payments.values[columns], payments.values[2 * columns]], [a.id, b.id, c.id]);
    assert.match(payments.text, new RegExp(`\\(\\$${2 * columns + 1}, [^)]*\\$${3 * columns}\\)$`));
    assert.ok(payments.name, 'a usual batch size is a named (prepared) statement');
  });

  it('splits a table’s rows so that no statement binds more than 65535 parameters', () => {
    const rows = Array.from({ length: 4000 }, () => paymentRow(payment()));
    const statements = multiRowInserts(rows);
    assert.ok(statements.length >= 2);
    for (const s of statements) assert.ok((s.values as unknown[]).length <= 65_535);
    assert.equal(statements.reduce((n, s) => n + (s.values as unknown[]).length, 0), rows.length * Object.keys(rows[0]!.row).length);
  });
});

describe('GroupCommitter (SQLite)', () => {
  it('acknowledges a committed batch only after the WAL sync resolved; the next batch gathers meanwhile and commits after it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'group-commit-'));
    const database = new SQLite(join(dataDir, 'g.sqlite'));
    database.pragma('journal_mode = WAL');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
    await sql`create table t (id integer primary key)`.execute(db);
    const syncs: Array<() => void> = [];
    const committer = new GroupCommitter(db, database, () => new Promise<void>((resolve) => syncs.push(resolve)));
    const reader = new SQLite(join(dataDir, 'g.sqlite'), { readonly: true });
    const rows = () => (reader.prepare('select count(*) as n from t').get() as { n: number }).n;
    const turns = async (n: number) => {
      for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    try {
      let firstDone = false;
      const first = committer.write((trx) => sql`insert into t values (1)`.execute(trx)).then(() => (firstDone = true));
      while (syncs.length < 1) await turns(1);
      // Committed (another connection sees it) but not acknowledged before its sync.
      assert.equal(rows(), 1);
      assert.equal(firstDone, false);
      // Two more units arrive while the sync runs: they wait, then share one commit and one sync.
      const later = [2, 3].map((id) => committer.write((trx) => sql`insert into t values (${id})`.execute(trx)));
      await turns(20);
      assert.equal(rows(), 1);
      assert.equal(syncs.length, 1);
      syncs[0]!();
      await first;
      while (syncs.length < 2) await turns(1);
      assert.equal(rows(), 3);
      syncs[1]!();
      await Promise.all(later);
      assert.equal(syncs.length, 2);
    } finally {
      reader.close();
      await db.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('rejects the batch when the sync fails: nothing is acknowledged that may not be on disk', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'group-commit-'));
    const database = new SQLite(join(dataDir, 'g.sqlite'));
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
    await sql`create table t (id integer primary key)`.execute(db);
    const committer = new GroupCommitter(db, database, () => Promise.reject(new Error('EIO')));
    try {
      await assert.rejects(committer.write((trx) => sql`insert into t values (1)`.execute(trx)), /EIO/);
    } finally {
      await db.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
