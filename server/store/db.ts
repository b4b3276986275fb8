// Opens the store: embedded SQLite (default) or PostgreSQL (DATABASE_URL), both behind Kysely.
import { closeSync, fsync, mkdirSync, openSync } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, sql, type Compilable, type Insertable, type QueryResult, type SqliteDatabase, type Transaction } from 'kysely';
import pg from 'pg';
import { buildPendingIndexes, migrate, type IndexBuilds } from './migrations.ts';
import type { Database } from './tables.ts';

export type Dialect = 'sqlite' | 'postgres';
export type Trx = Transaction<Database>;
export type WriteUnit<T> = (trx: Trx) => Promise<T>;

/** What a purge needs of the store: its writes. */
export type Writer = Pick<Store, 'write'>;

/**
 * A purge: `deleteBatch` deletes at most `batch` rows and says how many, each batch its own unit
 * (transaction), with the event loop free in between, until a batch comes back short: one DELETE
 * of a large backlog would hold SQLite's only connection (and the event loop) for seconds.
 * Resolves with how many rows went.
 */
export async function deleteInBatches(store: Writer, batch: number, deleteBatch: (trx: Trx) => Promise<number>): Promise<number> {
  let deleted = 0;
  for (;;) {
    const count = await store.write(deleteBatch);
    deleted += count;
    if (count < batch) return deleted;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** One new row of one table. */
export type RowInsert = { [K in keyof Database]: { table: K; row: Insertable<Database[K]> } }[keyof Database];

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Run a unit of writes atomically; it resolves only after its commit is durable. */
  write<T>(unit: WriteUnit<T>): Promise<T>;
  /**
   * Insert rows atomically, durable when it resolves: the same as a write unit that inserts them,
   * but the PostgreSQL committer merges the rows of concurrent units into one multi-row INSERT.
   */
  insert(rows: RowInsert[]): Promise<void>;
  /**
   * PostgreSQL: `onChange` runs whenever any process commits a NOTIFY on `channel` (notifyOf), and
   * after a lost connection is back (what it said meanwhile is lost); resolves with the stop.
   * SQLite has no such thing: undefined.
   */
  listen?(channel: string, onChange: () => void): Promise<() => Promise<void>>;
  /**
   * PostgreSQL: the concurrent build of the indexes the migrations left to it (migrations.ts ›
   * buildPendingIndexes), under way while the store serves; it never rejects. SQLite: undefined.
   */
  indexes?: Promise<IndexBuilds>;
  /** Closes the store; on PostgreSQL an index build under way is waited for. */
  close(): Promise<void>;
}

/** In a write unit: tell every process listening on `channel` once the unit commits (PostgreSQL only). */
export async function notifyOf(trx: Trx, dialect: Dialect, channel: string): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_notify(${channel}, '')`.execute(trx);
}

// bigint columns hold minor units and epoch milliseconds, both far below 2^53.
pg.types.setTypeParser(20, (value) => Number(value));

export interface StoreOptions {
  dataDir: string;
  databaseUrl?: string;
  /** Connections to PostgreSQL. */
  poolSize?: number;
  /** A PostgreSQL connection was lost (a restart, a failover): the next query opens another. */
  onConnectionLost?: (error: Error) => void;
}

export async function openStore(options: StoreOptions): Promise<Store> {
  if (!options.databaseUrl) {
    const store = openSqlite(options.dataDir);
    await migrate(store.db as Kysely<unknown>);
    return store;
  }
  const indexes = await migratePostgres(options.databaseUrl);
  return openPostgres(options.databaseUrl, options.poolSize ?? 16, options.onConnectionLost ?? (() => undefined), indexes);
}

/**
 * What a PostgreSQL connection may take: to open (a database that accepts and never answers
 * would hold startup and every request), and per query, on the server (statement_timeout) and in
 * the client (query_timeout: a peer gone silent). Migrations run without the query limits: an
 * index on a large table may take minutes.
 */
const PG_CONNECT_TIMEOUT_MS = 10_000;
const PG_QUERY_TIMEOUT_MS = 30_000;

/** An index build running beside the store: `stop` lets a build under way end, and starts no other. */
interface IndexBuilding {
  indexes: Promise<IndexBuilds>;
  stop(): Promise<void>;
}

/**
 * Migrations on a connection of their own, in the schema the connection string selects; once they
 * ran, the same connection builds the indexes they left to a concurrent build, and is closed after.
 */
async function migratePostgres(connectionString: string): Promise<IndexBuilding> {
  const pool = new pg.Pool({ connectionString, max: 1, connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS, application_name: 'payment-gateway' });
  pool.on('error', () => undefined);
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  try {
    const schema = (
      await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db).catch((error: Error) => {
        throw new Error(`PostgreSQL at DATABASE_URL could not be reached: ${error.message}`);
      })
    ).rows[0]?.schema;
    await migrate(db, schema ?? undefined);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const stopping = new AbortController();
  const indexes = buildPendingIndexes(db, stopping.signal).finally(() => db.destroy().catch(() => undefined));
  return {
    indexes,
    stop: async () => {
      stopping.abort();
      await indexes;
    },
  };
}

function openSqlite(dataDir: string): Store {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, 'gateway.sqlite');
  // Shoppers' names, addresses and masked cards are for the gateway's user only (as card.key is):
  // made 0600 here, the file gives SQLite the mode of its WAL and shared memory too.
  closeSync(openSync(file, 'a', 0o600));
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  // A payment is acknowledged only after its commit reached the disk, but SQLite's own fsync at
  // each commit (synchronous=FULL) would stop the event loop for it: SQLite commits with NORMAL
  // (in WAL mode: never corrupt, the last commits may be lost by an OS crash) and the committer
  // fsyncs the WAL on libuv's thread pool before any unit of the batch is acknowledged.
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  // The WAL exists from the first write on; it is opened here so that its descriptor is at hand.
  database.exec('begin immediate; commit');
  const wal = openSync(`${file}-wal`, 'r+');
  const statements = keepingStatements(database);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
  unitConnections.set(db.getExecutor().adapter, statements);
  const committer = new GroupCommitter(db, database, () => fsyncAsync(wal));
  return {
    db,
    dialect: 'sqlite',
    write: (unit) => committer.write(unit),
    insert: (rows) => committer.insert(rows),
    close: async () => {
      await db.destroy();
      closeSync(wal);
    },
  };
}

const fsyncAsync = promisify(fsync);

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

function openPostgres(connectionString: string, max: number, onConnectionLost: (error: Error) => void, building: IndexBuilding): Store {
  const pool = new pg.Pool({
    connectionString,
    max,
    application_name: 'payment-gateway',
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
    statement_timeout: PG_QUERY_TIMEOUT_MS,
    query_timeout: PG_QUERY_TIMEOUT_MS + 5_000,
    keepAlive: true,
  });
  // An idle connection the server ended (restart, failover, pg_terminate_backend): without a
  // listener, the pool's 'error' event would end the process.
  pool.on('error', onConnectionLost);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const committer = new PostgresBatchCommitter(db, pool);
  return {
    db,
    dialect: 'postgres',
    write: (unit) => committer.write(unit),
    insert: (rows) => committer.insert(rows),
    listen: (channel, onChange) => listenTo(connectionString, channel, onChange),
    indexes: building.indexes,
    close: async () => {
      await building.stop();
      await db.destroy();
    },
  };
}

const RELISTEN_MS = 1000;

/** A connection of its own that LISTENs on `channel`, opened again a second after it is lost. */
async function listenTo(connectionString: string, channel: string, onChange: () => void): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let connecting: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString, application_name: 'payment-gateway', connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS, keepAlive: true });
    connecting = next;
    next.on('notification', (message) => {
      if (message.channel === channel) onChange();
    });
    // A lost connection ends it; 'end' opens the next one.
    next.on('error', () => undefined);
    next.on('end', () => {
      if (stopped || client !== next) return;
      client = undefined;
      again();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${next.escapeIdentifier(channel)}`);
    } catch (error) {
      await next.end().catch(() => undefined);
      throw error;
    } finally {
      connecting = undefined;
    }
    if (stopped) return void (await next.end());
    client = next;
  };
  const again = () => {
    if (stopped) return;
    retry = setTimeout(() => {
      if (!stopped) connect().then(onChange, again);
    }, RELISTEN_MS);
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await Promise.all([client?.end(), connecting?.end()].map((ending) => ending?.catch(() => undefined)));
  };
}

