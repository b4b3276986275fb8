// Webhooks over HTTP: registration through the API, notifications written with the change they
// report and delivered encrypted to a local receiver (the payload is what GET answers), retries
// on the schedule with the gateway's clock, delivery after a restart, and with two gateways on
// one PostgreSQL schema each notification delivered exactly once.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { demoShop } from '../../demo/shop.ts';
import { createGateway } from '../../server/gateway.ts';
import { migrate, migrations } from '../../server/store/migrations.ts';
import { cancelPendingOf, deleteWebhook, insertWebhook, purgeFinished } from '../../server/store/webhooks.ts';
import type { Trx } from '../../server/store/db.ts';
import { decryptNotification, ciphertextOf } from '../../server/webhooks/encryption.ts';
import { pageCard, prepareCheckout, Shopper } from '../support/checkouts.ts';
import { fullCardDebit } from '../support/groups.ts';
import { cardDebit, Client, databaseUrl, freshPostgresSchema, pgSkip, shopA, shopB, startGateway, TestClock, testSettings, type TestGateway } from '../support/gateway.ts';
import { ShopperBrowser, formOf } from '../support/threeds.ts';

const MINUTE = 60 * 1000;
const SECRET = '0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** The decrypted envelope. */
  notification: any;
}

/** What the receiver does with a request: answer this status, or never answer. */
type Behaviour = (n: number) => number | 'hang';

