// 3-D Secure, provider redirects and the webview page over HTTP (docs/threeds-protocol.md): the
// merchant's requests, the shopper's pages walked as dist/threeds.js walks them (form posts,
// redirects followed by hand), and the merchant's reads agreeing with where the shopper ended.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { loggerOptions } from '../../server/http/log.ts';
import { CHECKOUT_DECLINES_LIMIT } from '../../server/store/checkouts.ts';
import { ACS_PAGE_CSP, THREEDS_PAGE_CSP, WEBVIEW_CSP } from '../../server/http/pages.ts';
import type { Manifest } from '../../scripts/sri.ts';
import { expectedRedirect, FAKE_LOCALES, fakeDist, pageCard, prepareCheckout, Shopper } from '../support/checkouts.ts';
import { cardDebit, databaseUrl, pgSkip, shopA, startGateway, type Client, type TestGateway, type TestGatewayOptions } from '../support/gateway.ts';
import { billingAddress, browserData, cards, formOf, ShopperBrowser, unescapeHtml, type Page } from '../support/threeds.ts';

const MINUTE = 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const VERIFICATION_ID = /^[A-Za-z0-9+/]{27}=$/;
const SUCCESS = { code: '000.100.110', description: "Request successfully processed in 'Merchant in Integrator Test Mode'" };
const PENDING = { code: '000.200.000', description: 'transaction pending' };
const RESULT_URL = 'https://shop.example/result';

const sha384 = (bytes: ArrayBuffer) => `sha384-${createHash('sha384').update(Buffer.from(bytes)).digest('base64')}`;

