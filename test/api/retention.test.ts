// Checkouts and redirect steps are deleted 31 days after they ended (docs/decisions.md): the
// hourly purge, on SQLite and PostgreSQL. Reads of a deleted one answer as for an id never made;
// their payments stay; younger ones and those of a pending payment stay.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { maskValue } from '../../server/schema/errors.ts';
import type { Trx } from '../../server/store/db.ts';
import { purgeEndedCheckouts } from '../../server/store/checkouts.ts';
import { purgeEndedSteps } from '../../server/store/threeds.ts';
import type { Manifest } from '../../scripts/sri.ts';
import { fakeDist, pageCard, prepareCheckout, Shopper } from '../support/checkouts.ts';
import { databaseUrl, pgSkip, shopA, startGateway, type Client, type TestGateway, type TestGatewayOptions } from '../support/gateway.ts';
import { billingAddress, browserData, cards, ShopperBrowser } from '../support/threeds.ts';

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;
const RESULT_URL = 'https://shop.example/result';

function retentionSuite(options: TestGatewayOptions) {
  let gw: TestGateway;
  let dist: { dir: string; manifest: Manifest };
  let merchant: Client;
  let browser: ShopperBrowser;
  let shopper: Shopper;

  before(async () => {
    dist = fakeDist({ later: true });
    gw = await startGateway({ ...options, distDir: dist.dir });
    merchant = gw.clientFor(shopA.token, shopA.threeDSecureEntityId);
    browser = new ShopperBrowser(gw.base);
    shopper = new Shopper(gw.base);
  });
  after(async () => {
    await gw.close();
    rmSync(dist.dir, { recursive: true, force: true });
  });

  const checkoutRow = (id: string) => gw.running.store.db.selectFrom('checkouts').selectAll().where('id', '=', id).executeTakeFirst();
  const stepRows = (where: { checkoutId?: string; id?: string }) =>
    gw.running.store.db
      .selectFrom('threeds')
      .selectAll()
      .$if(where.checkoutId !== undefined, (q) => q.where('checkout_id', '=', where.checkoutId!))
      .$if(where.id !== undefined, (q) => q.where('id', '=', where.id!))
      .execute();
  /** What the merchant reads of a checkout id that names nothing. */
  const assertNoCheckout = async (client: Client, id: string) => {
    for (const path of [`/v1/checkouts/${id}/payment`, `/v1/checkouts/${id}/registration`]) {
      const { status, body } = await client.get(path);
      assert.equal(status, 404, path);
      assert.equal(body.result.code, '200.300.404', path);
      assert.deepEqual(body.result.parameterErrors, [{ name: 'id', value: maskValue('id', id), message: 'id names no checkout' }], path);
    }
    const form = await shopper.form(id);
    assert.equal(form.status, 404);
    assert.equal(form.body.result.code, '200.300.404');
  };
  const standalone = (number: string) => ({
    amount: '92.00',
    currency: 'EUR',
    'card.number': number,
    'card.holder': 'Jane Jones',
    'card.expiryMonth': '05',
    'card.expiryYear': '2034',
    shopperResultUrl: RESULT_URL,
    ...browserData,
    ...billingAddress,
  });

  it('deletes a checkout and its 3-D Secure step 31 days after they ended; reads then answer 404 as for an unknown id, the payment stays readable', async () => {
    // Paid at once (no 3-D Secure), paid after a challenge, left open, and a standalone authentication.
    const paidId = await prepareCheckout(gw.client, { createRegistration: 'true' });
    const paid = await shopper.pay(paidId, pageCard());
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    const paidPayment = (await gw.client.get(`/v1/checkouts/${paidId}/payment`)).body;
    assert.equal(paidPayment.result.code, '000.100.110');

    const challengedId = await prepareCheckout(merchant, billingAddress);
    const pending = await shopper.pay(challengedId, { ...pageCard({ 'card.number': cards.challenge.VISA }), ...browserData });
    assert.equal(pending.body.result.code, '000.200.000', JSON.stringify(pending.body));
    await browser.finish(await browser.toChallenge(pending.body.redirect), 'approve');
    const challengedPayment = (await merchant.get(`/v1/checkouts/${challengedId}/payment`)).body;
    assert.equal(challengedPayment.result.code, '000.100.110');
    const [challengeStep] = await stepRows({ checkoutId: challengedId });
    assert.equal(challengeStep?.status, 'done');
    assert.equal(challengeStep?.secret, null, 'the card was wiped from the step when it ended');

    const openId = await prepareCheckout(gw.client);
    const authentication = await merchant.post('/v1/threeDSecure', standalone(cards.frictionless.VISA));
    assert.equal(authentication.body.result.code, '000.400.110', JSON.stringify(authentication.body));

    // A day later, another checkout paid and another authentication: 30 days old at the purge.
    gw.clock.advance(DAY);
    const youngId = await prepareCheckout(gw.client);
    assert.equal((await shopper.pay(youngId, pageCard())).status, 200);
    const youngAuthentication = await merchant.post('/v1/threeDSecure', standalone(cards.frictionless.VISA));
    assert.equal(youngAuthentication.body.result.code, '000.400.110');

    // 31 days after the first ones ended (the open checkout at its expiry, 30 minutes on), less a minute: all kept.
    gw.clock.advance(31 * DAY + 30 * MINUTE - DAY - MINUTE);
    assert.deepEqual(await gw.running.purgeEnded(), { checkouts: 0, steps: 0 });
    assert.equal((await gw.client.get(`/v1/checkouts/${openId}/payment`)).body.result.code, '100.396.103');

    gw.clock.advance(2 * MINUTE);
    assert.deepEqual(await gw.running.purgeEnded(), { checkouts: 3, steps: 2 });
    for (const id of [paidId, openId]) await assertNoCheckout(gw.client, id);
    await assertNoCheckout(merchant, challengedId);
    assert.equal(await checkoutRow(paidId), undefined);
    assert.deepEqual(await stepRows({ checkoutId: challengedId }), []);
    assert.deepEqual(await stepRows({ id: authentication.body.id }), []);

    // An authentication deleted reads as one never made.
    const gone = await merchant.get(`/v1/threeDSecure/${authentication.body.id}`);
    const unknown = await merchant.get(`/v1/threeDSecure/${'0'.repeat(32)}`);
    assert.equal(gone.status, 404);
    assert.deepEqual(gone.body.result, unknown.body.result);
    assert.equal(gone.body.result.code, '700.400.580');

    // The payments stay, as they were answered.
    for (const [client, payment] of [
      [gw.client, paidPayment],
      [merchant, challengedPayment],
    ] as const) {
      const read = await client.get(`/v1/payments/${payment.id}`);
      assert.equal(read.status, 200);
      assert.equal(read.body.result.code, payment.result.code);
      assert.equal(read.body.ndc, payment.ndc);
      assert.equal(read.body.amount, payment.amount);
    }

    // The younger ones are still read.
    assert.equal((await gw.client.get(`/v1/checkouts/${youngId}/payment`)).body.result.code, '000.100.110');
    const young = await merchant.get(`/v1/threeDSecure/${youngAuthentication.body.id}`);
    assert.equal(young.status, 200);
    assert.equal(young.body.result.code, '000.400.110');
  });
}