/** A merchant's webhook endpoint: decrypts what arrives with the secret and keeps it. */
class Receiver {
  received: Received[] = [];
  /** Every request, answered or not. */
  hits = 0;
  behaviour: Behaviour = () => 200;
  private server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const n = ++this.hits;
      const body = Buffer.concat(chunks).toString('utf8');
      const what = this.behaviour(n);
      if (what === 'hang') return;
      if (what >= 200 && what < 300) {
        const iv = String(request.headers['x-initialization-vector']);
        const tag = String(request.headers['x-authentication-tag']);
        const plaintext = decryptNotification({ iv, tag, ciphertext: ciphertextOf(body, request.headers['content-type']) }, this.secret);
        this.received.push({ headers: request.headers, body, notification: JSON.parse(plaintext) });
      }
      response.writeHead(what).end();
    });
  });
  url = '';
  constructor(public secret = SECRET) {}
  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/hooks/payments`;
  }
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
  of(id: string): any[] {
    return this.received.map((r) => r.notification).filter((n) => n.payload.id === id);
  }
}

type Gw = TestGateway;

/** A gateway whose merchants file gives shop B's entity a webhook to this receiver; its client is shop B's. */
async function startWithConfigWebhook(receiver: Receiver, env: 'test' | 'live' = 'test') {
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-webhooks-config-'));
  const { loadMerchants, parseMerchants } = await import('../../server/config.ts');
  const { merchantsFile } = await import('../support/gateway.ts');
  const json = JSON.parse(JSON.stringify({ merchants: loadMerchants(merchantsFile).merchants }));
  json.merchants[1].entities[0].webhooks = [{ url: receiver.url, secret: SECRET }];
  const running = await createGateway({ ...testSettings(dataDir, { env }), webhookPollMs: 60 * MINUTE }, { clock: new TestClock().now, merchants: parseMerchants(json) });
  const base = await running.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    running,
    client: new Client(base, shopB.token, shopB.entityId),
    async close() {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}


/** A gateway whose webhook poll is slow (the tests deliver with deliverWebhooks()), on SQLite or on a given PostgreSQL schema. */
async function start(options: Backend & { dataDir?: string; schemaUrl?: string; clock?: TestClock; timeoutMs?: number; pollMs?: number; cardKey?: string } = {}): Promise<Gw> {
  const { pollMs, timeoutMs, ...rest } = options;
  return startGateway({ ...rest, webhookPollMs: pollMs ?? 60 * MINUTE, webhookTimeoutMs: timeoutMs });
}

/** SQLite by default; a fresh PostgreSQL schema with databaseUrl. */
interface Backend {
  databaseUrl?: string;
}

async function register(client: Client, params: Record<string, string>): Promise<any> {
  const { status, body } = await client.post('/v1/webhooks', params);
  assert.equal(status, 200, JSON.stringify(body));
  return body;
}

const outboxRows = (gw: Gw) => gw.running.store.db.selectFrom('webhook_outbox').selectAll().orderBy('created_at').execute();

function notificationSuite(backend: Backend) {
  let gw: Gw;
  let receiver: Receiver;
  let webhookId: string;
  before(async () => {
    gw = await start(backend);
    receiver = new Receiver();
    await receiver.start();
    webhookId = (await register(gw.client, { url: receiver.url, secret: SECRET })).id;
  });
  after(async () => {
    await gw.close();
    await receiver.stop();
  });

  /** Deliver what is due, then the notifications about this payment or registration. */
  const notificationsOf = async (id: string) => {
    await gw.running.deliverWebhooks();
    return receiver.of(id);
  };

  it('a card debit with customer, billing, shipping, cart and customParameters: PAYMENT/CREATED whose payload deep-equals GET /v1/payments/{id}', async () => {
    const paid = await gw.client.post('/v1/payments', fullCardDebit({ 'customParameters[ORDER_REF]': 'A-100' }));
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    const [notification, ...more] = await notificationsOf(paid.body.id);
    assert.deepEqual(more, []);
    const read = await gw.client.get(`/v1/payments/${paid.body.id}`);
    assert.equal(read.status, 200);
    // The clock has not moved: the timestamp is the same too; ndc is the payment's own in both.
    assert.deepEqual(notification, { type: 'PAYMENT', action: 'CREATED', payload: read.body, presentationAmount: '92.00', presentationCurrency: 'EUR' });
    assert.equal(notification.payload.ndc, paid.body.ndc);
    assert.equal(notification.payload.customer.givenName, 'Jane');
    assert.equal(notification.payload.cart.items.length, 10);
    assert.deepEqual(notification.payload.customParameters, { ORDER_REF: 'A-100' });
    // Masked as in every answer: no card number, no security code, anywhere in the notification.
    const text = JSON.stringify(notification);
    assert.ok(!text.includes('4200000000000000'));
    assert.ok(!text.includes('"cvv"'));
    const [delivery] = receiver.received.filter((r) => r.notification.payload.id === paid.body.id);
    assert.equal(delivery!.headers['content-type'], 'text/plain');
    assert.match(String(delivery!.headers['x-initialization-vector']), /^[0-9A-F]{24}$/);
    assert.match(String(delivery!.headers['x-authentication-tag']), /^[0-9A-F]{32}$/);
    assert.match(delivery!.body, /^[0-9A-F]+$/);
  });

  it('keeps the notification encrypted in the outbox, never the plaintext, and marks it delivered after one attempt', async () => {
    const paid = await gw.client.post('/v1/payments', cardDebit({ 'customer.givenName': 'Oskar', 'customer.surname': 'Outbox' }));
    await gw.running.deliverWebhooks();
    const row = (await outboxRows(gw)).find((r) => r.resource_id === paid.body.id)!;
    assert.equal(row.status, 'delivered');
    assert.equal(Number(row.attempts), 1);
    assert.equal(row.last_status, 200);
    assert.equal(row.webhook_id, webhookId);
    assert.equal(row.claimed_by, null);
    assert.ok(!row.body.includes('Oskar'));
    assert.equal(JSON.parse(decryptNotification({ iv: row.iv, tag: row.tag, ciphertext: row.body }, SECRET)).payload.customer.surname, 'Outbox');
  });

  it('a declined payment is notified too, with its decline code', async () => {
    const declined = await gw.client.post('/v1/payments', cardDebit({ amount: '100.51' }));
    assert.equal(declined.status, 400);
    const [notification] = await notificationsOf(declined.body.id);
    assert.equal(notification.action, 'CREATED');
    assert.equal(notification.payload.result.code, declined.body.result.code);
  });

  it('a capture: PAYMENT/CREATED whose payload is its GET plus referencedId, the preauthorization', async () => {
    const pa = await gw.client.post('/v1/payments', cardDebit({ paymentType: 'PA' }));
    const cp = await gw.client.post(`/v1/payments/${pa.body.id}`, { paymentType: 'CP', amount: '50.00', currency: 'EUR' });
    assert.equal(cp.status, 200, JSON.stringify(cp.body));
    const [notification, ...more] = await notificationsOf(cp.body.id);
    assert.deepEqual(more, []);
    const read = await gw.client.get(`/v1/payments/${cp.body.id}`);
    assert.equal(read.body.referencedId, undefined);
    assert.deepEqual(notification, {
      type: 'PAYMENT',
      action: 'CREATED',
      payload: { ...read.body, referencedId: pa.body.id },
      presentationAmount: '50.00',
      presentationCurrency: 'EUR',
    });
    // A refund and a reversal of the same family carry their referencedId as well.
    const db = await gw.client.post('/v1/payments', cardDebit());
    const rf = await gw.client.post(`/v1/payments/${db.body.id}`, { paymentType: 'RF', amount: '10.00', currency: 'EUR' });
    const rv = await gw.client.post(`/v1/payments/${pa.body.id}`, { paymentType: 'RV' });
    assert.equal((await notificationsOf(rf.body.id))[0].payload.referencedId, db.body.id);
    assert.equal((await notificationsOf(rv.body.id))[0].payload.referencedId, pa.body.id);
    // A refusal by the rules creates no payment, and so no notification.
    const before = receiver.received.length;
    const refused = await gw.client.post(`/v1/payments/${pa.body.id}`, { paymentType: 'CP', amount: '500.00', currency: 'EUR' });
    assert.equal(refused.status, 400);
    await gw.running.deliverWebhooks();
    assert.equal(receiver.received.length, before);
  });

  it('a redirect payment (PayPal): CREATED while pending, then UPDATED with the outcome once the shopper approved', async () => {
    const pending = await gw.client.post('/v1/payments', { amount: '12.00', currency: 'EUR', paymentBrand: 'PAYPAL', paymentType: 'DB', 'virtualAccount.accountId': 'jane@example.com', shopperResultUrl: 'https://shop.example/result' });
    assert.equal(pending.status, 200, JSON.stringify(pending.body));
    assert.equal(pending.body.result.code, '000.200.000');
    const [created] = await notificationsOf(pending.body.id);
    assert.equal(created.action, 'CREATED');
    assert.equal(created.payload.result.code, '000.200.000');
    // The payload is what GET answers: the redirect (and its token, the shopper's credential) is not in it.
    assert.equal(created.payload.redirect, undefined);

    const browser = new ShopperBrowser(gw.base);
    const page = await browser.open(pending.body.redirect);
    assert.ok(formOf(page.html).buttons.includes('approve'));
    await browser.press(page, 'approve');
    const [, updated, ...more] = await notificationsOf(pending.body.id);
    assert.deepEqual(more, []);
    const read = await gw.client.get(`/v1/payments/${pending.body.id}`);
    assert.equal(read.body.result.code, '000.100.110');
    assert.deepEqual(updated, { type: 'PAYMENT', action: 'UPDATED', payload: read.body, presentationAmount: '12.00', presentationCurrency: 'EUR' });
  });

  it('a pending payment nobody finishes: UPDATED with 100.396.103 when it is abandoned', async () => {
    const pending = await gw.client.post('/v1/payments', { amount: '13.00', currency: 'EUR', paymentBrand: 'PAYPAL', paymentType: 'DB', 'virtualAccount.accountId': 'jane@example.com', shopperResultUrl: 'https://shop.example/result' });
    gw.clock.advance(31 * MINUTE);
    assert.equal(await gw.running.sweep(), 1);
    // Both were due at once: delivered in parallel, in either order.
    const notifications = await notificationsOf(pending.body.id);
    assert.deepEqual(notifications.map((n) => n.action).sort(), ['CREATED', 'UPDATED']);
    const created = notifications.find((n) => n.action === 'CREATED');
    const updated = notifications.find((n) => n.action === 'UPDATED');
    assert.equal(created.payload.result.code, '000.200.000');
    assert.equal(updated.payload.result.code, '100.396.103');
  });

  it('registrations: REGISTRATION/CREATED and REGISTRATION/DELETED with the registration answer; a payment with it is notified', async () => {
    const stored = await gw.client.post('/v1/registrations', {
      paymentBrand: 'VISA',
      'card.number': '4200000000000000',
      'card.holder': 'Jane Jones',
      'card.expiryMonth': '05',
      'card.expiryYear': '2034',
    });
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
    const [created] = await notificationsOf(stored.body.id);
    assert.deepEqual(created, { type: 'REGISTRATION', action: 'CREATED', payload: stored.body });

    const paid = await gw.client.post(`/v1/registrations/${stored.body.id}/payments`, { amount: '25.00', currency: 'EUR', paymentType: 'DB' });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    assert.equal((await notificationsOf(paid.body.id))[0].payload.registrationId, stored.body.id);

    const deleted = await gw.client.delete(`/v1/registrations/${stored.body.id}`);
    assert.equal(deleted.status, 200);
    const [, gone, ...more] = await notificationsOf(stored.body.id);
    assert.deepEqual(more, []);
    assert.deepEqual(gone, { type: 'REGISTRATION', action: 'DELETED', payload: deleted.body });
  });

  it('createRegistration=true: PAYMENT/CREATED and REGISTRATION/CREATED, from the same commit', async () => {
    const paid = await gw.client.post('/v1/payments', cardDebit({ createRegistration: 'true' }));
    assert.equal(paid.status, 200);
    const [payment] = await notificationsOf(paid.body.id);
    assert.equal(payment.payload.registrationId, paid.body.registrationId);
    const [registration] = receiver.of(paid.body.registrationId);
    assert.equal(registration.type, 'REGISTRATION');
    assert.equal(registration.action, 'CREATED');
    assert.equal(registration.payload.ndc, paid.body.ndc);
  });

  it('a checkout paid on the payment form: PAYMENT/CREATED with the checkout id as ndc, as GET answers it', async () => {
    const checkoutId = await prepareCheckout(gw.client, { 'customer.givenName': 'Jane', 'customer.surname': 'Jones' });
    const paid = await new Shopper(gw.base).pay(checkoutId, pageCard());
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    const read = await gw.client.get(`/v1/checkouts/${checkoutId}/payment`);
    const [notification, ...more] = await notificationsOf(read.body.id);
    assert.deepEqual(more, []);
    assert.equal(notification.payload.ndc, checkoutId);
    assert.deepEqual(notification.payload, (await gw.client.get(`/v1/payments/${read.body.id}`)).body);
    assert.equal(notification.payload.customer.surname, 'Jones');
  });

  it('sends as soon as the commit is durable, with no poll due: a new debit (rows only) and its capture (a write unit)', async () => {
    const arrived = async (id: string, count: number) => {
      // The poll is an hour away: only the commit's wake-up can deliver within these 5 s.
      for (let waited = 0; receiver.of(id).length < count && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      return receiver.of(id).map((n) => `${n.type}/${n.action}`);
    };
    const debit = await gw.client.post('/v1/payments', cardDebit({ paymentType: 'PA' }));
    assert.equal(debit.status, 200, JSON.stringify(debit.body));
    assert.deepEqual(await arrived(debit.body.id, 1), ['PAYMENT/CREATED']);
    const capture = await gw.client.post(`/v1/payments/${debit.body.id}`, { paymentType: 'CP', amount: '92.00', currency: 'EUR' });
    assert.equal(capture.status, 200, JSON.stringify(capture.body));
    assert.deepEqual(await arrived(capture.body.id, 1), ['PAYMENT/CREATED']);
  });

  it('writes no notification for an entity without webhooks', async () => {
    const other = gw.clientFor(shopB.token, shopB.entityId);
    const paid = await other.post('/v1/payments', cardDebit());
    assert.equal(paid.status, 200);
    const rows = await gw.running.store.db.selectFrom('webhook_outbox').select('id').where('entity_id', '=', shopB.entityId).execute();
    assert.deepEqual(rows, []);
  });

  it('the JSON wrapper: {"encryptedBody":"<hex>"} as application/json, with the webhook\u2019s own generated secret', async () => {
    const wrapped = new Receiver();
    await wrapped.start();
    try {
      const threeds = gw.clientFor(shopA.token, shopA.threeDSecureEntityId);
      const hook = await register(threeds, { url: wrapped.url, wrapper: 'json' });
      assert.match(hook.secret, /^[0-9A-F]{64}$/);
      wrapped.secret = hook.secret;
      const transfer = await threeds.post('/v1/payments', { amount: '14.00', currency: 'EUR', paymentBrand: 'PAYPAL', paymentType: 'DB', 'virtualAccount.accountId': 'jane@example.com', shopperResultUrl: 'https://shop.example/result' });
      assert.equal(transfer.status, 200, JSON.stringify(transfer.body));
      await gw.running.deliverWebhooks();
      const [delivery] = wrapped.received.filter((r) => r.notification.payload.id === transfer.body.id);
      assert.ok(delivery);
      assert.equal(delivery.headers['content-type'], 'application/json');
      assert.match(JSON.parse(delivery.body).encryptedBody, /^[0-9A-F]+$/);
      assert.equal(delivery.notification.payload.amount, '14.00');
      // Shop A's main entity has its own webhook: nothing of this entity went there.
      assert.deepEqual(receiver.of(transfer.body.id), []);
    } finally {
      await wrapped.stop();
    }
  });
}

describe('webhooks: notifications', () => notificationSuite({}));
describe('webhooks: notifications on PostgreSQL', { skip: pgSkip }, () => notificationSuite({ databaseUrl }));

function retrySuite(backend: Backend) {
  let gw: Gw;
  let receiver: Receiver;
  before(async () => {
    gw = await start({ ...backend, timeoutMs: 300 });
    receiver = new Receiver();
    await receiver.start();
    await register(gw.client, { url: receiver.url, secret: SECRET });
  });
  after(async () => {
    await gw.close();
    await receiver.stop();
  });

  const rowOf = async (id: string) => (await outboxRows(gw)).find((r) => r.resource_id === id)!;

  it('a receiver answering 500 is tried again after 1, 2, 4 minutes by the gateway clock, and not before; delivered once it answers 200', async () => {
    let answer = 500;
    receiver.behaviour = () => answer;
    const paid = await gw.client.post('/v1/payments', cardDebit());
    await gw.running.deliverWebhooks();
    let row = await rowOf(paid.body.id);
    assert.equal(row.status, 'pending');
    assert.equal(Number(row.attempts), 1);
    assert.equal(row.last_status, 500);
    assert.equal(Number(row.next_attempt_at), gw.clock.current.getTime() + MINUTE);

    const hits = receiver.hits;
    gw.clock.advance(MINUTE - 1000);
    await gw.running.deliverWebhooks();
    assert.equal(receiver.hits, hits, 'not due before its minute');
    gw.clock.advance(1000);
    await gw.running.deliverWebhooks();
    assert.equal(receiver.hits, hits + 1);
    row = await rowOf(paid.body.id);
    assert.equal(Number(row.attempts), 2);
    assert.equal(Number(row.next_attempt_at), gw.clock.current.getTime() + 2 * MINUTE);

    gw.clock.advance(2 * MINUTE);
    await gw.running.deliverWebhooks();
    row = await rowOf(paid.body.id);
    assert.equal(Number(row.attempts), 3);
    assert.equal(Number(row.next_attempt_at), gw.clock.current.getTime() + 4 * MINUTE);

    answer = 200;
    gw.clock.advance(4 * MINUTE);
    await gw.running.deliverWebhooks();
    row = await rowOf(paid.body.id);
    assert.equal(row.status, 'delivered');
    assert.equal(Number(row.attempts), 4);
    assert.equal(receiver.of(paid.body.id).length, 1);
    gw.clock.advance(60 * MINUTE);
    await gw.running.deliverWebhooks();
    assert.equal(receiver.of(paid.body.id).length, 1, 'an acknowledged notification is not sent again');
  });

  it('a receiver that does not answer within the timeout is tried again; a 3xx is no acknowledgement either', async () => {
    receiver.behaviour = (n) => (n % 2 === 1 ? 'hang' : 302);
    const paid = await gw.client.post('/v1/payments', cardDebit());
    await gw.running.deliverWebhooks();
    let row = await rowOf(paid.body.id);
    assert.equal(row.status, 'pending');
    assert.equal(row.last_status, null);
    assert.match(row.last_error!, /no answer within 0.3 s/);
    receiver.hits = 1;
    receiver.behaviour = () => 302;
    gw.clock.advance(MINUTE);
    await gw.running.deliverWebhooks();
    row = await rowOf(paid.body.id);
    assert.equal(row.last_status, 302);
    assert.equal(row.status, 'pending');
    assert.equal(Number(row.attempts), 2);
    receiver.behaviour = () => 204;
    gw.clock.advance(2 * MINUTE);
    await gw.running.deliverWebhooks();
    assert.equal((await rowOf(paid.body.id)).status, 'delivered');
  });

  it('sends many notifications at once without a listener-leak warning (each POST in flight listens on the stop signal)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      // A receiver that holds every request: all 15 are in flight together until the timeout.
      receiver.behaviour = () => 'hang';
      const hitsBefore = receiver.hits;
      await Promise.all(Array.from({ length: 15 }, () => gw.client.post('/v1/payments', cardDebit())));
      await gw.running.deliverWebhooks();
      assert.equal(receiver.hits - hitsBefore, 15);
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(warnings.filter((name) => name === 'MaxListenersExceededWarning'), []);
    } finally {
      process.off('warning', onWarning);
      // Delivered after all, so the next test starts with an empty outbox.
      receiver.behaviour = () => 200;
      gw.clock.advance(2 * MINUTE);
      await gw.running.deliverWebhooks();
    }
  });

  it('a row claimed by a process that died is left alone until its lease runs out, then delivered', async () => {
    receiver.behaviour = () => 500;
    const paid = await gw.client.post('/v1/payments', cardDebit());
    await gw.running.deliverWebhooks();
    const now = gw.clock.current.getTime();
    // As a crashed process leaves it: claimed, due, lease running (2 minutes from now).
    await gw.running.store.write((trx) =>
      trx.updateTable('webhook_outbox').set({ claimed_by: 'crashed-host:1:x', claim_expires_at: now + 2 * MINUTE, next_attempt_at: now }).where('resource_id', '=', paid.body.id).execute(),
    );
    receiver.behaviour = () => 200;
    const hits = receiver.hits;
    gw.clock.advance(MINUTE);
    await gw.running.deliverWebhooks();
    assert.equal(receiver.hits, hits, 'not taken from a live lease');
    assert.equal((await rowOf(paid.body.id)).claimed_by, 'crashed-host:1:x');
    gw.clock.advance(MINUTE);
    await gw.running.deliverWebhooks();
    const row = await rowOf(paid.body.id);
    assert.equal(row.status, 'delivered');
    assert.equal(row.claimed_by, null);
    assert.equal(receiver.of(paid.body.id).length, 1);
  });

  it('gives up 30 days after the notification was made: failed, and never sent again', async () => {
    receiver.behaviour = () => 503;
    const paid = await gw.client.post('/v1/payments', cardDebit());
    await gw.running.deliverWebhooks();
    // 1 + 2 + 4 + 8 + 15 + 30 + 60 minutes, then daily: step the clock to each due time.
    for (let i = 0; i < 40; i++) {
      const row = await rowOf(paid.body.id);
      if (row.status !== 'pending') break;
      gw.clock.current = new Date(Number(row.next_attempt_at));
      await gw.running.deliverWebhooks();
    }
    const row = await rowOf(paid.body.id);
    assert.equal(row.status, 'failed');
    assert.equal(row.last_status, 503);
    // 7 backed-off attempts and the first, then one a day while within 30 days of creation.
    assert.ok(Number(row.attempts) >= 35 && Number(row.attempts) <= 38, String(row.attempts));
    assert.ok(Number(row.updated_at) - Number(row.created_at) <= 30 * 24 * 60 * MINUTE);
    const hits = receiver.hits;
    gw.clock.advance(2 * 24 * 60 * MINUTE);
    await gw.running.deliverWebhooks();
    assert.equal(receiver.hits, hits);
  });

  it('a deleted webhook gets nothing more: its pending notifications are cancelled', async () => {
    receiver.behaviour = () => 500;
    const list = await gw.client.get('/v1/webhooks');
    const hook = list.body.webhooks[0];
    const paid = await gw.client.post('/v1/payments', cardDebit());
    await gw.running.deliverWebhooks();
    assert.equal((await rowOf(paid.body.id)).status, 'pending');
    const deleted = await gw.client.delete(`/v1/webhooks/${hook.id}`);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.equal((await rowOf(paid.body.id)).status, 'cancelled');
    const hits = receiver.hits;
    gw.clock.advance(MINUTE);
    await gw.running.deliverWebhooks();
    assert.equal(receiver.hits, hits);
    const after = await gw.client.post('/v1/payments', cardDebit());
    assert.equal((await outboxRows(gw)).filter((r) => r.resource_id === after.body.id).length, 0);
  });
}

describe('webhooks: retries', () => retrySuite({}));
describe('webhooks: retries on PostgreSQL', { skip: pgSkip }, () => retrySuite({ databaseUrl }));

/** Wait (real time) until the condition holds, or fail after a few seconds. */
async function eventually(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail(`never happened: ${what}`);
}

describe('webhooks: the periodic poll', () => {
  it('finds due retries by itself, and forgets ended notifications 30 days after they ended', async () => {
    const gw = await start({ pollMs: 50 });
    const receiver = new Receiver();
    await receiver.start();
    try {
      await register(gw.client, { url: receiver.url, secret: SECRET });
      receiver.behaviour = () => 500;
      const paid = await gw.client.post('/v1/payments', cardDebit());
      const row = async () => (await outboxRows(gw)).find((r) => r.resource_id === paid.body.id);
      await eventually(async () => Number((await row())?.attempts) === 1, 'the first attempt');
      receiver.behaviour = () => 200;
      gw.clock.advance(MINUTE);
      // No deliverWebhooks(): the poll finds the retry due.
      await eventually(async () => (await row())?.status === 'delivered', 'delivery of the retry');
      assert.equal(receiver.of(paid.body.id).length, 1);
      gw.clock.advance(29 * 24 * 60 * MINUTE);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.ok(await row(), 'kept for 30 days after it ended');
      gw.clock.advance(2 * 24 * 60 * MINUTE);
      await eventually(async () => (await row()) === undefined, 'the purge');
    } finally {
      await gw.close();
      await receiver.stop();
    }
  });
});

describe('webhooks: the purge of ended notifications', () => {
  it('deletes in bounded transactions: an hour of notifications is never one DELETE holding the store', async () => {
    const gw = await start();
    try {
      const { store } = gw.running;
      const now = gw.clock.now().getTime();
      const row = (i: number, status: string, updatedAt: number) => ({
        id: `purge${String(i).padStart(27, '0')}`,
        webhook_id: 'w'.repeat(32),
        entity_id: shopA.entityId,
        url: 'https://shop.example/hooks',
        event_type: 'PAYMENT',
        event_action: 'CREATED',
        resource_id: 'r'.repeat(32),
        content_type: 'text/plain',
        iv: 'iv',
        tag: 'tag',
        body: 'body',
        status,
        attempts: 1,
        next_attempt_at: updatedAt,
        created_at: updatedAt,
        updated_at: updatedAt,
      });
      const DAY = 24 * 60 * MINUTE;
      const old = now - 31 * DAY;
      const ended = Array.from({ length: 250 }, (_, i) => row(i, ['delivered', 'failed', 'cancelled'][i % 3]!, old - i));
      const kept = [row(1000, 'pending', old), row(1001, 'delivered', now)];
      await store.write((trx) => trx.insertInto('webhook_outbox').values([...ended, ...kept]).execute());
      const perTransaction: number[] = [];
      const remaining = async (trx: Trx) => Number((await trx.selectFrom('webhook_outbox').select((eb) => eb.fn.countAll<number>().as('n')).where('id', 'like', 'purge%').executeTakeFirstOrThrow()).n);
      const counting = {
        write: <T>(unit: (trx: Trx) => Promise<T>) =>
          store.write(async (trx) => {
            const before = await remaining(trx);
            const value = await unit(trx);
            perTransaction.push(before - (await remaining(trx)));
            return value;
          }),
      };
      assert.equal(await purgeFinished(counting, now - 30 * DAY, 100), 250);
      assert.deepEqual(perTransaction, [100, 100, 50]);
      const left = await store.db.selectFrom('webhook_outbox').select('id').where('id', 'like', 'purge%').orderBy('id').execute();
      assert.deepEqual(left.map((r) => r.id), kept.map((r) => r.id));
    } finally {
      await gw.close();
    }
  });
});

describe('webhooks: restarts', () => {
  it('notifications written before a restart are delivered by the next process on the same data dir', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gw-webhooks-restart-'));
    const receiver = new Receiver();
    await receiver.start();
    const clock = new TestClock();
    try {
      receiver.behaviour = () => 500;
      const first = await start({ dataDir, clock });
      await register(first.client, { url: receiver.url, secret: SECRET });
      const paid = await first.client.post('/v1/payments', cardDebit());
      await first.running.deliverWebhooks();
      await first.close();
      assert.deepEqual(receiver.received, []);

      receiver.behaviour = () => 200;
      const second = await start({ dataDir, clock });
      try {
        clock.advance(MINUTE);
        await second.running.deliverWebhooks();
        const [notification, ...more] = receiver.of(paid.body.id);
        assert.deepEqual(more, []);
        assert.equal(notification.payload.id, paid.body.id);
        // The webhook registered through the API is still there after the restart.
        const list = await second.client.get('/v1/webhooks');
        assert.equal(list.body.webhooks.length, 1);
      } finally {
        await second.close();
      }
    } finally {
      await receiver.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('webhooks: two gateways on one PostgreSQL schema', { skip: pgSkip }, () => {
  it('deliver each notification exactly once, whichever gateway made it and whichever claims it', async () => {
    const schema = await freshPostgresSchema(databaseUrl!);
    const clock = new TestClock();
    const receiver = new Receiver();
    await receiver.start();
    // Processes of one gateway share CARD_KEY (it also seals the webhooks' secrets).
    const cardKey = 'a'.repeat(64);
    const a = await start({ schemaUrl: schema.url, clock, cardKey });
    const b = await start({ schemaUrl: schema.url, clock, cardKey });
    try {
      await register(a.client, { url: receiver.url, secret: SECRET });
      // b learns of the webhook at its next poll; here, at once.
      await b.running.gateway.deps.webhooks!.registry.refresh();
      // First attempts fail, so that the retries of every notification are due at once for both.
      const attempts = new Map<string, number>();
      receiver.behaviour = () => 500;
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) {
        const { body } = await (i % 2 ? a : b).client.post('/v1/payments', cardDebit());
        ids.push(body.id);
      }
      await Promise.all([a.running.deliverWebhooks(), b.running.deliverWebhooks()]);
      const rows = await outboxRows(a);
      assert.equal(rows.length, 20);
      for (const row of rows) attempts.set(row.resource_id, Number(row.attempts));
      assert.deepEqual([...new Set(attempts.values())], [1]);
      assert.equal(receiver.hits, 20);

      receiver.behaviour = () => 200;
      clock.advance(MINUTE);
      await Promise.all([a.running.deliverWebhooks(), b.running.deliverWebhooks(), a.running.deliverWebhooks(), b.running.deliverWebhooks()]);
      for (const id of ids) assert.equal(receiver.of(id).length, 1, id);
      assert.equal(receiver.hits, 40);
      assert.ok((await outboxRows(a)).every((r) => r.status === 'delivered'));
    } finally {
      await a.close();
      await b.close();
      await receiver.stop();
      await schema.drop();
    }
  });
});

describe('webhooks: a receiver that hangs', () => {
  /** Waits, every 20 ms up to `ms`, until `done` holds (the assertions after it say what did not). */
  async function waitUntil(done: () => boolean, ms = 3_000): Promise<void> {
    for (let waited = 0; waited < ms && !done(); waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  it('holds only its own share of the delivery slots: another merchant\u2019s notification goes out at once behind its backlog', async () => {
    const hanging = new Receiver();
    const answering = new Receiver();
    await hanging.start();
    await answering.start();
    hanging.behaviour = () => 'hang';
    const gw = await start({ timeoutMs: 30_000 });
    try {
      const shopBClient = gw.clientFor(shopB.token, shopB.entityId);
      await register(shopBClient, { url: hanging.url, secret: SECRET });
      await register(gw.client, { url: answering.url, secret: SECRET });
      // More of shop B's notifications than there are slots, all due before shop A's.
      for (let i = 0; i < 70; i++) await shopBClient.post('/v1/payments', cardDebit());
      const paid = await gw.client.post('/v1/payments', cardDebit());
      await waitUntil(() => answering.of(paid.body.id).length > 0);
      assert.equal(answering.of(paid.body.id).length, 1, 'shop A was notified while shop B\u2019s receiver hung');
      assert.ok(hanging.hits >= 1 && hanging.hits <= 32, `shop B\u2019s receiver holds ${hanging.hits} slots`);
    } finally {
      await gw.close();
      await hanging.stop();
      await answering.stop();
    }
  });

  it('gives a receiver that did not answer its last attempt one slot until it answers again: its untried backlog goes out one at a time', async () => {
    const hanging = new Receiver();
    await hanging.start();
    hanging.behaviour = () => 'hang';
    const gw = await start({ timeoutMs: 400 });
    try {
      const shopBClient = gw.clientFor(shopB.token, shopB.entityId);
      await register(shopBClient, { url: hanging.url, secret: SECRET });
      for (let i = 0; i < 70; i++) await shopBClient.post('/v1/payments', cardDebit());
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // Its first share (at most 32: fewer when the payments come slowly) timed out at 0.4 s; since
      // then one at a time, not another 32, so not all 70 are sent.
      assert.ok(hanging.hits >= 1 && hanging.hits <= 40, `the silent receiver was sent ${hanging.hits} notifications`);
      // It answers again: its share is back.
      hanging.behaviour = () => 200;
      await waitUntil(() => hanging.hits >= 70, 2_000);
      assert.ok(hanging.hits >= 70, `${hanging.hits} sent once it answered`);
    } finally {
      await gw.close();
      await hanging.stop();
    }
  });

  it('forgets a silent receiver once its webhook is deleted: registering and deleting unreachable ones again and again keeps none of them', async () => {
    // A port nobody listens on: every attempt is refused at once, and its webhook counts as silent.
    const closed = new Receiver();
    await closed.start();
    const url = closed.url;
    await closed.stop();
    const gw = await start({ timeoutMs: 400 });
    try {
      for (let i = 0; i < 10; i++) {
        const hook = await register(gw.client, { url: `${url}/${i}`, secret: SECRET });
        await gw.client.post('/v1/payments', cardDebit());
        await gw.running.deliverWebhooks();
        assert.equal(gw.running.silentWebhooks(), 1, 'the unreachable receiver counts as silent');
        assert.equal((await gw.client.delete(`/v1/webhooks/${hook.id}`)).status, 200);
      }
      await gw.running.deliverWebhooks();
      assert.equal(gw.running.silentWebhooks(), 0);
    } finally {
      await gw.close();
    }
  });

  it('leaves slots free while two receivers hang: the second takes half of what the first left, and another merchant is still notified at once', async () => {
    const first = new Receiver();
    const second = new Receiver();
    const answering = new Receiver();
    for (const receiver of [first, second, answering]) await receiver.start();
    first.behaviour = () => 'hang';
    second.behaviour = () => 'hang';
    const gw = await start({ timeoutMs: 30_000 });
    try {
      const shopBClient = gw.clientFor(shopB.token, shopB.entityId);
      await register(shopBClient, { url: first.url, secret: SECRET });
      await register(shopBClient, { url: second.url, secret: SECRET });
      await register(gw.client, { url: answering.url, secret: SECRET });
      // Each of shop B's payments is a notification for each hanging receiver: 80 due before shop A's.
      for (let i = 0; i < 40; i++) await shopBClient.post('/v1/payments', cardDebit());
      const paid = await gw.client.post('/v1/payments', cardDebit());
      await waitUntil(() => answering.of(paid.body.id).length > 0);
      assert.equal(answering.of(paid.body.id).length, 1, 'shop A was notified while both of shop B’s receivers hung');
      assert.ok(first.hits + second.hits <= 48, `the hanging receivers hold ${first.hits} + ${second.hits} of 64 slots`);
    } finally {
      await gw.close();
      for (const receiver of [first, second, answering]) await receiver.stop();
    }
  });
});

describe('webhooks: registered and deleted across processes', () => {
  /** Waits (up to 5 s) until `gw` knows the webhook as `known` says; the poll is an hour away. */
  async function until(gw: Gw, id: string, known: boolean): Promise<void> {
    for (let i = 0; i < 250; i++) {
      if (gw.running.gateway.deps.webhooks!.registry.of(shopA.entityId).some((w) => w.id === id) === known) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.fail(`the other gateway did not hear that ${id} was ${known ? 'registered' : 'deleted'}`);
  }
  const rowsFor = (gw: Gw, paymentId: string) => gw.running.store.db.selectFrom('webhook_outbox').select(['webhook_id', 'status']).where('resource_id', '=', paymentId).execute();

  it('on PostgreSQL, the other gateway hears at once (NOTIFY): its payments are notified from the registration on, and not after the deletion', { skip: pgSkip }, async () => {
    const schema = await freshPostgresSchema(databaseUrl!);
    const cardKey = 'b'.repeat(64);
    const a = await start({ schemaUrl: schema.url, cardKey });
    const b = await start({ schemaUrl: schema.url, cardKey });
    try {
      const hook = await register(a.client, { url: 'https://shop.example/hooks', secret: SECRET });
      await until(b, hook.id, true);
      const paid = await b.client.post('/v1/payments', cardDebit());
      assert.deepEqual(await rowsFor(b, paid.body.id), [{ webhook_id: hook.id, status: 'pending' }]);

      assert.equal((await a.client.delete(`/v1/webhooks/${hook.id}`)).status, 200);
      await until(b, hook.id, false);
      const after = await b.client.post('/v1/payments', cardDebit());
      assert.deepEqual(await rowsFor(b, after.body.id), []);
      // The one written before the deletion is cancelled with it: nobody would decrypt it any more.
      assert.deepEqual(await rowsFor(b, paid.body.id), [{ webhook_id: hook.id, status: 'cancelled' }]);
    } finally {
      await a.close();
      await b.close();
      await schema.drop();
    }
  });

  it('on PostgreSQL, listens again after its LISTEN connection was ended (a restart), and hears what was said meanwhile', { skip: pgSkip }, async () => {
    const schema = await freshPostgresSchema(databaseUrl!);
    const cardKey = 'c'.repeat(64);
    const a = await start({ schemaUrl: schema.url, cardKey });
    const b = await start({ schemaUrl: schema.url, cardKey });
    try {
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      // Every listening connection of the gateways of this schema (a and b): as a restart ends them.
      const ended = await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = 'payment-gateway' and query like 'LISTEN %' and pid <> pg_backend_pid()`);
      await admin.end();
      assert.ok(ended.rowCount! >= 2, `ended ${ended.rowCount} listening connections`);
      // Said while b was not listening: b hears it when it listens again (it reloads then).
      const hook = await register(a.client, { url: 'https://shop.example/after-restart', secret: SECRET });
      await until(b, hook.id, true);
      // And listens from then on.
      assert.equal((await a.client.delete(`/v1/webhooks/${hook.id}`)).status, 200);
      await until(b, hook.id, false);
    } finally {
      await a.close();
      await b.close();
      await schema.drop();
    }
  });

  it('cancels notifications only of webhooks the store has as deleted: a reload that saw a live one missing cancels nothing of it', async () => {
    const gw = await start();
    try {
      const hook = await register(gw.client, { url: 'https://shop.example/still-active', secret: SECRET });
      const paid = await gw.client.post('/v1/payments', cardDebit());
      await gw.running.store.write((trx) => cancelPendingOf(trx, [hook.id], gw.clock.now().getTime()));
      assert.deepEqual(await rowsFor(gw, paid.body.id), [{ webhook_id: hook.id, status: 'pending' }]);
      // Reloads run one at a time: an older one never undoes a newer one.
      const registry = gw.running.gateway.deps.webhooks!.registry;
      await Promise.all([registry.refresh(), registry.refresh(), registry.list(shopA.entityId)]);
      assert.deepEqual(registry.of(shopA.entityId).map((w) => w.id), [hook.id]);
    } finally {
      await gw.close();
    }
  });

  it('a process that wrote notifications for a webhook another deleted before it heard cancels them when it hears', async () => {
    const gw = await start();
    try {
      const hook = await register(gw.client, { url: 'https://shop.example/deleted-elsewhere', secret: SECRET });
      // Another process deletes it: in the store only, so this one has not heard yet.
      await gw.running.store.write((trx) => deleteWebhook(trx, shopA.entityId, hook.id, gw.clock.now().getTime()));
      const paid = await gw.client.post('/v1/payments', cardDebit());
      assert.deepEqual(await rowsFor(gw, paid.body.id), [{ webhook_id: hook.id, status: 'pending' }], 'written as this process knew it');
      await gw.running.gateway.deps.webhooks!.registry.refresh();
      assert.deepEqual(await rowsFor(gw, paid.body.id), [{ webhook_id: hook.id, status: 'cancelled' }]);
      await gw.running.deliverWebhooks();
      assert.deepEqual(await rowsFor(gw, paid.body.id), [{ webhook_id: hook.id, status: 'cancelled' }], 'never sent');
    } finally {
      await gw.close();
    }
  });
});