// Every insert of a table with the same columns has the same SQL: it is compiled once per dialect
// and only its values are bound (building and compiling a Kysely query costs about twice as much
// as SQLite running it).
const insertSql = new WeakMap<object, Map<string, { sql: string; columns: string[] }>>();

const MARKER = '\u0000param:';

/**
 * SQLite's one connection, by the adapter of its Kysely instance: a write unit's compiled
 * statements run on it directly, inside the transaction that holds it (as the committer's
 * savepoints do), since Kysely's pipeline costs more than SQLite running them. Reads outside a
 * unit still go through Kysely, whose connection waits for the transaction to end, so they never
 * see a batch before its commit.
 */
const unitConnections = new WeakMap<object, SqliteDatabase>();

function run<R>(executor: Kysely<Database> | Trx, adapter: object, sql: string, parameters: unknown[]): Promise<QueryResult<R>> {
  const connection = executor.isTransaction ? unitConnections.get(adapter) : undefined;
  if (!connection) return executor.executeQuery<R>(CompiledQuery.raw(sql, parameters) as CompiledQuery<R>);
  const statement = connection.prepare(sql);
  if (statement.reader) return Promise.resolve({ rows: statement.all(parameters) as R[] });
  return Promise.resolve({ rows: [], numAffectedRows: BigInt(statement.run(parameters).changes) });
}

