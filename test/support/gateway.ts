// Test harness: a real gateway on a free port, with its own data directory, a clock the test
// controls, and a client per merchant.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import pg from 'pg';
import type { Logger } from 'pino';
import type { GatewayEnv, Settings } from '../../server/config.ts';
import { createGateway, type RunningGateway } from '../../server/gateway.ts';

export const merchantsFile = new URL('./merchants.json', import.meta.url).pathname;

export const shopA = {
  token: 'dGVzdC1zaG9wLWEtdG9rZW4tMDAwMDAwMDAwMDAx',
  entityId: '8a8294174b7ecb28014b9699220015ca',
  throttledEntityId: '8a8294174b7ecb28014b9699220015cb',
  /** threeDSecure: true (docs/threeds-protocol.md), with PAYPAL and ONLINE_TRANSFER. */
  threeDSecureEntityId: '8a8294174b7ecb28014b9699220015cd',
  /** threeDSecure: true, with APPLEPAY, GOOGLEPAY and SAMSUNGPAY besides cards and SEPA. */
  walletEntityId: '8a8294174b7ecb28014b9699220015ce',
  /** threeDSecure: true, 3 requests a second: the 3-D Secure pages' throttle. */
  throttledThreeDSecureEntityId: '8a8294174b7ecb28014b969922001a02',
};
export const shopB = {
  token: 'dGVzdC1zaG9wLWItdG9rZW4tMDAwMDAwMDAwMDAy',
  entityId: '8a8294174b7ecb28014b9699220015cc',
};

/** A clock the test moves by hand. */
export class TestClock {
  constructor(public current = new Date()) {}
  now = () => new Date(this.current.getTime());
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

export class Client {
  constructor(
    readonly base: string,
    readonly token: string,
    readonly entityId: string,
  ) {}

  async post(path: string, params: Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> {
    const body = new URLSearchParams({ entityId: this.entityId, ...params });
    const response = await fetch(this.base + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8', ...headers },
      body,
    });
    return { status: response.status, headers: response.headers, body: await response.json() };
  }

  async get(path: string): Promise<Reply> {
    const response = await fetch(`${this.base}${path}${path.includes('?') ? '&' : '?'}entityId=${this.entityId}`, {
      headers: { authorization: `Bearer ${this.token}` },
    });
    return { status: response.status, headers: response.headers, body: await response.json() };
  }

  async delete(path: string): Promise<Reply> {
    const response = await fetch(`${this.base}${path}?entityId=${this.entityId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${this.token}` },
    });
    return { status: response.status, headers: response.headers, body: await response.json() };
  }
}

export interface TestGateway {
  base: string;
  running: RunningGateway;
  dataDir: string;
  clock: TestClock;
  /** Shop A's main entity, the one most tests use. */
  client: Client;
  clientFor(token: string, entityId: string): Client;
  close(): Promise<void>;
}

/**
 * The acquirer's next `method` call holds until `resume`: the request making it stops there, as
 * a process killed mid-call would (or one only slow, once resumed). `asked` resolves when that
 * call came in, by when the acquirer is itself again for every later call.
 */
export function holdNextAcquirerCall(gw: TestGateway, method: 'authorize' | 'capture' | 'refund' | 'reverse'): { asked: Promise<void>; resume: () => void } {
  const acquirer = gw.running.gateway.deps.acquirer as unknown as Record<string, (call: unknown) => Promise<unknown>>;
  const real = acquirer[method]!;
  let resume!: () => void;
  const answered = new Promise<void>((resolve) => (resume = resolve));
  let called!: () => void;
  const asked = new Promise<void>((resolve) => (called = resolve));
  acquirer[method] = async (call: unknown) => {
    acquirer[method] = real;
    called();
    await answered;
    return real.call(acquirer, call);
  };
  return { asked, resume };
}

/** What a raw connection received by the time the gateway closed it. */
export interface RawAnswer {
  received: string;
  status: number;
  head: string;
  body: string;
}

/**
 * A connection to the gateway written to as raw bytes (headers as they are, duplicates kept, any
 * method or version), open once this resolves; `closed` is what it received when the gateway ended it.
 */
export async function rawConnection(base: string): Promise<{ host: string; write(text: string): void; closed: Promise<RawAnswer> }> {
  const url = new URL(base);
  const socket = connect(Number(url.port), url.hostname);
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<RawAnswer>((resolve) =>
    socket.on('close', () => {
      const [head = '', body = ''] = received.split('\r\n\r\n');
      resolve({ received, status: Number(head.split(' ')[1]), head, body });
    }),
  );
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { host: url.host, write: (text) => void socket.write(text), closed };
}