/** One active webhook per entity and URL, however many requests register it at once. */
function oneUrlSuite(backend: Backend) {
  let gw: Gw;
  before(async () => {
    gw = await start(backend);
  });
  after(() => gw.close());

  it('registers a URL sent by ten requests at once exactly once; the others are refused naming url', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => gw.client.post('/v1/webhooks', { url: 'https://shop.example/at-once' })));
    const added = answers.filter((a) => a.status === 200);
    assert.equal(added.length, 1, JSON.stringify(answers.map((a) => a.status)));
    for (const refused of answers.filter((a) => a.status !== 200)) {
      assert.equal(refused.status, 400);
      assert.equal(refused.body.result.parameterErrors[0].name, 'url');
    }
    const listed = (await gw.client.get('/v1/webhooks')).body.webhooks.filter((w: { url: string }) => w.url === 'https://shop.example/at-once');
    assert.deepEqual(listed.map((w: { id: string }) => w.id), [added[0]!.body.id]);
    await gw.client.delete(`/v1/webhooks/${added[0]!.body.id}`);
  });

  it('refuses a URL whose canonical (percent-encoded) form is longer than 2048 characters, naming url; one of 2048 is kept', async () => {
    // Sent within 2048 characters but kept longer: SQLite stored it, PostgreSQL's column answered 500.
    for (const url of [`https://shop.example/${' '.repeat(1000)}x`, `https://shop.example/${'\u00fc'.repeat(700)}`]) {
      assert.ok(url.length <= 2048);
      const refused = await gw.client.post('/v1/webhooks', { url });
      assert.equal(refused.status, 400, JSON.stringify(refused.body).slice(0, 300));
      assert.equal(refused.body.result.code, '200.300.404');
      assert.deepEqual(refused.body.result.parameterErrors.map((e: { name: string }) => e.name), ['url']);
    }
    const longest = `https://shop.example/${'%20'.repeat(675)}${'a'.repeat(2)}`;
    assert.equal(longest.length, 2048);
    const added = await gw.client.post('/v1/webhooks', { url: longest });
    assert.equal(added.status, 200, JSON.stringify(added.body).slice(0, 300));
    assert.equal(added.body.url, longest);
    assert.equal((await gw.client.post('/v1/payments', cardDebit())).status, 200);
    await gw.client.delete(`/v1/webhooks/${added.body.id}`);
    assert.deepEqual((await gw.client.get('/v1/webhooks')).body.webhooks.filter((w: { url: string }) => w.url.length > 2048), []);
  });

  it('the database keeps one active row per entity and URL: a second insert is refused, another entity or a deleted one is not', async () => {
    const row = (id: string, entityId = shopA.entityId) => ({ id, entity_id: entityId, url: 'https://shop.example/unique', wrapper: 'none', secret: 'x', status: 'active', created_at: 1, updated_at: 1 });
    const insert = (r: ReturnType<typeof row>) => gw.running.store.write((trx) => insertWebhook(trx, r));
    assert.equal(await insert(row('a'.repeat(32))), true);
    assert.equal(await insert(row('b'.repeat(32))), false);
    assert.equal(await insert(row('c'.repeat(32), shopB.entityId)), true);
    await gw.running.store.write((trx) => deleteWebhook(trx, shopA.entityId, 'a'.repeat(32), 2));
    assert.equal(await insert(row('d'.repeat(32))), true);
  });
}

