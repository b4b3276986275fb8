// The gateway when what it stands on falters: a PostgreSQL connection ended under it (a restart, a
// failover), Redis that stops answering, Redis that is not there at startup.
import assert from 'node:assert/strict';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import pg from 'pg';
import { createThrottle } from '../../server/http/throttle.ts';
import { openStore } from '../../server/store/db.ts';
import { askWhileStopping, cardDebit, databaseUrl, holdNextAcquirerCall, pgSkip, rawConnection, redisUrl, shopA, startGateway } from '../support/gateway.ts';

const redisSkip = redisUrl ? false : 'REDIS_URL not set: Redis tests skipped';

/** A TCP relay to `target` that can be made to stop answering (bytes in are swallowed) and resume. */
async function relayTo(target: URL): Promise<{ url: string; stall(): void; close(): Promise<void> }> {
  let stalled = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    sockets.add(client).add(upstream);
    client.on('data', (chunk) => void (stalled || upstream.write(chunk)));
    upstream.on('data', (chunk) => void (stalled || client.write(chunk)));
    for (const socket of [client, upstream]) socket.on('error', () => undefined).on('close', () => (client.destroy(), upstream.destroy()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    stall: () => void (stalled = true),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('outages', () => {
  it('goes on after PostgreSQL ends its connections (a restart): the next request opens new ones, nothing crashes', { skip: pgSkip }, async () => {
    const gw = await startGateway({ databaseUrl });
    try {
      assert.equal((await gw.client.post('/v1/payments', cardDebit())).status, 200);
      // Idle connections in the pool (the pollers keep some) are ended as a restart ends them.
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      const ended = await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = 'payment-gateway' and pid <> pg_backend_pid()`);
      await admin.end();
      assert.ok(ended.rowCount! >= 1, 'the gateway had connections to end');
      await new Promise((resolve) => setTimeout(resolve, 200));
      // A query on a connection that was ended fails once; then the pool opens new ones.
      let status = 0;
      for (let i = 0; i < 20 && status !== 200; i++) status = (await gw.client.post('/v1/payments', cardDebit())).status;
      assert.equal(status, 200);
      const read = await gw.client.get('/v1/payments?merchantTransactionId=none');
      assert.notEqual(read.status, 500);
    } finally {
      await gw.close();
    }
  });

  it('counts in memory, without waiting, while Redis stops answering mid-traffic, and says so once', { skip: redisSkip }, async () => {
    const relay = await relayTo(new URL(redisUrl!));
    const warnings: string[] = [];
    const throttle = await createThrottle(relay.url, (message) => warnings.push(message));
    try {
      assert.equal(await throttle.allow(`outage-${Date.now()}`, 'reads', 5), true);
      relay.stall();
      const caller = `outage-stalled-${Date.now()}`;
      const started = Date.now();
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await throttle.allow(caller, 'reads', 2));
      // The insurance limiter counts: two of four allowed, each answer within the command's limit.
      assert.deepEqual(answers, [true, true, false, false]);
      assert.ok(Date.now() - started < 5_000, 'no answer waited on the silent Redis');
      assert.equal(warnings.length, 1, warnings.join(' | '));
      assert.match(warnings[0]!, /Redis \(REDIS_URL\) is unreachable/);
    } finally {
      await throttle.close();
      await relay.close();
    }
  });

  it('stops without waiting on a client that keeps its connection alive: the answer in flight is given, and ends the connection', async () => {
    const gw = await startGateway();
    const { asked, resume } = holdNextAcquirerCall(gw, 'authorize');
    // One kept-alive connection: a payment, and a read pipelined behind it.
    const connection = await rawConnection(gw.base);
    const body = new URLSearchParams({ entityId: shopA.entityId, ...cardDebit({ merchantTransactionId: 'paid-while-stopping' }) }).toString();
    const headers = `Host: ${connection.host}\r\nAuthorization: Bearer ${shopA.token}\r\n`;
    connection.write(`POST /v1/payments HTTP/1.1\r\n${headers}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    connection.write(`GET /v1/payments/0123456789abcdef0123456789abcdef?entityId=${shopA.entityId} HTTP/1.1\r\n${headers}\r\n`);
    await asked;
    const stopped = gw.close();
    resume();
    // Without the connection ended, the stop waited until the client let go of it.
    await stopped;
    const { received, head } = await connection.closed;
    assert.match(head, /^HTTP\/1\.1 200 OK/);
    assert.match(head, /\r\nconnection: close\r\n/i);
    assert.equal(received.match(/^HTTP\/1\.1/gm)?.length, 1, 'the read behind it is left for the client to send again');
    assert.match(received, /"merchantTransactionId":"paid-while-stopping"/);
  });

  it('refuses a request that comes while it stops, on a connection opened before, with 503 in its own envelope (800.120.100, Retry-After), not Fastify\u2019s body', async () => {
    const gw = await startGateway();
    const { answer: { head, body }, inFlightStatus } = await askWhileStopping(
      gw,
      (host) => `GET /v1/payments/0123456789abcdef0123456789abcdef?entityId=${shopA.entityId} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${shopA.token}\r\n\r\n`,
    );
    assert.equal(inFlightStatus, 200, 'the payment in flight is answered');
    assert.match(head, /^HTTP\/1\.1 503 Service Unavailable/);
    assert.match(head, /\r\nretry-after: 1\r\n/i);
    assert.match(head, /\r\nconnection: close\r\n/i);
    const answer = JSON.parse(body);
    assert.deepEqual(answer.result, { code: '800.120.100', description: 'too many requests, try later' });
    // The spec's five fields of 800.120.100, as a throttled answer has them.
    assert.deepEqual(Object.keys(answer).sort(), ['buildNumber', 'id', 'ndc', 'result', 'timestamp']);
  });

  it('names DATABASE_URL when PostgreSQL cannot be reached at startup', async () => {
    const nobody = createServer();
    await new Promise<void>((resolve) => nobody.listen(0, '127.0.0.1', resolve));
    const { port } = nobody.address() as { port: number };
    await new Promise((resolve) => nobody.close(resolve));
    await assert.rejects(openStore({ dataDir: '', databaseUrl: `postgres://root@127.0.0.1:${port}/test` }), /^Error: PostgreSQL at DATABASE_URL could not be reached: .*ECONNREFUSED/);
  });

  it('names REDIS_URL when Redis cannot be reached at startup', async () => {
    const closed = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    try {
      await assert.rejects(createThrottle(`redis://127.0.0.1:${port}`), /Redis at REDIS_URL could not be reached/);
      // Without REDIS_URL memory is the counter itself, not a fallback: nothing to warn of.
      const said: string[] = [];
      const local = await createThrottle(undefined, (message) => said.push(message));
      assert.deepEqual([await local.allow('local', 'reads', 1), await local.allow('local', 'reads', 1)], [true, false]);
      assert.deepEqual(said, []);
    } finally {
      await new Promise((resolve) => closed.close(resolve));
    }
  });
});