describe('retention of checkouts and 3-D Secure steps, on SQLite', () => retentionSuite({}));
describe('retention of checkouts and 3-D Secure steps, on PostgreSQL', { skip: pgSkip }, () => retentionSuite({ databaseUrl }));

function purgeSuite(options: TestGatewayOptions) {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway(options);
  });
  after(() => gw.close());

  // Times far ahead of the gateway's clock, so that its own hourly purge never meets these rows.
  const base = () => gw.clock.now().getTime() + 1000 * DAY;
  const hex = (prefix: string, i: number) => `${prefix}${String(i).padStart(32 - prefix.length, '0')}`;
  const payment = (id: string, status: string, at: number) => ({
    id,
    entity_id: shopA.entityId,
    payment_type: 'DB',
    method: 'CC',
    payment_brand: 'VISA',
    amount_minor: 9200,
    currency: 'EUR',
    status,
    result_code: status === 'pending' ? '000.200.000' : '000.100.110',
    ndc: 'ndc',
    details: '{}',
    acquirer: '{}',
    created_at: at,
    updated_at: at,
  });

  /** Each transaction's deletions in `table`, as the store commits them. */
  function counting(table: 'checkouts' | 'threeds') {
    const perTransaction: number[] = [];
    const count = async (trx: Trx) => Number((await trx.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const store = {
      write: <T>(unit: (trx: Trx) => Promise<T>) =>
        gw.running.store.write(async (trx) => {
          const before = await count(trx);
          const value = await unit(trx);
          perTransaction.push(before - (await count(trx)));
          return value;
        }),
    };
    return { store, perTransaction };
  }

  it('purges ended checkouts in bounded transactions; younger ones and one whose payment is pending stay', async () => {
    const cutoff = base();
    const checkout = (id: string, status: string, expiresAt: number, updatedAt: number, paymentId: string | null = null) => ({
      id: `${id}.node`,
      entity_id: shopA.entityId,
      status,
      request: '{}',
      payment_id: paymentId,
      registration_id: null,
      created_at: expiresAt - 30 * MINUTE,
      updated_at: updatedAt,
      expires_at: expiresAt,
    });
    const statuses = ['paid', 'cancelled', 'open', 'processing'];
    const ended = Array.from({ length: 250 }, (_, i) => checkout(hex('c', i), statuses[i % 4]!, cutoff - 1 - i, cutoff - 1 - i));
    const kept = [
      // Expired, or paid, less than 31 days ago.
      checkout(hex('k', 1), 'open', cutoff + 1, cutoff - 29 * MINUTE),
      checkout(hex('k', 2), 'paid', cutoff + 1, cutoff - 10 * MINUTE),
      // Expired long ago but paid since (a challenge begun in its last minute), less than 31 days ago.
      checkout(hex('k', 3), 'paid', cutoff - 20 * MINUTE, cutoff + 1),
      // Its payment still waits at its redirect, whatever its age.
      checkout(hex('k', 4), 'processing', cutoff - DAY, cutoff - DAY, hex('p', 4)),
    ];
    await gw.running.store.write(async (trx) => {
      await trx.insertInto('payments').values(payment(hex('p', 4), 'pending', cutoff - DAY)).execute();
      await trx.insertInto('checkouts').values([...ended, ...kept]).execute();
    });

    const { store, perTransaction } = counting('checkouts');
    assert.equal(await purgeEndedCheckouts(store, cutoff, 100), 250);
    assert.deepEqual(perTransaction, [100, 100, 50]);
    const left = await gw.running.store.db.selectFrom('checkouts').select('id').where('id', 'in', [...ended, ...kept].map((c) => c.id)).orderBy('id').execute();
    assert.deepEqual(left.map((r) => r.id), kept.map((c) => c.id));
  });

  it('purges ended steps in bounded transactions; open ones, younger ones and one whose payment is pending stay', async () => {
    const cutoff = base();
    const step = (id: string, kind: string, status: string, expiresAt: number, updatedAt: number, paymentId: string | null = null) => ({
      id,
      entity_id: shopA.entityId,
      kind,
      status,
      path: 'challenge',
      payment_id: paymentId,
      checkout_id: null,
      payment_brand: 'VISA',
      token_hash: 'h'.repeat(64),
      result_code: status === 'done' ? '000.100.110' : null,
      data: '{}',
      secret: status === 'done' ? null : 'v1:sealed',
      expires_at: expiresAt,
      created_at: expiresAt - 30 * MINUTE,
      updated_at: updatedAt,
    });
    const kinds = ['payment', 'standalone', 'provider'];
    const ended = Array.from({ length: 250 }, (_, i) => step(hex('s', i), kinds[i % 3]!, 'done', cutoff - 1 - i, cutoff - 1 - i));
    const kept = [
      // Never ended (a sweep that did not run): its card is still sealed in it, its payment pending.
      step(hex('k', 1), 'payment', 'challenge', cutoff - DAY, cutoff - DAY, hex('q', 1)),
      step(hex('k', 2), 'payment', 'completing', cutoff - DAY, cutoff - DAY),
      // Ended less than 31 days ago, or expired long ago but ended since.
      step(hex('k', 3), 'standalone', 'done', cutoff + 1, cutoff - 20 * MINUTE),
      step(hex('k', 4), 'payment', 'done', cutoff - 5 * MINUTE, cutoff + 1),
      // Done, yet its payment is pending.
      step(hex('k', 5), 'payment', 'done', cutoff - DAY, cutoff - DAY, hex('q', 5)),
    ];
    await gw.running.store.write(async (trx) => {
      await trx.insertInto('payments').values([payment(hex('q', 1), 'pending', cutoff - DAY), payment(hex('q', 5), 'pending', cutoff - DAY)]).execute();
      await trx.insertInto('threeds').values([...ended, ...kept]).execute();
    });

    const { store, perTransaction } = counting('threeds');
    assert.equal(await purgeEndedSteps(store, cutoff, 100), 250);
    assert.deepEqual(perTransaction, [100, 100, 50]);
    const left = await gw.running.store.db.selectFrom('threeds').select('id').where('id', 'in', [...ended, ...kept].map((s) => s.id)).orderBy('id').execute();
    assert.deepEqual(left.map((r) => r.id), kept.map((s) => s.id));
  });
}

describe('the purge of ended checkouts and steps, on SQLite', () => purgeSuite({}));
describe('the purge of ended checkouts and steps, on PostgreSQL', { skip: pgSkip }, () => purgeSuite({ databaseUrl }));