describe('webhooks: one per URL on SQLite', () => oneUrlSuite({}));
describe('webhooks: one per URL on PostgreSQL', { skip: pgSkip }, () => oneUrlSuite({ databaseUrl }));

describe('webhooks: migration 0008 on a database that has twins', () => {
  it('keeps the oldest active webhook of an entity and URL however spelt, written canonical; ends the others and their notifications not yet delivered', async () => {
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new BetterSqlite3(':memory:') }) });
    try {
      const provider = { getMigrations: async () => migrations };
      const before = await new Migrator({ db, provider }).migrateTo('0007_schedule_claims');
      assert.equal(before.error, undefined);
      const hook = (id: string, createdAt: number, url: string, entityId = shopA.entityId, status = 'active') => ({ id, entity_id: entityId, url, wrapper: 'none', secret: 'x', status, created_at: createdAt, updated_at: createdAt });
      await db
        .insertInto('webhooks')
        .values([
          hook('1'.repeat(32), 20, 'https://shop.example/twin'),
          hook('2'.repeat(32), 10, 'HTTPS://Shop.Example.:443/twin#n'),
          hook('3'.repeat(32), 30, 'https://shop.example/twin?'),
          hook('4'.repeat(32), 5, 'https://shop.example/twin', shopB.entityId),
          hook('5'.repeat(32), 1, 'https://shop.example/twin', shopA.entityId, 'deleted'),
          hook('6'.repeat(32), 40, 'https://shop.example/other'),
        ])
        .execute();
      const note = (id: string, webhookId: string, status: string) => ({ id, entity_id: shopA.entityId, webhook_id: webhookId, url: 'https://shop.example/twin', event_type: 'PAYMENT', event_action: 'CREATED', resource_id: id, content_type: 'text/plain', body: '00', iv: '00', tag: '00', status, attempts: 0, next_attempt_at: 0, created_at: 0, updated_at: 0 });
      await db.insertInto('webhook_outbox').values([note('a'.repeat(32), '1'.repeat(32), 'pending'), note('b'.repeat(32), '2'.repeat(32), 'pending'), note('c'.repeat(32), '3'.repeat(32), 'delivered')]).execute();
      await migrate(db);
      const statuses = Object.fromEntries((await db.selectFrom('webhooks').select(['id', 'status']).execute()).map((r) => [r.id[0], r.status]));
      assert.deepEqual(statuses, { '1': 'deleted', '2': 'active', '3': 'deleted', '4': 'active', '5': 'deleted', '6': 'active' });
      const kept = await db.selectFrom('webhooks').select(['url', 'updated_at']).where('id', '=', '2'.repeat(32)).executeTakeFirstOrThrow();
      assert.equal(kept.url, 'https://shop.example/twin');
      const ended = await db.selectFrom('webhook_outbox').select('updated_at').where('status', '=', 'cancelled').executeTakeFirstOrThrow();
      assert.ok(Number(ended.updated_at) > 0, 'the cancelled notification is kept as long as any other');
      const notes = Object.fromEntries((await db.selectFrom('webhook_outbox').select(['id', 'status']).execute()).map((r) => [r.id[0], r.status]));
      assert.deepEqual(notes, { a: 'cancelled', b: 'pending', c: 'delivered' });
    } finally {
      await db.destroy();
    }
  });
});

