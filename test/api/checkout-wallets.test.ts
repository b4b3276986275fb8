// Wallets on the payment form: the form data a Payment Request needs, a checkout paid with a
// wallet's encrypted token from the shopper's browser, and Apple Pay's merchant validation.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { loggerOptions } from '../../server/http/log.ts';
import { expectedRedirect, fakeDist, prepareCheckout, Shopper } from '../support/checkouts.ts';
import { shopA, startGateway, type Client, type TestGateway } from '../support/gateway.ts';

/** A token as Google Pay returns it (the simulator cannot decrypt it and approves it). */
const googleToken = (n: number) =>
  JSON.stringify({ signature: `MEUCIQ-google-${n}`, protocolVersion: 'ECv2', signedMessage: JSON.stringify({ encryptedMessage: `secret-google-payload-${n}`, ephemeralPublicKey: 'BOdoX' }) });
const appleToken = (n: number) => JSON.stringify({ version: 'EC_v1', data: `secret-apple-payload-${n}`, signature: 'MIAGCSqGSIb3', header: { ephemeralPublicKey: 'MFkwEw', transactionId: 'a1b2' } });

const VALIDATION_URL = 'https://apple-pay-gateway.apple.com/paymentservices/startSession';

describe('wallets on the payment form', () => {
  let gw: TestGateway;
  let dist: { dir: string };
  let shopper: Shopper;
  let wallets: Client;
  const logLines: string[] = [];
  const tokens: string[] = [];

  before(async () => {
    const logger = pino(loggerOptions('trace'), { write: (chunk: string) => void logLines.push(...chunk.split('\n').filter(Boolean)) });
    dist = fakeDist();
    gw = await startGateway({ distDir: dist.dir, logger });
    shopper = new Shopper(gw.base);
    wallets = gw.clientFor(shopA.token, shopA.walletEntityId);
  });
  after(async () => {
    await gw.close();
    rmSync(dist.dir, { recursive: true, force: true });
  });

  it("gives the form what the wallets' Payment Request needs, only for an entity that offers a wallet", async () => {
    const { status, body } = await shopper.form(await prepareCheckout(wallets));
    assert.equal(status, 200);
    assert.deepEqual(body.brands, ['VISA', 'MASTER', 'AMEX', 'DIRECTDEBIT_SEPA', 'APPLEPAY', 'GOOGLEPAY', 'SAMSUNGPAY']);
    assert.deepEqual(body.wallet, {
      merchantName: 'Test Shop A',
      country: 'DE',
      gatewayMerchantId: shopA.walletEntityId,
      gateway: 'pwgateway',
      appleMerchantId: 'merchant.com.pwgateway',
      samsungServiceId: 'pwgateway',
      environment: 'TEST',
    });
    // Nothing else of the entity: no token, no settings.
    assert.equal(JSON.stringify(body).includes(shopA.token), false);

    const plain = await shopper.form(await prepareCheckout(gw.client));
    assert.equal(plain.status, 200);
    assert.equal('wallet' in plain.body, false);
  });

  it('pays a checkout with a Google Pay token: approved, stored and answered without the token', async () => {
    const id = await prepareCheckout(wallets);
    const token = googleToken(1);
    tokens.push(token);
    const paid = await shopper.pay(id, { paymentBrand: 'GOOGLEPAY', 'googlePay.paymentToken': token }, { 'idempotency-key': 'wallet-1' });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    assert.equal(paid.body.result.code, '000.100.110');
    assert.equal(paid.body.paymentBrand, 'GOOGLEPAY');
    assert.equal(paid.body.redirect.url, expectedRedirect(id));
    assert.equal(paid.headers.get('access-control-allow-origin'), '*');

    const { status, body } = await wallets.get(`/v1/checkouts/${id}/payment`);
    assert.equal(status, 200);
    assert.equal(body.result.code, '000.100.110');
    assert.equal(body.paymentBrand, 'GOOGLEPAY');
    assert.equal(body.paymentType, 'DB');
    assert.equal(body.amount, '92.00');
    assert.equal(body.ndc, id);
    assert.equal('googlePay' in body, false, 'a wallet group holding only its token is not answered');
    assert.equal('card' in body, false);
    assert.equal(JSON.stringify(body).includes('secret-google-payload'), false);
    const row = await gw.running.store.db.selectFrom('payments').select(['method', 'payment_brand']).where('id', '=', body.id).executeTakeFirstOrThrow();
    assert.deepEqual(row, { method: 'WA', payment_brand: 'GOOGLEPAY' });

    // The checkout is paid: another attempt is refused with the payment's code.
    const again = await shopper.pay(id, { paymentBrand: 'GOOGLEPAY', 'googlePay.paymentToken': googleToken(2) });
    assert.equal(again.status, 400);
    assert.equal(again.body.result.code, '000.100.110');
  });

  it('pays with an Apple Pay token and the card network and type of its payment method', async () => {
    const id = await prepareCheckout(wallets, { paymentType: 'PA' });
    const token = appleToken(1);
    tokens.push(token);
    const paid = await shopper.pay(id, { paymentBrand: 'APPLEPAY', 'applePay.paymentToken': token, 'applePay.cardNetwork': 'Visa', 'applePay.cardType': 'debit' });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    assert.equal(paid.body.paymentBrand, 'APPLEPAY');
    const { body } = await wallets.get(`/v1/checkouts/${id}/payment`);
    assert.equal(body.paymentType, 'PA');
    assert.deepEqual(body.applePay, { cardNetwork: 'Visa', cardType: 'debit' });
  });

  it('pays with a Samsung Pay token, and creates no registration even when the checkout asks for one', async () => {
    const id = await prepareCheckout(wallets, { createRegistration: 'true' });
    const paid = await shopper.pay(id, { paymentBrand: 'SAMSUNGPAY', 'samsungPay.paymentToken': 'samsung-secret-token-1' });
    tokens.push('samsung-secret-token-1');
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    const { body } = await wallets.get(`/v1/checkouts/${id}/payment`);
    assert.equal(body.paymentBrand, 'SAMSUNGPAY');
    assert.equal(body.registrationId, undefined);
    const registration = await wallets.get(`/v1/checkouts/${id}/registration`);
    assert.equal(registration.status, 404);
  });

  it("refuses a wallet the checkout's entity does not offer, naming paymentBrand", async () => {
    const id = await prepareCheckout(gw.client);
    const { status, body } = await shopper.pay(id, { paymentBrand: 'GOOGLEPAY', 'googlePay.paymentToken': googleToken(3) });
    assert.equal(status, 400);
    assert.equal(body.result.code, '600.200.201');
    assert.deepEqual(
      body.result.parameterErrors.map((e: { name: string }) => e.name),
      ['paymentBrand'],
    );
    // The checkout stays open for another method.
    assert.equal((await shopper.form(id)).status, 200);
  });

  it("refuses a paymentBrand that is not the wallet's", async () => {
    const id = await prepareCheckout(wallets);
    for (const brand of ['APPLEPAY', 'VISA']) {
      const { status, body } = await shopper.pay(id, { paymentBrand: brand, 'googlePay.paymentToken': googleToken(4) });
      assert.equal(status, 400, brand);
      assert.equal(body.result.code, '100.100.501', brand);
      assert.equal(body.result.parameterErrors[0].name, 'paymentBrand');
      assert.match(body.result.parameterErrors[0].message, /GOOGLEPAY/);
    }
  });

  it('refuses a wallet payment without its token, naming the token', async () => {
    const id = await prepareCheckout(wallets);
    const cases: Array<[Record<string, string>, string]> = [
      [{ paymentBrand: 'GOOGLEPAY' }, 'googlePay.paymentToken'],
      [{ paymentBrand: 'APPLEPAY', 'applePay.cardNetwork': 'Visa' }, 'applePay.paymentToken'],
      [{ paymentBrand: 'SAMSUNGPAY', 'samsungPay.paymentToken': '' }, 'samsungPay.paymentToken'],
    ];
    for (const [params, name] of cases) {
      const { status, body } = await shopper.pay(id, params);
      assert.equal(status, 400, JSON.stringify(params));
      assert.match(body.result.code, /^100\.100\.10[01]$/, JSON.stringify(body.result));
      assert.deepEqual(
        body.result.parameterErrors.map((e: { name: string }) => e.name),
        [name],
      );
    }
  });

  it("refuses the decrypted form from the shopper's browser: that is the merchant's server's to send", async () => {
    const id = await prepareCheckout(wallets);
    const { status, body } = await shopper.pay(id, {
      paymentBrand: 'GOOGLEPAY',
      'googlePay.source': 'web',
      'card.number': '4200000000000000',
      'card.expiryMonth': '05',
      'card.expiryYear': '2034',
    });
    assert.equal(status, 400);
    const named = Object.fromEntries(body.result.parameterErrors.map((e: { name: string; message: string }) => [e.name, e.message]));
    assert.match(named['googlePay.source'], /is not a parameter of this request/);
    assert.ok('googlePay.paymentToken' in named, JSON.stringify(named));
  });

  it('masks a token in parameter errors and keeps every token out of the store and the log', async () => {
    const id = await prepareCheckout(wallets);
    const token = googleToken(5);
    tokens.push(token);
    const { status, body } = await shopper.pay(id, { paymentBrand: 'APPLEPAY', 'googlePay.paymentToken': token, 'googlePay.unknown': 'x' });
    assert.equal(status, 400);
    assert.equal(JSON.stringify(body).includes('secret-google-payload'), false);

    for (const table of ['payments', 'checkouts', 'idempotency_keys', 'webhook_outbox'] as const) {
      const rows = await gw.running.store.db.selectFrom(table).selectAll().execute();
      const text = JSON.stringify(rows);
      for (const t of tokens) assert.equal(text.includes(t) || text.includes('secret-'), false, `${table} holds a token`);
    }
    assert.ok(logLines.length > 0);
    for (const line of logLines) assert.equal(/secret-(google|apple)-payload|samsung-secret-token/.test(line), false, line);
  });

  describe('Apple Pay merchant validation', () => {
    const session = (id: string, params: Record<string, string>, headers?: Record<string, string>) => shopper.post(`/v1/checkouts/${id}/applePaySession`, params, headers);

    it("answers a simulated merchant session for the shop page's domain in the test environment", async () => {
      const id = await prepareCheckout(wallets);
      const { status, headers, body } = await session(id, { validationUrl: VALIDATION_URL });
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(headers.get('access-control-allow-origin'), '*');
      assert.equal(body.result.code, '000.100.110');
      assert.equal(body.id, id);
      const s = body.merchantSession;
      assert.equal(s.domainName, 'shop.example');
      assert.equal(s.displayName, 'Test Shop A');
      assert.match(s.merchantSessionIdentifier, /^SIM_[0-9a-f]{32}$/);
      assert.match(s.merchantIdentifier, /^[0-9A-F]{64}$/);
      assert.equal(typeof s.signature, 'string');
      assert.ok(s.expiresAt > s.epochTimestamp);

      const preflight = await fetch(`${gw.base}/v1/checkouts/${id}/applePaySession`, { method: 'OPTIONS', headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' } });
      assert.equal(preflight.status, 204);
      assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /POST/);
    });

    it("refuses a validation URL that is not Apple's, and none at all", async () => {
      const id = await prepareCheckout(wallets);
      for (const validationUrl of ['https://evil.example/startSession', 'http://apple-pay-gateway.apple.com/x', 'https://apple-pay-gateway.apple.com.evil.example/', 'https://apple-pay-gateway.apple.com:8443/']) {
        const { status, body } = await session(id, { validationUrl });
        assert.equal(status, 400, validationUrl);
        assert.equal(body.result.code, '200.300.404');
        assert.equal(body.result.parameterErrors[0].name, 'validationUrl');
      }
      const missing = await session(id, {});
      assert.equal(missing.status, 400);
      assert.equal(missing.body.result.parameterErrors[0].name, 'validationUrl');
      const unknownParameter = await session(id, { validationUrl: VALIDATION_URL, domain: 'evil.example' });
      assert.equal(unknownParameter.status, 400);
      assert.equal(unknownParameter.body.result.parameterErrors[0].name, 'domain');
    });

    it("refuses when the checkout's entity does not offer Apple Pay, the checkout is unknown or no longer open", async () => {
      const plain = await session(await prepareCheckout(gw.client), { validationUrl: VALIDATION_URL });
      assert.equal(plain.status, 400);
      assert.equal(plain.body.result.code, '600.200.201');
      assert.equal(plain.body.result.parameterErrors[0].name, 'paymentBrand');

      const unknown = await session(`${'0'.repeat(32)}.node1`, { validationUrl: VALIDATION_URL });
      assert.equal(unknown.status, 404);

      const id = await prepareCheckout(wallets);
      assert.equal((await wallets.delete(`/v1/checkouts/${id}`)).status, 200);
      const cancelled = await session(id, { validationUrl: VALIDATION_URL });
      assert.equal(cancelled.status, 400);
      assert.equal(cancelled.body.result.code, '100.396.101');
    });
  });
});

describe('wallets on the payment form in live', () => {
  let gw: TestGateway;
  let dist: { dir: string };
  before(async () => {
    dist = fakeDist();
    gw = await startGateway({ env: 'live', distDir: dist.dir });
  });
  after(async () => {
    await gw.close();
    rmSync(dist.dir, { recursive: true, force: true });
  });

  it('refuses Apple Pay merchant validation clearly: there is no connection to Apple', async () => {
    const wallets = gw.clientFor(shopA.token, shopA.walletEntityId);
    const id = await prepareCheckout(wallets);
    const shopper = new Shopper(gw.base);
    const form = await shopper.form(id);
    // No wallet data in live: the form shows no button that a real wallet would refuse.
    assert.equal(form.status, 200);
    assert.equal(form.body.wallet, undefined);
    assert.deepEqual(form.body.brands.filter((brand: string) => brand.endsWith('PAY')), ['APPLEPAY', 'GOOGLEPAY', 'SAMSUNGPAY']);
    const { status, body } = await shopper.post(`/v1/checkouts/${id}/applePaySession`, { validationUrl: VALIDATION_URL });
    assert.equal(status, 400);
    assert.equal(body.result.code, '600.200.201');
    assert.equal(body.result.parameterErrors[0].name, 'paymentBrand');
    assert.match(body.result.parameterErrors[0].message, /live/);
    assert.equal('merchantSession' in body, false);
  });
});
