// GET /health/live and /health/ready (server/http/routes/health.ts): what a load balancer asks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { pino } from 'pino';
import { loggerOptions } from '../../server/http/log.ts';
import { askWhileStopping, databaseUrl, pgSkip, rawConnection, startGateway, type TestGatewayOptions } from '../support/gateway.ts';

async function get(base: string, path: string, headers: Record<string, string> = {}) {
  const reply = await fetch(base + path, { headers });
  return { status: reply.status, cache: reply.headers.get('cache-control'), body: (await reply.json()) as Record<string, string> };
}

function healthSuite(options: TestGatewayOptions, database: string) {
  it('is live and ready while its database answers, with no token; not ready (503) once the database fails', async () => {
    const logLines: string[] = [];
    const logger = pino(loggerOptions('warn'), { write: (chunk: string) => void logLines.push(...chunk.split('\n').filter(Boolean)) });
    const gw = await startGateway({ ...options, logger });
    try {
      assert.deepEqual(await get(gw.base, '/health/live'), { status: 200, cache: 'no-store', body: { status: 'live' } });
      assert.deepEqual(await get(gw.base, '/health/ready'), { status: 200, cache: 'no-store', body: { status: 'ready', database, widget: 'built' } });
      // The database goes away under the running process.
      await gw.running.store.close();
      const ready = await get(gw.base, '/health/ready');
      assert.equal(ready.status, 503);
      // Anyone may ask (no token, in clear on a live gateway): the database's own error (PostgreSQL's
      // names its address, user or database) is logged for the operator, never answered.
      assert.deepEqual(ready.body, { status: 'not ready', reason: 'the database failed', widget: 'built' });
      const logged = logLines.map((line) => JSON.parse(line) as { msg: string; err?: string }).find((line) => line.msg === 'readiness check: the database failed');
      assert.ok(logged?.err, 'the database error is logged');
      assert.equal((await get(gw.base, '/health/live')).status, 200, 'the process itself still answers');
    } finally {
      // Its store is closed already: the rest of the gateway stops as ever.
      await gw.close().catch(() => undefined);
    }
  });
}

describe('health on SQLite', () => healthSuite({}, 'sqlite'));
describe('health on PostgreSQL', { skip: pgSkip }, () => healthSuite({ databaseUrl }, 'postgres'));

describe('health while PostgreSQL is slow', { skip: pgSkip }, () => {
  it('is not ready when the database takes over 2 s to answer, saying so; ready again once it answers', async () => {
    const gw = await startGateway({ databaseUrl });
    try {
      // Every connection of the pool (16) busy for 3 s: the check's select 1 waits longer than it may.
      const busy = Array.from({ length: 16 }, () => sql`select pg_sleep(3)`.execute(gw.running.store.db));
      const ready = await get(gw.base, '/health/ready');
      assert.equal(ready.status, 503);
      assert.deepEqual(ready.body, { status: 'not ready', reason: 'the database did not answer within 2000 ms', widget: 'built' });
      await Promise.all(busy);
      assert.equal((await get(gw.base, '/health/ready')).status, 200);
    } finally {
      await gw.close();
    }
  });
});

describe('health behind a TLS proxy', () => {
  it('answers a live gateway\u2019s probes in clear (the proxy\u2019s own), while its API takes https only', async () => {
    const gw = await startGateway({ env: 'live', trustProxy: ['loopback'] });
    try {
      assert.equal((await get(gw.base, '/health/ready')).status, 200);
      assert.equal((await get(gw.base, '/health/live')).status, 200);
      assert.equal((await get(gw.base, '/v1/resultcodes')).status, 400);
      // HAProxy's default probe: HTTP/1.0, no Host header.
      const probe = await rawConnection(gw.base);
      probe.write('GET /health/ready HTTP/1.0\r\n\r\n');
      const { received } = await probe.closed;
      assert.match(received, /^HTTP\/1\.1 200 /);
      assert.match(received, /"status":"ready"/);
    } finally {
      await gw.close();
    }
  });
});

describe('health while stopping', () => {
  it('is not ready once the process stops, saying so, to a balancer\u2019s connection opened before', async () => {
    const gw = await startGateway();
    const { answer: { head, body } } = await askWhileStopping(gw, (host) => `GET /health/ready HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    assert.match(head, /^HTTP\/1\.1 503 /);
    assert.deepEqual(JSON.parse(body), { status: 'not ready', reason: 'stopping', widget: 'built' });
  });
});