describe('webhooks: API', () => {
  let gw: Gw;
  before(async () => {
    gw = await start();
  });
  after(() => gw.close());

  it('registers, lists with the secret masked but for its last four, and deletes', async () => {
    const created = await register(gw.client, { url: 'https://shop.example/hooks', secret: SECRET.toLowerCase() });
    assert.match(created.id, /^[0-9a-f]{32}$/);
    assert.equal(created.secret, SECRET);
    assert.equal(created.wrapper, 'none');
    assert.equal(created.result.code, '000.100.110');
    const list = await gw.client.get('/v1/webhooks');
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.webhooks, [{ id: created.id, url: 'https://shop.example/hooks', wrapper: 'none', source: 'api', secret: `${'*'.repeat(60)}CDEF` }]);
    const deleted = await gw.client.delete(`/v1/webhooks/${created.id}`);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.id, created.id);
    assert.deepEqual((await gw.client.get('/v1/webhooks')).body.webhooks, []);
    const again = await gw.client.delete(`/v1/webhooks/${created.id}`);
    assert.equal(again.status, 404);
    assert.equal(again.body.result.parameterErrors[0].name, 'id');
  });

  it('forgets the opened secret of each deleted webhook: registering and deleting again and again keeps no more secrets than live webhooks', async () => {
    const registry = gw.running.gateway.deps.webhooks!.registry;
    // The registry's cache of opened secrets (private): what a merchant's churn could grow.
    const cached = () => (registry as unknown as { secrets: Map<string, string> }).secrets.size;
    const kept = await register(gw.client, { url: 'https://shop.example/kept' });
    for (let i = 0; i < 25; i++) {
      const hook = await register(gw.client, { url: `https://shop.example/churn/${i}` });
      assert.equal((await gw.client.delete(`/v1/webhooks/${hook.id}`)).status, 200);
    }
    assert.equal(cached(), 1);
    // The live one's secret is still there: its notifications are still sealed with it.
    assert.deepEqual(registry.of(shopA.entityId).map((w) => w.id), [kept.id]);
    assert.equal(registry.of(shopA.entityId)[0]!.secret, kept.secret);
    assert.equal((await gw.client.delete(`/v1/webhooks/${kept.id}`)).status, 200);
    assert.equal(cached(), 0);
  });

  it('refuses bad parameters with 400 naming each one, the secret masked', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'url'],
      [{ url: 'ftp://shop.example/hooks' }, 'url'],
      [{ url: '/hooks' }, 'url'],
      [{ url: 'http:/' }, 'url'],
      [{ url: `https://shop.example/${'a'.repeat(2048)}` }, 'url'],
      [{ url: 'https://shop.example/hooks', secret: 'abc' }, 'secret'],
      [{ url: 'https://shop.example/hooks', secret: `${SECRET.slice(1)}G` }, 'secret'],
      [{ url: 'https://shop.example/hooks', wrapper: 'xml' }, 'wrapper'],
      [{ url: 'https://shop.example/hooks', colour: 'blue' }, 'colour'],
    ];
    for (const [params, name] of cases) {
      const { status, body } = await gw.client.post('/v1/webhooks', params);
      assert.equal(status, 400, JSON.stringify(params));
      assert.deepEqual(body.result.parameterErrors.map((e: { name: string }) => e.name), [name], JSON.stringify(body));
      if (name === 'secret') assert.match(body.result.parameterErrors[0].value, /^\*+$/);
      if (name === 'wrapper') assert.equal(body.result.parameterErrors[0].message, 'wrapper must be one of none, json');
    }
    assert.deepEqual((await gw.client.get('/v1/webhooks')).body.webhooks, []);
  });

  it('refuses a URL the entity has already registered, so a retried POST never registers twice', async () => {
    const first = await register(gw.client, { url: 'https://shop.example/once' });
    const again = await gw.client.post('/v1/webhooks', { url: 'https://shop.example/once' }, { 'idempotency-key': 'k-1' });
    assert.equal(again.status, 400);
    assert.equal(again.body.result.parameterErrors[0].name, 'url');
    assert.ok(!JSON.stringify(again.body).includes(first.secret));
    // Another spelling of the same URL is the same receiver.
    for (const url of ['HTTPS://Shop.Example/once', 'https://shop.example:443/once', 'https://shop.example./once', 'https://shop.example/once#a', 'https://shop.example/once?']) {
      const spelt = await gw.client.post('/v1/webhooks', { url });
      assert.equal(spelt.status, 400, url);
      assert.equal(spelt.body.result.parameterErrors[0].message, `url is already registered for this entity (webhook ${first.id})`);
    }
    await gw.client.delete(`/v1/webhooks/${first.id}`);
  });

  it('keeps a password in the URL (a receiver behind basic authentication) out of lists, as it does the secret', async () => {
    const created = await register(gw.client, { url: 'https://hooks:s3cret@shop.example/basic' });
    assert.equal(created.url, 'https://hooks:s3cret@shop.example/basic');
    const listed = (await gw.client.get('/v1/webhooks')).body.webhooks.find((w: { id: string }) => w.id === created.id);
    assert.equal(listed.url, 'https://hooks:****@shop.example/basic');
    await gw.client.delete(`/v1/webhooks/${created.id}`);
  });

  it('needs the Bearer token (401, 403) and keeps entities apart (403 for another merchant\u2019s entity, 404 for its webhook)', async () => {
    const created = await register(gw.client, { url: 'https://shop.example/mine' });
    const none = await fetch(`${gw.base}/v1/webhooks?entityId=${shopA.entityId}`);
    assert.equal(none.status, 401);
    const wrong = await gw.clientFor('bm90LWEtcmVhbC10b2tlbi0wMDAwMDAwMDAwMDA', shopA.entityId).get('/v1/webhooks');
    assert.equal(wrong.status, 403);
    const foreign = await gw.clientFor(shopB.token, shopA.entityId).post('/v1/webhooks', { url: 'https://evil.example/' });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.body.result.code, '800.900.301');
    const shopBClient = gw.clientFor(shopB.token, shopB.entityId);
    assert.deepEqual((await shopBClient.get('/v1/webhooks')).body.webhooks, []);
    const steal = await shopBClient.delete(`/v1/webhooks/${created.id}`);
    assert.equal(steal.status, 404);
    // Another entity of the same merchant does not see it either.
    const sibling = gw.clientFor(shopA.token, shopA.threeDSecureEntityId);
    assert.equal((await sibling.delete(`/v1/webhooks/${created.id}`)).status, 404);
    assert.equal((await gw.client.get('/v1/webhooks')).body.webhooks.length, 1);
    const missing = await fetch(`${gw.base}/v1/webhooks`, { headers: { authorization: `Bearer ${shopA.token}` } });
    assert.equal(missing.status, 400);
    await gw.client.delete(`/v1/webhooks/${created.id}`);
  });

  it('lists the merchants file\u2019s webhooks too, and refuses to delete them here', async () => {
    const receiver = new Receiver();
    await receiver.start();
    const gw = await startWithConfigWebhook(receiver);
    try {
      const list = await gw.client.get('/v1/webhooks');
      assert.equal(list.body.webhooks.length, 1);
      const [hook] = list.body.webhooks;
      assert.equal(hook.source, 'config');
      assert.equal(hook.url, receiver.url);
      const refused = await gw.client.delete(`/v1/webhooks/${hook.id}`);
      assert.equal(refused.status, 400);
      assert.equal(refused.body.result.parameterErrors[0].name, 'id');
      const paid = await gw.client.post('/v1/payments', cardDebit());
      await gw.running.deliverWebhooks();
      assert.equal(receiver.of(paid.body.id).length, 1);
    } finally {
      await gw.close();
      await receiver.stop();
    }
  });
});

