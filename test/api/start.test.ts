// What npm start serves (server/main.ts): the demo shop and playground in the test environment,
// and in live neither, nor the demo merchant's token in its output: the demo pays with that
// merchant's account and has no login of its own.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { shopA } from '../support/gateway.ts';
import { kill, startServer, type Server } from '../support/server.ts';

describe('npm start', () => {
  const dataDirs: string[] = [];
  const servers: Server[] = [];
  const start = async (env: Record<string, string>) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-start-'));
    dataDirs.push(dataDir);
    const server = await startServer(dataDir, env);
    servers.push(server);
    return server;
  };
  after(async () => {
    for (const server of servers) await kill(server);
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  const playgroundPay = (base: string) =>
    fetch(`${base}/playground/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'card.number=4200000000000000&amount=1.00&paymentType=DB' });

  it('in test: serves the demo shop and the playground, and prints the demo merchant\u2019s credentials', async () => {
    const server = await start({ GATEWAY_ENV: 'test' });
    assert.equal((await fetch(`${server.base}/playground`)).status, 200);
    assert.match(await (await playgroundPay(server.base)).text(), /000\.100\.110/);
    assert.ok(server.output().includes(shopA.token));
  });

  it('in live: no demo shop, playground or reference page, and the token is not printed; the gateway itself answers', async () => {
    const server = await start({ GATEWAY_ENV: 'live' });
    for (const path of ['/', '/playground', '/reference', '/playground/webhooks']) assert.equal((await fetch(`${server.base}${path}`)).status, 404, path);
    assert.equal((await playgroundPay(server.base)).status, 404);
    assert.ok(!server.output().includes(shopA.token), server.output());
    assert.match(server.output(), /no demo shop or playground is served/);
    const openapi = await fetch(`${server.base}/v1/openapi.json`);
    assert.equal(openapi.status, 200);
    const payment = await fetch(`${server.base}/v1/payments/${'0'.repeat(32)}?entityId=${shopA.entityId}`, { headers: { authorization: `Bearer ${shopA.token}` } });
    assert.equal(payment.status, 404);
  });

  it('listens with a backlog of 4096 connections (the kernel\u2019s somaxconn at most), not Node\u2019s 511, which overflowed when thousands of clients connected at once', async () => {
    const server = await start({ GATEWAY_ENV: 'test' });
    const port = new URL(server.base).port;
    // For a listening socket, ss's Send-Q is its backlog.
    const [, line] = execFileSync('ss', ['-Hltn', `sport = :${port}`], { encoding: 'utf8' }).match(/^(LISTEN.*)$/m) ?? [];
    const backlog = Number(line?.trim().split(/\s+/)[2]);
    const somaxconn = Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
    assert.equal(backlog, Math.min(4096, somaxconn));
  });
});
