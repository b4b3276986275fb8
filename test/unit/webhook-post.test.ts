// postNotification: what a receiver gets, what its answer resolves to, each way an attempt fails, and the live guard on the addresses it connects to.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { publicAddressLookup } from '../../server/receivers.ts';
import { postNotification } from '../../server/webhooks/post.ts';

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
