// Every process of one gateway must use one CARD_KEY: a gateway started on a database with another
// key (or with none, generating its own beside another process's) refuses to start, and never
// seals a card the others cannot open.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { createVault } from '../../server/registrations/vault.ts';
import { Client, databaseUrl, freshPostgresSchema, pgSkip, shopA, startGateway } from '../support/gateway.ts';
import { kill, startServer } from '../support/server.ts';

const KEY_A = 'a1'.repeat(32);
const KEY_B = 'b2'.repeat(32);
const REFUSED = /CARD_KEY is not the key this database was first used with/;

const storeCard = (client: { post: (path: string, params: Record<string, string>) => Promise<{ status: number; body: any }> }) =>
  client.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });

describe('CARD_KEY: one key per gateway', () => {
  it('on one data directory: another key is refused at start; the first key starts again and pays with the stored card', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-card-key-'));
    try {
      const first = await startGateway({ dataDir, cardKey: KEY_A });
      const registration = await storeCard(first.client);
      assert.equal(registration.status, 200);
      await first.running.close();

      await assert.rejects(startGateway({ dataDir, cardKey: KEY_B }), REFUSED);

      const again = await startGateway({ dataDir, cardKey: KEY_A });
      const paid = await again.client.post(`/v1/registrations/${registration.body.id}/payments`, { amount: '5.00', currency: 'EUR', paymentType: 'DB' });
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      await again.running.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('on one PostgreSQL schema: a second process without CARD_KEY (its own generated key) is refused; with the same key it starts', { skip: pgSkip }, async () => {
    const schema = await freshPostgresSchema(databaseUrl!);
    const running: Array<{ close(): Promise<void> }> = [];
    try {
      const first = await startGateway({ schemaUrl: schema.url, cardKey: KEY_A });
      running.push(first);
      await assert.rejects(startGateway({ schemaUrl: schema.url }), REFUSED);
      const second = await startGateway({ schemaUrl: schema.url, cardKey: KEY_A });
      running.push(second);
      const registration = await storeCard(first.client);
      const paid = await second.client.post(`/v1/registrations/${registration.body.id}/payments`, { amount: '5.00', currency: 'EUR', paymentType: 'DB' });
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
    } finally {
      for (const gw of running) await gw.close();
      await schema.drop();
    }
  });
});

describe('DATA_DIR/card.key: written whole, or not at all', () => {
  const killAtWrite = new URL('../support/killAtWrite.ts', import.meta.url).pathname;

  it('a first start killed (SIGKILL) while it writes the new key leaves no key the next start takes: that one writes a whole key and seals cards with it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-card-key-kill-'));
    try {
      await assert.rejects(startServer(dataDir, { KILL_AT_WRITE: 'card.key' }, killAtWrite), /exited \(SIGKILL\) before listening/);
      const server = await startServer(dataDir);
      try {
        assert.equal((await storeCard(new Client(server.base, shopA.token, shopA.entityId))).status, 200);
      } finally {
        await kill(server);
      }
      const key = readFileSync(join(dataDir, 'card.key'), 'utf8');
      assert.match(key, /^[0-9a-f]{64}$/);
      const database = new SQLite(join(dataDir, 'gateway.sqlite'), { readonly: true });
      const row = database.prepare('select id, entity_id, secret from registrations').get() as { id: string; entity_id: string; secret: string };
      database.close();
      const context = `${row.entity_id}:${row.id}`;
      assert.equal(createVault(Buffer.from(key, 'hex')).open(row.secret, context), '4200000000000000');
      // Never sealed with the key of an empty file, which anyone can derive.
      assert.throws(() => createVault(Buffer.alloc(0)).open(row.secret, context));
      assert.deepEqual(readdirSync(dataDir).filter((name) => name.startsWith('card.key')), ['card.key']);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a card.key that holds no key (empty, as a kill while creating it left one before keys were written whole) stops the start, naming the file', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-card-key-empty-'));
    try {
      // A gateway that starts anyway is closed, so that the failure is reported rather than hanging.
      const refusal = () =>
        startGateway({ dataDir }).then(
          async (gw) => {
            await gw.close();
            return 'started';
          },
          (error: Error) => error.message,
        );
      writeFileSync(join(dataDir, 'card.key'), '', { mode: 0o600 });
      const empty = await refusal();
      assert.match(empty, /holds no card key/);
      assert.ok(empty.includes(join(dataDir, 'card.key')), empty);
      writeFileSync(join(dataDir, 'card.key'), 'a1'.repeat(20), { mode: 0o600 });
      assert.match(await refusal(), /holds no card key/);
      assert.equal(readFileSync(join(dataDir, 'card.key'), 'utf8'), 'a1'.repeat(20), 'the file is left as it is');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
