import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { claimKey, completeKey, findKey, hashMerchantKeys, IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS, linkKeyToPayment, merchantKey, purgeExpiredKeys, releaseKey } from '../../server/store/idempotency.ts';
import type { Trx } from '../../server/store/db.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cardDebit, databaseUrl, freshPostgresSchema, holdNextAcquirerCall, pgSkip, shopA, startGateway, type TestGateway } from '../support/gateway.ts';
import { billingAddress, browserData, cards } from '../support/threeds.ts';

describe('Idempotency-Key', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway();
  });
  after(() => gw.close());

  it('replays the first answer for a retry with the same key and charges once', async () => {
    const first = await gw.client.post('/v1/payments', cardDebit({ merchantTransactionId: 'order-0001' }), { 'idempotency-key': 'key-replay-1' });
    const retry = await gw.client.post('/v1/payments', cardDebit({ merchantTransactionId: 'order-0001' }), { 'idempotency-key': 'key-replay-1' });
    assert.equal(first.status, 200);
    assert.deepEqual(retry.body, first.body);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    const rows = await gw.running.store.db.selectFrom('payments').select('id').where('merchant_transaction_id', '=', 'order-0001').execute();
    assert.equal(rows.length, 1);
  });

  it('treats a retry with another security code as the same request (the code is never compared or kept)', async () => {
    const first = await gw.client.post('/v1/payments', cardDebit({ 'card.cvv': '123' }), { 'idempotency-key': 'key-cvv' });
    const retry = await gw.client.post('/v1/payments', cardDebit({ 'card.cvv': '456' }), { 'idempotency-key': 'key-cvv' });
    assert.equal(retry.body.id, first.body.id);
  });

  it('refuses reuse of a key with other parameters, naming the header', async () => {
    await gw.client.post('/v1/payments', cardDebit({ amount: '10.00' }), { 'idempotency-key': 'key-conflict' });
    const reuse = await gw.client.post('/v1/payments', cardDebit({ amount: '11.00' }), { 'idempotency-key': 'key-conflict' });
    assert.equal(reuse.status, 400);
    assert.equal(reuse.body.result.code, '200.300.404');
    assert.equal(reuse.body.result.parameterErrors[0].name, 'Idempotency-Key');
  });

  it('replays a validation error as well', async () => {
    const first = await gw.client.post('/v1/payments', cardDebit({ currency: 'XXXX' }), { 'idempotency-key': 'key-invalid' });
    const retry = await gw.client.post('/v1/payments', cardDebit({ currency: 'XXXX' }), { 'idempotency-key': 'key-invalid' });
    assert.equal(first.status, 400);
    assert.equal(retry.status, 400);
    assert.deepEqual(retry.body, first.body);
  });

  it('gives parallel retries of one key a single payment', async () => {
    const replies = await Promise.all(
      Array.from({ length: 8 }, () => gw.client.post('/v1/payments', cardDebit({ merchantTransactionId: 'order-parallel' }), { 'idempotency-key': 'key-parallel' })),
    );
    const ids = new Set(replies.map((r) => r.body.id));
    assert.equal(ids.size, 1);
    assert.ok(replies.every((r) => r.status === 200));
    const rows = await gw.running.store.db.selectFrom('payments').select('id').where('merchant_transaction_id', '=', 'order-parallel').execute();
    assert.equal(rows.length, 1);
  });

  it('keeps the same key apart for different entities', async () => {
    const a = await gw.client.post('/v1/payments', cardDebit(), { 'idempotency-key': 'key-shared' });
    const other = gw.clientFor('dGVzdC1zaG9wLWItdG9rZW4tMDAwMDAwMDAwMDAy', '8a8294174b7ecb28014b9699220015cc');
    const b = await other.post('/v1/payments', cardDebit(), { 'idempotency-key': 'key-shared' });
    assert.equal(b.status, 200);
    assert.notEqual(a.body.id, b.body.id);
  });

  it('forgets a key after 24 hours', async () => {
    const first = await gw.client.post('/v1/payments', cardDebit(), { 'idempotency-key': 'key-expiring' });
    gw.clock.advance(24 * 3600 * 1000 + 1000);
    const later = await gw.client.post('/v1/payments', cardDebit(), { 'idempotency-key': 'key-expiring' });
    assert.equal(later.status, 200);
    assert.notEqual(later.body.id, first.body.id);
  });

  it('lets a retry of the same request take over a key left pending by a process that stopped mid-request, once the 5-minute lease is over, and charges once; another request is refused', async () => {
    const { store } = gw.running;
    // The first request stops inside its acquirer call, after its claim, as a process killed there would.
    const { asked, resume } = holdNextAcquirerCall(gw, 'authorize');
    const request = () => gw.client.post('/v1/payments', cardDebit({ merchantTransactionId: 'order-orphan' }), { 'idempotency-key': 'key-orphan' });
    const first = request();
    await asked;
    gw.clock.advance(IDEMPOTENCY_LEASE_MS + 1000);
    const other = await gw.client.post('/v1/payments', cardDebit({ merchantTransactionId: 'order-other' }), { 'idempotency-key': 'key-orphan' });
    assert.equal(other.status, 400, JSON.stringify(other.body));
    assert.deepEqual(other.body.result.parameterErrors.map((e: { name: string }) => e.name), ['Idempotency-Key']);
    const retry = await request();
    assert.equal(retry.status, 200, JSON.stringify(retry.body));
    const again = await request();
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.id, retry.body.id);
    // The stopped request, were it only slow, records nothing once its claim was taken over.
    resume();
    assert.notEqual((await first).status, 200);
    const rows = await store.db.selectFrom('payments').select('id').where('merchant_transaction_id', '=', 'order-orphan').execute();
    assert.deepEqual(rows.map((r) => r.id), [retry.body.id]);
  });

  it('fences a claim out once it was taken over: its holder can neither record its answer nor free the key', async () => {
    const { store } = gw.running;
    const entityId = shopA.entityId;
    const first = gw.clock.now().getTime();
    const claim = (at: number) => store.write((trx) => claimKey(trx, entityId, 'key-fenced', '/v1/payments', 'digest', at));
    assert.deepEqual(await claim(first), { reserved: null });
    // The payment the first holder reserved (a reference) is handed to whoever takes its claim over.
    const reservedId = '0123456789abcdef0123456789abcdef';
    await store.write((trx) => linkKeyToPayment(trx, entityId, 'key-fenced', first, reservedId));
    assert.equal(await claim(first + IDEMPOTENCY_LEASE_MS - 1000), undefined, 'a running claim within the lease stays');
    const second = first + IDEMPOTENCY_LEASE_MS + 1000;
    assert.deepEqual(await claim(second), { reserved: reservedId });
    // The first holder can no longer link another.
    await store.write((trx) => linkKeyToPayment(trx, entityId, 'key-fenced', first, 'ffffffffffffffffffffffffffffffff'));
    assert.equal((await findKey(store.db, entityId, 'key-fenced'))?.paymentId, reservedId);
    await assert.rejects(store.write((trx) => completeKey(trx, entityId, 'key-fenced', 200, '{"late":true}', first)), /taken over/);
    await store.write((trx) => releaseKey(trx, entityId, 'key-fenced', first));
    assert.deepEqual(await findKey(store.db, entityId, 'key-fenced').then((r) => [r?.status, r?.createdAt]), ['pending', second]);
    await store.write((trx) => completeKey(trx, entityId, 'key-fenced', 200, '{"ok":true}', second));
    assert.deepEqual(await findKey(store.db, entityId, 'key-fenced').then((r) => [r?.status, r?.response]), ['done', '{"ok":true}']);
    // Expired after 24 hours, the key is new again: nothing of the old request is handed on.
    assert.deepEqual(await claim(second + 25 * 60 * 60 * 1000), { reserved: null });
  });

  it('purges expired records in bounded transactions: a day of keys is never one DELETE holding the store', async () => {
    // A gateway of its own: the other tests leave expired keys behind.
    const own = await startGateway({ databaseUrl });
    after(() => own.close());
    const { store } = own.running;
    const now = own.clock.now().getTime();
    const row = (i: number, createdAt: number) => ({ entity_id: 'purge-entity', key: `merchant/purge-${i}`, operation: 'POST /v1/payments', request_hash: 'h', status: 'done', http_status: 200, response: '{}', created_at: createdAt });
    const expired = Array.from({ length: 250 }, (_, i) => row(i, now - IDEMPOTENCY_TTL_MS - 1000 - i));
    const live = Array.from({ length: 5 }, (_, i) => row(1000 + i, now - 1000));
    await store.write((trx) => trx.insertInto('idempotency_keys').values([...expired, ...live]).execute());
    // Each transaction's deletions, as the store commits them.
    const perTransaction: number[] = [];
    const counting = {
      write: <T>(unit: (trx: Trx) => Promise<T>) =>
        store.write(async (trx) => {
          const before = await trx.selectFrom('idempotency_keys').select((eb) => eb.fn.countAll<number>().as('n')).where('entity_id', '=', 'purge-entity').executeTakeFirstOrThrow();
          const value = await unit(trx);
          const after = await trx.selectFrom('idempotency_keys').select((eb) => eb.fn.countAll<number>().as('n')).where('entity_id', '=', 'purge-entity').executeTakeFirstOrThrow();
          perTransaction.push(Number(before.n) - Number(after.n));
          return value;
        }),
    };
    assert.equal(await purgeExpiredKeys(counting, now, 100), 250);
    assert.deepEqual(perTransaction, [100, 100, 50]);
    const left = await store.db.selectFrom('idempotency_keys').select('key').where('entity_id', '=', 'purge-entity').orderBy('key').execute();
    assert.deepEqual(left.map((r) => r.key), live.map((r) => r.key));
  });

  it('refuses a key longer than 255 characters', async () => {
    const { status, body } = await gw.client.post('/v1/payments', cardDebit(), { 'idempotency-key': 'k'.repeat(256) });
    assert.equal(status, 400);
    assert.equal(body.result.parameterErrors[0].name, 'Idempotency-Key');
  });

  it('never stores a security code in the idempotency record', async () => {
    // Looked for as a whole JSON value: the digits alone can occur inside random ids.
    const paid = await gw.client.post('/v1/payments', cardDebit({ paymentBrand: 'AMEX', 'card.number': '377777777777770', 'card.cvv': '7319' }), { 'idempotency-key': 'key-stored' });
    assert.equal(paid.body.result.cvvResponse, 'M');
    const row = await gw.running.store.db.selectFrom('idempotency_keys').selectAll().where('key', '=', merchantKey(gw.running.gateway.deps.vault.digest, 'key-stored')).executeTakeFirstOrThrow();
    assert.equal(row.status, 'done');
    const stored = JSON.stringify(row);
    assert.equal(stored.includes('"7319"'), false);
    assert.equal(/"(card\.)?cvv"/.test(stored), false);
    assert.equal(stored.includes('377777777777770'), false);
  });

  it('keeps a merchant\'s key only as the card key\'s digest of it, even one holding a card number, and still replays by it', async () => {
    const key = '4111111111111111';
    const first = await gw.client.post('/v1/payments', cardDebit({ amount: '3.00' }), { 'idempotency-key': key });
    const again = await gw.client.post('/v1/payments', cardDebit({ amount: '3.00' }), { 'idempotency-key': key });
    assert.equal(again.body.id, first.body.id);
    const keys = (await gw.running.store.db.selectFrom('idempotency_keys').select('key').execute()).map((r) => r.key);
    assert.ok(keys.includes(merchantKey(gw.running.gateway.deps.vault.digest, key)));
    assert.equal(keys.some((k) => k.includes(key)), false);
  });

  it('rewrites the keys an earlier version kept as sent at startup: a retry across the upgrade replays its answer, a sealed one (3-D Secure\'s redirect) too', async () => {
    const { store, gateway } = gw.running;
    const threeds = gw.clientFor(shopA.token, shopA.threeDSecureEntityId);
    const pending = cardDebit({ 'card.number': cards.challenge.VISA, shopperResultUrl: 'https://shop.example/result', ...browserData, ...billingAddress });
    const first = await threeds.post('/v1/payments', pending, { 'idempotency-key': 'order-legacy-1' });
    assert.equal(first.body.result.code, '000.200.000');
    assert.ok(first.body.redirect.parameters.length > 0, 'the answer carries a token, sealed in its record');
    // The record as the earlier version kept it: under the key as sent, its answer sealed in the
    // context that names that key (as the earlier version sealed it).
    const hashed = merchantKey(gateway.deps.vault.digest, 'order-legacy-1');
    const record = await store.db.selectFrom('idempotency_keys').select('response').where('key', '=', hashed).executeTakeFirstOrThrow();
    assert.match(record.response!, /^v1:/);
    assert.deepEqual(JSON.parse(gateway.deps.vault.open(record.response!, `idempotency:${shopA.threeDSecureEntityId}:order-legacy-1`)), first.body);
    await store.write((trx) => trx.updateTable('idempotency_keys').set({ key: 'order-legacy-1' }).where('key', '=', hashed).execute());
    const keyed = async () => (await store.db.selectFrom('idempotency_keys').select('key').where('key', 'in', ['order-legacy-1', hashed]).execute()).map((r) => r.key);
    assert.deepEqual(await keyed(), ['order-legacy-1']);
    assert.ok((await hashMerchantKeys(store, gateway.deps.vault.digest, gw.clock.now().getTime())) >= 1);
    assert.deepEqual(await keyed(), [hashed]);
    assert.equal(await hashMerchantKeys(store, gateway.deps.vault.digest, gw.clock.now().getTime()), 0, 'a second start has nothing left to rewrite');
    const retry = await threeds.post('/v1/payments', pending, { 'idempotency-key': 'order-legacy-1' });
    assert.equal(retry.status, 200, JSON.stringify(retry.body));
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(retry.body, first.body);
  });
});