/**
 * A query of a hot path, built and compiled once per dialect and then only bound: `build` gets a
 * marker for each named parameter (constants it writes stay as they are), and every call runs the
 * kept SQL with its own values. Building and compiling a Kysely query costs more than SQLite
 * running it.
 */
export function preparedQuery<P extends string, R = unknown>(build: (db: Kysely<Database> | Trx, p: Record<P, any>) => Compilable<R>) {
  const compiled = new WeakMap<object, { sql: string; parameters: Array<{ name: P } | { value: unknown }> }>();
  return (executor: Kysely<Database> | Trx, values: Record<P, unknown>): Promise<QueryResult<R>> => {
    const adapter = executor.getExecutor().adapter;
    let query = compiled.get(adapter);
    if (!query) {
      const markers = new Proxy({}, { get: (_target, name) => `${MARKER}${String(name)}` }) as Record<P, unknown>;
      const { sql, parameters } = build(executor, markers).compile();
      query = { sql, parameters: parameters.map((v) => (typeof v === 'string' && v.startsWith(MARKER) ? { name: v.slice(MARKER.length) as P } : { value: v })) };
      compiled.set(adapter, query);
    }
    return run<R>(executor, adapter, query.sql, query.parameters.map((p) => ('name' in p ? values[p.name] : p.value)));
  };
}

