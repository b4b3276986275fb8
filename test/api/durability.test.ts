// Durability of acknowledged payments: the real server (npm start's entry point) is killed with
// SIGKILL while 20 clients stream payments into it, then started again on the same data
// directory. Every payment it had answered with HTTP 200 must still be there, with its amount.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { cardDebit, Client, shopA } from '../support/gateway.ts';
import { kill, startServer, type Server } from '../support/server.ts';

const CLIENTS = 20;
const STREAM_MS = 1500;

/** Run `work` over `items` with at most `width` in flight. */
async function eachLimited<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

describe('durability of acknowledged payments across a SIGKILL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-durability-'));
  const servers: Server[] = [];
  after(async () => {
    for (const server of servers) await kill(server);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('every payment acknowledged with HTTP 200 before the kill is readable with its amount after a restart on the same DATA_DIR', async (t) => {
    const first = await startServer(dataDir);
    servers.push(first);
    const client = new Client(first.base, shopA.token, shopA.entityId);

    // 20 clients post debits in a loop; each acknowledged payment is recorded with the amount sent.
    const acknowledged = new Map<string, string>();
    const problems: string[] = [];
    let killing = false;
    let cutOff = 0;
    let sent = 0;
    const streams = Array.from({ length: CLIENTS }, async (_, worker) => {
      for (let i = 0; !killing; i++) {
        // Distinct amounts from 1.00 to 99.99 (none of the simulator's decline amounts).
        const minor = 100 + ((worker * 7919 + i * 104729) % 9899);
        const amount = `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
        sent++;
        try {
          const { status, body } = await client.post('/v1/payments', cardDebit({ amount, merchantTransactionId: `stream-${worker}-${i}` }));
          if (status === 200 && body.result.code === '000.100.110' && body.amount === amount) acknowledged.set(body.id as string, amount);
          else problems.push(`unexpected answer: ${status} ${JSON.stringify(body)}`);
        } catch (error) {
          // Requests cut off by the kill are not acknowledged; before it none may fail.
          if (killing) cutOff++;
          else problems.push(`request failed before the kill: ${String(error)}`);
        }
      }
    });

    await new Promise((resolve) => setTimeout(resolve, STREAM_MS));
    killing = true;
    await kill(first);
    await Promise.all(streams);
    assert.equal(first.child.signalCode, 'SIGKILL');
    assert.deepEqual(problems, []);
    assert.ok(acknowledged.size >= 20, `only ${acknowledged.size} payments were acknowledged before the kill`);
    // Every client had a request in flight at the kill; those not answered before it died count as not acknowledged.
    assert.equal(sent, acknowledged.size + cutOff);

    // The server died with committed pages still in the WAL (no clean close, no final checkpoint).
    const wal = join(dataDir, 'gateway.sqlite-wal');
    assert.ok(existsSync(wal) && statSync(wal).size > 0, 'no WAL was left behind by the killed server');

    // The database opens cleanly: WAL recovery succeeds, the integrity check passes, every acknowledged payment is there.
    const database = new SQLite(join(dataDir, 'gateway.sqlite'));
    try {
      assert.equal(database.pragma('journal_mode', { simple: true }), 'wal');
      assert.deepEqual(database.pragma('integrity_check'), [{ integrity_check: 'ok' }]);
      assert.deepEqual(database.pragma('foreign_key_check'), []);
      const rows = database.prepare('select id, amount_minor, status from payments').all() as Array<{ id: string; amount_minor: number; status: string }>;
      const stored = new Map(rows.map((row) => [row.id, row]));
      assert.ok(rows.length >= acknowledged.size);
      for (const [id, amount] of acknowledged) {
        const row = stored.get(id);
        assert.ok(row, `acknowledged payment ${id} is missing from the database`);
        assert.equal(row.status, 'success');
        assert.equal(row.amount_minor, Math.round(Number(amount) * 100));
      }
    } finally {
      database.close();
    }

    // Started again on the same data directory, the server answers for every acknowledged payment.
    const second = await startServer(dataDir);
    servers.push(second);
    const again = new Client(second.base, shopA.token, shopA.entityId);
    const missing: string[] = [];
    await eachLimited([...acknowledged], CLIENTS, async ([id, amount]) => {
      const { status, body } = await again.get(`/v1/payments/${id}`);
      if (status !== 200 || body.id !== id || body.amount !== amount || body.result.code !== '000.100.110' || body.paymentType !== 'DB') {
        missing.push(`${id}: ${status} ${body.amount ?? ''} ${body.result?.code ?? ''}`);
      }
    });
    assert.deepEqual(missing, [], `${missing.length} of ${acknowledged.size} acknowledged payments are not readable after the restart`);
    t.diagnostic(`${acknowledged.size} payments acknowledged before the kill, ${cutOff} requests cut off, all readable after the restart`);

    // And it takes new payments.
    const fresh = await again.post('/v1/payments', cardDebit({ amount: '12.34' }));
    assert.equal(fresh.status, 200);
    assert.equal(fresh.body.result.code, '000.100.110');
    assert.equal((await again.get(`/v1/payments/${fresh.body.id}`)).body.amount, '12.34');

    await kill(second);
    // Nothing was printed at warn level or above but the banner.
    assert.doesNotMatch(first.output() + second.output(), /"level":(40|50|60)/);
  });
});
