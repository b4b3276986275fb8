// Every process of one gateway must use one CARD_KEY: a gateway started on a database with another
// key (or with none, generating its own beside another process's) refuses to start, and never
// seals a card the others cannot open.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { databaseUrl, freshPostgresSchema, pgSkip, startGateway } from '../support/gateway.ts';

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