/**
 * A database an earlier version left keys in as sent, opened by this version: at startup every
 * merchant key is its digest, whatever it looks like; a shopper's stays; a key whose digest this
 * version already wrote gives way to it.
 */
function upgradeSuite(options: { databaseUrl?: string }) {
  it('hashes at startup the keys kept as sent, also one that looks like a namespace; leaves a shopper\'s; gives way to a digest already there', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-upgrade-'));
    const schema = options.databaseUrl ? await freshPostgresSchema(options.databaseUrl) : undefined;
    try {
      const before = await startGateway({ dataDir, schemaUrl: schema?.url });
      const { store, gateway } = before.running;
      const digest = gateway.deps.vault.digest;
      const shopper = `checkout:0123456789abcdef0123456789abcdef.vm/${'A'.repeat(43)}`;
      // A merchant's key of 38 characters with a / 5 from its end: SQLite's substr from -5 read that /,
      // took it for a shopper's and left it as sent (a retry across the upgrade ran again); PostgreSQL hashed it.
      const shortNamespaced = 'checkout:abcdefghijklmnopqrstuvwx/yz12';
      const record = (key: string, hash = 'h') => ({ entity_id: shopA.entityId, key, operation: '/v1/payments', request_hash: hash, status: 'done', http_status: 200, response: '{}', created_at: before.clock.now().getTime() });
      await store.write((trx) =>
        trx.insertInto('idempotency_keys').values([record('order-1'), record('checkout:order-2'), record('merchant/order-3'), record(shopper), record('order-4', 'old'), record(merchantKey(digest, 'order-4'), 'new'), record(shortNamespaced)]).execute(),
      );
      await before.close();
      const after = await startGateway({ dataDir, schemaUrl: schema?.url });
      try {
        const rows = await after.running.store.db.selectFrom('idempotency_keys').select(['key', 'request_hash']).orderBy('key').execute();
        const expected = [
          { key: shopper, request_hash: 'h' },
          ...['order-1', 'checkout:order-2', 'merchant/order-3', shortNamespaced].map((key) => ({ key: merchantKey(digest, key), request_hash: 'h' })),
          { key: merchantKey(digest, 'order-4'), request_hash: 'new' },
        ].sort((a, b) => (a.key < b.key ? -1 : 1));
        assert.deepEqual(rows, expected);
      } finally {
        await after.close();
      }
    } finally {
      await schema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}

describe('Idempotency-Key: an upgrade from keys kept as sent, on SQLite', () => upgradeSuite({}));
describe('Idempotency-Key: an upgrade from keys kept as sent, on PostgreSQL', { skip: pgSkip }, () => upgradeSuite({ databaseUrl }));
