// The shopper's browser data on a 3-D Secure entity when the widget cannot send all of it: a saved
// card paid from the widget's page (no frame, no security code) has no acceptHeader, since a
// page's script cannot read the Accept header. The checkout-scoped payment request is the
// shopper's browser's own, so the gateway takes its Accept (and User-Agent) header; a merchant's
// server-to-server request is never read that way.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { expectedRedirect, fakeDist, prepareCheckout, Shopper } from '../support/checkouts.ts';
import { cardDebit, shopA, startGateway, type Client, type TestGateway } from '../support/gateway.ts';
import { billingAddress, browserData, cards, ShopperBrowser } from '../support/threeds.ts';

/** A navigation's Accept header, as a browser sends it (not node's fetch default). */
const ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/** browserData without the fields named. */
const browserWithout = (...names: string[]) => Object.fromEntries(Object.entries(browserData).filter(([name]) => !names.includes(name.slice('customer.browser.'.length))));

describe('the shopper\'s browser data taken from the shopper\'s own request', () => {
  let gw: TestGateway;
  let dist: string;
  let merchant: Client;
  let shopper: Shopper;
  let browser: ShopperBrowser;

  before(async () => {
    // The authentication pages need a build (threeds.js); a small fake one will do.
    dist = fakeDist({ later: true }).dir;
    gw = await startGateway({ distDir: dist });
    merchant = gw.clientFor(shopA.token, shopA.threeDSecureEntityId);
    shopper = new Shopper(gw.base);
    browser = new ShopperBrowser(gw.base);
  });
  after(async () => {
    await gw.close();
    rmSync(dist, { recursive: true, force: true });
  });

  /** A stored card of the 3-D Secure entity and a checkout offering it. */
  async function savedCardCheckout(number: string): Promise<{ id: string; registrationId: string }> {
    const registered = await merchant.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': number, 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    const id = await prepareCheckout(merchant, { ...billingAddress, 'registrations[0].id': registered.body.id });
    return { id, registrationId: registered.body.id };
  }
  const checkoutPayment = async (id: string) => {
    const { status, body } = await merchant.get(`/v1/checkouts/${id}/payment`);
    assert.equal(status, 200, JSON.stringify(body));
    return body;
  };

  it('a saved card without security code and without acceptHeader is authenticated (frictionless) with the request\'s Accept header', async () => {
    const { id, registrationId } = await savedCardCheckout(cards.frictionless.VISA);
    const paid = await shopper.pay(id, { registrationId, ...browserWithout('acceptHeader') }, { accept: ACCEPT });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    assert.equal(paid.body.result.code, '000.100.110');
    assert.deepEqual(paid.body.redirect, { url: expectedRedirect(id) });
    const read = await checkoutPayment(id);
    assert.equal(read.registrationId, registrationId);
    assert.equal(read.threeDSecure.authenticationStatus, 'Y');
    assert.equal(read.threeDSecure.eci, '05');
    assert.equal(read.customer.browser.acceptHeader, ACCEPT);
    // The page's own values stay, in the spec's order.
    assert.deepEqual(Object.keys(read.customer.browser), ['acceptHeader', 'language', 'screenHeight', 'screenWidth', 'timezone', 'userAgent', 'javaEnabled', 'screenColorDepth', 'challengeWindow']);
    assert.equal(read.customer.browser.userAgent, browserData['customer.browser.userAgent']);
  });

  it('a saved challenge card goes through the challenge and pays the checkout; a missing userAgent comes from the User-Agent header', async () => {
    const { id, registrationId } = await savedCardCheckout(cards.challenge.VISA);
    const pending = await shopper.pay(id, { registrationId, ...browserWithout('acceptHeader', 'userAgent') }, { accept: ACCEPT, 'user-agent': USER_AGENT });
    assert.equal(pending.status, 200, JSON.stringify(pending.body));
    assert.equal(pending.body.result.code, '000.200.000');
    const challenge = await browser.toChallenge(pending.body.redirect);
    assert.equal(await browser.finish(challenge, 'approve'), expectedRedirect(id));
    const read = await checkoutPayment(id);
    assert.equal(read.result.code, '000.100.110');
    assert.equal(read.threeDSecure.authenticationStatus, 'Y');
    assert.equal(read.customer.browser.acceptHeader, ACCEPT);
    assert.equal(read.customer.browser.userAgent, USER_AGENT);
  });

  it('what the page sends wins over the request\'s headers; a header is cut to the spec\'s 2048 characters', async () => {
    const { id, registrationId } = await savedCardCheckout(cards.frictionless.VISA);
    const paid = await shopper.pay(id, { registrationId, ...browserWithout('userAgent') }, { accept: 'text/plain', 'user-agent': `UA ${'x'.repeat(3000)}` });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    const read = await checkoutPayment(id);
    assert.equal(read.customer.browser.acceptHeader, browserData['customer.browser.acceptHeader']);
    assert.equal(read.customer.browser.userAgent, `UA ${'x'.repeat(2045)}`);
  });

  it('a payment that is not authenticated keeps no header it was not sent', async () => {
    const plain = gw.clientFor(shopA.token, shopA.entityId);
    const registered = await plain.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': cards.none, 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
    const id = await prepareCheckout(plain, { 'registrations[0].id': registered.body.id });
    const paid = await shopper.pay(id, { registrationId: registered.body.id }, { accept: ACCEPT, 'user-agent': USER_AGENT });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    const read = await plain.get(`/v1/checkouts/${id}/payment`);
    assert.equal(read.body.result.code, '000.100.110');
    assert.equal(read.body.customer, undefined);
  });

  it('a merchant\'s POST /v1/payments and registration payment without acceptHeader are still refused (400) naming it, whatever their Accept header', async () => {
    const direct = await merchant.post(
      '/v1/payments',
      cardDebit({ 'card.number': cards.frictionless.VISA, shopperResultUrl: 'https://shop.example/result', ...browserWithout('acceptHeader'), ...billingAddress }),
      { accept: ACCEPT, 'user-agent': USER_AGENT },
    );
    assert.equal(direct.status, 400);
    assert.equal(direct.body.result.code, '200.300.404');
    assert.deepEqual(direct.body.result.parameterErrors, [{ name: 'customer.browser.acceptHeader', value: '', message: 'customer.browser.acceptHeader is required for 3-D Secure 2' }]);
    assert.equal(direct.body.id, undefined);

    const { registrationId } = await savedCardCheckout(cards.frictionless.VISA);
    const stored = await merchant.post(`/v1/registrations/${registrationId}/payments`, { amount: '10.00', currency: 'EUR', paymentType: 'DB', shopperResultUrl: 'https://shop.example/result', ...browserWithout('acceptHeader'), ...billingAddress }, { accept: ACCEPT });
    assert.equal(stored.status, 400);
    assert.deepEqual(stored.body.result.parameterErrors.map((e: { name: string }) => e.name), ['customer.browser.acceptHeader']);
  });
});