function threedsSuite(options: TestGatewayOptions) {
  let gw: TestGateway;
  let dist: { dir: string; manifest: Manifest };
  let merchant: Client;
  let browser: ShopperBrowser;
  let shopper: Shopper;
  /** What the gateway logged at warn level and above. */
  const logLines: string[] = [];

  before(async () => {
    dist = fakeDist({ later: true });
    const logger = pino(loggerOptions('warn'), { write: (chunk: string) => void logLines.push(...chunk.split('\n').filter(Boolean)) });
    gw = await startGateway({ ...options, distDir: dist.dir, logger });
    merchant = gw.clientFor(shopA.token, shopA.threeDSecureEntityId);
    browser = new ShopperBrowser(gw.base);
    shopper = new Shopper(gw.base);
  });
  after(async () => {
    await gw.close();
    rmSync(dist.dir, { recursive: true, force: true });
  });

  /** A card debit of the 3-D Secure entity with everything authentication needs. */
  const authenticated = (number: string, overrides: Record<string, string> = {}) =>
    cardDebit({ paymentBrand: number.startsWith('5') ? 'MASTER' : 'VISA', 'card.number': number, shopperResultUrl: RESULT_URL, ...browserData, ...billingAddress, ...overrides });

  const payment = async (id: string) => {
    const { status, body } = await merchant.get(`/v1/payments/${id}`);
    assert.equal(status, 200, JSON.stringify(body));
    return body;
  };
  const stepRow = (paymentId: string) => gw.running.store.db.selectFrom('threeds').selectAll().where('payment_id', '=', paymentId).executeTakeFirstOrThrow();
  const paymentRow = (id: string) => gw.running.store.db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** A pending challenge payment, with the shopper at the issuer's page. */
  async function challenged(overrides: Record<string, string> = {}): Promise<{ id: string; body: any; page: Page }> {
    const { status, body } = await merchant.post('/v1/payments', authenticated(cards.challenge.VISA, overrides));
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.result, PENDING);
    return { id: body.id, body, page: await browser.toChallenge(body.redirect) };
  }

  describe('server-to-server card payments', () => {
    it('answers a payment that needs the shopper with HTTP 200 and redirect in the body, never an HTTP redirect (307 is not used)', async () => {
      const { status, headers, body } = await merchant.post('/v1/payments', authenticated(cards.challenge.VISA));
      assert.equal(status, 200);
      assert.equal(headers.get('location'), null);
      assert.deepEqual(body.result, PENDING);
      assert.match(body.redirect.url, /\/v1\/threeds\/[0-9a-f]{32}\/authenticate$/);
    });

    it('authenticates risk.amount when it is sent (the spec: also the 3-D Secure amount), and authorizes the payment\u2019s amount', async () => {
      const { id, page } = await challenged({ amount: '92.00', 'risk.amount': '80.00' });
      assert.match(page.html, /<span class="amount">80\.00 EUR<\/span>/);
      await browser.finish(page, 'approve');
      const paid = await payment(id);
      assert.equal(paid.result.code, '000.100.110');
      assert.equal(paid.amount, '92.00');
      assert.equal(paid.risk.amount, '80.00');
      // Without risk.amount the payment's amount is authenticated.
      assert.match((await challenged({ amount: '92.00' })).page.html, /<span class="amount">92\.00 EUR<\/span>/);
    });

    it('frictionless: authorized at once, Y with eci 05 (VISA) and 02 (MASTER)', async () => {
      for (const [brand, eci] of [['VISA', '05'], ['MASTER', '02']] as const) {
        const { status, body } = await merchant.post('/v1/payments', authenticated(cards.frictionless[brand]));
        assert.equal(status, 200, JSON.stringify(body));
        assert.deepEqual(body.result, { ...SUCCESS, avsResponse: 'F', cvvResponse: 'M' });
        assert.equal(body.redirect, undefined);
        assert.deepEqual(Object.keys(body.threeDSecure), ['eci', 'verificationId', 'authenticationStatus', 'dsTransactionId', 'acsTransactionId', 'version']);
        assert.equal(body.threeDSecure.eci, eci);
        assert.equal(body.threeDSecure.authenticationStatus, 'Y');
        assert.match(body.threeDSecure.verificationId, VERIFICATION_ID);
        assert.match(body.threeDSecure.dsTransactionId, UUID);
        assert.match(body.threeDSecure.acsTransactionId, UUID);
        assert.equal(body.threeDSecure.version, '2.2.0');
        assert.deepEqual((await payment(body.id)).threeDSecure, body.threeDSecure);
      }
    });

    it('attempt: authorized at once, A with eci 06 (VISA) and 01 (MASTER)', async () => {
      for (const [brand, eci] of [['VISA', '06'], ['MASTER', '01']] as const) {
        const { status, body } = await merchant.post('/v1/payments', authenticated(cards.attempt[brand]));
        assert.equal(status, 200, JSON.stringify(body));
        assert.equal(body.result.code, '000.100.110');
        assert.equal(body.threeDSecure.authenticationStatus, 'A');
        assert.equal(body.threeDSecure.eci, eci);
        assert.match(body.threeDSecure.verificationId, VERIFICATION_ID);
      }
    });

    it('error and not enrolled: refused with 000.400.103 (U) and 000.400.109 (N), no proof, no authorization', async () => {
      for (const [path, code, description, status] of [
        ['error', '000.400.103', 'Technical Error in 3D system', 'U'],
        ['notEnrolled', '000.400.109', 'Card is not enrolled for 3DS version 2', 'N'],
      ] as const) {
        for (const [brand, eci] of [['VISA', '07'], ['MASTER', '00']] as const) {
          const reply = await merchant.post('/v1/payments', authenticated(cards[path][brand]));
          assert.equal(reply.status, 400, JSON.stringify(reply.body));
          assert.deepEqual(reply.body.result, { code, description });
          assert.deepEqual(Object.keys(reply.body.threeDSecure), ['eci', 'authenticationStatus', 'dsTransactionId', 'version']);
          assert.equal(reply.body.threeDSecure.eci, eci);
          assert.equal(reply.body.threeDSecure.authenticationStatus, status);
          assert.equal((await paymentRow(reply.body.id)).acquirer, '{}', 'the acquirer was never asked');
          assert.equal((await payment(reply.body.id)).result.code, code);
        }
      }
    });

    it('names every missing browser and billing field (400, 200.300.404) and writes nothing', async () => {
      const { status, body } = await merchant.post('/v1/payments', cardDebit({ 'card.number': cards.challenge.VISA, 'customer.browser.language': 'de', 'billing.city': 'Berlin' }));
      assert.equal(status, 400);
      assert.equal(body.result.code, '200.300.404');
      assert.deepEqual(body.result.parameterErrors, [
        { name: 'customer.browser.acceptHeader', value: '', message: 'customer.browser.acceptHeader is required for 3-D Secure 2' },
        { name: 'customer.browser.screenHeight', value: '', message: 'customer.browser.screenHeight is required for 3-D Secure 2' },
        { name: 'customer.browser.screenWidth', value: '', message: 'customer.browser.screenWidth is required for 3-D Secure 2' },
        { name: 'customer.browser.timezone', value: '', message: 'customer.browser.timezone is required for 3-D Secure 2' },
        { name: 'customer.browser.userAgent', value: '', message: 'customer.browser.userAgent is required for 3-D Secure 2' },
        { name: 'customer.browser.javaEnabled', value: '', message: 'customer.browser.javaEnabled is required for 3-D Secure 2' },
        { name: 'billing.street1', value: '', message: 'billing.street1 is required for 3-D Secure 2' },
        { name: 'billing.postcode', value: '', message: 'billing.postcode is required for 3-D Secure 2' },
        { name: 'billing.country', value: '', message: 'billing.country is required for 3-D Secure 2' },
        { name: 'shopperResultUrl', value: '', message: "shopperResultUrl is required for 3-D Secure 2: the shopper comes back there from the issuer's page" },
      ]);
      assert.equal(body.id, undefined);
    });

    it('refuses malformed browser data naming the field: timezone sign and range, javaEnabled true or false', async () => {
      const { status, body } = await merchant.post('/v1/payments', authenticated(cards.frictionless.VISA, { 'customer.browser.timezone': '840', 'customer.browser.javaEnabled': 'no' }));
      assert.equal(status, 400);
      assert.deepEqual(body.result.parameterErrors, [
        {
          name: 'customer.browser.timezone',
          value: '840',
          message: "customer.browser.timezone must be the minutes between UTC and local time, positive when local time is behind UTC (JavaScript's getTimezoneOffset()), from -840 to 720",
        },
        { name: 'customer.browser.javaEnabled', value: 'no', message: 'customer.browser.javaEnabled must be one of true, false' },
      ]);
    });

    it('needs no browser data when the card has no 3-D Secure path, the entity does not authenticate, or disable=true', async () => {
      const none = await merchant.post('/v1/payments', cardDebit({ 'card.number': cards.none }));
      assert.equal(none.status, 200, JSON.stringify(none.body));
      assert.equal(none.body.threeDSecure, undefined);
      const plain = await gw.client.post('/v1/payments', cardDebit({ 'card.number': cards.challenge.VISA }));
      assert.equal(plain.status, 200, JSON.stringify(plain.body));
      assert.equal(plain.body.result.code, '000.100.110');
      const disabled = await merchant.post('/v1/payments', cardDebit({ 'card.number': cards.challenge.VISA, 'threeDSecure.disable': 'true' }));
      assert.equal(disabled.status, 200, JSON.stringify(disabled.body));
      assert.equal(disabled.body.result.code, '000.100.110');
      assert.deepEqual(disabled.body.threeDSecure, { disable: 'true' });
    });

    it('does not authenticate a mail or telephone order, or a terminal\u2019s payment (transactionCategory MO, TO, MOTO, PO, PM): no shopper\u2019s browser takes part', async () => {
      for (const category of ['MO', 'TO', 'MOTO', 'PO', 'PM']) {
        const order = await merchant.post('/v1/payments', cardDebit({ 'card.number': cards.challenge.VISA, transactionCategory: category }));
        assert.equal(order.status, 200, JSON.stringify(order.body));
        assert.equal(order.body.result.code, '000.100.110', category);
        assert.equal(order.body.redirect, undefined);
        assert.equal(order.body.threeDSecure, undefined);
      }
      // An e-commerce payment of the same card is authenticated.
      const online = await merchant.post('/v1/payments', cardDebit({ 'card.number': cards.challenge.VISA, transactionCategory: 'EC' }));
      assert.equal(online.status, 400);
      assert.match(online.body.result.parameterErrors[0].message, /is required for 3-D Secure 2$/);
    });

    it('external 3-D Secure: eci, verificationId or dsTransactionId pass through unchanged, without authentication', async () => {
      const proof = {
        'threeDSecure.eci': '05',
        'threeDSecure.verificationId': 'AAACBllleHchZTBWIGV4MAAAAAA=',
        'threeDSecure.authenticationStatus': 'Y',
        'threeDSecure.dsTransactionId': 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
        'threeDSecure.acsTransactionId': '9b1b3ba1-5b16-4c0a-ae5d-b24808a95e4b',
        'threeDSecure.version': '2.1.0',
      };
      const { status, body } = await merchant.post('/v1/payments', cardDebit({ 'card.number': cards.challenge.VISA, ...proof }));
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.result.code, '000.100.110');
      assert.equal(body.redirect, undefined);
      assert.deepEqual(body.threeDSecure, {
        eci: '05',
        verificationId: 'AAACBllleHchZTBWIGV4MAAAAAA=',
        authenticationStatus: 'Y',
        dsTransactionId: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
        acsTransactionId: '9b1b3ba1-5b16-4c0a-ae5d-b24808a95e4b',
        version: '2.1.0',
      });
      assert.deepEqual((await payment(body.id)).threeDSecure, body.threeDSecure);
      // Also on an entity that does not authenticate itself.
      const elsewhere = await gw.client.post('/v1/payments', cardDebit({ 'threeDSecure.eci': '07' }));
      assert.deepEqual(elsewhere.body.threeDSecure, { eci: '07' });
    });

    it('challenge approved: pending with redirect, then success with Y; GET agrees; the card was kept sealed only while pending', async () => {
      const { id, body, page } = await challenged({ 'card.cvv': '987' });
      assert.deepEqual(Object.keys(body.redirect), ['url', 'parameters']);
      assert.match(body.redirect.url, new RegExp(`^${gw.base}/v1/threeds/[0-9a-f]{32}/authenticate$`));
      assert.equal(body.redirect.parameters.length, 1);
      assert.equal(body.redirect.parameters[0].name, 'token');
      assert.deepEqual(Object.keys(body.threeDSecure), ['dsTransactionId', 'acsTransactionId', 'version']);
      const pendingRead = await payment(id);
      assert.deepEqual(pendingRead.result, PENDING);
      const sealed = await stepRow(id);
      assert.match(sealed.secret!, /^v1:/);
      const atRest = JSON.stringify([sealed, await paymentRow(id)]);
      assert.equal(atRest.includes(cards.challenge.VISA), false);
      assert.equal(atRest.includes('"987"'), false);

      assert.equal(page.headers.get('content-security-policy'), ACS_PAGE_CSP);
      assert.deepEqual(formOf(page.html).buttons, ['approve', 'fail', 'cancel']);
      assert.equal(page.html.includes('<script'), false);
      assert.equal(page.html.includes('style='), false);
      const url = await browser.finish(page, 'approve');
      assert.equal(url, `${RESULT_URL}?id=${id}&resourcePath=%2Fv1%2Fpayments%2F${id}`);

      const read = await payment(id);
      assert.deepEqual(read.result, { ...SUCCESS, avsResponse: 'F', cvvResponse: 'P' });
      assert.equal(read.threeDSecure.authenticationStatus, 'Y');
      assert.equal(read.threeDSecure.eci, '05');
      assert.match(read.threeDSecure.verificationId, VERIFICATION_ID);
      assert.equal(read.threeDSecure.dsTransactionId, body.threeDSecure.dsTransactionId);
      assert.equal(read.threeDSecure.acsTransactionId, body.threeDSecure.acsTransactionId);
      const ended = await stepRow(id);
      assert.equal(ended.status, 'done');
      assert.equal(ended.secret, null);
      assert.equal(ended.result_code, '000.100.110');
    });

    it('challenge failed: 100.380.401 with N; cancelled: 100.396.101; each as the merchant reads it', async () => {
      const failed = await challenged();
      await browser.finish(failed.page, 'fail');
      const read = await payment(failed.id);
      assert.deepEqual(read.result, { code: '100.380.401', description: 'User Authentication Failed' });
      assert.deepEqual(
        { ...read.threeDSecure, dsTransactionId: 'ds', acsTransactionId: 'acs' },
        { eci: '07', authenticationStatus: 'N', dsTransactionId: 'ds', acsTransactionId: 'acs', version: '2.2.0' },
      );
      assert.equal((await stepRow(failed.id)).secret, null);

      const cancelled = await challenged();
      const url = await browser.finish(cancelled.page, 'cancel');
      assert.equal(url, `${RESULT_URL}?id=${cancelled.id}&resourcePath=%2Fv1%2Fpayments%2F${cancelled.id}`);
      const gone = await payment(cancelled.id);
      assert.deepEqual(gone.result, { code: '100.396.101', description: 'Cancelled by user' });
      assert.deepEqual(Object.keys(gone.threeDSecure), ['dsTransactionId', 'acsTransactionId', 'version']);
    });

    it('an Idempotency-Key retry of a pending payment replays the same redirect and makes no second payment', async () => {
      const params = authenticated(cards.challenge.VISA, { merchantTransactionId: 'idem-3ds-0001' });
      const first = await merchant.post('/v1/payments', params, { 'idempotency-key': 'pending-3ds-1' });
      const retry = await merchant.post('/v1/payments', params, { 'idempotency-key': 'pending-3ds-1' });
      assert.equal(retry.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(retry.body, first.body);
      const rows = await gw.running.store.db.selectFrom('payments').select('id').where('merchant_transaction_id', '=', 'idem-3ds-0001').execute();
      assert.equal(rows.length, 1);
      const page = await browser.toChallenge(retry.body.redirect);
      await browser.finish(page, 'approve');
      assert.equal((await payment(first.body.id)).result.code, '000.100.110');
    });

    it('a second press after the end changes nothing: one authorization', async () => {
      const { id, page } = await challenged();
      const first = await browser.press(page, 'approve');
      const second = await browser.press(page, 'fail');
      assert.equal(first.status, 303);
      assert.equal(second.status, 303);
      assert.equal((await payment(id)).result.code, '000.100.110');
    });

    it('abandoned: 100.396.103 after 30 minutes, by the lazy check of a read and by the sweep; the card is wiped', async () => {
      const lazy = await merchant.post('/v1/payments', authenticated(cards.challenge.VISA));
      const swept = await merchant.post('/v1/payments', authenticated(cards.challenge.MASTER));
      gw.clock.advance(29 * MINUTE);
      assert.deepEqual((await payment(lazy.body.id)).result, PENDING);
      gw.clock.advance(2 * MINUTE);
      const read = await payment(lazy.body.id);
      assert.deepEqual(read.result, { code: '100.396.103', description: 'Previously pending transaction timed out' });
      assert.deepEqual(Object.keys(read.threeDSecure), ['dsTransactionId', 'acsTransactionId', 'version']);

      assert.ok((await gw.running.sweep()) >= 1);
      const row = await paymentRow(swept.body.id);
      assert.equal(row.status, 'rejected');
      assert.equal(row.result_code, '100.396.103');
      assert.equal((await stepRow(swept.body.id)).secret, null);
      // The shopper coming back late goes to the end, not to a challenge.
      const late = await browser.open(swept.body.redirect);
      assert.equal(late.status, 303);
      const complete = await browser.get(late.headers.get('location')!);
      assert.equal(complete.data['result-url'], `${RESULT_URL}?id=${swept.body.id}&resourcePath=%2Fv1%2Fpayments%2F${swept.body.id}`);
    });

    it('method timeout: the method page never signals; after threeDSCompInd=N the payment is frictionless (Y)', async () => {
      const { status, body } = await merchant.post('/v1/payments', authenticated(cards.none, { 'customParameters[3DS2_flow]': 'methodTimeout' }));
      assert.equal(status, 200, JSON.stringify(body));
      assert.deepEqual(body.result, PENDING);
      const page = await browser.open(body.redirect);
      assert.equal(page.headers.get('content-security-policy'), THREEDS_PAGE_CSP);
      const method = await browser.post(page.data['method-url']!, { threeDSMethodData: page.data['method-data']! });
      assert.deepEqual(method.data, { 'threeds-acs': 'method' });
      assert.equal(method.html.includes('<script'), false);
      const next = await browser.post(page.data['continue-url']!, { token: page.data.token!, threeDSCompInd: 'N' });
      assert.equal(next.status, 303);
      assert.equal(next.headers.get('location'), `/v1/threeds/${body.redirect.url.split('/').at(-2)}/complete`);
      const read = await payment(body.id);
      assert.equal(read.result.code, '000.100.110');
      assert.equal(read.threeDSecure.authenticationStatus, 'Y');
      assert.equal(read.threeDSecure.eci, '05');
    });

    it('the page waiting for the payment to be decided asks again by script, never reloading itself (WCAG 2.2.1, F41)', async () => {
      const { body } = await challenged();
      const authId = body.redirect.url.split('/').at(-2);
      const waiting = await browser.get(`/v1/threeds/${authId}/complete`);
      assert.equal(waiting.status, 409);
      assert.equal(waiting.headers.get('content-security-policy'), THREEDS_PAGE_CSP);
      assert.deepEqual(waiting.data, { wait: '2000' });
      assert.match(waiting.html, /<script src="\/v1\/frames\/threeds\.js\?v=[0-9a-f]{16}" integrity="sha384-/);
      assert.match(waiting.html, /<p role="status">/);
      // Only a browser without script reloads it.
      assert.deepEqual(waiting.html.match(/<meta http-equiv="refresh"[^>]*>/g), ['<meta http-equiv="refresh" content="2">']);
      assert.ok(waiting.html.includes('<noscript><meta http-equiv="refresh" content="2"></noscript>'), waiting.html);
    });

    it('the authentication page: its own policy, threeds.js with SRI, what the script needs in data attributes', async () => {
      const { body } = await merchant.post('/v1/payments', authenticated(cards.challenge.VISA));
      const authId = body.redirect.url.split('/').at(-2);
      const page = await browser.open(body.redirect);
      assert.equal(page.status, 200);
      assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(page.headers.get('cache-control'), 'no-store');
      assert.equal(page.headers.get('content-security-policy'), THREEDS_PAGE_CSP);
      assert.deepEqual(Object.keys(page.data), ['continue-url', 'token', 'method-url', 'method-data']);
      assert.equal(page.data['continue-url'], `/v1/threeds/${authId}/continue`);
      assert.equal(page.data.token, body.redirect.parameters[0].value);
      assert.equal(page.data['method-url'], `/v1/threeds/${authId}/method`);
      const methodData = JSON.parse(Buffer.from(page.data['method-data']!, 'base64url').toString());
      assert.deepEqual(Object.keys(methodData), ['threeDSServerTransID', 'threeDSMethodNotificationURL']);
      assert.equal(methodData.threeDSMethodNotificationURL, `${gw.base}/v1/threeds/${authId}/method/notify`);
      const script = /<script src="([^"]+)" integrity="([^"]+)" crossorigin="anonymous" defer><\/script>/.exec(page.html);
      assert.ok(script, page.html);
      assert.match(script[1]!, /^\/v1\/frames\/threeds\.js\?v=[0-9a-f]{16}$/);
      assert.equal(script[2], dist.manifest.files['threeds.js']!.integrity);
      const served = await fetch(gw.base + script[1]);
      assert.equal(served.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(sha384(await served.arrayBuffer()), script[2]);
      assert.equal((page.html.match(/<script/g) ?? []).length, 1);
      const css = await fetch(`${gw.base}/v1/frames/pages.css`);
      assert.equal(css.headers.get('content-type'), 'text/css; charset=utf-8');

      // The method page notifies the gateway, whose answer the authentication page recognises.
      const method = await browser.post(page.data['method-url']!, { threeDSMethodData: page.data['method-data']! });
      assert.equal(method.data['post-url'], `/v1/threeds/${authId}/method/notify`);
      assert.deepEqual(JSON.parse(method.data['post-fields']!), { threeDSMethodData: page.data['method-data'] });
      // The challenge request carries the creq and the session data (the token) to the issuer.
      const next = await browser.post(page.data['continue-url']!, { token: page.data.token!, threeDSCompInd: 'Y' });
      const fields = JSON.parse(next.data['post-fields']!);
      assert.deepEqual(Object.keys(fields), ['creq', 'threeDSSessionData']);
      assert.equal(fields.threeDSSessionData, page.data.token);
      const creq = JSON.parse(Buffer.from(fields.creq, 'base64url').toString());
      assert.deepEqual(creq, { threeDSServerTransID: methodData.threeDSServerTransID, acsTransID: body.threeDSecure.acsTransactionId, messageType: 'CReq', messageVersion: '2.2.0', challengeWindowSize: '02' });
      // Posting the redirect again (a reload) goes straight to the challenge request.
      const again = await browser.open(body.redirect);
      assert.equal(again.data['post-url'], `/v1/threeds/${authId}/challenge`);
    });

    it('throttles the pages of one authentication as the widget\'s calls are: 429 with Retry-After, no-store and the spec\'s five fields', async () => {
      const throttled = gw.clientFor(shopA.token, shopA.throttledThreeDSecureEntityId);
      const { status, body } = await throttled.post('/v1/payments', authenticated(cards.challenge.VISA));
      assert.equal(status, 200, JSON.stringify(body));
      const pages = await Promise.all(Array.from({ length: 8 }, () => browser.open(body.redirect)));
      const statuses = pages.map((p) => p.status).join(' ');
      assert.ok(pages.filter((p) => p.status === 200).length <= 3, statuses);
      const refused = pages.find((p) => p.status === 429);
      assert.ok(refused, statuses);
      assert.equal(refused.headers.get('retry-after'), '1');
      assert.equal(refused.headers.get('cache-control'), 'no-store');
      const answer = JSON.parse(refused.html);
      assert.deepEqual(Object.keys(answer).sort(), ['buildNumber', 'id', 'ndc', 'result', 'timestamp']);
      assert.equal(answer.result.code, '800.120.100');
    });

    it('refuses a wrong or missing token (403), an unknown id (404), a bad threeDSCompInd or action (400)', async () => {
      const { body } = await merchant.post('/v1/payments', authenticated(cards.challenge.VISA));
      const authId = body.redirect.url.split('/').at(-2);
      const wrong = await fetch(body.redirect.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=nope' });
      assert.equal(wrong.status, 403);
      assert.deepEqual(((await wrong.json()) as any).result.parameterErrors, [{ name: 'token', value: '', message: 'token does not match this authentication' }]);
      const missing = await fetch(body.redirect.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
      assert.equal(missing.status, 403);
      const unknown = await fetch(`${gw.base}/v1/threeds/${'0'.repeat(32)}/authenticate`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=x' });
      assert.equal(unknown.status, 404);
      assert.equal(((await unknown.json()) as any).result.parameterErrors[0].name, 'id');
      const token = body.redirect.parameters[0].value;
      const comp = await browser.post(`/v1/threeds/${authId}/continue`, { token, threeDSCompInd: 'maybe' });
      assert.equal(comp.status, 400);
      const action = await browser.post(`/v1/threeds/${authId}/challenge`, { threeDSSessionData: token, action: 'steal' });
      assert.equal(action.status, 400);
      const twice = await fetch(body.redirect.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${token}&token=${token}` });
      assert.equal(twice.status, 400);
      assert.deepEqual(((await twice.json()) as any).result.parameterErrors.map((e: { name: string; message: string }) => e.message), ['token was sent more than once']);
      // An authentication is no provider approval.
      const asProvider = await browser.post(`/v1/providers/${authId}/pay`, { token });
      assert.equal(asProvider.status, 404);
      const get = await fetch(body.redirect.url);
      assert.equal(get.status, 405);
      assert.equal((await payment(body.id)).result.code, '000.200.000');
    });

    it('the page around the challenge may cancel it with the token: 100.396.101 from the challenge or the method, and an ended one stays as it ended', async () => {
      const cancel = (redirect: { url: string; parameters: Array<{ name: string; value: string }> }, token = redirect.parameters[0]!.value) =>
        browser.post(new URL('cancel', redirect.url).href, { token });
      // At the issuer's challenge page.
      const { id, body, page } = await challenged();
      const authId = body.redirect.url.split('/').at(-2);
      assert.equal((await cancel(body.redirect, 'nope')).status, 403);
      assert.equal((await payment(id)).result.code, '000.200.000');
      const cancelled = await cancel(body.redirect);
      assert.equal(cancelled.status, 303);
      assert.equal(cancelled.headers.get('location'), `/v1/threeds/${authId}/complete`);
      assert.equal((await payment(id)).result.code, '100.396.101');
      // The issuer's page answered afterwards changes nothing.
      assert.equal((await browser.press(page, 'approve')).status, 303);
      assert.equal((await payment(id)).result.code, '100.396.101');
      // While the method runs, before any challenge.
      const early = await merchant.post('/v1/payments', authenticated(cards.challenge.VISA));
      assert.equal((await browser.open(early.body.redirect)).status, 200);
      assert.equal((await cancel(early.body.redirect)).status, 303);
      assert.equal((await payment(early.body.id)).result.code, '100.396.101');
      // An approved one stays approved.
      const approved = await challenged();
      await browser.finish(approved.page, 'approve');
      assert.equal((await cancel(approved.body.redirect)).status, 303);
      assert.equal((await payment(approved.id)).result.code, '000.100.110');
    });

    it('a refused page request ends there: an answer with a wrong token, or to an unknown id, touches nothing and logs no error', async () => {
      const { body } = await merchant.post('/v1/payments', authenticated(cards.challenge.VISA));
      const authId = body.redirect.url.split('/').at(-2);
      const token = body.redirect.parameters[0].value;
      const logged = logLines.length;
      const refused = [
        await browser.post(`/v1/threeds/${authId}/challenge`, { threeDSSessionData: 'nope', action: 'approve' }),
        await browser.post(`/v1/threeds/${authId}/continue`, { token: 'nope', threeDSCompInd: 'Y' }),
        await browser.post(`/v1/threeds/${'0'.repeat(32)}/challenge`, { threeDSSessionData: token, action: 'approve' }),
        await browser.post(`/v1/providers/${authId}/pay`, { token, action: 'approve' }),
      ];
      assert.deepEqual(refused.map((r) => r.status), [403, 403, 404, 404]);
      assert.deepEqual(logLines.slice(logged), []);
      // Values sent twice to these token-free pages travel back masked, as everywhere else.
      const twice = await fetch(body.redirect.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'card.number=4200000000000000&card.number=4200000000000000&card.cvv=987&card.cvv=987',
      });
      assert.equal(twice.status, 400);
      const text = await twice.text();
      assert.equal(text.includes('4200000000000000') || text.includes('987'), false, text);
      // The right token still answers the challenge.
      const page = await browser.toChallenge(body.redirect);
      await browser.finish(page, 'approve');
      assert.equal((await payment(body.id)).result.code, '000.100.110');
    });

    it('challengeIndicator 04 makes a frictionless card challenge; an exemption on a challenge card is frictionless with I', async () => {
      const mandated = await merchant.post('/v1/payments', authenticated(cards.frictionless.VISA, { 'threeDSecure.challengeIndicator': '04' }));
      assert.deepEqual(mandated.body.result, PENDING);
      const page = await browser.toChallenge(mandated.body.redirect);
      await browser.finish(page, 'approve');
      const read = await payment(mandated.body.id);
      assert.equal(read.threeDSecure.authenticationStatus, 'Y');
      assert.equal(read.threeDSecure.challengeIndicator, '04');

      for (const [brand, eci] of [['VISA', '07'], ['MASTER', '06']] as const) {
        const exempt = await merchant.post('/v1/payments', authenticated(cards.challenge[brand], { 'threeDSecure.challengeIndicator': '05', 'threeDSecure.exemptionFlag': '01' }));
        assert.equal(exempt.status, 200, JSON.stringify(exempt.body));
        assert.equal(exempt.body.result.code, '000.100.110');
        assert.deepEqual({ ...exempt.body.threeDSecure, verificationId: 'v', dsTransactionId: 'd', acsTransactionId: 'a' }, {
          eci,
          verificationId: 'v',
          authenticationStatus: 'I',
          dsTransactionId: 'd',
          acsTransactionId: 'a',
          version: '2.2.0',
          challengeIndicator: '05',
          exemptionFlag: '01',
        });
      }
      const half = await merchant.post('/v1/payments', authenticated(cards.challenge.VISA, { 'threeDSecure.exemptionFlag': '01' }));
      assert.equal(half.status, 400);
      assert.deepEqual(half.body.result.parameterErrors, [
        { name: 'threeDSecure.challengeIndicator', value: '', message: 'threeDSecure.challengeIndicator is required with threeDSecure.exemptionFlag: an exemption request flags both' },
      ]);
    });

    it('a pending payment cannot be referenced (700.400.570); after its end it can', async () => {
      const { id, page } = await challenged({ paymentType: 'PA' });
      const early = await merchant.post(`/v1/payments/${id}`, { paymentType: 'CP', amount: '92.00', currency: 'EUR' });
      assert.equal(early.status, 400);
      assert.equal(early.body.result.code, '700.400.570');
      await browser.finish(page, 'approve');
      const capture = await merchant.post(`/v1/payments/${id}`, { paymentType: 'CP', amount: '92.00', currency: 'EUR' });
      assert.equal(capture.status, 200, JSON.stringify(capture.body));
    });

    it('createRegistration=true registers the card once the challenge is approved; a registration pays with 3-D Secure too', async () => {
      const { id, page } = await challenged({ createRegistration: 'true' });
      assert.equal((await payment(id)).registrationId, undefined);
      await browser.finish(page, 'approve');
      const read = await payment(id);
      assert.match(read.registrationId, /^[0-9a-f]{32}$/);
      const again = await merchant.post(`/v1/registrations/${read.registrationId}/payments`, { amount: '10.00', currency: 'EUR', paymentType: 'DB', shopperResultUrl: RESULT_URL, ...browserData, ...billingAddress });
      assert.deepEqual(again.body.result, PENDING);
      const challenge = await browser.toChallenge(again.body.redirect);
      await browser.finish(challenge, 'approve');
      const paid = await payment(again.body.id);
      assert.equal(paid.result.code, '000.100.110');
      assert.equal(paid.registrationId, read.registrationId);
    });

    it('a checkout without a shopperResultUrl ends its shopper on the gateway\'s result page; a server-to-server payment must have one', async () => {
      const params = authenticated(cards.challenge.VISA);
      delete params.shopperResultUrl;
      const refused = await merchant.post('/v1/payments', params);
      assert.equal(refused.status, 400);
      assert.deepEqual(refused.body.result.parameterErrors.map((e: { name: string }) => e.name), ['shopperResultUrl']);
      const checkout = await merchant.post('/v1/checkouts', { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...billingAddress });
      assert.equal(checkout.status, 200, JSON.stringify(checkout.body));
      const { body } = await shopper.pay(checkout.body.id, { ...pageCard({ 'card.number': cards.challenge.VISA }), ...browserData });
      const authId = body.redirect.url.split('/').at(-2);
      const page = await browser.toChallenge(body.redirect);
      const url = await browser.finish(page, 'approve');
      assert.equal(url, `${gw.base}/v1/threeds/${authId}/result`);
      const result = await browser.get(url);
      assert.equal(result.status, 200);
      assert.equal(result.data['result-code'], '000.100.110');
      // In the shopper's language: the page sent customer.browser.language=de-DE.
      assert.match(result.html, /^<!doctype html>\n<html lang="de" data-result-code/);
      assert.ok(result.html.includes('<h1>Zahlung erfolgreich</h1>'), result.html);
      // The amount as German writes it (as the widget's pay button did), not the API's "92.00 EUR".
      assert.ok(result.html.includes('<p><bdi class="amount">92,00\u00a0€</bdi> · <bdi>'), result.html);
      assert.equal(result.html.includes('<script'), false);
    });

    it('the gateway\'s pages speak the checkout\'s locale, then the shopper\'s browser language, then Accept-Language; a failure says why', async () => {
      const finishAs = async (checkoutFields: Record<string, string>, browserLanguage: string, action: string) => {
        const checkout = await merchant.post('/v1/checkouts', { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...billingAddress, ...checkoutFields });
        assert.equal(checkout.status, 200, JSON.stringify(checkout.body));
        const { body } = await shopper.pay(checkout.body.id, { ...pageCard({ 'card.number': cards.challenge.VISA }), ...browserData, 'customer.browser.language': browserLanguage });
        assert.equal(body.result.code, PENDING.code, JSON.stringify(body));
        const opened = await browser.open(body.redirect);
        const page = await browser.toChallenge(body.redirect);
        const answer = await browser.press(page, action);
        const complete = await browser.get(answer.headers.get('location')!, { 'accept-language': 'sv-SE,ar;q=0.9' });
        return { opened, complete, url: complete.data['result-url']! };
      };

      // The checkout's locale first (fr_FR, as Java sends it): the waiting page, the end of the check and the result.
      const french = await finishAs({ locale: 'fr_FR' }, 'de-DE', 'fail');
      assert.match(french.opened.html, /<html lang="fr" data-continue-url=/);
      assert.ok(french.opened.html.includes('<p role="status">Vérification du paiement auprès de votre banque…</p>'), french.opened.html);
      assert.ok(french.complete.html.includes('<p role="status">Authentification terminée.</p>'), french.complete.html);
      assert.ok(french.complete.html.includes('target="_top">Continuer</a>'), french.complete.html);
      const failed = await browser.get(french.url, { 'accept-language': 'sv-SE' });
      assert.equal(failed.data['result-code'], '100.380.401');
      assert.ok(failed.html.includes('<h1>Paiement non abouti</h1>'), failed.html);
      assert.ok(failed.html.includes('<p>Échec de l\u2019authentification de la carte.</p>'), failed.html);
      // The catalogue's description stays English beside the code, marked so.
      assert.ok(failed.html.includes('<p class="code" lang="en" dir="ltr">100.380.401 · User Authentication Failed</p>'), failed.html);

      // A locale the pages do not speak gives way to the browser's language.
      const german = await finishAs({ locale: 'ko-KR' }, 'de-DE', 'cancel');
      const cancelled = await browser.get(german.url);
      assert.ok(cancelled.html.includes('<h1>Zahlung nicht abgeschlossen</h1>'), cancelled.html);
      assert.ok(cancelled.html.includes('<p>Abgebrochen.</p>'), cancelled.html);

      // Neither speaks one of theirs: the browser's Accept-Language, the first they speak (sv); Arabic right to left.
      const accepted = await finishAs({}, 'ko-KR', 'approve');
      assert.ok(accepted.complete.html.includes('<p role="status">Verifieringen är klar.</p>'), accepted.complete.html);
      const arabic = await browser.get(accepted.url, { 'accept-language': 'ko, ar-EG;q=0.8, sv;q=0' });
      assert.match(arabic.html, /<html lang="ar" dir="rtl" data-result-code="000\.100\.110">/);
      assert.ok(arabic.html.includes('<h1>تمت الدفعة بنجاح</h1>'), arabic.html);
      // Amount and shop each isolated, so that right to left "EUR" does not join the shop's name.
      assert.match(arabic.html, /<p><bdi class="amount">\u200f?92\.00\u00a0€<\/bdi> · <bdi>[^<]+<\/bdi><\/p>/);
      assert.equal((await browser.get(accepted.url)).html.includes('<h1>Payment successful</h1>'), true, 'English without any');
    });
  });

  describe('checkout payments', () => {
    const prepare = (overrides: Record<string, string> = {}) => prepareCheckout(merchant, { ...billingAddress, ...overrides });
    /** The checkout's payments, oldest first (their ndc is the checkout id). */
    const paymentsOf = (id: string) => gw.running.store.db.selectFrom('payments').select(['id', 'status']).where('ndc', '=', id).orderBy('created_at').execute();
    const checkoutPayment = async (id: string) => {
      const { status, body } = await merchant.get(`/v1/checkouts/${id}/payment`);
      assert.equal(status, 200);
      return body;
    };

    it('takes customer.browser.* from the page and answers a challenge with the redirect; approved, the checkout is paid', async () => {
      const id = await prepare({ createRegistration: 'true' });
      const { status, headers, body } = await shopper.pay(id, { ...pageCard({ 'card.number': cards.challenge.VISA }), ...browserData });
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(headers.get('access-control-allow-origin'), '*');
      assert.deepEqual(Object.keys(body), ['result', 'id', 'paymentBrand', 'redirect', 'buildNumber', 'timestamp', 'ndc']);
      assert.deepEqual(body.result, PENDING);
      assert.equal(body.id, id);
      assert.match(body.redirect.url, new RegExp(`^${gw.base}/v1/threeds/[0-9a-f]{32}/authenticate$`));
      assert.deepEqual(body.redirect.parameters.map((p: { name: string }) => p.name), ['token']);

      // While the shopper authenticates the checkout reads as pending.
      assert.deepEqual((await checkoutPayment(id)).result, PENDING);

      const page = await browser.toChallenge(body.redirect);
      const url = await browser.finish(page, 'approve');
      assert.equal(url, expectedRedirect(id));
      const paid = await checkoutPayment(id);
      assert.deepEqual(paid.result, { ...SUCCESS, avsResponse: 'F', cvvResponse: 'P' });
      assert.equal(paid.ndc, id);
      assert.equal(paid.threeDSecure.authenticationStatus, 'Y');
      assert.deepEqual(paid.customer, { browser: Object.fromEntries(Object.entries(browserData).map(([k, v]) => [k.slice('customer.browser.'.length), v])) });
      assert.deepEqual(await payment(paid.id), paid);
      const registration = await merchant.get(`/v1/checkouts/${id}/registration`);
      assert.equal(registration.body.id, paid.registrationId);
      assert.equal((await shopper.form(id)).status, 400);
    });

    it('keeps the redirect token of an Idempotency-Key\'s answer sealed in its record; the retry gets it back', async () => {
      const id = await prepare();
      const first = await shopper.pay(id, { ...pageCard({ 'card.number': cards.challenge.VISA }), ...browserData }, { 'idempotency-key': 'sealed-1' });
      assert.deepEqual(first.body.result, PENDING);
      const token = first.body.redirect.parameters[0].value as string;
      const records = await gw.running.store.db.selectFrom('idempotency_keys').select('response').execute();
      const record = records.map((r) => r.response ?? '').find((r) => r.startsWith('v1:') && !r.includes(token));
      assert.ok(record, 'no sealed record');
      assert.equal(records.some((r) => (r.response ?? '').includes(token)), false);
      const retry = await shopper.pay(id, { ...pageCard({ 'card.number': cards.challenge.VISA }), ...browserData }, { 'idempotency-key': 'sealed-1' });
      assert.equal(retry.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(retry.body, first.body);
    });

    it('a new attempt replaces one that waits at its redirect (Back from the issuer\'s page, a reload): the old one ends cancelled and cannot be approved any more', async () => {
      const id = await prepare();
      const first = await shopper.pay(id, { ...pageCard({ 'card.number': cards.challenge.VISA }), ...browserData });
      assert.deepEqual(first.body.result, PENDING);
      const page = await browser.toChallenge(first.body.redirect);
      const waiting = (await paymentsOf(id))[0]!.id;

      const second = await shopper.pay(id, { ...pageCard(), ...browserData });
      assert.equal(second.status, 200, JSON.stringify(second.body));
      assert.equal(second.body.result.code, '000.100.110');
      const paid = await checkoutPayment(id);
      assert.equal(paid.result.code, '000.100.110');
      assert.notEqual(paid.id, waiting);
      assert.equal((await payment(waiting)).result.code, '100.396.101');
      // The issuer's page, answered late, changes nothing: one payment only.
      await browser.finish(page, 'approve');
      assert.equal((await payment(waiting)).result.code, '100.396.101');
      assert.equal((await checkoutPayment(id)).id, paid.id);
    });

    it('a late approval racing a new attempt: one payment at most succeeds, and it is the checkout\'s', async () => {
      const races = await Promise.all(
        Array.from({ length: 6 }, async () => {
          const id = await prepare();
          const first = await shopper.pay(id, { ...pageCard({ 'card.number': cards.challenge.VISA }), ...browserData });
          const page = await browser.toChallenge(first.body.redirect);
          await Promise.all([browser.press(page, 'approve'), shopper.pay(id, { ...pageCard(), ...browserData })]);
          return id;
        }),
      );
      for (const id of races) {
        const payments = await paymentsOf(id);
        const succeeded = payments.filter((p) => p.status === 'success');
        assert.equal(succeeded.length, 1, JSON.stringify(payments));
        assert.equal((await checkoutPayment(id)).id, succeeded[0]!.id);
      }
    });

    it('a new attempt replaces a provider approval the shopper left (Back from PayPal, then a card)', async () => {
      const id = await prepare();
      const first = await shopper.pay(id, { paymentBrand: 'PAYPAL', 'virtualAccount.accountId': 'jane@example.com' });
      assert.deepEqual(first.body.result, PENDING, JSON.stringify(first.body));
      const waiting = (await paymentsOf(id))[0]!.id;
      const second = await shopper.pay(id, { ...pageCard(), ...browserData });
      assert.equal(second.body.result.code, '000.100.110', JSON.stringify(second.body));
      assert.equal((await payment(waiting)).result.code, '100.396.101');
      const late = await browser.post(first.body.redirect.url, { token: first.body.redirect.parameters[0].value, action: 'approve' });
      assert.equal(late.status, 303);
      assert.equal((await payment(waiting)).result.code, '100.396.101');
      assert.equal((await checkoutPayment(id)).result.code, '000.100.110');
    });

    it('frictionless and attempt pay at once; refusals leave the checkout open', async () => {
      const id = await prepare();
      const refused = await shopper.pay(id, { ...pageCard({ 'card.number': cards.notEnrolled.VISA }), ...browserData });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.result.code, '000.400.109');
      assert.equal(refused.body.redirect, undefined);
      assert.deepEqual((await checkoutPayment(id)).result, PENDING);
      const paid = await shopper.pay(id, { ...pageCard({ 'card.number': cards.attempt.VISA }), ...browserData });
      assert.equal(paid.status, 200);
      assert.deepEqual(paid.body.redirect, { url: expectedRedirect(id) });
      assert.equal((await checkoutPayment(id)).threeDSecure.authenticationStatus, 'A');
    });

    it('refuses the page payment without browser data, naming each field its request does not show, and a checkout without billing', async () => {
      const id = await prepare();
      // Accept and User-Agent come from the shopper's request itself; without those headers they are named too.
      const noBrowser = await shopper.pay(id, pageCard({ 'card.number': cards.frictionless.VISA }));
      assert.equal(noBrowser.status, 400);
      assert.deepEqual(
        noBrowser.body.result.parameterErrors.map((e: { name: string }) => e.name),
        ['language', 'screenHeight', 'screenWidth', 'timezone', 'javaEnabled'].map((f) => `customer.browser.${f}`),
      );
      const noHeaders = await shopper.pay(id, pageCard({ 'card.number': cards.frictionless.VISA }), { accept: '', 'user-agent': '' });
      assert.deepEqual(
        noHeaders.body.result.parameterErrors.map((e: { name: string }) => e.name),
        ['acceptHeader', 'language', 'screenHeight', 'screenWidth', 'timezone', 'userAgent', 'javaEnabled'].map((f) => `customer.browser.${f}`),
      );
      const bare = await prepareCheckout(merchant);
      const noBilling = await shopper.pay(bare, { ...pageCard({ 'card.number': cards.frictionless.VISA }), ...browserData });
      assert.deepEqual(noBilling.body.result.parameterErrors.map((e: { name: string }) => e.name), ['billing.street1', 'billing.city', 'billing.postcode', 'billing.country']);
      // Only customer.browser.* may come from the page.
      const names = await shopper.pay(id, { ...pageCard(), ...browserData, 'customer.givenName': 'Jane' });
      assert.deepEqual(names.body.result.parameterErrors, [{ name: 'customer.givenName', value: 'Jane', message: 'customer.givenName is not a parameter of this request' }]);
    });

    it('the form data lists the billing fields a 3-D Secure checkout lacks, and nothing when it has them or is not authenticated', async () => {
      const billingOf = async (id: string) => {
        const { status, body } = await shopper.form(id);
        assert.equal(status, 200, JSON.stringify(body));
        return body.billing;
      };
      assert.deepEqual(await billingOf(await prepareCheckout(merchant)), ['street1', 'city', 'postcode', 'country']);
      assert.deepEqual(await billingOf(await prepareCheckout(merchant, { 'billing.street1': 'Main Street 1', 'billing.country': 'DE' })), ['city', 'postcode']);
      assert.deepEqual(await billingOf(await prepare()), []);
      assert.deepEqual(await billingOf(await prepareCheckout(merchant, { 'threeDSecure.disable': 'true' })), []);
      assert.deepEqual(await billingOf(await prepareCheckout(gw.clientFor(shopA.token, shopA.entityId))), []);
    });

    it('takes billing.* from the page for a checkout without it: authenticated, paid, and echoed to the merchant', async () => {
      const id = await prepareCheckout(merchant);
      const paid = await shopper.pay(id, { ...pageCard({ 'card.number': cards.frictionless.VISA }), ...browserData, ...billingAddress });
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      assert.deepEqual(paid.body.redirect, { url: expectedRedirect(id) });
      const read = await checkoutPayment(id);
      assert.equal(read.result.code, '000.100.110');
      assert.equal(read.threeDSecure.authenticationStatus, 'Y');
      assert.deepEqual(read.billing, { street1: 'Main Street 1', city: 'Berlin', postcode: '10115', country: 'DE' });
    });

    it("keeps the checkout's billing values over the page's, which fill only what it lacks", async () => {
      const id = await prepareCheckout(merchant, { 'billing.street1': 'Hauptstrasse 1', 'billing.country': 'AT', 'billing.state': 'W' });
      const page = { 'billing.street1': 'Elsewhere 9', 'billing.city': 'Wien', 'billing.postcode': '1010', 'billing.country': 'DE' };
      const paid = await shopper.pay(id, { ...pageCard({ 'card.number': cards.frictionless.VISA }), ...browserData, ...page });
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      assert.deepEqual((await checkoutPayment(id)).billing, { street1: 'Hauptstrasse 1', city: 'Wien', state: 'W', postcode: '1010', country: 'AT' });
    });

    it("a saved card pays a checkout without billing when the page sends it: refused without, the checkout's values winning, authenticated", async () => {
      const registered = await merchant.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': cards.frictionless.VISA, 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
      assert.equal(registered.status, 200, JSON.stringify(registered.body));
      const registrationId = registered.body.id as string;
      const id = await prepareCheckout(merchant, { 'registrations[0].id': registrationId, 'billing.country': 'AT' });
      assert.deepEqual((await shopper.form(id)).body.billing, ['street1', 'city', 'postcode']);

      const without = await shopper.pay(id, { registrationId, ...browserData });
      assert.equal(without.status, 400);
      assert.deepEqual(without.body.result.parameterErrors.map((e: { name: string }) => e.name), ['billing.street1', 'billing.city', 'billing.postcode']);
      const invalid = await shopper.pay(id, { registrationId, ...browserData, ...billingAddress, 'billing.postcode': '10 115' });
      assert.deepEqual(invalid.body.result.parameterErrors.map((e: { name: string }) => e.name), ['billing.postcode']);

      // With the security code too, as the paying frame sends it under registrations.requireCvv.
      const paid = await shopper.pay(id, { registrationId, 'card.cvv': '123', ...browserData, ...billingAddress });
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      assert.deepEqual(paid.body.redirect, { url: expectedRedirect(id) });
      const read = await checkoutPayment(id);
      assert.equal(read.result.code, '000.100.110');
      assert.equal(read.registrationId, registrationId);
      assert.equal(read.threeDSecure.authenticationStatus, 'Y');
      assert.deepEqual(read.billing, { street1: 'Main Street 1', city: 'Berlin', postcode: '10115', country: 'AT' });
    });

    it('refuses invalid billing from the page, naming each parameter, and billing fields the page may not send', async () => {
      const id = await prepareCheckout(merchant);
      const bad = await shopper.pay(id, { ...pageCard({ 'card.number': cards.frictionless.VISA }), ...browserData, ...billingAddress, 'billing.postcode': '10-115', 'billing.country': 'de' });
      assert.equal(bad.status, 400);
      assert.deepEqual(
        bad.body.result.parameterErrors.map((e: { name: string; value: string }) => [e.name, e.value]),
        [
          ['billing.postcode', '10-115'],
          ['billing.country', 'de'],
        ],
      );
      const other = await shopper.pay(id, { ...pageCard({ 'card.number': cards.frictionless.VISA }), ...browserData, ...billingAddress, 'billing.state': 'BE' });
      assert.deepEqual(other.body.result.parameterErrors.map((e: { name: string }) => e.name), ['billing.state']);
      // Refused before anything is written: the checkout still takes its payment.
      assert.equal((await shopper.pay(id, { ...pageCard({ 'card.number': cards.frictionless.VISA }), ...browserData, ...billingAddress })).status, 200);
    });

    it('challenge failed and cancelled: the shopper reaches the result page, the merchant reads the attempt, the checkout takes another', async () => {
      for (const [action, code] of [['fail', '100.380.401'], ['cancel', '100.396.101']] as const) {
        const id = await prepare();
        const { body } = await shopper.pay(id, { ...pageCard({ 'card.number': cards.challenge.MASTER, paymentBrand: 'MASTER' }), ...browserData });
        const page = await browser.toChallenge(body.redirect);
        assert.equal(await browser.finish(page, action), expectedRedirect(id));
        const read = await checkoutPayment(id);
        assert.equal(read.result.code, code);
        assert.deepEqual(await payment(read.id), read);
        if (action === 'fail') assert.equal(read.threeDSecure.eci, '00');
        assert.equal((await shopper.form(id)).status, 200);
        const retry = await shopper.pay(id, { ...pageCard({ 'card.number': cards.frictionless.VISA }), ...browserData });
        assert.equal(retry.status, 200);
        assert.equal((await checkoutPayment(id)).result.code, '000.100.110');
      }
    });

    it('a failed 3-D Secure challenge is a declined attempt: the tenth decline, after nine, ends the checkout as expired; the merchant still reads that last attempt', async () => {
      const id = await prepare();
      const failChallenge = async () => {
        const { body } = await shopper.pay(id, { ...pageCard({ 'card.number': cards.challenge.VISA }), ...browserData });
        assert.deepEqual(body.result, PENDING, JSON.stringify(body));
        assert.equal(await browser.finish(await browser.toChallenge(body.redirect), 'fail'), expectedRedirect(id));
        assert.equal((await checkoutPayment(id)).result.code, '100.380.401');
      };
      for (let i = 0; i < CHECKOUT_DECLINES_LIMIT - 2; i++) {
        const declined = await shopper.pay(id, { ...pageCard({ 'card.number': '4000000000000002' }), ...browserData });
        assert.equal(declined.body.result.code, '800.100.152', JSON.stringify(declined.body));
      }
      await failChallenge();
      assert.equal((await shopper.form(id)).status, 200);
      await failChallenge();
      const form = await shopper.form(id);
      assert.equal(form.status, 400);
      assert.equal(form.body.result.code, '100.396.103');
      const next = await shopper.pay(id, { ...pageCard({ 'card.number': cards.frictionless.VISA }), ...browserData });
      assert.equal(next.status, 400);
      assert.deepEqual(next.body.result, { code: '100.396.103', description: 'Previously pending transaction timed out' });
      assert.equal(next.body.paymentBrand, undefined);
      const read = await checkoutPayment(id);
      assert.equal(read.result.code, '100.380.401');
      assert.deepEqual(await payment(read.id), read);
      const statuses = (await paymentsOf(id)).map((p) => p.status);
      assert.deepEqual(statuses, Array(CHECKOUT_DECLINES_LIMIT).fill('rejected'));
    });

    it('abandoned: the checkout and its payment read 100.396.103 after 30 minutes', async () => {
      const id = await prepare();
      const { body } = await shopper.pay(id, { ...pageCard({ 'card.number': cards.challenge.VISA }), ...browserData });
      assert.deepEqual(body.result, PENDING);
      gw.clock.advance(31 * MINUTE);
      const read = await checkoutPayment(id);
      assert.deepEqual(read.result, { code: '100.396.103', description: 'Previously pending transaction timed out' });
      assert.deepEqual(await payment(read.id), read);
      assert.equal((await shopper.form(id)).body.result.code, '100.396.103');
    });

    it('a challenge begun in the checkout\'s last minutes may end after them: the checkout is paid', async () => {
      const id = await prepare();
      gw.clock.advance(29 * MINUTE);
      const { body } = await shopper.pay(id, { ...pageCard({ 'card.number': cards.challenge.VISA }), ...browserData });
      gw.clock.advance(5 * MINUTE);
      assert.deepEqual((await checkoutPayment(id)).result, PENDING);
      const page = await browser.toChallenge(body.redirect);
      assert.equal(await browser.finish(page, 'approve'), expectedRedirect(id));
      assert.equal((await checkoutPayment(id)).result.code, '000.100.110');
    });

    it('external proof on the checkout passes through to its card payment', async () => {
      const id = await prepare({ 'threeDSecure.eci': '05', 'threeDSecure.verificationId': 'AAACBllleHchZTBWIGV4MAAAAAA=', 'threeDSecure.dsTransactionId': 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b' });
      const paid = await shopper.pay(id, { ...pageCard({ 'card.number': cards.challenge.VISA }), ...browserData });
      assert.equal(paid.status, 200);
      assert.deepEqual(paid.body.redirect, { url: expectedRedirect(id) });
      assert.deepEqual((await checkoutPayment(id)).threeDSecure, { eci: '05', verificationId: 'AAACBllleHchZTBWIGV4MAAAAAA=', dsTransactionId: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b' });
    });

    it('the frame page writes the Accept header of its own request into data-accept, escaped', async () => {
      const response = await fetch(`${gw.base}/v1/frames/card?field=number&channel=${'a'.repeat(16)}&origin=https%3A%2F%2Fshop.example`, { headers: { accept: 'text/html,"x"<y>' } });
      const html = await response.text();
      assert.ok(html.includes('<html lang="en" data-accept="text/html,&quot;x&quot;&lt;y&gt;" data-field="number"'), html);
    });
  });

  describe('online transfer and wallet (provider pages)', () => {
    const transfer = (overrides: Record<string, string> = {}): Record<string, string> => ({
      amount: '30.00',
      currency: 'EUR',
      paymentType: 'DB',
      paymentBrand: 'ONLINE_TRANSFER',
      'bankAccount.holder': 'Jane Jones',
      'bankAccount.country': 'DE',
      shopperResultUrl: RESULT_URL,
      ...overrides,
    });

    it('online transfer approved: pending, the provider page (not frameable), then 303 to the shop; GET agrees', async () => {
      const { status, body } = await merchant.post('/v1/payments', transfer());
      assert.equal(status, 200, JSON.stringify(body));
      assert.deepEqual(body.result, PENDING);
      assert.deepEqual(body.bankAccount, { holder: 'Jane Jones', country: 'DE' });
      assert.match(body.redirect.url, new RegExp(`^${gw.base}/v1/providers/[0-9a-f]{32}/pay$`));
      const page = await browser.open(body.redirect);
      assert.equal(page.status, 200);
      assert.equal(page.headers.get('x-frame-options'), 'DENY');
      assert.equal(page.headers.get('content-security-policy'), "default-src 'none'; style-src 'self'; form-action 'self' https://shop.example; base-uri 'none'; frame-ancestors 'none'");
      assert.ok(page.html.includes('Bank account of Jane Jones (DE)'), page.html);
      assert.deepEqual(formOf(page.html).buttons, ['approve', 'cancel']);
      assert.equal(await browser.finish(page, 'approve'), `${RESULT_URL}?id=${body.id}&resourcePath=%2Fv1%2Fpayments%2F${body.id}`);
      const read = await payment(body.id);
      assert.deepEqual(read.result, SUCCESS);
      assert.equal(read.paymentBrand, 'ONLINE_TRANSFER');
    });

    it('online transfer cancelled: 100.396.101; abandoned: 100.396.103', async () => {
      const cancelled = await merchant.post('/v1/payments', transfer());
      await browser.finish(await browser.open(cancelled.body.redirect), 'cancel');
      assert.deepEqual((await payment(cancelled.body.id)).result, { code: '100.396.101', description: 'Cancelled by user' });
      const abandoned = await merchant.post('/v1/payments', transfer());
      gw.clock.advance(31 * MINUTE);
      assert.equal((await payment(abandoned.body.id)).result.code, '100.396.103');
    });

    it('refuses an online transfer without a bank country, as a PA, or to be registered', async () => {
      const params = transfer();
      delete params['bankAccount.country'];
      const noCountry = await merchant.post('/v1/payments', params);
      assert.deepEqual(noCountry.body.result.parameterErrors, [{ name: 'bankAccount.country', value: '', message: 'bankAccount.country is required for ONLINE_TRANSFER' }]);
      const pa = await merchant.post('/v1/payments', transfer({ paymentType: 'PA' }));
      assert.equal(pa.body.result.code, '600.200.310');
      const registered = await merchant.post('/v1/payments', transfer({ createRegistration: 'true' }));
      assert.equal(registered.status, 400);
    });

    it('PayPal from a checkout: approved pays the checkout, cancelled leaves it open with the attempt', async () => {
      for (const [action, code] of [['approve', '000.100.110'], ['cancel', '100.396.101']] as const) {
        const id = await prepareCheckout(merchant, { amount: '12.00' });
        const { status, body } = await shopper.pay(id, { paymentBrand: 'PAYPAL', 'virtualAccount.accountId': 'jane@example.com' });
        assert.equal(status, 200, JSON.stringify(body));
        assert.deepEqual(body.result, PENDING);
        assert.match(body.redirect.url, /\/v1\/providers\/[0-9a-f]{32}\/pay$/);
        const page = await browser.open(body.redirect);
        assert.ok(page.html.includes('Account jane@example.com'), page.html);
        assert.equal(await browser.finish(page, action), expectedRedirect(id));
        const read = await merchant.get(`/v1/checkouts/${id}/payment`);
        assert.equal(read.body.result.code, code);
        assert.deepEqual(read.body.virtualAccount, { accountId: 'jane@example.com' });
        assert.equal((await shopper.form(id)).status, action === 'approve' ? 400 : 200);
      }
    });
  });

  describe('standalone POST /v1/threeDSecure', () => {
    const standalone = (number: string, overrides: Record<string, string> = {}) => ({
      amount: '92.00',
      currency: 'EUR',
      'card.number': number,
      'card.holder': 'Jane Jones',
      'card.expiryMonth': '05',
      'card.expiryYear': '2034',
      shopperResultUrl: RESULT_URL,
      ...browserData,
      ...billingAddress,
      ...overrides,
    });

    it('frictionless: 000.400.110 with the outcome; GET reads the same', async () => {
      const { status, body } = await merchant.post('/v1/threeDSecure', standalone(cards.frictionless.MASTER, {
        merchantTransactionId: 'auth-00000001',
        'threeDSecure.amount': '90.00',
        'threeDSecure.merchant.name': 'Shop A',
        'threeDSecure.merchant.url': 'https://shop.example',
        'threeDSecure.merchant.country': 'DE',
        'threeDSecure.v2.mastercard.requestorId': 'req-17',
        'threeDSecure.v2.visa.requestorName': 'Shop A',
        'threeDSecure.channel': '02',
        'threeDSecure.npa': 'false',
        'threeDSecure.decoupled': 'false',
        'threeDSecure.threeRIInd': 'RECURRING',
        'threeDSecure.authenticationInd': 'PAYMENT',
        'threeDSecure.deviceInfo': 'eyJkZXZpY2UiOiJ0ZXN0In0',
      }));
      assert.equal(status, 200, JSON.stringify(body));
      assert.match(body.id, /^[0-9a-f]{32}$/);
      assert.deepEqual(body.result, { code: '000.400.110', description: 'Authentication successful (frictionless flow)' });
      assert.equal(body.amount, '90.00');
      assert.equal(body.paymentBrand, 'MASTER');
      assert.deepEqual(body.card, { bin: '520000', last4Digits: '0007', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034' });
      assert.equal(body.threeDSecure.authenticationStatus, 'Y');
      assert.equal(body.threeDSecure.eci, '02');
      assert.equal(body.threeDSecure.merchant.name, 'Shop A');
      assert.deepEqual(body.threeDSecure.v2, { mastercard: { requestorId: 'req-17' }, visa: { requestorName: 'Shop A' } });
      const read = await merchant.get(`/v1/threeDSecure/${body.id}`);
      assert.equal(read.status, 200);
      assert.deepEqual({ ...read.body, timestamp: body.timestamp }, body);
      assert.equal((await gw.client.get(`/v1/threeDSecure/${body.id}`)).status, 404);
    });

    it('challenge: pending with the redirect; approved reads 000.100.110 with Y; refusals answer their codes', async () => {
      const { status, body } = await merchant.post('/v1/threeDSecure', standalone(cards.challenge.VISA, { shopperResultUrl: RESULT_URL }));
      assert.equal(status, 200, JSON.stringify(body));
      assert.deepEqual(body.result, PENDING);
      const page = await browser.toChallenge(body.redirect);
      assert.equal(await browser.finish(page, 'approve'), `${RESULT_URL}?id=${body.id}&resourcePath=%2Fv1%2FthreeDSecure%2F${body.id}`);
      const read = await merchant.get(`/v1/threeDSecure/${body.id}`);
      assert.deepEqual(read.body.result, SUCCESS);
      assert.equal(read.body.threeDSecure.authenticationStatus, 'Y');
      assert.match(read.body.threeDSecure.verificationId, VERIFICATION_ID);

      for (const [number, code] of [[cards.error.VISA, '000.400.103'], [cards.notEnrolled.VISA, '000.400.109'], [cards.none, '000.400.108']] as const) {
        const refused = await merchant.post('/v1/threeDSecure', standalone(number));
        assert.equal(refused.status, 400);
        assert.equal(refused.body.result.code, code);
      }
      const abandoned = await merchant.post('/v1/threeDSecure', standalone(cards.challenge.VISA));
      gw.clock.advance(31 * MINUTE);
      assert.equal((await merchant.get(`/v1/threeDSecure/${abandoned.body.id}`)).body.result.code, '100.396.103');
    });

    it('holds the amount authenticated (threeDSecure.amount in threeDSecure.currency, else the main ones) to the amount\u2019s rules, naming the parameter', async () => {
      const refused = async (overrides: Record<string, string>, code: string, name: string, value: string) => {
        const { status, body } = await merchant.post('/v1/threeDSecure', standalone(cards.frictionless.VISA, overrides));
        assert.equal(status, 400, JSON.stringify(body));
        assert.equal(body.result.code, code);
        assert.deepEqual(body.result.parameterErrors.map((e: { name: string; value: string }) => [e.name, e.value]), [[name, value]]);
      };
      await refused({ amount: '100', currency: 'JPY', 'threeDSecure.amount': '100.50' }, '100.550.303', 'threeDSecure.amount', '100.50');
      await refused({ amount: '100.50', currency: 'EUR', 'threeDSecure.currency': 'JPY', 'threeDSecure.amount': '100.50' }, '100.550.303', 'threeDSecure.amount', '100.50');
      await refused({ amount: '100.50', currency: 'EUR', 'threeDSecure.currency': 'JPY' }, '100.550.303', 'amount', '100.50');
      await refused({ 'threeDSecure.amount': '0.00' }, '100.550.300', 'threeDSecure.amount', '0.00');
      // Whole in the currency authenticated: taken, a fraction in EUR too.
      for (const overrides of [{ amount: '100', currency: 'JPY', 'threeDSecure.amount': '100.00' }, { amount: '100', currency: 'JPY', 'threeDSecure.currency': 'EUR', 'threeDSecure.amount': '100.50' }] as Array<Record<string, string>>) {
        const { status, body } = await merchant.post('/v1/threeDSecure', standalone(cards.frictionless.VISA, overrides));
        assert.equal(status, 200, JSON.stringify(body));
        assert.equal(body.amount, overrides['threeDSecure.amount']);
      }
    });

    it('refuses proof fields and disable, missing browser data, and an entity without 3-D Secure', async () => {
      const proof = await merchant.post('/v1/threeDSecure', standalone(cards.frictionless.VISA, { 'threeDSecure.eci': '05', 'threeDSecure.disable': 'true' }));
      assert.equal(proof.status, 400);
      assert.deepEqual(proof.body.result.parameterErrors.map((e: { name: string }) => e.name), ['threeDSecure.eci', 'threeDSecure.disable']);
      // A result field alone is refused once, as not a parameter here (not also "send it with eci").
      const result = await merchant.post('/v1/threeDSecure', standalone(cards.frictionless.VISA, { 'threeDSecure.version': '2.2.0' }));
      assert.deepEqual(result.body.result.parameterErrors, [
        { name: 'threeDSecure.version', value: '2.2.0', message: 'threeDSecure.version is not a parameter of a standalone authentication: it authenticates the shopper itself' },
      ]);
      const bare = await merchant.post('/v1/threeDSecure', { amount: '1.00', currency: 'EUR', 'card.number': cards.frictionless.VISA, 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
      // The browser's seven fields, billing's four, and shopperResultUrl, where the shopper comes back.
      assert.equal(bare.body.result.parameterErrors.length, 12);
      assert.equal(bare.body.result.parameterErrors.at(-1).name, 'shopperResultUrl');
      const off = await gw.client.post('/v1/threeDSecure', standalone(cards.frictionless.VISA));
      assert.equal(off.status, 400);
      assert.equal(off.body.result.code, '600.200.202');
      const badScheme = await merchant.post('/v1/threeDSecure', standalone(cards.frictionless.VISA, { 'threeDSecure.v2.unknownScheme.requestorId': 'x' }));
      assert.deepEqual(badScheme.body.result.parameterErrors.map((e: { name: string }) => e.name), ['threeDSecure.v2.unknownScheme.requestorId']);
    });
  });

  describe('webview page', () => {
    it('serves the widget page with its own policy, the widget and webview scripts with SRI, and the form data inline', async () => {
      const id = await prepareCheckout(merchant, { shopperResultUrl: 'myshop://payment/done?order=17', 'merchant.app.schemeUrl': 'myshop://', locale: 'de' });
      const response = await fetch(`${gw.base}/v1/checkouts/${id}/page`);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-security-policy'), WEBVIEW_CSP);
      assert.equal(
        WEBVIEW_CSP,
        "default-src 'none'; script-src 'self'; connect-src 'self' https://apple.com/apple-pay https://google.com/pay https://pay.google.com https://spay.samsung.com; style-src 'self'; img-src 'self' data:; frame-src 'self'; worker-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'; require-trusted-types-for 'script'",
      );
      assert.equal(response.headers.get('cache-control'), 'no-store');
      const html = await response.text();
      assert.ok(html.includes('<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">'), html);
      assert.ok(html.includes('<html lang="de">'), html);
      const scripts = [...html.matchAll(/<script src="([^"]+)" integrity="([^"]+)" crossorigin="anonymous" defer><\/script>/g)].map((m) => [m[1]!, m[2]!] as const);
      assert.equal(scripts.length, 2, html);
      assert.match(scripts[0]![0], /^\/v1\/paymentWidgets\.js\?v=[0-9a-f]{16}$/);
      assert.equal(scripts[0]![1], dist.manifest.files['paymentWidgets.js']!.integrity);
      assert.match(scripts[1]![0], /^\/v1\/webview\.js\?v=[0-9a-f]{16}$/);
      assert.equal(scripts[1]![1], dist.manifest.files['webview.js']!.integrity);
      for (const [src, integrity] of scripts) assert.equal(sha384(await (await fetch(gw.base + src)).arrayBuffer()), integrity);
      const widget = /<payment-widget checkout-id="([^"]+)" action="([^"]+)" data-form="([^"]+)"><\/payment-widget>/.exec(html);
      assert.ok(widget, html);
      assert.equal(widget[1], id);
      assert.equal(widget[2], 'myshop://payment/done?order=17');
      const form = JSON.parse(unescapeHtml(widget[3]!));
      const direct = (await shopper.form(id)).body;
      assert.deepEqual({ ...form, timestamp: direct.timestamp }, direct);
      assert.equal((html.match(/<script/g) ?? []).length, 2, 'no inline script');
      assert.equal(html.includes('style='), false);
    });

    it('titles the page in the widget\u2019s language from the first paint, right to left for Arabic, English when the widget has no texts for it', async () => {
      const page = async (locale: string) => {
        const id = await prepareCheckout(merchant, { locale });
        const html = await (await fetch(`${gw.base}/v1/checkouts/${id}/page`)).text();
        return [/<html[^>]*>/.exec(html)![0], /<title>([^<]*)<\/title>/.exec(html)![1]];
      };
      // Titled "Payment" in English under lang="de" until the widget was ready.
      assert.deepEqual(await page('de'), ['<html lang="de">', FAKE_LOCALES.de[0]]);
      assert.deepEqual(await page('ar'), ['<html lang="ar" dir="rtl">', FAKE_LOCALES.ar[0]]);
      assert.deepEqual(await page('en'), ['<html lang="en">', 'Payment method']);
      // fakeDist has no French texts: the widget speaks English (webview.js then sets lang="en").
      assert.deepEqual(await page('fr'), ['<html lang="fr">', 'Payment method']);
    });

    it('serves the service worker for /v1/ without caching, and the webview script immutable', async () => {
      const worker = await fetch(`${gw.base}/v1/sw.js`);
      assert.equal(worker.status, 200);
      assert.equal(worker.headers.get('service-worker-allowed'), '/v1/');
      assert.equal(worker.headers.get('cache-control'), 'no-cache');
      assert.equal(worker.headers.get('content-type'), 'application/javascript; charset=utf-8');
      assert.equal(sha384(await worker.arrayBuffer()), dist.manifest.files['sw.js']!.integrity);
      const { integrity } = dist.manifest.files['webview.js']!;
      const script = await fetch(`${gw.base}/v1/webview.js?v=${Buffer.from(integrity.slice(7), 'base64').toString('hex', 0, 8)}`);
      assert.equal(script.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal((await fetch(`${gw.base}/v1/webview.js`)).headers.get('cache-control'), 'no-cache');
    });

    it('answers the browser’s /favicon.ico for its pages with nothing, cached for a day (no 404 in the console)', async () => {
      const icon = await fetch(`${gw.base}/favicon.ico`);
      assert.equal(icon.status, 204);
      assert.equal(icon.headers.get('cache-control'), 'public, max-age=86400');
      assert.equal((await icon.arrayBuffer()).byteLength, 0);
    });

    it('a custom-scheme shopperResultUrl needs merchant.app.schemeUrl of the same scheme; code-running schemes never pass', async () => {
      const refuse = async (params: Record<string, string>, errors: Array<{ name: string; value: string; message: string }>) => {
        const { status, body } = await merchant.post('/v1/checkouts', { amount: '1.00', currency: 'EUR', paymentType: 'DB', ...params });
        assert.equal(status, 400, JSON.stringify(body));
        assert.deepEqual(body.result.parameterErrors, errors);
      };
      await refuse({ shopperResultUrl: 'myshop://done' }, [{ name: 'shopperResultUrl', value: 'myshop://done', message: "shopperResultUrl must be an http or https URL; an app's own scheme (myshop:) is taken when merchant.app.schemeUrl names it" }]);
      await refuse({ shopperResultUrl: 'otherapp://done', 'merchant.app.schemeUrl': 'myshop://' }, [
        { name: 'shopperResultUrl', value: 'otherapp://done', message: "shopperResultUrl must be an http or https URL, or use the app's scheme myshop: of merchant.app.schemeUrl" },
      ]);
      for (const scheme of ['javascript', 'data', 'vbscript', 'file']) {
        await refuse({ shopperResultUrl: `${scheme}://x/y`, 'merchant.app.schemeUrl': `${scheme}://` }, [
          { name: 'merchant.app.schemeUrl', value: `${scheme}://`, message: "merchant.app.schemeUrl must be a URL of the app's own scheme, such as myshop://" },
          { name: 'shopperResultUrl', value: `${scheme}://x/y`, message: 'shopperResultUrl must be an http or https URL' },
        ]);
      }
      await refuse({ shopperResultUrl: 'JavaScript://x/%0aalert(1)', 'merchant.app.schemeUrl': 'myshop://' }, [
        { name: 'shopperResultUrl', value: 'JavaScript://x/%0aalert(1)', message: "shopperResultUrl must be an http or https URL, or use the app's scheme myshop: of merchant.app.schemeUrl" },
      ]);
      // An update is checked against the checkout as it would become.
      const id = await prepareCheckout(merchant, { shopperResultUrl: 'myshop://done', 'merchant.app.schemeUrl': 'myshop://' });
      const moved = await merchant.post(`/v1/checkouts/${id}`, { shopperResultUrl: 'otherapp://done' });
      assert.equal(moved.status, 400);
      assert.equal(moved.body.result.parameterErrors[0].name, 'shopperResultUrl');
      assert.equal((await merchant.post(`/v1/checkouts/${id}`, { shopperResultUrl: 'myshop://elsewhere' })).status, 200);
    });

    it('a custom-scheme checkout ends at the app\'s URL with id and resourcePath', async () => {
      const id = await prepareCheckout(merchant, { ...billingAddress, shopperResultUrl: 'myshop://payment/done', 'merchant.app.schemeUrl': 'myshop://' });
      const { body } = await shopper.pay(id, { ...pageCard({ 'card.number': cards.challenge.VISA }), ...browserData });
      const page = await browser.toChallenge(body.redirect);
      assert.equal(await browser.finish(page, 'approve'), `myshop://payment/done?id=${id}&resourcePath=%2Fv1%2Fcheckouts%2F${id}%2Fpayment`);
      const paypal = await prepareCheckout(merchant, { shopperResultUrl: 'myshop://payment/done', 'merchant.app.schemeUrl': 'myshop://' });
      const wallet = await shopper.pay(paypal, { paymentBrand: 'PAYPAL', 'virtualAccount.accountId': 'jane@example.com' });
      const provider = await browser.open(wallet.body.redirect);
      assert.match(provider.headers.get('content-security-policy')!, /form-action 'self' myshop:;/);
      assert.equal(await browser.finish(provider, 'approve'), `myshop://payment/done?id=${paypal}&resourcePath=%2Fv1%2Fcheckouts%2F${paypal}%2Fpayment`);
    });

    it('answers 404 for an unknown checkout and 400 for one without a shopperResultUrl', async () => {
      assert.equal((await fetch(`${gw.base}/v1/checkouts/${'0'.repeat(32)}.node/page`)).status, 404);
      const id = await merchant.post('/v1/checkouts', { amount: '1.00', currency: 'EUR', paymentType: 'DB' });
      const response = await fetch(`${gw.base}/v1/checkouts/${id.body.id}/page`);
      assert.equal(response.status, 400);
      assert.equal(((await response.json()) as any).result.parameterErrors[0].name, 'shopperResultUrl');
    });
  });
}

describe('3-D Secure, redirects and the webview page', () => threedsSuite({}));

describe('3-D Secure, redirects and the webview page on PostgreSQL', { skip: pgSkip }, () => threedsSuite({ databaseUrl }));

describe('3-D Secure pages of a build without threeds.js', () => {
  let gw: TestGateway;
  let dist: { dir: string; manifest: Manifest };
  before(async () => {
    dist = fakeDist();
    gw = await startGateway({ distDir: dist.dir });
  });
  after(async () => {
    await gw.close();
    rmSync(dist.dir, { recursive: true, force: true });
  });

  it('answers 503 saying what to build, never crashes; the widget and the issuer\'s page still work', async () => {
    const merchant = gw.clientFor(shopA.token, shopA.threeDSecureEntityId);
    const { body } = await merchant.post('/v1/payments', cardDebit({ 'card.number': cards.challenge.VISA, shopperResultUrl: 'https://shop.example/result', ...browserData, ...billingAddress }));
    assert.deepEqual(body.result, PENDING);
    const browser = new ShopperBrowser(gw.base);
    for (const response of [await fetch(`${gw.base}/v1/frames/threeds.js`), await fetch(body.redirect.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${body.redirect.parameters[0].value}` })]) {
      assert.equal(response.status, 503);
      const json = (await response.json()) as any;
      assert.equal(json.result.code, '999.999.999');
      assert.equal(json.message, 'threeds.js is not built on this server: run npm run build, then restart the gateway');
    }
    assert.equal((await fetch(`${gw.base}/v1/sw.js`)).status, 503);
    assert.equal((await fetch(`${gw.base}/v1/frames/secure-frame.js`)).status, 200);
    // The webview page works without webview.js (online only): no script tag for it.
    const checkout = await prepareCheckout(merchant);
    const page = await (await fetch(`${gw.base}/v1/checkouts/${checkout}/page`)).text();
    assert.equal((page.match(/<script/g) ?? []).length, 1);
    const authId = body.redirect.url.split('/').at(-2);
    const next = await browser.post(`/v1/threeds/${authId}/continue`, { token: body.redirect.parameters[0].value, threeDSCompInd: 'N' });
    assert.equal(next.status, 503);
  });

  it('with no build at all, the webview page answers 503 too', async () => {
    const none = await startGateway({ distDir: join(import.meta.dirname, 'no-such-dist') });
    try {
      const id = await prepareCheckout(none.client);
      const response = await fetch(`${none.base}/v1/checkouts/${id}/page`);
      assert.equal(response.status, 503);
      assert.equal(((await response.json()) as any).message, 'the checkout widget is not built on this server: run npm run build, then restart the gateway');
    } finally {
      await none.close();
    }
  });
});

describe('behind a proxy that ends TLS (TRUST_PROXY)', () => {
  const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'pay.example.com', 'x-forwarded-for': '203.0.113.9' };
  const challenge = cardDebit({ 'card.number': cards.challenge.VISA, shopperResultUrl: 'https://shop.example/result', ...browserData, ...billingAddress });

  it('writes the redirect with the address the shopper uses when the proxy is trusted, and ignores the headers otherwise', async () => {
    const trusted = await startGateway({ trustProxy: ['loopback'] });
    const direct = await startGateway();
    try {
      const behind = await trusted.clientFor(shopA.token, shopA.threeDSecureEntityId).post('/v1/payments', challenge, forwarded);
      assert.equal(behind.body.result.code, '000.200.000', JSON.stringify(behind.body));
      assert.match(behind.body.redirect.url, /^https:\/\/pay\.example\.com\/v1\/threeds\/[0-9a-f]{32}\/authenticate$/);
      // Anyone can send the headers: believed only from the proxies TRUST_PROXY names.
      const spoofed = await direct.clientFor(shopA.token, shopA.threeDSecureEntityId).post('/v1/payments', challenge, forwarded);
      assert.ok(spoofed.body.redirect.url.startsWith(`${direct.base}/v1/threeds/`), spoofed.body.redirect.url);
      // A forwarded host is held to the same form as a Host header.
      const bad = await fetch(`${trusted.base}/v1/openapi.json`, { headers: { 'x-forwarded-host': 'pay.example.com; script-src *' } });
      assert.equal(bad.status, 400);
      assert.equal(((await bad.json()) as { result: { parameterErrors: Array<{ name: string }> } }).result.parameterErrors[0]!.name, 'Host');
      const badScheme = await fetch(`${trusted.base}/v1/openapi.json`, { headers: { 'x-forwarded-proto': 'javascript' } });
      assert.equal(badScheme.status, 400);
    } finally {
      await trusted.close();
      await direct.close();
    }
  });

  it('live: refuses what the proxy says came in clear (the spec: all requests use TLS) and tells browsers to keep to https (HSTS)', async () => {
    const live = await startGateway({ env: 'live', trustProxy: ['loopback'] });
    try {
      const path = `/v1/payments/0123456789abcdef0123456789abcdef?entityId=${shopA.entityId}`;
      const overTls = await fetch(live.base + path, { headers: { authorization: `Bearer ${shopA.token}`, 'x-forwarded-proto': 'https' } });
      assert.equal(overTls.status, 404);
      assert.equal(overTls.headers.get('strict-transport-security'), 'max-age=31536000');
      for (const headers of [{ 'x-forwarded-proto': 'http' }, {}] as Array<Record<string, string>>) {
        const clear = await fetch(live.base + path, { headers: { authorization: `Bearer ${shopA.token}`, ...headers } });
        assert.equal(clear.status, 400, JSON.stringify(headers));
        assert.equal(clear.headers.get('strict-transport-security'), null, 'HSTS is only heeded over TLS');
        const body = (await clear.json()) as { result: { code: string; parameterErrors: Array<{ name: string; message: string }> } };
        assert.equal(body.result.code, '200.300.404');
        assert.deepEqual(body.result.parameterErrors.map((e) => `${e.name}: ${e.message}`), ['X-Forwarded-Proto: a live gateway takes requests over https only']);
      }
    } finally {
      await live.close();
    }
    // In test, and in live without a proxy named (it cannot know the scheme: it says so at startup), clear requests pass.
    const test = await startGateway({ trustProxy: ['loopback'] });
    try {
      const reply = await fetch(`${test.base}/v1/openapi.json`, { headers: { 'x-forwarded-proto': 'http' } });
      assert.equal(reply.status, 200);
      assert.equal(reply.headers.get('strict-transport-security'), null);
    } finally {
      await test.close();
    }
  });
});