/** Insert rows inside a write unit. */
export async function insertRows(trx: Trx, rows: readonly RowInsert[]): Promise<void> {
  const adapter = trx.getExecutor().adapter;
  let compiled = insertSql.get(adapter);
  if (!compiled) insertSql.set(adapter, (compiled = new Map()));
  for (const { table, row } of rows) {
    const columns = Object.keys(row);
    const key = `${table}(${columns.join(',')})`;
    let insert = compiled.get(key);
    if (!insert) {
      // Compiled from nulls: a value left undefined would drop its column from the SQL.
      const template = Object.fromEntries(columns.map((column) => [column, null]));
      insert = { sql: trx.insertInto(table).values(template as never).compile().sql, columns };
      compiled.set(key, insert);
    }
    const values = row as Record<string, unknown>;
    await run(trx, adapter, insert.sql, insert.columns.map((column) => values[column] ?? null));
  }
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
 *
 * Units that only insert rows (a new payment) go further: the batch's rows of one table become one
 * multi-row INSERT of a prepared statement, and when they are all of one table that single
 * statement is the whole transaction, one round trip. Measured here, batches of 12 payments:
 * PostgreSQL spends about a third of the CPU per payment (50 µs against 157 µs) that it spends on
 * separate INSERTs between BEGIN and COMMIT.
 */
/** PostgreSQL's codes for a transaction it ended so that another could go on: deadlock_detected, serialization_failure. */
const BROKEN_OFF = new Set(['40P01', '40001']);
const UNIT_ATTEMPTS = 3;

export class PostgresBatchCommitter {
  private queue: Pending[] = [];
  private inFlight = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly pool: pg.Pool,
    /** Batches running at once, each on its own connection. */
    private readonly parallel = 4,
  ) {}

  write<T>(unit: WriteUnit<T>): Promise<T> {
    return this.enqueue({ unit }) as Promise<T>;
  }

  insert(rows: RowInsert[]): Promise<void> {
    return this.enqueue({ rows }) as Promise<void>;
  }

  private enqueue(work: { unit: WriteUnit<unknown> } | { rows: RowInsert[] }): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ ...work, resolve, reject } as Pending);
      if (this.inFlight < this.parallel) {
        this.inFlight++;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, Math.max(1, Math.ceil(this.queue.length / (this.parallel - this.inFlight + 1))));
    const inserts = batch.filter((item): item is RowsPending => 'rows' in item);
    const units = batch.filter((item): item is UnitPending => 'unit' in item);
    await Promise.all([inserts.length > 0 && this.commitRows(inserts), units.length > 0 && this.commitUnits(units)]);
    if (this.queue.length > 0) setImmediate(() => void this.flush());
    else this.inFlight--;
  }

  private async commitUnits(batch: UnitPending[]): Promise<void> {
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
    else await Promise.all(batch.map((item) => this.runAlone(item.unit).then(item.resolve, item.reject)));
  }

  /**
   * A unit in a transaction of its own, run again when PostgreSQL broke it off to let another go
   * on (a deadlock: a webhook's DELETE cancelling its notifications while a batch records their
   * attempts), rather than failing its request.
   */
  private async runAlone<T>(unit: WriteUnit<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.db.transaction().execute(unit);
      } catch (error) {
        if (attempt >= UNIT_ATTEMPTS || !BROKEN_OFF.has((error as { code?: string }).code ?? '')) throw error;
      }
    }
  }

  private async commitRows(batch: RowsPending[]): Promise<void> {
    const ok = await this.insertAtomically(batch.flatMap((item) => item.rows)).then(
      () => true,
      () => false,
    );
    if (ok) for (const item of batch) item.resolve(undefined);
    // One bad row (a duplicate id) must not fail its neighbours: each unit alone.
    else if (batch.length > 1) await Promise.all(batch.map((item) => this.insertAtomically(item.rows).then(item.resolve, item.reject)));
    else await this.insertAtomically(batch[0]!.rows).then(batch[0]!.resolve, batch[0]!.reject);
  }

  private async insertAtomically(rows: RowInsert[]): Promise<void> {
    const statements = multiRowInserts(rows);
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      if (statements.length === 1) {
        await client.query(statements[0]!);
        return;
      }
      await client.query('begin');
      try {
        for (const statement of statements) await client.query(statement);
        await client.query('commit');
      } catch (error) {
        await client.query('rollback').catch((rollbackError: Error) => (broken = rollbackError));
        throw error;
      }
    } finally {
      client.release(broken);
    }
  }
}

/** PostgreSQL binds at most 65535 parameters per statement. */
const MAX_PARAMETERS = 65_535;
const MAX_NAMED_ROWS = 64;
const statementNames = new Map<string, string>();

