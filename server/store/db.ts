// Opens the store: embedded SQLite (default) or PostgreSQL (DATABASE_URL), both behind Kysely.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type SqliteDatabase, type Transaction } from 'kysely';
import pg from 'pg';
import { migrate } from './migrations.ts';
import type { Database } from './tables.ts';

export type Dialect = 'sqlite' | 'postgres';
export type Trx = Transaction<Database>;
export type WriteUnit<T> = (trx: Trx) => Promise<T>;

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Run a unit of writes atomically; it resolves only after its commit is durable. */
  write<T>(unit: WriteUnit<T>): Promise<T>;
  close(): Promise<void>;
}

// bigint columns hold minor units and epoch milliseconds, both far below 2^53.
pg.types.setTypeParser(20, (value) => Number(value));

export interface StoreOptions {
  dataDir: string;
  databaseUrl?: string;
  /** Connections to PostgreSQL. */
  poolSize?: number;
}

export async function openStore(options: StoreOptions): Promise<Store> {
  const store = options.databaseUrl ? openPostgres(options.databaseUrl, options.poolSize ?? 16) : openSqlite(options.dataDir);
  const schema = store.dialect === 'postgres' ? (await sql<{ schema: string | null }>`select current_schema() as schema`.execute(store.db)).rows[0]?.schema : undefined;
  await migrate(store.db as Kysely<unknown>, schema ?? undefined);
  return store;
}

function openSqlite(dataDir: string): Store {
  mkdirSync(dataDir, { recursive: true });
  const database = new SQLite(join(dataDir, 'gateway.sqlite'));
  database.pragma('journal_mode = WAL');
  // A payment is acknowledged only after its commit reached the disk.
  database.pragma('synchronous = FULL');
  database.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: keepingStatements(database) }) });
  const committer = new GroupCommitter(db, database);
  return {
    db,
    dialect: 'sqlite',
    write: (unit) => committer.write(unit),
    close: () => db.destroy(),
  };
}

/**
 * Kysely's SQLite driver prepares every query anew, even `begin` and `commit`; preparing costs as
 * much as running a small insert. Statements are kept by their SQL (a few dozen distinct ones).
 * Safe to share: the driver runs one query at a time on its single connection.
 */
function keepingStatements(database: SQLite.Database, max = 500): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = database.prepare(sql);
        if (statements.size >= max) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

function openPostgres(connectionString: string, max: number): Store {
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString, max }) }) });
  const committer = new PostgresBatchCommitter(db);
  return {
    db,
    dialect: 'postgres',
    write: (unit) => committer.write(unit),
    close: () => db.destroy(),
  };
}

/**
 * Group commit for PostgreSQL: units waiting while a batch is in flight share one transaction, so
 * a payment costs its own statements and not a BEGIN and COMMIT round trip each (the gateway's
 * CPU goes into socket writes to the database). A few batches run at once on their own
 * connections, so that the database's cores work in parallel. Savepoints would cost the round trips back, so
 * a batch that fails is not kept: every unit of it runs again in a transaction of its own, where
 * a failing unit fails alone. Units are re-runnable by construction (they only write what their
 * request prepared). Row locks serialize references across batches and processes; a deadlock
 * between two batches (PostgreSQL breaks it after deadlock_timeout) only sends them to the per-unit path.
 */
export class PostgresBatchCommitter {
  private queue: Pending[] = [];
  private inFlight = 0;

  constructor(
    private readonly db: Kysely<Database>,
    /** Batches running at once, each on its own connection. */
    private readonly parallel = 4,
  ) {}

  write<T>(unit: WriteUnit<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ unit, resolve: resolve as (value: unknown) => void, reject });
      if (this.inFlight < this.parallel) {
        this.inFlight++;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, Math.max(1, Math.ceil(this.queue.length / (this.parallel - this.inFlight + 1))));
    if (batch.length > 0) await this.commit(batch);
    if (this.queue.length > 0) setImmediate(() => void this.flush());
    else this.inFlight--;
  }

  private async commit(batch: Pending[]): Promise<void> {
    let values: unknown[] | undefined;
    if (batch.length > 1) {
      values = await this.db
        .transaction()
        .execute(async (trx) => {
          const out: unknown[] = [];
          for (const item of batch) out.push(await item.unit(trx));
          return out;
        })
        .catch(() => undefined);
    }
    if (values) batch.forEach((item, i) => item.resolve(values[i]));
    else await Promise.all(batch.map((item) => this.db.transaction().execute(item.unit).then(item.resolve, item.reject)));
  }
}

interface Pending {
  unit: WriteUnit<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for SQLite's single writer: units that arrive while a commit is in flight are
 * committed together in the next transaction, one fsync for all of them. Each unit runs inside
 * its own savepoint, so a failing unit is rolled back alone and never leaves half a payment.
 * The savepoint statements run on the connection directly (the transaction holds it): through
 * Kysely's query pipeline they cost as much as the unit's own insert.
 */
export class GroupCommitter {
  private queue: Pending[] = [];
  private flushing = false;
  private readonly savepoint: { begin: SQLite.Statement; release: SQLite.Statement; rollback: SQLite.Statement };

  constructor(
    private readonly db: Kysely<Database>,
    database: SQLite.Database,
  ) {
    this.savepoint = {
      begin: database.prepare('savepoint unit'),
      release: database.prepare('release savepoint unit'),
      rollback: database.prepare('rollback to savepoint unit'),
    };
  }

  write<T>(unit: WriteUnit<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ unit, resolve: resolve as (value: unknown) => void, reject });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    const outcomes: Array<() => void> = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        const { begin, release, rollback } = this.savepoint;
        for (const item of batch) {
          begin.run();
          try {
            const value = await item.unit(trx);
            release.run();
            outcomes.push(() => item.resolve(value));
          } catch (error) {
            rollback.run();
            release.run();
            outcomes.push(() => item.reject(error));
          }
        }
      });
      for (const settle of outcomes) settle();
    } catch (error) {
      for (const item of batch) item.reject(error);
    }
    if (this.queue.length > 0) setImmediate(() => void this.flush());
    else this.flushing = false;
  }
}
