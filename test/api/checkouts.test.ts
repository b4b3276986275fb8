import assert from 'node:assert/strict';
import { maskValue } from '../../server/schema/errors.ts';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { newCheckoutId, nodeNameOf } from '../../server/checkouts/checkouts.ts';
import { CHECKOUT_DECLINES_LIMIT, CHECKOUT_HOLD_LEASE_MS, endHold, holdOpenCheckout } from '../../server/store/checkouts.ts';
import { responseTimestamp } from '../../server/clock.ts';
import { resultUrl } from '../../server/http/routes/checkouts.ts';
import { FRAME_CSP } from '../../server/http/routes/widget.ts';
import type { Manifest } from '../../scripts/sri.ts';
import { expectedRedirect, FAKE_LOCALES, fakeDist, pageCard, pageSepa, prepareCheckout, Shopper, shopperResultUrl } from '../support/checkouts.ts';
import { visaFacts } from '../support/cardFacts.ts';
import { cardDebit, databaseUrl, pgSkip, shopA, shopB, startGateway, type Client, type TestGateway, type TestGatewayOptions } from '../support/gateway.ts';

const CHECKOUT_ID = /^[0-9a-f]{32}\.[a-z0-9-]{1,15}$/;
const PAYMENT_ID = /^[0-9a-f]{32}$/;
const THIRTY_MINUTES = 30 * 60 * 1000;

const sha384 = (bytes: ArrayBuffer | Buffer) => `sha384-${createHash('sha384').update(Buffer.from(bytes as ArrayBuffer)).digest('base64')}`;