/** The rows as one prepared INSERT per run of rows of the same table and columns, in order. */
export function multiRowInserts(rows: readonly RowInsert[]): pg.QueryConfig[] {
  const groups = new Map<string, { table: string; columns: string[]; rows: Array<Record<string, unknown>> }>();
  for (const { table, row } of rows) {
    const columns = Object.keys(row);
    const key = `${table}(${columns.join(',')})`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { table, columns, rows: [] }));
    group.rows.push(row as Record<string, unknown>);
  }
  const statements: pg.QueryConfig[] = [];
  for (const group of groups.values()) {
    const perStatement = Math.floor(MAX_PARAMETERS / group.columns.length);
    for (let from = 0; from < group.rows.length; from += perStatement) {
      const chunk = group.rows.slice(from, from + perStatement);
      const text = insertText(group.table, group.columns, chunk.length);
      const values: unknown[] = [];
      for (const row of chunk) for (const column of group.columns) values.push(row[column] ?? null);
      // Named, so that each connection parses and plans it once; only the usual batch sizes, so
      // that a burst cannot leave thousands of statements prepared on every connection.
      let name = statementNames.get(text);
      if (!name && chunk.length <= MAX_NAMED_ROWS) statementNames.set(text, (name = `insert_${statementNames.size}`));
      statements.push(name ? { name, text, values } : { text, values });
    }
  }
  return statements;
}

function insertText(table: string, columns: string[], count: number): string {
  const tuples: string[] = [];
  for (let r = 0; r < count; r++) tuples.push(`(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`);
  return `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values ${tuples.join(', ')}`;
}

type UnitPending = { unit: WriteUnit<unknown>; resolve: (value: unknown) => void; reject: (error: unknown) => void };
type RowsPending = { rows: RowInsert[]; resolve: (value: unknown) => void; reject: (error: unknown) => void };
type Pending = UnitPending | RowsPending;

/**
 * Group commit for SQLite's single writer: units that arrive while a commit is in flight are
 * committed together in the next transaction, one fsync for all of them. Each unit runs inside
 * its own savepoint, so a failing unit is rolled back alone and never leaves half a payment.
 * The savepoint statements run on the connection directly (the transaction holds it): through
 * Kysely's query pipeline they cost as much as the unit's own insert. A batch is acknowledged
 * after `sync` (the WAL's fsync, off the event loop) resolved; the next batch gathers meanwhile,
 * so that a commit and its fsync serve as many payments as arrived during the last one.
 */
export class GroupCommitter {
  private queue: UnitPending[] = [];
  private flushing = false;
  private readonly savepoint: { begin: SQLite.Statement; release: SQLite.Statement; rollback: SQLite.Statement };
  private readonly inserts = new Map<string, SQLite.Statement>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly database: SQLite.Database,
    /** Makes every commit so far durable. */
    private readonly sync: () => Promise<void>,
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

  /**
   * Insert rows as one unit. They are bound straight to SQLite's prepared statements on the
   * transaction's connection (as the savepoints are): Kysely's query pipeline around them cost
   * more than SQLite's own work for a payment row.
   */
  insert(rows: RowInsert[]): Promise<void> {
    return this.write(async () => {
      for (const { table, row } of rows) {
        const columns = Object.keys(row);
        const key = `${table}(${columns.join(',')})`;
        let statement = this.inserts.get(key);
        if (!statement) {
          statement = this.database.prepare(`insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`);
          this.inserts.set(key, statement);
        }
        const values = row as Record<string, unknown>;
        statement.run(columns.map((column) => values[column] ?? null));
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    const outcomes: Array<() => void> = [];
    let failed: { error: unknown } | undefined;
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
    } catch (error) {
      failed = { error };
    }
    if (!failed) await this.sync().catch((error: unknown) => (failed = { error }));
    if (failed) for (const item of batch) item.reject(failed.error);
    else for (const settle of outcomes) settle();
    if (this.queue.length > 0) setImmediate(() => void this.flush());
    else this.flushing = false;
  }
}