describe('webhooks: the live environment sends to public https receivers only', () => {
  it('refuses to register http, localhost or private receivers, naming url; takes a public https one', async () => {
    const gw = await startGateway({ env: 'live', webhookPollMs: 60 * MINUTE });
    try {
      const cases: Array<[string, RegExp]> = [
        ['http://hooks.shop.example/payments', /must be an https URL in the live environment/],
        ['https://127.0.0.1/hooks', /must name a public host/],
        ['https://localhost:8443/hooks', /must name a public host/],
        ['https://169.254.169.254/latest/meta-data', /must name a public host/],
        ['https://[fd00::7]/hooks', /must name a public host/],
      ];
      for (const [url, message] of cases) {
        const refused = await gw.client.post('/v1/webhooks', { url });
        assert.equal(refused.status, 400, url);
        assert.equal(refused.body.result.parameterErrors.length, 1);
        assert.equal(refused.body.result.parameterErrors[0].name, 'url');
        assert.match(refused.body.result.parameterErrors[0].message, message);
      }
      const taken = await gw.client.post('/v1/webhooks', { url: 'https://hooks.shop.example/payments' });
      assert.equal(taken.status, 200, JSON.stringify(taken.body));
    } finally {
      await gw.close();
    }
  });

  it('never sends to a merchants-file receiver on the gateway’s own network: the attempt fails and is retried, nothing arrives', async () => {
    const receiver = new Receiver();
    await receiver.start();
    const gw = await startWithConfigWebhook(receiver, 'live');
    try {
      const paid = await gw.client.post('/v1/payments', cardDebit());
      assert.equal(paid.body.result.code, '000.000.000');
      await gw.running.deliverWebhooks();
      assert.equal(receiver.hits, 0);
      const [row] = await gw.running.store.db.selectFrom('webhook_outbox').selectAll().where('resource_id', '=', paid.body.id).execute();
      assert.equal(row!.status, 'pending');
      assert.equal(row!.last_error, 'receiver not an https URL');
      assert.equal(Number(row!.attempts), 1);
    } finally {
      await gw.close();
      await receiver.stop();
    }
  });
});