function checkoutSuite(options: TestGatewayOptions) {
  let gw: TestGateway;
  let dist: { dir: string; manifest: Manifest };
  let shopper: Shopper;
  let shopBClient: Client;

  before(async () => {
    dist = fakeDist();
    gw = await startGateway({ ...options, distDir: dist.dir });
    shopper = new Shopper(gw.base);
    shopBClient = gw.clientFor(shopB.token, shopB.entityId);
  });
  after(async () => {
    await gw.close();
    rmSync(dist.dir, { recursive: true, force: true });
  });

  /** The payment a checkout made, as the merchant reads it. */
  async function paymentOf(checkoutId: string, client = gw.client) {
    const { status, body } = await client.get(`/v1/checkouts/${checkoutId}/payment`);
    assert.equal(status, 200, JSON.stringify(body));
    return body;
  }

  const paymentsWithNdc = async (ndc: string) => gw.running.store.db.selectFrom('payments').select(['id', 'status']).where('ndc', '=', ndc).execute();

  /** A checkout that is over (cancelled, expired): the form, a payment, an update and a cancel are each refused with its code, and no payment was made. */
  async function assertClosed(id: string, code: string) {
    const attempts = {
      form: await shopper.form(id),
      pay: await shopper.pay(id, pageCard()),
      update: await gw.client.post(`/v1/checkouts/${id}`, { amount: '5.00' }),
      cancel: await gw.client.delete(`/v1/checkouts/${id}`),
    };
    for (const [what, reply] of Object.entries(attempts)) {
      assert.equal(reply.status, 400, what);
      assert.equal(reply.body.result.code, code, what);
    }
    assert.equal((await paymentsWithNdc(id)).length, 0);
  }

  describe('POST /v1/checkouts', () => {
    it('creates a checkout whose id is 32 hex, a dot and a node name, 34 to 48 characters, and whose ndc is its id', async () => {
      const { status, body } = await gw.client.post('/v1/checkouts', { amount: '92.00', currency: 'EUR', paymentType: 'DB', shopperResultUrl });
      assert.equal(status, 200);
      assert.match(body.id, CHECKOUT_ID);
      assert.ok(body.id.length >= 34 && body.id.length <= 48, body.id);
      assert.deepEqual(body.result, { code: '000.200.100', description: 'successfully created checkout' });
      assert.equal(body.ndc, body.id);
      assert.equal(body.buildNumber, 'test-build');
      assert.match(body.timestamp, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+0000$/);
      assert.equal('integrity' in body, false);
    });

    it('answers integrity=true with the sha384 of the exact bytes GET /v1/paymentWidgets.js serves', async () => {
      const { status, body } = await gw.client.post('/v1/checkouts', { amount: '92.00', currency: 'EUR', paymentType: 'DB', integrity: 'true' });
      assert.equal(status, 200);
      assert.equal(body.integrity, dist.manifest.files['paymentWidgets.js']!.integrity);
      assert.match(body.integrity, /^sha384-[A-Za-z0-9+/]{64}$/);

      const response = await fetch(`${gw.base}/v1/paymentWidgets.js?checkoutId=${body.id}`);
      assert.equal(response.status, 200);
      const bytes = await response.arrayBuffer();
      assert.equal(sha384(bytes), body.integrity);
      assert.equal(response.headers.get('content-type'), 'application/javascript; charset=utf-8');
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      // Asked again on every load (a 304 below): an upgrade within the checkout's life meets no old copy.
      assert.equal(response.headers.get('cache-control'), 'no-cache');
      assert.equal(response.headers.get('etag'), `"${body.integrity}"`);

      const again = await fetch(`${gw.base}/v1/paymentWidgets.js?checkoutId=${body.id}`, { headers: { 'if-none-match': `"${body.integrity}"` } });
      assert.equal(again.status, 304);
    });

    it('refuses bad parameters, naming each', async () => {
      const { status, body } = await gw.client.post('/v1/checkouts', {
        amount: '92.00',
        currency: 'EUR',
        paymentType: 'CD',
        shopperResultUrl: '/result',
        'overridePaymentType[VISA]': 'CP',
        integrity: 'yes',
      });
      assert.equal(status, 400);
      assert.equal(body.result.code, '600.200.300');
      assert.deepEqual(
        body.result.parameterErrors.map((e: { name: string }) => e.name).sort(),
        ['integrity', 'overridePaymentType[VISA]', 'paymentType', 'shopperResultUrl'],
      );
      const byName = Object.fromEntries(body.result.parameterErrors.map((e: { name: string; value: string; message: string }) => [e.name, e]));
      assert.deepEqual(byName['shopperResultUrl'], { name: 'shopperResultUrl', value: '/result', message: 'shopperResultUrl must be an absolute URL' });
      assert.deepEqual(byName['overridePaymentType[VISA]'], { name: 'overridePaymentType[VISA]', value: 'CP', message: 'overridePaymentType[VISA] must be PA or DB' });
      assert.deepEqual(byName['paymentType'], { name: 'paymentType', value: 'CD', message: 'paymentType must be PA or DB for a checkout' });
    });

    it('refuses a shopperResultUrl the shopper could not be sent to safely', async () => {
      const { status, body } = await gw.client.post('/v1/checkouts', { amount: '1.00', currency: 'EUR', paymentType: 'DB', shopperResultUrl: 'javascript://x/%0aalert(1)' });
      assert.equal(status, 400);
      assert.deepEqual(body.result.parameterErrors, [{ name: 'shopperResultUrl', value: 'javascript://x/%0aalert(1)', message: 'shopperResultUrl must be an http or https URL' }]);
    });

    it('takes a shopperResultUrl of 2048 characters; a redirect.url it would outgrow with id and resourcePath is the gateway\'s hop to it', async () => {
      const url = (length: number) => `https://shop.example/${'a'.repeat(length - 'https://shop.example/'.length)}`;
      assert.equal((await gw.client.post('/v1/checkouts', { amount: '1.00', currency: 'EUR', paymentType: 'DB', shopperResultUrl: url(2049) })).status, 400);
      const direct = await prepareCheckout(gw.client, { shopperResultUrl: url(1904) });
      const paidDirect = await shopper.pay(direct, pageCard());
      assert.equal(paidDirect.status, 200, JSON.stringify(paidDirect.body));
      assert.equal(paidDirect.body.redirect.url, `${url(1904)}?id=${direct}&resourcePath=${encodeURIComponent(`/v1/checkouts/${direct}/payment`)}`);
      assert.ok(paidDirect.body.redirect.url.length <= 2048);

      const id = await prepareCheckout(gw.client, { shopperResultUrl: url(2048) });
      const paid = await shopper.pay(id, pageCard());
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      assert.equal(paid.body.redirect.url, `${gw.base}/v1/checkouts/${id}/result`);
      // A second payment is told the same way.
      assert.equal((await shopper.pay(id, pageCard())).body.redirect.url, `${gw.base}/v1/checkouts/${id}/result`);
      const hop = await fetch(paid.body.redirect.url, { redirect: 'manual' });
      assert.equal(hop.status, 303);
      assert.equal(hop.headers.get('location'), `${url(2048)}?id=${id}&resourcePath=${encodeURIComponent(`/v1/checkouts/${id}/payment`)}`);
      assert.equal((await fetch(`${gw.base}/v1/checkouts/nope/result`, { redirect: 'manual' })).status, 404);
      const without = await gw.client.post('/v1/checkouts', { amount: '1.00', currency: 'EUR', paymentType: 'DB' });
      const noUrl = await fetch(`${gw.base}/v1/checkouts/${without.body.id}/result`, { redirect: 'manual' });
      assert.equal(noUrl.status, 404);
      assert.equal(((await noUrl.json()) as any).result.parameterErrors[0].message, 'id names a checkout without shopperResultUrl: there is no result URL to send the shopper to');
    });

    it('refuses paymentBrand (the shopper picks it) and a zero amount', async () => {
      const { status, body } = await gw.client.post('/v1/checkouts', { amount: '0.00', currency: 'EUR', paymentType: 'DB', paymentBrand: 'VISA' });
      assert.equal(status, 400);
      assert.deepEqual(body.result.parameterErrors.map((e: { name: string }) => e.name).sort(), ['amount', 'paymentBrand']);
    });

    it('refuses registrations that are unknown, another entity\'s or deleted, naming each index', async () => {
      const own = await gw.client.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
      const deleted = await gw.client.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
      await gw.client.delete(`/v1/registrations/${deleted.body.id}`);
      const theirs = await shopBClient.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
      const { status, body } = await gw.client.post('/v1/checkouts', {
        amount: '10.00',
        currency: 'EUR',
        paymentType: 'DB',
        'registrations[0].id': own.body.id,
        'registrations[1].id': theirs.body.id,
        'registrations[2].id': deleted.body.id,
        'registrations[3].id': 'NOT-A-REGISTRATION',
      });
      assert.equal(status, 400);
      assert.deepEqual(body.result.parameterErrors, [
        { name: 'registrations[3].id', value: 'NOT-A-REGISTRATION', message: 'registrations[3].id must be 32 lowercase hexadecimal characters' },
      ]);
      const second = await gw.client.post('/v1/checkouts', {
        amount: '10.00',
        currency: 'EUR',
        paymentType: 'DB',
        'registrations[0].id': own.body.id,
        'registrations[1].id': theirs.body.id,
        'registrations[2].id': deleted.body.id,
      });
      assert.equal(second.status, 400);
      assert.equal(second.body.result.code, '100.150.200');
      assert.deepEqual(second.body.result.parameterErrors, [
        // An id is answered as any value is: a run of digits in it that reads as a card number is masked.
        { name: 'registrations[1].id', value: maskValue('registrations[1].id', theirs.body.id), message: 'registrations[1].id names no registration of this entity' },
        { name: 'registrations[2].id', value: maskValue('registrations[2].id', deleted.body.id), message: 'registrations[2].id names a deleted registration' },
      ]);
    });

    it('refuses more than ten registrations and one listed twice', async () => {
      const own = await gw.client.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
      const params: Record<string, string> = { amount: '10.00', currency: 'EUR', paymentType: 'DB' };
      for (let i = 0; i <= 10; i++) params[`registrations[${i}].id`] = i === 1 ? own.body.id : `${String(i).padStart(2, '0')}${'a'.repeat(30)}`;
      params['registrations[0].id'] = own.body.id;
      const { status, body } = await gw.client.post('/v1/checkouts', params);
      assert.equal(status, 400);
      assert.deepEqual(
        body.result.parameterErrors.map((e: { name: string; message: string }) => e.message),
        ['registrations[1].id is listed twice', 'registrations[10].id is beyond registrations[9]: a checkout offers at most 10 registrations'],
      );
    });
  });

  describe('states', () => {
    it('an open checkout reads 000.200.000, with nothing paid', async () => {
      const id = await prepareCheckout(gw.client);
      const { status, body } = await gw.client.get(`/v1/checkouts/${id}/payment`);
      assert.equal(status, 200);
      assert.deepEqual(body.result, { code: '000.200.000', description: 'transaction pending' });
      assert.equal(body.id, id);
      assert.equal(body.ndc, id);
      assert.deepEqual(Object.keys(body).sort(), ['buildNumber', 'id', 'ndc', 'result', 'timestamp']);
    });

    it('a cancelled checkout reads 100.396.101 and can be neither paid, changed nor cancelled again', async () => {
      const id = await prepareCheckout(gw.client);
      const cancelled = await gw.client.delete(`/v1/checkouts/${id}`);
      assert.equal(cancelled.status, 200);
      assert.deepEqual(cancelled.body.result, { code: '000.200.102', description: 'successfully deleted checkout' });
      assert.equal(cancelled.body.id, id);

      const read = await gw.client.get(`/v1/checkouts/${id}/payment`);
      assert.equal(read.status, 200);
      assert.deepEqual(read.body.result, { code: '100.396.101', description: 'Cancelled by user' });
      await assertClosed(id, '100.396.101');
    });

    it('a paid checkout reads as its payment, and refuses update and cancel naming id, never with the payment\'s success code', async () => {
      const id = await prepareCheckout(gw.client);
      const paid = await shopper.pay(id, pageCard());
      assert.equal(paid.status, 200);
      const body = await paymentOf(id);
      assert.match(body.id, PAYMENT_ID);
      assert.equal(body.result.code, '000.100.110');
      assert.equal(body.amount, '92.00');
      const refusal = [{ name: 'id', value: id, message: `id names a paid checkout (payment ${body.id}, 000.100.110): it can no longer be changed or cancelled; refund or reverse its payment instead` }];
      const cancel = await gw.client.delete(`/v1/checkouts/${id}`);
      assert.equal(cancel.status, 400);
      assert.equal(cancel.body.result.code, '200.300.404');
      assert.deepEqual(cancel.body.result.parameterErrors, refusal);
      const update = await gw.client.post(`/v1/checkouts/${id}`, { amount: '5.00' });
      assert.equal(update.status, 400);
      assert.equal(update.body.result.code, '200.300.404');
      assert.deepEqual(update.body.result.parameterErrors, refusal);
      assert.equal((await paymentOf(id)).amount, '92.00');
      const form = await shopper.form(id);
      assert.equal(form.status, 400);
      assert.equal(form.body.result.code, '000.100.110');
    });

    it('an unknown checkout and another merchant\'s are 404, the same answer for both', async () => {
      const id = await prepareCheckout(gw.client);
      for (const [client, checkoutId] of [
        [shopBClient, id],
        [gw.client, `${'0'.repeat(32)}.node`],
        [gw.client, 'not-a-checkout-id'],
      ] as const) {
        for (const reply of [
          await client.get(`/v1/checkouts/${checkoutId}/payment`),
          await client.get(`/v1/checkouts/${checkoutId}/registration`),
          await client.post(`/v1/checkouts/${checkoutId}`, { amount: '1.00' }),
          await client.delete(`/v1/checkouts/${checkoutId}`),
        ]) {
          assert.equal(reply.status, 404);
          assert.equal(reply.body.result.code, '200.300.404');
          assert.deepEqual(reply.body.result.parameterErrors, [{ name: 'id', value: maskValue('id', checkoutId), message: 'id names no checkout' }]);
        }
      }
      const form = await shopper.form(`${'0'.repeat(32)}.node`);
      assert.equal(form.status, 404);
      assert.equal(form.headers.get('access-control-allow-origin'), '*');
      const pay = await shopper.pay(`${'0'.repeat(32)}.node`, pageCard());
      assert.equal(pay.status, 404);
      // Shop B's own reading of its checkout is untouched: shop A's stays open.
      assert.equal((await paymentOf(id)).result.code, '000.200.000');
    });

    it('a checkout expires 30 minutes after creation: 100.396.103, no more payments', async () => {
      const id = await prepareCheckout(gw.client);
      gw.clock.advance(THIRTY_MINUTES - 1000);
      assert.equal((await shopper.form(id)).status, 200);
      gw.clock.advance(60 * 1000 + 1000);
      const read = await gw.client.get(`/v1/checkouts/${id}/payment`);
      assert.equal(read.status, 200);
      assert.deepEqual(read.body.result, { code: '100.396.103', description: 'Previously pending transaction timed out' });
      await assertClosed(id, '100.396.103');
      const registration = await gw.client.get(`/v1/checkouts/${id}/registration`);
      assert.equal(registration.body.result.code, '100.396.103');
    });

    it('a paid checkout stays paid after its 30 minutes', async () => {
      const id = await prepareCheckout(gw.client);
      assert.equal((await shopper.pay(id, pageCard())).status, 200);
      gw.clock.advance(31 * 60 * 1000);
      assert.equal((await paymentOf(id)).result.code, '000.100.110');
    });
  });

  describe('POST /v1/checkouts/{id}', () => {
    it('updates an open checkout: the groups sent replace the stored ones, the lifetime stays', async () => {
      const created = gw.clock.now().getTime();
      const id = await prepareCheckout(gw.client, { 'customParameters[order]': 'A-17' });
      gw.clock.advance(60 * 1000);
      const { status, body } = await gw.client.post(`/v1/checkouts/${id}`, { amount: '15', currency: 'USD', paymentType: 'PA' });
      assert.equal(status, 200);
      assert.deepEqual(body.result, { code: '000.200.101', description: 'successfully updated checkout' });
      assert.equal(body.id, id);
      const form = await shopper.form(id);
      assert.equal(form.body.amount, '15.00');
      assert.equal(form.body.currency, 'USD');
      assert.equal(form.body.paymentType, 'PA');
      assert.equal(form.body.expiresAt, responseTimestamp(new Date(created + THIRTY_MINUTES)));
      const paid = await shopper.pay(id, pageCard());
      assert.equal(paid.status, 200);
      const payment = await paymentOf(id);
      assert.equal(payment.paymentType, 'PA');
      assert.equal(payment.amount, '15.00');
      assert.equal(payment.currency, 'USD');
      assert.deepEqual(payment.customParameters, { order: 'A-17' });
    });

    it('validates an update as a creation, naming bad parameters', async () => {
      const id = await prepareCheckout(gw.client);
      const { status, body } = await gw.client.post(`/v1/checkouts/${id}`, { amount: '1.234', shopperResultUrl: 'result.html', 'card.number': '4200000000000000' });
      assert.equal(status, 400);
      assert.deepEqual(body.result.parameterErrors.map((e: { name: string }) => e.name).sort(), ['amount', 'card.number', 'shopperResultUrl']);
      assert.equal(JSON.stringify(body).includes('4200000000000000'), false);
      const unchanged = await shopper.form(id);
      assert.equal(unchanged.body.amount, '92.00');
    });

    it('refuses an update lowering amount below the stored shipping.cost or taxAmount naming amount, not what was stored', async () => {
      for (const [stored, update, error] of [
        [{ 'shipping.cost': '10.00' }, { amount: '5.00' }, { name: 'amount', value: '5.00', message: "amount is below the checkout's shipping.cost 10.00, which it includes" }],
        [{ taxAmount: '10.00' }, { amount: '5.00' }, { name: 'amount', value: '5.00', message: "amount is below the checkout's taxAmount 10.00, which it includes" }],
        [{ taxAmount: '50.00', 'shipping.cost': '30.00' }, { amount: '60.00' }, { name: 'amount', value: '60.00', message: "amount is below the checkout's taxAmount 50.00 and shipping.cost 30.00 together, which it includes" }],
        [{ 'shipping.cost': '50.00' }, { taxAmount: '50.00' }, { name: 'taxAmount', value: '50.00', message: "taxAmount with the checkout's shipping.cost 50.00 exceeds amount 92.00, which includes both" }],
        // What the update sends is named as on a creation.
        [{ taxAmount: '50.00' }, { 'shipping.cost': '50.00' }, { name: 'shipping.cost', value: '50.00', message: 'shipping.cost with taxAmount 50.00 exceeds amount 92.00, which includes both' }],
        [{ 'shipping.cost': '10.00' }, { amount: '5.00', 'shipping.cost': '8.00' }, { name: 'shipping.cost', value: '8.00', message: 'shipping.cost must not exceed amount 5.00, which includes it' }],
      ] as const) {
        const id = await prepareCheckout(gw.client, stored);
        const { status, body } = await gw.client.post(`/v1/checkouts/${id}`, update);
        assert.equal(status, 400, JSON.stringify(update));
        assert.equal(body.result.code, '100.550.301');
        assert.deepEqual(body.result.parameterErrors, [error], JSON.stringify(update));
        assert.equal((await shopper.form(id)).body.amount, '92.00');
      }
    });

    it('refuses overridePaymentType on an update (the spec: accepted only when creating a checkout), naming it', async () => {
      const id = await prepareCheckout(gw.client);
      const { status, body } = await gw.client.post(`/v1/checkouts/${id}`, { amount: '13.00', 'overridePaymentType[VISA]': 'PA' });
      assert.equal(status, 400);
      assert.deepEqual(body.result.parameterErrors.map((e: { name: string }) => e.name), ['overridePaymentType[VISA]']);
      assert.equal((await shopper.form(id)).body.amount, '92.00');
    });

    it('gives the integrity on update when asked', async () => {
      const id = await prepareCheckout(gw.client);
      const { body } = await gw.client.post(`/v1/checkouts/${id}`, { integrity: 'true' });
      assert.equal(body.result.code, '000.200.101');
      assert.equal(body.integrity, dist.manifest.files['paymentWidgets.js']!.integrity);
    });
  });

  describe('GET /v1/checkouts/{id}/form', () => {
    it('reveals only what the form needs: amount, currency, type, brands, masked registrations, expiry', async () => {
      const registered = await gw.client.post('/v1/registrations', {
        paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034',
      });
      const sepa = await gw.client.post('/v1/registrations', { ...pageSepa });
      const created = gw.clock.now().getTime();
      const id = await prepareCheckout(gw.client, {
        amount: '92',
        'registrations[0].id': registered.body.id,
        'registrations[1].id': sepa.body.id,
        'customParameters[internalRef]': 'secret-margin-7',
        merchantTransactionId: 'order-form-0001',
        'billing.city': 'Berlin',
      });
      const { status, headers, body } = await shopper.form(id);
      assert.equal(status, 200);
      assert.equal(headers.get('access-control-allow-origin'), '*');
      assert.deepEqual(body, {
        result: { code: '000.200.000', description: 'transaction pending' },
        id,
        amount: '92.00',
        currency: 'EUR',
        paymentType: 'DB',
        brands: ['VISA', 'MASTER', 'AMEX', 'DIRECTDEBIT_SEPA', 'PAYPAL'],
        registrations: [
          { id: registered.body.id, paymentBrand: 'VISA', card: { last4Digits: '0000', expiryMonth: '05', expiryYear: '2034', holder: 'Jane Jones' } },
          { id: sepa.body.id, paymentBrand: 'DIRECTDEBIT_SEPA', bankAccount: { holder: 'Jane Jones', last4Digits: '3000' } },
        ],
        // This entity does not authenticate: the page asks for no billing address.
        billing: [],
        createRegistration: false,
        overrideHolder: false,
        expiresAt: responseTimestamp(new Date(created + THIRTY_MINUTES)),
        buildNumber: 'test-build',
        timestamp: body.timestamp,
        ndc: id,
      });
      const text = JSON.stringify(body);
      for (const hidden of [shopA.token, 'secret-margin-7', 'order-form-0001', 'Berlin', '420000', 'DE89370400440532013000', 'shop.example']) {
        assert.equal(text.includes(hidden), false, hidden);
      }
    });

    it('leaves out a registration deleted after the checkout was made', async () => {
      const registered = await gw.client.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
      const id = await prepareCheckout(gw.client, { 'registrations[0].id': registered.body.id });
      await gw.client.delete(`/v1/registrations/${registered.body.id}`);
      const { body } = await shopper.form(id);
      assert.deepEqual(body.registrations, []);
      const pay = await shopper.pay(id, { registrationId: registered.body.id });
      assert.equal(pay.status, 400);
      assert.equal(pay.body.result.code, '100.150.202');
    });
  });

  describe('POST /v1/checkouts/{id}/payment', () => {
    it('pays by card with no token: the answer has the checkout id, the brand and the redirect, and nothing else', async () => {
      const id = await prepareCheckout(gw.client, { 'customParameters[order]': 'A-17', merchantTransactionId: 'order-page-0001' });
      const { status, headers, body } = await shopper.pay(id, { ...pageCard(), 'customParameters[SHOPPER_note]': 'ring twice' });
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(headers.get('access-control-allow-origin'), '*');
      assert.deepEqual(body, {
        result: { code: '000.100.110', description: "Request successfully processed in 'Merchant in Integrator Test Mode'" },
        id,
        paymentBrand: 'VISA',
        redirect: { url: expectedRedirect(id) },
        buildNumber: 'test-build',
        timestamp: body.timestamp,
        ndc: id,
      });

      const payment = await paymentOf(id);
      assert.match(payment.id, PAYMENT_ID);
      assert.equal(payment.ndc, id);
      assert.equal(payment.paymentType, 'DB');
      assert.equal(payment.paymentBrand, 'VISA');
      assert.equal(payment.amount, '92.00');
      assert.equal(payment.currency, 'EUR');
      assert.equal(payment.merchantTransactionId, 'order-page-0001');
      assert.deepEqual(payment.card, { bin: '420000', last4Digits: '0000', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034', ...visaFacts });
      assert.deepEqual(payment.customParameters, { SHOPPER_note: 'ring twice', order: 'A-17' });

      const direct = await gw.client.get(`/v1/payments/${payment.id}`);
      assert.equal(direct.status, 200);
      assert.equal(direct.body.ndc, id);
      assert.deepEqual(direct.body, payment);
    });

    it('refuses a second payment of a paid checkout with the paid state', async () => {
      const id = await prepareCheckout(gw.client);
      const first = await shopper.pay(id, pageCard());
      assert.equal(first.status, 200);
      const second = await shopper.pay(id, pageCard({ 'card.number': '5200000000000007', paymentBrand: 'MASTER' }));
      assert.equal(second.status, 400);
      assert.deepEqual(second.body.result, first.body.result);
      assert.equal(second.body.paymentBrand, 'VISA');
      assert.deepEqual(second.body.redirect, { url: expectedRedirect(id) });
      assert.deepEqual((await paymentsWithNdc(id)).map((p) => p.status), ['success']);
    });

    it('pays by SEPA direct debit', async () => {
      const id = await prepareCheckout(gw.client, { amount: '20.00' });
      const { status, body } = await shopper.pay(id, pageSepa);
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.paymentBrand, 'DIRECTDEBIT_SEPA');
      const payment = await paymentOf(id);
      assert.equal(payment.paymentType, 'DB');
      assert.equal(payment.amount, '20.00');
      assert.deepEqual(payment.bankAccount, { holder: 'Jane Jones', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' });
    });

    it('refuses a mandate the shopper\'s form says was signed on a day still ahead, naming it, as POST /v1/payments does', async () => {
      const id = await prepareCheckout(gw.client, { amount: '20.00' });
      const ahead = new Date(gw.clock.now().getTime() + 14 * 3_600_000 + 86_400_000).toISOString().slice(0, 10);
      const refused = await shopper.pay(id, { ...pageSepa, 'bankAccount.mandate.dateOfSignature': ahead });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.body.result.code, '200.300.404');
      assert.deepEqual(refused.body.result.parameterErrors.map((e: { name: string; value: string }) => [e.name, e.value]), [['bankAccount.mandate.dateOfSignature', ahead]]);
      const paid = await shopper.pay(id, { ...pageSepa, 'bankAccount.mandate.dateOfSignature': '2020-01-02' });
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
    });

    it('a method that cannot take the checkout\'s type is refused and leaves the checkout open', async () => {
      const id = await prepareCheckout(gw.client, { paymentType: 'PA' });
      const sepa = await shopper.pay(id, pageSepa);
      assert.equal(sepa.status, 400);
      assert.equal(sepa.body.result.code, '600.200.310');
      const card = await shopper.pay(id, pageCard());
      assert.equal(card.status, 200);
    });

    it('overridePaymentType[VISA]=PA makes a VISA payment a PA while other brands use paymentType', async () => {
      const visa = await prepareCheckout(gw.client, { 'overridePaymentType[VISA]': 'PA' });
      assert.equal((await shopper.pay(visa, pageCard())).status, 200);
      assert.equal((await paymentOf(visa)).paymentType, 'PA');
      const master = await prepareCheckout(gw.client, { 'overridePaymentType[VISA]': 'PA' });
      assert.equal((await shopper.pay(master, pageCard({ paymentBrand: 'MASTER', 'card.number': '5200000000000007' }))).status, 200);
      const payment = await paymentOf(master);
      assert.equal(payment.paymentType, 'DB');
      assert.equal(payment.paymentBrand, 'MASTER');
    });

    it('refuses an overridePaymentType for a brand the entity does not take (visa for VISA), which would never apply', async () => {
      const { status, body } = await gw.client.post('/v1/checkouts', { amount: '20.00', currency: 'EUR', paymentType: 'DB', 'overridePaymentType[visa]': 'PA', 'overridePaymentType[VISA]': 'PA', 'overridePaymentType[FOO]': 'PA' });
      assert.equal(status, 400, JSON.stringify(body));
      assert.equal(body.result.code, '100.100.501');
      assert.deepEqual(body.result.parameterErrors.map((e: { name: string }) => e.name), ['overridePaymentType[visa]', 'overridePaymentType[FOO]']);
      assert.match(body.result.parameterErrors[0].message, /^overridePaymentType\[visa\] names a brand this entity does not take \(it takes VISA, /);
      assert.equal(body.id, undefined);
    });

    it('detects the card brand when the page sends none', async () => {
      const id = await prepareCheckout(gw.client, { 'overridePaymentType[MASTER]': 'PA' });
      const params = pageCard({ 'card.number': '5200000000000007' });
      delete params.paymentBrand;
      const { body } = await shopper.pay(id, params);
      assert.equal(body.paymentBrand, 'MASTER');
      assert.equal((await paymentOf(id)).paymentType, 'PA');
    });

    it('pays one-click with a registration the checkout offers, with or without a security code', async () => {
      const registered = await gw.client.post('/v1/registrations', {
        paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034',
      });
      const id = await prepareCheckout(gw.client, { 'registrations[0].id': registered.body.id });
      const { status, body } = await shopper.pay(id, { registrationId: registered.body.id, 'card.cvv': '123' });
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.paymentBrand, 'VISA');
      assert.deepEqual(body.redirect, { url: expectedRedirect(id) });
      const payment = await paymentOf(id);
      assert.equal(payment.registrationId, registered.body.id);
      assert.equal(payment.result.cvvResponse, 'M');
      assert.deepEqual(payment.card, { bin: '420000', last4Digits: '0000', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034', ...visaFacts });

      const noCvv = await prepareCheckout(gw.client, { 'registrations[0].id': registered.body.id });
      assert.equal((await shopper.pay(noCvv, { registrationId: registered.body.id })).status, 200);
      assert.equal((await paymentOf(noCvv)).result.cvvResponse, 'P');
      // Paying with a registration creates none: the checkout has no registration of its own.
      const registration = await gw.client.get(`/v1/checkouts/${noCvv}/registration`);
      assert.equal(registration.status, 404);
      assert.equal(registration.body.result.code, '100.150.200');
    });

    it('overrideHolder=true on the checkout: the form says so, and the shopper\'s holder pays for a saved card without one, for that payment only', async () => {
      const registered = await gw.client.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
      const id = await prepareCheckout(gw.client, { 'registrations[0].id': registered.body.id, overrideHolder: 'true' });
      assert.equal((await shopper.form(id)).body.overrideHolder, true);
      const paid = await shopper.pay(id, { registrationId: registered.body.id, 'card.holder': 'Jane Jones' });
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      assert.equal((await paymentOf(id)).card.holder, 'Jane Jones');
      const stored = await gw.running.store.db.selectFrom('registrations').select('details').where('id', '=', registered.body.id).executeTakeFirstOrThrow();
      assert.equal(JSON.parse(stored.details).card.holder, undefined);
      // A bank account's holder does not fit a card.
      const again = await prepareCheckout(gw.client, { 'registrations[0].id': registered.body.id, overrideHolder: 'true' });
      const other = await shopper.pay(again, { registrationId: registered.body.id, 'bankAccount.holder': 'Jane Jones' });
      assert.deepEqual(other.body.result.parameterErrors.map((e: { name: string }) => e.name), ['bankAccount.holder']);
    });

    it('refuses a holder for a saved account on a checkout without overrideHolder=true, naming it', async () => {
      const registered = await gw.client.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
      const id = await prepareCheckout(gw.client, { 'registrations[0].id': registered.body.id });
      assert.equal((await shopper.form(id)).body.overrideHolder, false);
      const refused = await shopper.pay(id, { registrationId: registered.body.id, 'card.holder': 'Jane Jones' });
      assert.equal(refused.status, 400);
      assert.deepEqual(refused.body.result.parameterErrors, [{ name: 'card.holder', value: 'Jane Jones', message: 'card.holder is taken for a saved account only on a checkout prepared with overrideHolder=true' }]);
      assert.equal((await paymentsWithNdc(id)).length, 0);
    });

    it('refuses a registration the checkout does not offer, a wrong security code length and account data next to it', async () => {
      const offered = await gw.client.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
      const other = await gw.client.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
      const id = await prepareCheckout(gw.client, { 'registrations[0].id': offered.body.id });

      const notOffered = await shopper.pay(id, { registrationId: other.body.id });
      assert.equal(notOffered.status, 400);
      assert.equal(notOffered.body.result.code, '100.150.200');
      assert.deepEqual(notOffered.body.result.parameterErrors, [{ name: 'registrationId', value: maskValue('registrationId', other.body.id), message: 'registrationId is not one of the registrations of this checkout' }]);

      const cvv = await shopper.pay(id, { registrationId: offered.body.id, 'card.cvv': '1234' });
      assert.equal(cvv.status, 400);
      assert.deepEqual(cvv.body.result.parameterErrors, [{ name: 'card.cvv', value: '****', message: 'card.cvv must be 3 digits for VISA' }]);

      const mixed = await shopper.pay(id, { registrationId: offered.body.id, 'card.number': '4200000000000000' });
      assert.equal(mixed.status, 400);
      assert.deepEqual(mixed.body.result.parameterErrors, [{ name: 'card.number', value: '************0000', message: 'card.number is not a parameter of this request' }]);
      assert.equal((await paymentsWithNdc(id)).length, 0);
    });

    it('createRegistration=true stores the card with the successful payment; the merchant reads it at /registration', async () => {
      const id = await prepareCheckout(gw.client, { createRegistration: 'true' });
      const before = await gw.client.get(`/v1/checkouts/${id}/registration`);
      assert.equal(before.status, 200);
      assert.equal(before.body.result.code, '000.200.000');

      assert.equal((await shopper.pay(id, pageCard())).status, 200);
      const payment = await paymentOf(id);
      assert.match(payment.registrationId, PAYMENT_ID);
      const { status, body } = await gw.client.get(`/v1/checkouts/${id}/registration`);
      assert.equal(status, 200);
      assert.deepEqual(body, {
        id: payment.registrationId,
        paymentBrand: 'VISA',
        result: { code: '000.100.110', description: "Request successfully processed in 'Merchant in Integrator Test Mode'" },
        card: { bin: '420000', last4Digits: '0000', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034' },
        buildNumber: 'test-build',
        timestamp: body.timestamp,
        ndc: id,
      });
      const again = await gw.client.post(`/v1/registrations/${payment.registrationId}/payments`, { amount: '5.00', currency: 'EUR', paymentType: 'DB' });
      assert.equal(again.status, 200);

      // Offered on the next checkout, the new registration pays one-click.
      const next = await prepareCheckout(gw.client, { 'registrations[0].id': payment.registrationId });
      assert.equal((await shopper.pay(next, { registrationId: payment.registrationId, 'card.cvv': '123' })).status, 200);
    });

    it('createRegistration=true from the page (the shopper saves the card or account) stores it; false or absent stores nothing; a PayPal account is refused', async () => {
      const id = await prepareCheckout(gw.client);
      assert.equal((await shopper.form(id)).body.createRegistration, false);
      assert.equal((await shopper.pay(id, pageCard({ createRegistration: 'true' }))).status, 200);
      const payment = await paymentOf(id);
      assert.match(payment.registrationId, PAYMENT_ID);
      const saved = await gw.client.get(`/v1/checkouts/${id}/registration`);
      assert.equal(saved.body.id, payment.registrationId);
      assert.deepEqual(saved.body.card, { bin: '420000', last4Digits: '0000', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034' });

      const sepa = await prepareCheckout(gw.client);
      assert.equal((await shopper.pay(sepa, { ...pageSepa, createRegistration: 'true' })).status, 200);
      assert.match((await paymentOf(sepa)).registrationId, PAYMENT_ID);

      for (const choice of [{ createRegistration: 'false' }, {}] as Record<string, string>[]) {
        const unsaved = await prepareCheckout(gw.client);
        assert.equal((await shopper.pay(unsaved, pageCard(choice))).status, 200);
        assert.equal((await paymentOf(unsaved)).registrationId, undefined);
        assert.equal((await gw.client.get(`/v1/checkouts/${unsaved}/registration`)).status, 404);
      }
      // The page cannot withdraw the merchant's request.
      const merchantSaves = await prepareCheckout(gw.client, { createRegistration: 'true' });
      assert.equal((await shopper.form(merchantSaves)).body.createRegistration, true);
      assert.equal((await shopper.pay(merchantSaves, pageCard({ createRegistration: 'false' }))).status, 200);
      assert.match((await paymentOf(merchantSaves)).registrationId, PAYMENT_ID);

      const paypal = await prepareCheckout(gw.client);
      const refused = await shopper.pay(paypal, { paymentBrand: 'PAYPAL', 'virtualAccount.accountId': 'jane@example.com', createRegistration: 'true' });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.result.code, '200.300.404');
      assert.deepEqual(refused.body.result.parameterErrors, [
        { name: 'createRegistration', value: 'true', message: 'createRegistration cannot store a PAYPAL payment: only a card or a bank account can be saved for future payments' },
      ]);
      const malformed = await shopper.pay(paypal, pageCard({ createRegistration: 'yes' }));
      assert.equal(malformed.status, 400);
      assert.deepEqual(malformed.body.result.parameterErrors.map((e: { name: string }) => e.name), ['createRegistration']);
      assert.equal((await paymentsWithNdc(paypal)).length, 0);
    });

    it('a declined attempt leaves the checkout open with no redirect; the retry pays it', async () => {
      const id = await prepareCheckout(gw.client, { createRegistration: 'true' });
      const declined = await shopper.pay(id, pageCard({ 'card.number': '4000000000000002' }));
      assert.equal(declined.status, 400);
      assert.deepEqual(declined.body, {
        result: { code: '800.100.152', description: 'transaction declined by authorization system' },
        id,
        paymentBrand: 'VISA',
        buildNumber: 'test-build',
        timestamp: declined.body.timestamp,
        ndc: id,
      });
      assert.equal((await paymentOf(id)).result.code, '000.200.000');
      assert.equal((await shopper.form(id)).status, 200);
      assert.equal((await gw.client.get(`/v1/checkouts/${id}/registration`)).body.result.code, '000.200.000');

      const retry = await shopper.pay(id, pageCard());
      assert.equal(retry.status, 200);
      const payment = await paymentOf(id);
      assert.equal(payment.result.code, '000.100.110');
      assert.deepEqual((await paymentsWithNdc(id)).map((p) => p.status).sort(), ['rejected', 'success']);
      assert.equal((await gw.client.get(`/v1/checkouts/${id}/registration`)).body.id, payment.registrationId);
    });

    /** A declined attempt (the simulator's card declined by the authorization system): 400, 800.100.152. */
    async function decline(id: string) {
      const declined = await shopper.pay(id, pageCard({ 'card.number': '4000000000000002' }));
      assert.equal(declined.status, 400, JSON.stringify(declined.body));
      assert.equal(declined.body.result.code, '800.100.152');
    }

    it('nine declined attempts leave the checkout open: the next attempt pays it', async () => {
      const id = await prepareCheckout(gw.client);
      for (let i = 0; i < CHECKOUT_DECLINES_LIMIT - 1; i++) await decline(id);
      assert.equal((await paymentOf(id)).result.code, '000.200.000');
      assert.equal((await shopper.form(id)).status, 200);
      const paid = await shopper.pay(id, pageCard());
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      assert.equal(paid.body.result.code, '000.100.110');
      assert.equal((await paymentOf(id)).result.code, '000.100.110');
      const statuses = (await paymentsWithNdc(id)).map((p) => p.status);
      assert.equal(statuses.length, 10);
      assert.equal(statuses.filter((s) => s === 'rejected').length, 9);
    });

    it('the tenth declined attempt ends the checkout as expired: the next attempt is refused with 100.396.103, naming nothing paid; the merchant reads it expired', async () => {
      const id = await prepareCheckout(gw.client);
      for (let i = 0; i < CHECKOUT_DECLINES_LIMIT; i++) await decline(id);
      const ended = gw.clock.now().getTime();
      const next = await shopper.pay(id, pageCard());
      assert.equal(next.status, 400);
      assert.deepEqual(next.body, {
        result: { code: '100.396.103', description: 'Previously pending transaction timed out' },
        id,
        buildNumber: 'test-build',
        timestamp: next.body.timestamp,
        ndc: id,
      });
      assert.deepEqual((await paymentOf(id)).result, { code: '100.396.103', description: 'Previously pending transaction timed out' });
      const form = await shopper.form(id);
      assert.equal(form.status, 400);
      assert.equal(form.body.result.code, '100.396.103');
      assert.equal((await gw.client.post(`/v1/checkouts/${id}`, { amount: '5.00' })).body.result.code, '100.396.103');
      assert.equal((await gw.client.delete(`/v1/checkouts/${id}`)).body.result.code, '100.396.103');
      const statuses = (await paymentsWithNdc(id)).map((p) => p.status);
      assert.deepEqual(statuses, Array(10).fill('rejected'));
      const row = await gw.running.store.db.selectFrom('checkouts').select(['status', 'declines', 'expires_at']).where('id', '=', id).executeTakeFirstOrThrow();
      assert.deepEqual({ ...row, expires_at: Number(row.expires_at) }, { status: 'open', declines: 10, expires_at: ended });
    });

    it('refusals of invalid input count no decline: they never reached the acquirer', async () => {
      const offered = await gw.client.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
      const id = await prepareCheckout(gw.client, { paymentType: 'PA', 'registrations[0].id': offered.body.id });
      for (let i = 0; i < CHECKOUT_DECLINES_LIMIT; i++) {
        // Refused by the checkout's rules (a method its type does not take), and by the registration's (a wrong security code length).
        const sepa = await shopper.pay(id, pageSepa);
        assert.equal(sepa.body.result.code, '600.200.310');
        const cvv = await shopper.pay(id, { registrationId: offered.body.id, 'card.cvv': '1234' });
        assert.equal(cvv.status, 400);
        assert.deepEqual(cvv.body.result.parameterErrors.map((e: { name: string }) => e.name), ['card.cvv']);
      }
      for (let i = 0; i < CHECKOUT_DECLINES_LIMIT - 1; i++) await decline(id);
      const paid = await shopper.pay(id, pageCard());
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      assert.equal((await paymentOf(id)).result.code, '000.100.110');
    });

    it('attempts the acquirer never answered (900.100.100) count no decline: they say nothing of the card, and an outage must not end the checkout', async () => {
      const acquirer = gw.running.gateway.deps.acquirer;
      const authorize = acquirer.authorize;
      acquirer.authorize = async () => {
        throw new Error('connection reset by the acquirer');
      };
      const id = await prepareCheckout(gw.client);
      try {
        for (let i = 0; i < CHECKOUT_DECLINES_LIMIT; i++) {
          const failed = await shopper.pay(id, pageCard());
          assert.equal(failed.body.result.code, '900.100.100', JSON.stringify(failed.body));
        }
      } finally {
        acquirer.authorize = authorize;
      }
      for (let i = 0; i < CHECKOUT_DECLINES_LIMIT - 1; i++) await decline(id);
      const paid = await shopper.pay(id, pageCard());
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      const row = await gw.running.store.db.selectFrom('checkouts').select(['status', 'declines']).where('id', '=', id).executeTakeFirstOrThrow();
      assert.deepEqual(row, { status: 'paid', declines: 9 });
    });

    it('replays the first answer for an Idempotency-Key retry and charges once', async () => {
      const id = await prepareCheckout(gw.client);
      const first = await shopper.pay(id, pageCard(), { 'idempotency-key': 'widget-key-1' });
      const retry = await shopper.pay(id, pageCard(), { 'idempotency-key': 'widget-key-1' });
      assert.equal(first.status, 200);
      assert.equal(retry.status, 200);
      assert.deepEqual(retry.body, first.body);
      assert.equal(retry.headers.get('idempotent-replayed'), 'true');
      assert.equal(retry.headers.get('access-control-expose-headers'), 'Idempotent-Replayed');
      assert.equal((await paymentsWithNdc(id)).length, 1);

      // The same key on another checkout, or by the merchant, is another request.
      const other = await prepareCheckout(gw.client);
      const elsewhere = await shopper.pay(other, pageCard(), { 'idempotency-key': 'widget-key-1' });
      assert.equal(elsewhere.status, 200);
      assert.equal(elsewhere.body.id, other);
      const merchant = await gw.client.post('/v1/payments', cardDebit(), { 'idempotency-key': 'widget-key-1' });
      assert.equal(merchant.status, 200);
      assert.match(merchant.body.id, PAYMENT_ID);
    });

    it('two attempts at once with different keys charge once', async () => {
      const id = await prepareCheckout(gw.client);
      const replies = await Promise.all(Array.from({ length: 4 }, (_, i) => shopper.pay(id, pageCard(), { 'idempotency-key': `parallel-${i}` })));
      assert.equal(replies.filter((r) => r.status === 200).length, 1, replies.map((r) => r.status).join(' '));
      assert.ok(replies.every((r) => [200, 400, 409].includes(r.status)));
      assert.deepEqual((await paymentsWithNdc(id)).map((p) => p.status), ['success']);
    });

    it('refuses a page payment of more than 1000 parameters unread, naming the body', async () => {
      const id = await prepareCheckout(gw.client);
      const junk = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`x${i}`, '1']));
      const refused = await shopper.pay(id, { ...pageCard(), ...junk });
      assert.equal(refused.status, 400);
      assert.deepEqual(refused.body.result.parameterErrors, [{ name: 'body', value: '', message: `body has ${1001 + Object.keys(pageCard()).length} parameters; a payment page sends at most 1000` }]);
      assert.equal(refused.headers.get('access-control-allow-origin'), '*');
      // Nothing was tried: the checkout still pays.
      assert.equal((await shopper.pay(id, pageCard())).body.result.code, '000.100.110');
    });

    it('an Idempotency-Key on a path longer than its record\'s column (an id percent-encoded, a 48-character checkout id) is kept by its digest', async () => {
      const id = await prepareCheckout(gw.client);
      const encoded = [...id].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
      const path = `/v1/checkouts/${encoded}/payment`;
      assert.ok(path.length > 64);
      const paid = await shopper.post(path, pageCard(), { 'idempotency-key': 'long-path-1' });
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      assert.equal(paid.body.result.code, '000.100.110');
      const again = await shopper.post(path, pageCard(), { 'idempotency-key': 'long-path-1' });
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(again.body, paid.body);
      // The merchant's reference to an id no payment can have, as long as a path segment may be: named, not a 5xx.
      const unknown = await gw.client.post(`/v1/payments/${'a'.repeat(100)}`, { paymentType: 'RV' }, { 'idempotency-key': 'long-path-2' });
      assert.equal(unknown.status, 400, JSON.stringify(unknown.body));
      assert.equal(unknown.body.result.parameterErrors[0].name, 'id');
    });

    it('a checkout held by a process that stopped mid-payment is busy for 5 minutes, then paid or cancelled as open; its first holder is fenced out', async () => {
      const { store } = gw.running;
      const hold = (id: string) => store.write((trx) => holdOpenCheckout(trx, id, gw.clock.now().getTime()));
      const id = await prepareCheckout(gw.client);
      // What a process that died after its hold leaves behind.
      const abandoned = (await hold(id))!;
      const busy = await shopper.pay(id, pageCard());
      assert.equal(busy.status, 409);
      assert.equal(busy.body.result.code, '000.200.000');
      gw.clock.advance(CHECKOUT_HOLD_LEASE_MS + 1000);
      const paid = await shopper.pay(id, pageCard());
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      assert.equal((await paymentOf(id)).result.code, '000.100.110');
      // The first holder, back late, can no longer end the hold: its payment would roll back.
      await assert.rejects(store.write((trx) => endHold(trx, id, abandoned.updatedAt, { paid: true, paymentId: 'f'.repeat(32), registrationId: null }, gw.clock.now().getTime())), /taken over/);
      assert.equal((await paymentOf(id)).result.code, '000.100.110');

      const cancelled = await prepareCheckout(gw.client);
      await hold(cancelled);
      assert.equal((await gw.client.delete(`/v1/checkouts/${cancelled}`)).status, 409);
      gw.clock.advance(CHECKOUT_HOLD_LEASE_MS + 1000);
      const cancel = await gw.client.delete(`/v1/checkouts/${cancelled}`);
      assert.equal(cancel.status, 200, JSON.stringify(cancel.body));
      assert.equal(cancel.body.result.code, '000.200.102');
    });

    it('refuses customParameters whose names do not start with SHOPPER_, naming them', async () => {
      const id = await prepareCheckout(gw.client);
      const { status, body } = await shopper.pay(id, { ...pageCard(), 'customParameters[order]': 'free', 'customParameters[SHOPPER_ok]': 'fine' });
      assert.equal(status, 400);
      assert.deepEqual(body.result.parameterErrors, [
        { name: 'customParameters[order]', value: 'free', message: 'customParameters[order] must have a name starting with SHOPPER_ when sent from the payment form' },
      ]);
      assert.equal((await paymentsWithNdc(id)).length, 0);
    });

    it('takes amount, currency and type from the checkout only, never from the page', async () => {
      const id = await prepareCheckout(gw.client);
      const { status, body } = await shopper.pay(id, { ...pageCard(), amount: '0.01', currency: 'USD', paymentType: 'CD', entityId: shopA.entityId });
      assert.equal(status, 400);
      assert.deepEqual(body.result.parameterErrors.map((e: { name: string }) => e.name), ['amount', 'currency', 'paymentType', 'entityId']);
    });

    it('masks the card number and security code in validation errors and never stores them', async () => {
      const id = await prepareCheckout(gw.client);
      const { status, body } = await shopper.pay(id, pageCard({ 'card.number': '4200000000000001', 'card.cvv': '12345' }), { 'idempotency-key': 'masked-1' });
      assert.equal(status, 400);
      assert.deepEqual(body.result.parameterErrors, [
        { name: 'card.cvv', value: '*****', message: 'card.cvv must be at most 4 characters' },
        { name: 'card.number', value: '************0001', message: 'card.number is not a valid card number (check digit)' },
      ]);
      const luhn = await shopper.pay(id, pageCard({ 'card.number': '4200000000000001' }));
      assert.deepEqual(luhn.body.result.parameterErrors, [{ name: 'card.number', value: '************0001', message: 'card.number is not a valid card number (check digit)' }]);
      await shopper.pay(id, pageCard({ 'card.cvv': '987' }), { 'idempotency-key': 'masked-2' });
      const rows = JSON.stringify([
        await gw.running.store.db.selectFrom('checkouts').selectAll().execute(),
        await gw.running.store.db.selectFrom('idempotency_keys').selectAll().execute(),
        await gw.running.store.db.selectFrom('payments').selectAll().where('ndc', '=', id).execute(),
      ]);
      for (const secret of ['4200000000000000', '4200000000000001', '"987"', '"12345"']) assert.equal(rows.includes(secret), false, secret);
    });

    it('answers CORS preflight for the widget\'s calls', async () => {
      const id = await prepareCheckout(gw.client);
      for (const path of [`/v1/checkouts/${id}/payment`, `/v1/checkouts/${id}/form`]) {
        const response = await fetch(gw.base + path, {
          method: 'OPTIONS',
          headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,idempotency-key' },
        });
        assert.equal(response.status, 204);
        assert.equal(response.headers.get('access-control-allow-origin'), '*');
        assert.equal(response.headers.get('access-control-allow-methods'), 'GET, POST');
        assert.equal(response.headers.get('access-control-allow-headers'), 'Content-Type, Idempotency-Key');
        assert.equal(response.headers.get('access-control-allow-credentials'), null);
      }
      // The merchant's endpoints are not for browsers: no CORS there.
      const merchant = await gw.client.get(`/v1/checkouts/${id}/payment`);
      assert.equal(merchant.headers.get('access-control-allow-origin'), null);
      // A body the gateway cannot read is refused with CORS too, so that the page can read why.
      const unreadable = await fetch(`${gw.base}/v1/checkouts/${id}/payment`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'card.number=4200000000000000' });
      assert.equal(unreadable.status, 400);
      assert.equal(unreadable.headers.get('access-control-allow-origin'), '*');
      assert.equal(((await unreadable.json()) as any).result.parameterErrors[0].name, 'body');
    });

    it('throttles the widget\'s calls per checkout: one checkout id, public in a shop\'s page, cannot use up the other shoppers\' budget', async () => {
      const throttled = gw.clientFor(shopA.token, shopA.throttledEntityId);
      const id = await prepareCheckout(throttled);
      const other = await prepareCheckout(throttled);
      const replies = await Promise.all(Array.from({ length: 8 }, () => shopper.form(id)));
      const statuses = replies.map((r) => r.status).join(' ');
      assert.ok(replies.filter((r) => r.status === 200).length <= 3, statuses);
      const rejected = replies.filter((r) => r.status === 429);
      assert.ok(rejected.length >= 5, statuses);
      assert.equal(rejected[0]!.body.result.code, '800.120.100');
      assert.equal(rejected[0]!.headers.get('access-control-allow-origin'), '*');
      assert.equal(rejected[0]!.headers.get('retry-after'), '1');
      // The webview page of a checkout is throttled alike, with the spec's five fields and Retry-After.
      const pages = await Promise.all(Array.from({ length: 8 }, () => fetch(`${gw.base}/v1/checkouts/${id}/page`)));
      const refusedPage = pages.find((r) => r.status === 429);
      assert.ok(refusedPage, pages.map((r) => r.status).join(' '));
      assert.equal(refusedPage.headers.get('retry-after'), '1');
      assert.deepEqual(Object.keys((await refusedPage.json()) as object).sort(), ['buildNumber', 'id', 'ndc', 'result', 'timestamp']);
      // In the same second, another shopper's checkout of the entity loads and pays.
      assert.equal((await shopper.form(other)).status, 200);
      assert.equal((await shopper.pay(other, pageCard())).status, 200);
    });
  });

  describe('widget files and the card frame page', () => {
    it('answers a CORS preflight for the public files a shop\'s or a tool\'s page may fetch: the widget script, its locales, the OpenAPI document', async () => {
      for (const path of ['/v1/paymentWidgets.js', '/v1/locales/de.json', '/v1/openapi.json']) {
        const response = await fetch(`${gw.base}${path}`, {
          method: 'OPTIONS',
          headers: { origin: 'https://tools.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-requested-with' },
        });
        assert.equal(response.status, 204, path);
        assert.equal(response.headers.get('access-control-allow-origin'), '*', path);
        assert.equal(response.headers.get('access-control-allow-methods'), 'GET, HEAD', path);
        assert.equal(response.headers.get('access-control-allow-headers'), '*', path);
        assert.equal(response.headers.get('access-control-allow-credentials'), null, path);
      }
    });

    it('serves secure-frame.js with the bytes of its integrity, with CORS; kept for a year at the URL of its version, asked again at the plain one', async () => {
      const { integrity } = dist.manifest.files['secure-frame.js']!;
      const version = Buffer.from(integrity.slice(7), 'base64').toString('hex', 0, 8);
      const response = await fetch(`${gw.base}/v1/frames/secure-frame.js?v=${version}`);
      assert.equal(response.status, 200);
      assert.equal(sha384(await response.arrayBuffer()), integrity);
      assert.equal(response.headers.get('content-type'), 'application/javascript; charset=utf-8');
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      // The plain URL, or an old version's, is the same after an upgrade: revalidated (a 304 while unchanged).
      for (const url of ['/v1/frames/secure-frame.js', '/v1/frames/secure-frame.js?v=0123456789abcdef', '/v1/paymentWidgets.js']) {
        assert.equal((await fetch(`${gw.base}${url}`)).headers.get('cache-control'), 'no-cache', url);
      }
      assert.equal(response.headers.get('etag'), `"${dist.manifest.files['secure-frame.js']!.integrity}"`);
    });

    it('serves each locale file of the manifest as JSON with the bytes of its integrity, cached for a year, with CORS', async () => {
      for (const [locale, texts] of Object.entries(FAKE_LOCALES)) {
        const integrity = dist.manifest.files[`locales/${locale}.json`]!.integrity;
        // The widget's URL carries a piece of the hash: the version the year's caching is for.
        const response = await fetch(`${gw.base}/v1/locales/${locale}.json?v=${encodeURIComponent(integrity.slice(7, 23))}`, { headers: { origin: 'https://shop.example' } });
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
        assert.equal(response.headers.get('access-control-allow-origin'), '*');
        assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
        assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
        assert.equal(response.headers.get('etag'), `"${integrity}"`);
        const bytes = await response.arrayBuffer();
        assert.equal(sha384(bytes), integrity);
        assert.deepEqual(JSON.parse(Buffer.from(bytes).toString('utf8')), texts);
        const again = await fetch(`${gw.base}/v1/locales/${locale}.json`, { headers: { 'if-none-match': `"${integrity}"` } });
        assert.equal(again.status, 304);
      }
    });

    it('preloads the locale file on the webview page at the URL and integrity the widget fetches it with', async () => {
      const preloads = async (locale?: string) => {
        const id = await prepareCheckout(gw.client, locale ? { locale } : {});
        const html = await (await fetch(`${gw.base}/v1/checkouts/${id}/page`)).text();
        return [...html.matchAll(/<link rel="preload" href="([^"]+)" as="fetch" integrity="([^"]+)" crossorigin="anonymous">/g)].map((m) => [m[1]!, m[2]!]);
      };
      const integrity = dist.manifest.files['locales/ar.json']!.integrity;
      assert.deepEqual(await preloads('ar_EG'), [[`/v1/locales/ar.json?v=${encodeURIComponent(integrity.slice(7, 23))}`, integrity]]);
      // Taiwan's Chinese is the Traditional file, as the widget resolves it.
      const traditional = dist.manifest.files['locales/zh-Hant.json']!.integrity;
      assert.deepEqual(await preloads('zh_TW'), [[`/v1/locales/zh-Hant.json?v=${encodeURIComponent(traditional.slice(7, 23))}`, traditional]]);
      assert.deepEqual(await preloads('en'), []);
      assert.deepEqual(await preloads(), []);
      // A locale this build has no file of: the widget speaks English, nothing to preload.
      assert.deepEqual(await preloads('fr'), []);
    });

    it('answers 404 naming the file for a locale the build has no file of, English included', async () => {
      for (const file of ['en.json', 'xx.json', 'de.js', 'DE.json', 'zh-hant.json', 'zh-Hant-TW.json', '..%2Fmanifest.json']) {
        const response = await fetch(`${gw.base}/v1/locales/${file}`);
        assert.equal(response.status, 404, file);
        const body = (await response.json()) as any;
        assert.equal(body.result.code, '200.300.404');
        assert.equal(body.result.parameterErrors[0].name, 'file');
        assert.equal(body.result.parameterErrors[0].message, "file must be the texts of one of the widget's locales: de.json, ar.json, zh-Hant.json");
      }
      const post = await fetch(`${gw.base}/v1/locales/de.json`, { method: 'POST' });
      assert.equal(post.status, 405);
    });

    it('refuses a malformed checkoutId on the script URL', async () => {
      const response = await fetch(`${gw.base}/v1/paymentWidgets.js?checkoutId=abc`);
      assert.equal(response.status, 400);
      const body = (await response.json()) as any;
      assert.equal(body.result.parameterErrors[0].name, 'checkoutId');
    });

    it('serves the frame page with its own strict CSP, the frame script with SRI and escaped data attributes', async () => {
      const channel = 'Zm9vYmFyLWNoYW5uZWwtMTIz';
      const origin = 'http://a"b&c.example';
      const response = await fetch(`${gw.base}/v1/frames/card?field=number&channel=${channel}&origin=${encodeURIComponent(origin)}&locale=pt_BR`);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(
        response.headers.get('content-security-policy'),
        "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors *; require-trusted-types-for 'script'",
      );
      assert.equal(response.headers.get('content-security-policy'), FRAME_CSP);
      assert.equal(response.headers.get('x-frame-options'), null);
      const html = await response.text();
      const integrity = dist.manifest.files['secure-frame.js']!.integrity;
      assert.ok(html.includes(`data-field="number" data-channel="${channel}" data-origin="http://a&quot;b&amp;c.example" data-locale="pt_BR"`), html);
      assert.ok(html.includes('<html lang="pt-BR"'), html);
      assert.equal(html.includes('a"b'), false);
      const script = /<script src="([^"]+)" integrity="([^"]+)" crossorigin="anonymous" defer><\/script>/.exec(html);
      assert.ok(script, html);
      assert.equal(script[2], integrity);
      assert.match(script[1]!, /^\/v1\/frames\/secure-frame\.js\?v=[0-9a-f]{16}$/);
      const served = await fetch(gw.base + script[1]);
      assert.equal(sha384(await served.arrayBuffer()), integrity);
      assert.equal((html.match(/<script/g) ?? []).length, 1, 'one script, no inline code');
      assert.equal(html.includes('style='), false);
    });

    it('lets a shop page with Cross-Origin-Embedder-Policy embed the frames and load the scripts: COEP require-corp and CORP cross-origin', async () => {
      const frame = await fetch(`${gw.base}/v1/frames/card?field=number&channel=${'a'.repeat(16)}&origin=${encodeURIComponent('https://shop.example')}`);
      assert.equal(frame.status, 200);
      assert.equal(frame.headers.get('cross-origin-embedder-policy'), 'require-corp');
      assert.equal(frame.headers.get('cross-origin-resource-policy'), 'cross-origin');
      const html = await frame.text();
      const src = /<script src="([^"]+)"/.exec(html)![1]!;
      // Its only subresource is of its own origin, which require-corp lets through.
      assert.ok(src.startsWith('/'), src);
      for (const path of [src, '/v1/paymentWidgets.js', `/v1/locales/de.json`]) {
        const file = await fetch(gw.base + path);
        assert.equal(file.status, 200, path);
        assert.equal(file.headers.get('cross-origin-resource-policy'), 'cross-origin', path);
        assert.equal(file.headers.get('cross-origin-embedder-policy'), null, path);
      }
    });

    it('refuses frame parameters that are not what the widget sends, naming each', async () => {
      const response = await fetch(`${gw.base}/v1/frames/card?field=expiry&channel=short&origin=${encodeURIComponent('https://shop.example/')}&locale=${encodeURIComponent('<x>')}`);
      assert.equal(response.status, 400);
      const body = (await response.json()) as any;
      assert.deepEqual(body.result.parameterErrors.map((e: { name: string }) => e.name), ['field', 'channel', 'origin', 'locale']);
      const missing = await fetch(`${gw.base}/v1/frames/card?field=cvv`);
      assert.equal(missing.status, 400);
      assert.deepEqual(((await missing.json()) as any).result.parameterErrors.map((e: { name: string }) => e.name), ['channel', 'origin']);
      const cvv = await fetch(`${gw.base}/v1/frames/card?field=cvv&channel=${'a'.repeat(16)}&origin=${encodeURIComponent('https://shop.example:8443')}`);
      assert.equal(cvv.status, 200);
      assert.ok((await cvv.text()).includes(`<html lang="en" data-accept="*/*" data-field="cvv" data-channel="${'a'.repeat(16)}" data-origin="https://shop.example:8443" data-locale="en">`));
      const badId = await fetch(`${gw.base}/v1/frames/card?field=number&channel=${'a'.repeat(16)}&origin=https%3A%2F%2Fshop.example&checkoutId=x`);
      assert.equal(badId.status, 400);
      assert.deepEqual(((await badId.json()) as any).result.parameterErrors.map((e: { name: string }) => e.name), ['checkoutId']);
      const id = `${'ab'.repeat(16)}.node-1`;
      const withId = await fetch(`${gw.base}/v1/frames/card?field=number&channel=${'a'.repeat(16)}&origin=https%3A%2F%2Fshop.example&checkoutId=${id}`);
      assert.ok((await withId.text()).includes(`data-locale="en" data-checkout-id="${id}">`));
    });
  });

  it('builds redirect URLs that keep the shop\'s own query and fragment', () => {
    const id = `${'ab'.repeat(16)}.node-1`;
    assert.equal(resultUrl('https://shop.example/done', id), `https://shop.example/done?id=${id}&resourcePath=%2Fv1%2Fcheckouts%2F${id}%2Fpayment`);
    assert.equal(resultUrl('https://shop.example/done?', id), `https://shop.example/done?id=${id}&resourcePath=%2Fv1%2Fcheckouts%2F${id}%2Fpayment`);
    assert.equal(resultUrl('https://shop.example/done?a=b%20c#top', id), `https://shop.example/done?a=b%20c&id=${id}&resourcePath=%2Fv1%2Fcheckouts%2F${id}%2Fpayment#top`);
  });
}

