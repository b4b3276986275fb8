// postNotification: what a receiver gets, what its answer resolves to, each way an attempt fails, and the live guard on the addresses it connects to.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { publicAddressLookup } from '../../server/receivers.ts';
import { IDLE_CONNECTION_MS, postNotification } from '../../server/webhooks/post.ts';

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

describe('webhooks: one POST to a receiver', () => {
  let handler: Handler = (_request, _body, response) => response.writeHead(200).end();
  const connections: unknown[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => handler(request, Buffer.concat(chunks).toString('utf8'), response));
  });
  server.on('connection', (socket) => connections.push(socket));
  let url = '';
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks?token=t`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends the body and headers as given, and resolves with the status once the answer is read', async () => {
    let seen: { method?: string; url?: string; type?: string; iv?: string; length?: string; body?: string } = {};
    handler = (request, body, response) => {
      seen = { method: request.method, url: request.url, type: request.headers['content-type'], iv: String(request.headers['x-initialization-vector']), length: request.headers['content-length'], body };
      response.writeHead(202, { 'content-type': 'text/plain' }).end('thanks, and a body nobody reads');
    };
    const body = 'ä'.repeat(10) + 'F00D';
    assert.equal(await postNotification(url, { headers: { 'content-type': 'text/plain', 'x-initialization-vector': 'ABC' }, body, timeoutMs: 5000 }), 202);
    assert.deepEqual(seen, { method: 'POST', url: '/hooks?token=t', type: 'text/plain', iv: 'ABC', length: String(Buffer.byteLength(body)), body });
  });

  it('follows no redirect: a 3xx is the answer', async () => {
    handler = (_request, _body, response) => response.writeHead(302, { location: '/elsewhere' }).end();
    assert.equal(await postNotification(url, { headers: {}, body: 'x', timeoutMs: 5000 }), 302);
  });

  it('keeps the connection for the next notification', async () => {
    handler = (_request, _body, response) => response.writeHead(200).end();
    const before = connections.length;
    for (let i = 0; i < 5; i++) assert.equal(await postNotification(url, { headers: {}, body: `n${i}`, timeoutMs: 5000 }), 200);
    assert.ok(connections.length - before <= 1, `${connections.length - before} connections for 5 notifications`);
  });

  it('rejects with TimeoutError when no answer comes in time', async () => {
    handler = () => undefined;
    const started = Date.now();
    await assert.rejects(postNotification(url, { headers: {}, body: 'x', timeoutMs: 200 }), { name: 'TimeoutError' });
    assert.ok(Date.now() - started < 2000);
  });

  it('rejects when the answer is cut off halfway, and with the network code when nobody listens', async () => {
    handler = (_request, _body, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('only part');
      setTimeout(() => response.socket?.destroy(), 20);
    };
    await assert.rejects(postNotification(url, { headers: {}, body: 'x', timeoutMs: 5000 }));
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await assert.rejects(postNotification(`http://127.0.0.1:${port}/`, { headers: {}, body: 'x', timeoutMs: 5000 }), { code: 'ECONNREFUSED' });
  });

  it('rejects at once when delivery stops (its signal aborts)', async () => {
    handler = () => undefined;
    const stop = new AbortController();
    const pending = postNotification(url, { headers: {}, body: 'x', timeoutMs: 60_000, signal: stop.signal });
    setTimeout(() => stop.abort(), 20);
    await assert.rejects(pending, { name: 'AbortError' });
  });
});

describe('webhooks: connections to receivers that never close idle ones', () => {
  const receivers: Server[] = [];
  before(async () => {
    for (let i = 0; i < 5; i++) {
      const receiver = createServer((request, response) => {
        request.resume();
        // Slow enough that four notifications to one receiver need four connections; the
        // x-delay header holds an answer longer.
        request.on('end', () => setTimeout(() => response.writeHead(200).end(), Number(request.headers['x-delay'] ?? 20)));
      });
      receiver.keepAliveTimeout = 0; // never closes an idle connection, as Go's net/http by default
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      receivers.push(receiver);
    }
  });
  after(async () => {
    for (const receiver of receivers) {
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
  const urlOf = (receiver: Server) => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
  const openConnections = async () => {
    const counts = await Promise.all(receivers.map((r) => new Promise<number>((resolve, reject) => r.getConnections((error, n) => (error ? reject(error) : resolve(n))))));
    return counts.reduce((a, b) => a + b, 0);
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it(`closes the gateway's idle connections after ${IDLE_CONNECTION_MS} ms, instead of holding every receiver's for good`, async () => {
    const sent = receivers.flatMap((receiver) => Array.from({ length: 4 }, () => postNotification(urlOf(receiver), { headers: {}, body: 'x', timeoutMs: 5000 })));
    assert.deepEqual(await Promise.all(sent), Array(20).fill(200));
    assert.equal(await openConnections(), 20, 'kept for the next notifications while fresh');
    await sleep(IDLE_CONNECTION_MS / 2);
    assert.equal(await openConnections(), 20, 'kept while idle for less than the idle time');
    await sleep(IDLE_CONNECTION_MS / 2 + 500);
    assert.equal(await openConnections(), 0);
  });

  it('lets an answer take longer than the idle time: only an idle connection is closed', async () => {
    const delay = IDLE_CONNECTION_MS + 500;
    assert.equal(await postNotification(urlOf(receivers[0]!), { headers: { 'x-delay': String(delay) }, body: 'x', timeoutMs: delay + 5000 }), 200);
  });
});

describe('webhooks: a live delivery connects to public addresses only', () => {
  it('fails the lookup of a name that resolves to a loopback address, and the receiver hears nothing', async () => {
    let hits = 0;
    const server = createServer((_request, response) => {
      hits++;
      response.writeHead(200).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      await assert.rejects(postNotification(`http://localhost:${port}/`, { headers: {}, body: 'x', timeoutMs: 5000, lookup: publicAddressLookup }), /resolves to a non-public address/);
      assert.equal(hits, 0);
      // The same receiver without the guard: it was reachable, so the guard is what refused.
      assert.equal(await postNotification(`http://localhost:${port}/`, { headers: {}, body: 'x', timeoutMs: 5000 }), 200);
      assert.equal(hits, 1);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('passes a public address on, in either form the connection asks for', async () => {
    const one = await new Promise<unknown[]>((resolve) => publicAddressLookup('8.8.8.8', { family: 4 }, (...args) => resolve(args)));
    assert.deepEqual(one, [null, '8.8.8.8', 4]);
    const all = await new Promise<unknown[]>((resolve) => publicAddressLookup('8.8.4.4', { all: true }, (...args) => resolve(args)));
    assert.equal(all[0], null);
    assert.deepEqual(all[1], [{ address: '8.8.4.4', family: 4 }]);
  });
});