/**
 * Sends `request(host)` on a connection opened before the gateway began to stop, as a load
 * balancer's pooled one is, while a payment in flight holds the stop open; the answer, and the
 * status the payment in flight got. The gateway is closed when this resolves.
 */
export async function askWhileStopping(gw: TestGateway, request: (host: string) => string): Promise<{ answer: RawAnswer; inFlightStatus: number }> {
  const { asked, resume } = holdNextAcquirerCall(gw, 'authorize');
  const paying = gw.client.post('/v1/payments', cardDebit());
  const pooled = await rawConnection(gw.base);
  await asked;
  const stopped = gw.close();
  await new Promise((resolve) => setTimeout(resolve, 50));
  pooled.write(request(pooled.host));
  const answer = await pooled.closed;
  resume();
  await stopped;
  return { answer, inFlightStatus: (await paying).status };
}

export interface TestGatewayOptions {
  env?: GatewayEnv;
  /** Use PostgreSQL at this URL, in a fresh schema of its own. */
  databaseUrl?: string;
  /** Use PostgreSQL at this URL as it is (e.g. freshPostgresSchema's url, shared by several gateways): no schema is created or dropped. */
  schemaUrl?: string;
  redisUrl?: string;
  clock?: TestClock;
  logger?: Logger;
  dataDir?: string;
  /** The built widget to serve (default: the repository's dist/). */
  distDir?: string;
  cardKey?: string;
  webhookPollMs?: number;
  webhookTimeoutMs?: number;
  acquirerTimeoutMs?: number;
  schedulePollMs?: number;
  scheduleLeaseMs?: number;
  trustProxy?: string[];
  maxInFlight?: number;
}

/** A PostgreSQL URL whose connections use a fresh, empty schema. */
export async function freshPostgresSchema(databaseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `gw_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    },
  };
}

/**
 * A fresh PostgreSQL database, its URL using its public schema: for tests of concurrent index
 * builds, which wait for every older transaction of their database, other test runs' too.
 */
export async function freshPostgresDatabase(databaseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `gw_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      await c.query(`drop database ${name} with (force)`);
      await c.end();
    },
  };
}

export function testSettings(dataDir: string, options: TestGatewayOptions = {}): Settings {
  return {
    env: options.env ?? 'test',
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: options.databaseUrl,
    redisUrl: options.redisUrl,
    merchantsFile,
    cardKey: options.cardKey,
    buildNumber: 'test-build',
    logLevel: 'silent',
    distDir: options.distDir ?? 'dist',
    webhookPollMs: options.webhookPollMs,
    webhookTimeoutMs: options.webhookTimeoutMs,
    acquirerTimeoutMs: options.acquirerTimeoutMs,
    schedulePollMs: options.schedulePollMs,
    scheduleLeaseMs: options.scheduleLeaseMs,
    trustProxy: options.trustProxy,
    maxInFlight: options.maxInFlight,
  };
}

export async function startGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'gw-test-'));
  const clock = options.clock ?? new TestClock();
  const pgSchema = options.databaseUrl && !options.schemaUrl ? await freshPostgresSchema(options.databaseUrl) : undefined;
  const running = await createGateway(testSettings(dataDir, { ...options, databaseUrl: options.schemaUrl ?? pgSchema?.url }), { clock: clock.now, logger: options.logger });
  const base = await running.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    base,
    running,
    dataDir,
    clock,
    client: new Client(base, shopA.token, shopA.entityId),
    clientFor: (token, entityId) => new Client(base, token, entityId),
    async close() {
      await running.close();
      await pgSchema?.drop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A SEPA direct debit that the simulator approves. */
export function sepaDebit(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    amount: '20.00',
    currency: 'EUR',
    paymentBrand: 'DIRECTDEBIT_SEPA',
    paymentType: 'DB',
    'bankAccount.holder': 'Jane Jones',
    'bankAccount.iban': 'DE89370400440532013000',
    'bankAccount.bic': 'COBADEFFXXX',
    ...overrides,
  };
}

/** A card debit that the simulator approves. */
export function cardDebit(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    amount: '92.00',
    currency: 'EUR',
    paymentBrand: 'VISA',
    paymentType: 'DB',
    'card.number': '4200000000000000',
    'card.holder': 'Jane Jones',
    'card.expiryMonth': '05',
    'card.expiryYear': '2034',
    'card.cvv': '123',
    ...overrides,
  };
}

export const databaseUrl = process.env.DATABASE_URL || undefined;
export const redisUrl = process.env.REDIS_URL || undefined;
/** node:test's skip option for suites that need PostgreSQL: they say plainly why they did not run. */
export const pgSkip = databaseUrl ? false : 'DATABASE_URL not set: PostgreSQL tests skipped';