describe('checkout ids', () => {
  it('end in the host name as a node name: lowercase letters, digits and hyphens, at most 15', () => {
    assert.equal(nodeNameOf('GW-Node_01.eu-west.example.com'), 'gw-node01eu-wes');
    assert.equal(nodeNameOf('___'), 'node');
    const id = newCheckoutId(() => 'f'.repeat(32), nodeNameOf('web-7'));
    assert.equal(id, `${'f'.repeat(32)}.web-7`);
    assert.match(newCheckoutId(() => '0'.repeat(32)), CHECKOUT_ID);
  });
});

describe('checkouts', () => checkoutSuite({}));

describe('checkouts on PostgreSQL', { skip: pgSkip }, () => checkoutSuite({ databaseUrl }));

describe('checkouts without a built widget', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway({ distDir: join(import.meta.dirname, 'no-such-dist') });
  });
  after(() => gw.close());

  it('answers 503 saying to run npm run build, and never crashes', async () => {
    for (const path of ['/v1/paymentWidgets.js', '/v1/frames/secure-frame.js', '/v1/locales/de.json', `/v1/frames/card?field=number&channel=${'a'.repeat(16)}&origin=https%3A%2F%2Fshop.example`]) {
      const response = await fetch(gw.base + path);
      assert.equal(response.status, 503, path);
      const body = (await response.json()) as any;
      assert.equal(body.result.code, '999.999.999');
      assert.equal(body.message, 'the checkout widget is not built on this server: run npm run build, then restart the gateway');
    }
  });

  it('creates checkouts, but not with integrity=true; that answer is not kept for an Idempotency-Key retry', async () => {
    const plain = await gw.client.post('/v1/checkouts', { amount: '1.00', currency: 'EUR', paymentType: 'DB' });
    assert.equal(plain.status, 200);
    const asked = await gw.client.post('/v1/checkouts', { amount: '1.00', currency: 'EUR', paymentType: 'DB', integrity: 'true' }, { 'idempotency-key': 'not-built-1' });
    assert.equal(asked.status, 503);
    assert.equal(asked.body.message, 'the checkout widget is not built on this server: run npm run build, then restart the gateway');
    const rows = await gw.running.store.db.selectFrom('idempotency_keys').selectAll().execute();
    assert.equal(rows.length, 0);
  });
});