/** A gateway and the demo shop on its own origin, acting for shop A's entity (or another of shop A's). */
async function startDemoShop(entityId = shopA.entityId) {
  const gw = await start();
  const shop = Fastify();
  // The host app reads form posts (the gateway's own app does, with its parser).
  shop.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  await shop.register(demoShop, { gatewayUrl: () => gw.base, publicGatewayUrl: () => gw.base, token: shopA.token, entityId });
  const origin = await shop.listen({ port: 0, host: '127.0.0.1' });
  return {
    gw,
    origin,
    async close() {
      await shop.close();
      await gw.close();
    },
  };
}

describe('webhooks: demo playground', () => {
  it('registers the shop\u2019s receiver for the demo entity, decrypts what arrives and lists it', async () => {
    const { gw, origin, close } = await startDemoShop();
    try {
      // The receiver is the shop's own address whatever Host a browser sends: nobody can move it.
      const elsewhere = await new Promise<number>((resolve, reject) =>
        httpRequest(`${origin}/playground/webhooks`, { headers: { host: '127.0.0.1:9' } }, (response) => resolve(response.resume().statusCode!)).on('error', reject).end(),
      );
      assert.equal(elsewhere, 200);
      assert.deepEqual((await gw.client.get('/v1/webhooks')).body.webhooks.map((hook: { url: string }) => hook.url), [`${origin}/shop/webhooks`]);
      // The demo's files are its own: an object's built-in names are no files.
      for (const name of ['constructor', '__proto__', 'toString']) assert.equal((await fetch(`${origin}/demo/${name}`)).status, 404, name);
      const first = await fetch(`${origin}/playground/webhooks`);
      assert.equal(first.status, 200);
      assert.ok((await first.text()).includes('No notification yet.'));
      const [hook] = (await gw.client.get('/v1/webhooks')).body.webhooks;
      assert.equal(hook.url, `${origin}/shop/webhooks`);

      const paid = await fetch(`${origin}/playground/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ 'card.number': '4200000000000000', amount: '92.00', paymentType: 'DB' }),
      });
      const answer = await paid.text();
      const id = /&quot;id&quot;: &quot;([0-9a-f]{32})&quot;/.exec(answer)?.[1];
      assert.ok(id, answer);
      await gw.running.deliverWebhooks();
      const rows = await outboxRows(gw);
      assert.equal(rows.find((r) => r.resource_id === id)?.status, 'delivered');
      const page = await (await fetch(`${origin}/playground/webhooks`)).text();
      assert.ok(page.includes(`<code>${id}</code>`), page);
      assert.ok(page.includes('PAYMENT CREATED'));
      assert.ok(!page.includes('4200000000000000'));
    } finally {
      await close();
    }
  });

  it('pays the 3-D Secure test cards server to server on an entity that authenticates: browser data and billing address sent, a challenge answered with its redirect', async () => {
    const { origin, close } = await startDemoShop(shopA.threeDSecureEntityId);
    try {
      const pay = async (number: string) => {
        const page = await fetch(`${origin}/playground/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ 'card.number': number, amount: '92.00', paymentType: 'DB' }) });
        const text = (await page.text()).replaceAll('&quot;', '"');
        return { code: /"code": "([0-9.]+)"/.exec(text)?.[1], redirect: text.includes('"redirect"'), text };
      };
      const frictionless = await pay('4200000000000091');
      assert.equal(frictionless.code, '000.100.110', frictionless.text);
      const challenge = await pay('4200000000000042');
      assert.equal(challenge.code, '000.200.000', challenge.text);
      assert.equal(challenge.redirect, true);
    } finally {
      await close();
    }
  });

  it('a subscription stores the card and pays it every minute for five minutes, each payment notified', async () => {
    const { gw, origin, close } = await startDemoShop();
    try {
      const subscribed = await fetch(`${origin}/playground/subscribe`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ 'card.number': '4200000000000000', amount: '4.50' }),
      });
      const answer = (await subscribed.text()).replaceAll('&quot;', '"');
      assert.match(answer, /Response \(HTTP 200\)/);
      const scheduleId = /"schedule": \{\s*"id": "([0-9a-f]{32})"/.exec(answer)?.[1];
      assert.ok(scheduleId, answer);
      const schedule = (await gw.client.get(`/scheduling/v1/schedules/${scheduleId}`)).body;
      assert.equal(schedule.state, 'ACTIVE');
      assert.deepEqual([schedule.amount, schedule.job.expression], ['4.50', '0 * * * * ?']);
      // The answers shown carry the card's bin and last digits, never its number (the form lists the test cards).
      assert.ok(!answer.slice(answer.indexOf('Response (HTTP')).includes('4200000000000000'));

      // Minute by minute: five payments until job.endDate, then the schedule has ended.
      for (let minute = 1; minute <= 7; minute++) {
        gw.clock.advance(60_000);
        await gw.running.runSchedules();
      }
      const fired = (await gw.client.get(`/scheduling/v1/schedules/${scheduleId}`)).body;
      assert.equal(fired.firings, 5);
      assert.equal(fired.state, 'ENDED');
      const payment = (await gw.client.get(`/v1/payments/${fired.lastFiring.paymentId}`)).body;
      assert.deepEqual([payment.amount, payment.registrationId, payment.result.code], ['4.50', schedule.registrationId, '000.100.110']);
      await gw.running.deliverWebhooks();
      const page = await (await fetch(`${origin}/playground/webhooks`)).text();
      assert.ok(page.includes(`<code>${payment.id}</code>`), page);
    } finally {
      await close();
    }
  });
});
