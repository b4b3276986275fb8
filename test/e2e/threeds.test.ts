// 3-D Secure and the other redirect flows in Chromium, end to end: the demo shop (its own origin,
// strict policy) on an entity that authenticates cards, the gateway's simulated directory server,
// issuer and providers. Every flow ends on the shop's result page, and the merchant's GET agrees.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Frame, FrameLocator, Locator, Page } from 'playwright-core';
import { PAGES_CSS } from '../../server/http/pages.ts';
import { pageLocale } from '../../server/http/pageTexts.ts';
import { LOCALES } from '../../src/core/locale-list.ts';
import { shopA } from '../support/gateway.ts';
import { fillCard, FITS_WITHOUT_SCROLLING, resultId, startStage, watchPolicyViolations, type Stage } from './support.ts';

const FRICTIONLESS = '4200000000000091';
const ATTEMPT = '4200000000000109';
const CHALLENGE = '4200000000000042';

/** A viewport in which the widget is 390 to 499 pixels wide: the 390×400 challenge window. */
const VIEWPORT = { width: 500, height: 800 };

describe('3-D Secure and asynchronous payments in Chromium', () => {
  let stage: Stage;
  before(async () => {
    stage = await startStage({ entityId: shopA.threeDSecureEntityId });
  });
  after(() => stage?.close());

  async function openShop(query = ''): Promise<{ page: Page; violations: () => Promise<string[]> }> {
    const page = await stage.browser.newPage({ viewport: VIEWPORT });
    const violations = await watchPolicyViolations(page);
    await page.goto(`${stage.shopOrigin}/${query}`);
    return { page, violations };
  }

  /** The shop's result page: its code, and the merchant's own GET of the payment, which must agree. */
  async function resultOf(page: Page, timeout = 20_000): Promise<{ code: string; merchant: Record<string, any> }> {
    await page.waitForURL(new RegExp(`^${stage.shopOrigin}/result\\?`), { timeout });
    const url = new URL(page.url());
    const resourcePath = url.searchParams.get('resourcePath')!;
    assert.match(resourcePath, /^\/v1\/(checkouts\/[^/]+\/payment|payments\/[0-9a-f]{32})$/);
    if (resourcePath.startsWith('/v1/checkouts/')) assert.equal(resourcePath, `/v1/checkouts/${resultId(page.url())}/payment`);
    const code = (await page.locator('h1.outcome').getAttribute('data-result-code')) ?? '';
    const merchant = await stage.merchant.get(resourcePath);
    assert.equal(merchant.status, 200);
    assert.equal(merchant.body.result.code, code, 'the result page and the merchant read the same outcome');
    return { code, merchant: merchant.body };
  }

  /** Types the London billing address into the form's billing fields (the card form's or the saved-card list's). */
  async function fillBilling(form: Locator): Promise<void> {
    await form.getByLabel('Street and number').fill('Main Street 1');
    await form.getByLabel('Postcode').fill('SW1A 1AA');
    await form.getByLabel('City').fill('London');
    await form.getByLabel('Country').selectOption('GB');
  }
  const LONDON = { street1: 'Main Street 1', city: 'London', postcode: 'SW1A1AA', country: 'GB' };

  const challengeFrame = (page: Page): FrameLocator => page.frameLocator('iframe[part="challenge"]');

  /** The document of the widget's challenge frame once the issuer's challenge is in it. */
  async function challengeDocument(page: Page): Promise<Frame> {
    const frame = page.locator('iframe[part="challenge"]');
    await frame.waitFor({ timeout: 15_000 });
    await challengeFrame(page).getByRole('button', { name: /approve/i }).waitFor({ timeout: 15_000 });
    const handle = await frame.elementHandle();
    return (await handle!.contentFrame())!;
  }

  it('frictionless: the card is authenticated without the shopper (Y, ECI 05)', async () => {
    const { page, violations } = await openShop();
    await fillCard(page, FRICTIONLESS);
    await page.getByRole('button', { name: /^Pay/ }).click();
    const { code, merchant } = await resultOf(page);
    assert.equal(code, '000.100.110');
    assert.equal(merchant.threeDSecure.authenticationStatus, 'Y');
    assert.equal(merchant.threeDSecure.eci, '05');
    assert.equal(merchant.threeDSecure.verificationId.length, 28);
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('attempt: the issuer takes no part, the payment goes through (A, ECI 06)', async () => {
    const { page } = await openShop();
    await fillCard(page, ATTEMPT);
    await page.getByRole('button', { name: /^Pay/ }).click();
    const { code, merchant } = await resultOf(page);
    assert.equal(code, '000.100.110');
    assert.equal(merchant.threeDSecure.authenticationStatus, 'A');
    assert.equal(merchant.threeDSecure.eci, '06');
    await page.close();
  });

  it('challenge approved, inside a 390×400 frame of the widget without scrollbars', async () => {
    const { page, violations } = await openShop();
    await fillCard(page, CHALLENGE);
    await page.getByRole('button', { name: /^Pay/ }).click();
    const challenge = await challengeDocument(page);

    const box = (await page.locator('iframe[part="challenge"]').boundingBox())!;
    assert.deepEqual([box.width, box.height], [390, 400]);
    const widget = (await page.locator('payment-widget').boundingBox())!;
    assert.ok(box.x >= widget.x && box.x + box.width <= widget.x + widget.width, 'the frame stays inside the widget');
    const fit = (await challenge.evaluate(FITS_WITHOUT_SCROLLING)) as Record<string, number>;
    assert.deepEqual([fit.innerWidth, fit.innerHeight], [390, 400]);
    assert.ok(fit.scrollWidth! <= fit.clientWidth! && fit.scrollHeight! <= fit.clientHeight!, `the challenge scrolls: ${JSON.stringify(fit)}`);

    await challengeFrame(page).getByRole('button', { name: /approve/i }).click();
    const { code, merchant } = await resultOf(page);
    assert.equal(code, '000.100.110');
    assert.equal(merchant.threeDSecure.authenticationStatus, 'Y');
    assert.equal(merchant.threeDSecure.eci, '05');
    assert.match(merchant.threeDSecure.acsTransactionId, /^[0-9a-f-]{36}$/);
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('reloaded during a challenge, the shop shows the same order\u2019s form, whose next attempt pays it once', async () => {
    const { page, violations } = await openShop();
    const order = new URL(page.url()).searchParams.get('order');
    await fillCard(page, CHALLENGE);
    await page.getByRole('button', { name: /^Pay/ }).click();
    await challengeDocument(page);
    await page.reload();
    assert.equal(new URL(page.url()).searchParams.get('order'), order);
    await fillCard(page, FRICTIONLESS);
    await page.getByRole('button', { name: /^Pay/ }).click();
    const { code, merchant } = await resultOf(page);
    assert.equal(code, '000.100.110');
    assert.equal(resultId(page.url()), order);
    const paid = await stage.merchant.get(`/v1/query?merchantTransactionId=${encodeURIComponent(merchant.merchantTransactionId)}`);
    assert.deepEqual(paid.body.payments.filter((p: { result: { code: string } }) => p.result.code === '000.100.110').map((p: { id: string }) => p.id), [merchant.id]);
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('challenge failed: the payment is refused (100.380.401)', async () => {
    const { page } = await openShop();
    await fillCard(page, CHALLENGE);
    await page.getByRole('button', { name: /^Pay/ }).click();
    await challengeDocument(page);
    await challengeFrame(page).getByRole('button', { name: /fail/i }).click();
    const { code, merchant } = await resultOf(page);
    assert.equal(code, '100.380.401');
    assert.equal(merchant.threeDSecure.authenticationStatus, 'N');
    await page.close();
  });

  it('challenge cancelled by the shopper (100.396.101)', async () => {
    const { page } = await openShop();
    await fillCard(page, CHALLENGE);
    await page.getByRole('button', { name: /^Pay/ }).click();
    await challengeDocument(page);
    await challengeFrame(page).getByRole('button', { name: /cancel/i }).click();
    const { code } = await resultOf(page);
    assert.equal(code, '100.396.101');
    await page.close();
  });

  it('Back during the challenge leaves the frame on an error page; the widget\'s Cancel still ends the payment (100.396.101)', async () => {
    const { page, violations } = await openShop();
    await fillCard(page, CHALLENGE);
    await page.getByRole('button', { name: /^Pay/ }).click();
    await challengeDocument(page);
    // Back takes the frame to the POST that showed the authentication page: the browser will not send it again.
    await page.goBack().catch(() => undefined);
    await page.waitForTimeout(500);
    assert.equal(new URL(page.url()).origin, stage.shopOrigin, 'Back stayed in the challenge frame');
    await page.locator('payment-widget').getByRole('button', { name: 'Cancel' }).click();
    const { code, merchant } = await resultOf(page);
    assert.equal(code, '100.396.101');
    assert.equal(merchant.threeDSecure?.authenticationStatus, undefined);
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  /** A stored card of the shop's entity, offered by the shop page (registration=). */
  async function savedCard(number: string): Promise<string> {
    const { status, body } = await stage.merchant.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': number, 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
    assert.equal(status, 200, JSON.stringify(body));
    return body.id;
  }

  it('a saved card without security code is authenticated (frictionless): the page sends the browser data, the gateway takes the Accept header', async () => {
    const registrationId = await savedCard(FRICTIONLESS);
    const { page, violations } = await openShop(`?registration=${registrationId}`);
    await page.getByText('•••• 0091').waitFor();
    await page.getByRole('button', { name: /^Pay/ }).click();
    const { code, merchant } = await resultOf(page);
    assert.equal(code, '000.100.110');
    assert.equal(merchant.registrationId, registrationId);
    assert.equal(merchant.threeDSecure.authenticationStatus, 'Y');
    assert.equal(merchant.threeDSecure.eci, '05');
    const browser = merchant.customer.browser;
    assert.ok(browser.acceptHeader, 'the Accept header of the page\'s payment request');
    assert.equal(browser.userAgent, await page.evaluate('navigator.userAgent'));
    assert.deepEqual([browser.screenWidth, browser.javaEnabled, browser.challengeWindow], [String(await page.evaluate('screen.width')), 'false', '2']);
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('a saved card without security code goes through the challenge in the widget\'s frame', async () => {
    const registrationId = await savedCard(CHALLENGE);
    const { page, violations } = await openShop(`?registration=${registrationId}`);
    await page.getByText('•••• 0042').waitFor();
    await page.getByRole('button', { name: /^Pay/ }).click();
    await challengeDocument(page);
    const box = (await page.locator('iframe[part="challenge"]').boundingBox())!;
    assert.deepEqual([box.width, box.height], [390, 400]);
    await challengeFrame(page).getByRole('button', { name: /approve/i }).click();
    const { code, merchant } = await resultOf(page);
    assert.equal(code, '000.100.110');
    assert.equal(merchant.registrationId, registrationId);
    assert.equal(merchant.threeDSecure.authenticationStatus, 'Y');
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('a new card on a checkout without billing address: the card form asks for it and the number frame sends it with the card', async () => {
    const { page, violations } = await openShop('?billing=ask');
    const form = page.locator('pw-card-form');
    await form.getByLabel('Street and number').waitFor();
    await fillCard(page, FRICTIONLESS);
    await fillBilling(form);
    await page.getByRole('button', { name: /^Pay/ }).click();
    const { code, merchant } = await resultOf(page);
    assert.equal(code, '000.100.110');
    assert.equal(merchant.threeDSecure.authenticationStatus, 'Y');
    assert.deepEqual(merchant.billing, LONDON);
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('a saved card on a checkout without billing address: the list asks for it, refuses to pay without it, and sends it', async () => {
    const registrationId = await savedCard(FRICTIONLESS);
    const { page, violations } = await openShop(`?registration=${registrationId}&billing=ask`);
    await page.getByText('•••• 0091').waitFor();
    // The list's own fields: the card form behind it (hidden) has the same ones.
    const list = page.locator('pw-registrations');
    const street = list.getByLabel('Street and number');
    await street.waitFor();
    // Nothing is sent without the address: the first missing field is marked and focused.
    const payments: string[] = [];
    page.on('request', (request) => void (request.method() === 'POST' && request.url().endsWith('/payment') && payments.push(request.url())));
    await page.getByRole('button', { name: /^Pay/ }).click();
    assert.equal(await street.getAttribute('aria-invalid'), 'true');
    assert.equal(await street.evaluate((input) => input === (input.getRootNode() as unknown as { activeElement: unknown }).activeElement), true);
    assert.deepEqual(payments, []);

    await fillBilling(list);
    await page.getByRole('button', { name: /^Pay/ }).click();
    const { code, merchant } = await resultOf(page);
    assert.equal(code, '000.100.110');
    assert.equal(merchant.registrationId, registrationId);
    assert.equal(merchant.threeDSecure.authenticationStatus, 'Y');
    assert.deepEqual(merchant.billing, LONDON);
    assert.equal(payments.length, 1);
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('challenge at the top level when the shop asks for it', async () => {
    const { page, violations } = await openShop('?topLevel=1');
    await fillCard(page, CHALLENGE);
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.getByRole('button', { name: /approve/i }).waitFor({ timeout: 15_000 });
    assert.equal(new URL(page.url()).origin, stage.gatewayOrigin, 'the issuer’s page is the top-level page');
    await page.getByRole('button', { name: /approve/i }).click();
    const { code } = await resultOf(page);
    assert.equal(code, '000.100.110');
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('the gateway\'s pages follow a shopper\'s larger default font size (browser setting), as the widget does, and still fit the width', async () => {
    const page = await stage.browser.newPage({ viewport: { width: 320, height: 640 } });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: 32, fixed: 32 } });
    await page.goto(`${stage.shopOrigin}/?topLevel=1`);
    await fillCard(page, CHALLENGE);
    await page.getByRole('button', { name: /^Pay/ }).click();
    const approve = page.getByRole('button', { name: /approve/i });
    await approve.waitFor({ timeout: 15_000 });
    assert.equal(new URL(page.url()).origin, stage.gatewayOrigin);
    const sizes = (await page.evaluate(`[document.body, document.querySelector('h1'), document.querySelector('.hint')].map((e) => parseFloat(getComputedStyle(e).fontSize))`)) as number[];
    // Twice the default: twice the design's 14, 16 and 12 px (px alone stayed at those).
    assert.deepEqual(sizes, [28, 32, 24]);
    const fits = (await page.evaluate(FITS_WITHOUT_SCROLLING)) as { scrollWidth: number; clientWidth: number };
    assert.ok(fits.scrollWidth <= fits.clientWidth, JSON.stringify(fits));
    await approve.click();
    const { code } = await resultOf(page);
    assert.equal(code, '000.100.110');
    await page.close();
  });

  it('the gateway\'s headings wrap a long word rather than scroll sideways, at 320 px with a 250 % default font size, in every language', async () => {
    const page = await stage.browser.newPage({ viewport: { width: 320, height: 640 } });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Page.setFontSizes', { fontSizes: { standard: 40, fixed: 40 } });
    const wide: string[] = [];
    for (const locale of LOCALES) {
      const { texts } = pageLocale([locale], undefined);
      for (const heading of [texts.checking, texts.paySuccess, texts.payPending, texts.payFailed, texts.authSuccess, texts.authPending, texts.authFailed]) {
        await page.setContent(`<!doctype html><html lang="${locale}"><head><meta name="viewport" content="width=device-width, initial-scale=1"><style>${PAGES_CSS}</style></head><body><main><h1>${heading}</h1></main></body></html>`);
        const fits = (await page.evaluate(FITS_WITHOUT_SCROLLING)) as { scrollWidth: number; clientWidth: number };
        if (fits.scrollWidth > fits.clientWidth) wide.push(`${locale}: ${heading} (${fits.scrollWidth} px)`);
      }
    }
    assert.deepEqual(wide, []);
    await page.close();
  });

  it('challenge at the top level when the shop page is itself in a frame', async (t) => {
    const page = await stage.browser.newPage({ viewport: VIEWPORT });
    const violations = await watchPolicyViolations(page);
    // A page of a third origin (a marketplace) that frames the shop.
    const marketplace = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(`<!doctype html><title>Marketplace</title><iframe id="shop" title="shop" src="${stage.shopOrigin}/" width="480" height="760"></iframe>`);
    });
    await new Promise<void>((resolve) => marketplace.listen(0, '127.0.0.1', resolve));
    t.after(() => marketplace.close());
    await page.goto(`http://127.0.0.1:${(marketplace.address() as AddressInfo).port}/`);
    const shop = page.frameLocator('#shop');
    await fillCard(shop, CHALLENGE);
    await shop.getByRole('button', { name: /^Pay/ }).click();
    await page.getByRole('button', { name: /approve/i }).waitFor({ timeout: 15_000 });
    assert.equal(new URL(page.url()).origin, stage.gatewayOrigin, 'the issuer’s page replaced the framing page');
    await page.getByRole('button', { name: /approve/i }).click();
    const { code } = await resultOf(page);
    assert.equal(code, '000.100.110');
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  /** A marketplace that frames the shop in a sandbox without allow-top-navigation: the top level may not be sent anywhere from the shop. */
  async function sandboxedShop(t: { after(fn: () => unknown): void }): Promise<{ page: Page; top: string; violations: () => Promise<string[]> }> {
    const page = await stage.browser.newPage({ viewport: VIEWPORT });
    const violations = await watchPolicyViolations(page);
    const marketplace = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(`<!doctype html><title>Marketplace</title><iframe id="shop" title="shop" src="${stage.shopOrigin}/" width="480" height="760"
        sandbox="allow-scripts allow-same-origin allow-forms allow-popups"></iframe>`);
    });
    await new Promise<void>((resolve) => marketplace.listen(0, '127.0.0.1', resolve));
    t.after(() => marketplace.close());
    const top = `http://127.0.0.1:${(marketplace.address() as AddressInfo).port}/`;
    await page.goto(top);
    // Chromium logs the refused top-level navigations it was asked for (the widget's check, the gateway's last page).
    return { page, top, violations: async () => (await violations()).filter((v) => !/Unsafe attempt to initiate navigation/.test(v)) };
  }

  it('challenge in the widget\'s frame when the shop page is framed in a sandbox without allow-top-navigation, then the shop\'s result page', async (t) => {
    const { page, top, violations } = await sandboxedShop(t);
    const shop = page.frameLocator('#shop');
    await fillCard(shop, CHALLENGE);
    await shop.getByRole('button', { name: /^Pay/ }).click();
    await shop.frameLocator('iframe[part="challenge"]').getByRole('button', { name: /approve/i }).click({ timeout: 15_000 });
    // The shop's own frame (the marketplace's child) shows the result, not only the challenge frame inside it.
    const shopFrame = await page.waitForEvent('framenavigated', {
      predicate: (frame) => frame.parentFrame() === page.mainFrame() && frame.url().startsWith(`${stage.shopOrigin}/result?`),
      timeout: 20_000,
    });
    await shopFrame.waitForLoadState();
    assert.equal(page.url(), top, 'the framing page stays');
    const code = (await shopFrame.locator('h1.outcome').getAttribute('data-result-code')) ?? '';
    assert.equal(code, '000.100.110');
    assert.equal((await stage.merchant.get(`/v1/checkouts/${resultId(shopFrame.url())}/payment`)).body.result.code, '000.100.110');
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('challenge in the widget\'s frame on a sandboxed shop page that makes the widget inline (display: inline, as `* { all: unset }` does)', async (t) => {
    const { page, violations } = await sandboxedShop(t);
    const shopFrame = page.frame({ url: (url) => url.origin === stage.shopOrigin && url.pathname === '/' })!;
    await shopFrame.getByLabel('Name on card').waitFor();
    // An inline element has no width of its own (clientWidth 0); the form inside it has.
    await shopFrame.evaluate(`document.querySelector('payment-widget').style.display = 'inline'`);
    const shop = page.frameLocator('#shop');
    await fillCard(shop, CHALLENGE);
    await shop.getByRole('button', { name: /^Pay/ }).click();
    await shop.frameLocator('iframe[part="challenge"]').getByRole('button', { name: /approve/i }).click({ timeout: 15_000 });
    const result = await page.waitForEvent('framenavigated', {
      predicate: (frame) => frame.parentFrame() === page.mainFrame() && frame.url().startsWith(`${stage.shopOrigin}/result?`),
      timeout: 20_000,
    });
    await result.waitForLoadState();
    assert.equal(await result.locator('h1.outcome').getAttribute('data-result-code'), '000.100.110');
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('PayPal on a shop page framed in a sandbox without allow-top-navigation: the form says the method is not available, no endless "Processing…"', async (t) => {
    const { page, top, violations } = await sandboxedShop(t);
    // The shop's frame, at its order's address (/?order=…).
    const shopFrame = page.frame({ url: (url) => url.origin === stage.shopOrigin && url.pathname === '/' })!;
    await shopFrame.getByLabel('Name on card').waitFor();
    await shopFrame.evaluate(`document.querySelector('form.paymentWidgets').dataset.brands += ' PAYPAL'; window.wpwl.mount()`);
    await shopFrame.getByLabel('PayPal').check();
    await shopFrame.getByLabel(/Account ID or email/).fill('jane@example.com');
    await shopFrame.getByRole('button', { name: /^Pay/ }).click();
    await shopFrame.locator('pw-virtual-account-form [part="alert"]').getByText('Payment method not available.').waitFor({ timeout: 15_000 });
    assert.equal(await shopFrame.getByRole('button', { name: /^Pay/ }).getAttribute('aria-disabled'), 'false');
    assert.equal(page.url(), top);
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('method timeout: after 10 s without the issuer’s method the authentication goes on (frictionless)', async () => {
    const { page, violations } = await openShop('?flow=methodTimeout');
    await fillCard(page, FRICTIONLESS);
    const started = Date.now();
    await page.getByRole('button', { name: /^Pay/ }).click();
    const { code, merchant } = await resultOf(page, 30_000);
    const took = Date.now() - started;
    assert.ok(took >= 10_000, `the page went on after ${took} ms, before the method's 10 s`);
    assert.equal(code, '000.100.110');
    assert.equal(merchant.threeDSecure.authenticationStatus, 'Y');
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('external 3-D Secure: eci and verificationId are passed through, nobody is asked', async () => {
    const verificationId = 'AAACAgSRBklmQCFgMpEGAAAAAAA=';
    const dsTransactionId = 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b';
    const answer = await stage.merchant.post('/v1/payments', {
      amount: '92.00',
      currency: 'EUR',
      paymentType: 'DB',
      paymentBrand: 'VISA',
      'card.number': CHALLENGE,
      'card.holder': 'Jane Jones',
      'card.expiryMonth': '05',
      'card.expiryYear': '2034',
      'card.cvv': '123',
      'threeDSecure.eci': '05',
      'threeDSecure.verificationId': verificationId,
      'threeDSecure.dsTransactionId': dsTransactionId,
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.result.code, '000.100.110');
    assert.equal(answer.body.redirect, undefined);
    const read = await stage.merchant.get(`/v1/payments/${answer.body.id}`);
    assert.equal(read.body.result.code, '000.100.110');
    for (const body of [answer.body, read.body]) {
      assert.equal(body.threeDSecure.eci, '05');
      assert.equal(body.threeDSecure.verificationId, verificationId);
      assert.equal(body.threeDSecure.dsTransactionId, dsTransactionId);
    }
  });

  it('online transfer: the bank approves on its page, the shopper returns to the shop', async () => {
    const page = await stage.browser.newPage({ viewport: VIEWPORT });
    const violations = await watchPolicyViolations(page);
    await page.goto(`${stage.shopOrigin}/transfer`);
    await page.getByRole('button', { name: 'Pay by online transfer' }).click();
    await page.getByRole('button', { name: 'Continue to your bank' }).click();
    await page.getByRole('button', { name: /approve/i }).click({ timeout: 15_000 });
    const { code, merchant } = await resultOf(page);
    assert.equal(code, '000.100.110');
    assert.equal(merchant.paymentBrand, 'ONLINE_TRANSFER');
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('online transfer cancelled at the bank (100.396.101)', async () => {
    const page = await stage.browser.newPage({ viewport: VIEWPORT });
    await page.goto(`${stage.shopOrigin}/transfer`);
    await page.getByRole('button', { name: 'Pay by online transfer' }).click();
    await page.getByRole('button', { name: 'Continue to your bank' }).click();
    await page.getByRole('button', { name: /cancel/i }).click({ timeout: 15_000 });
    const { code } = await resultOf(page);
    assert.equal(code, '100.396.101');
    await page.close();
  });

  it('PayPal from the widget: the wallet’s page at the top level, back to the shop', async () => {
    const { page, violations } = await openShop();
    // The shop offers the wallet on this page too.
    await page.evaluate(`document.querySelector('form.paymentWidgets').dataset.brands += ' PAYPAL'; window.wpwl.mount()`);
    await page.getByLabel('PayPal').check();
    await page.getByLabel(/Account ID or email/).fill('jane@example.com');
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.getByRole('button', { name: /approve/i }).click({ timeout: 15_000 });
    const { code, merchant } = await resultOf(page);
    assert.equal(code, '000.100.110');
    assert.equal(merchant.paymentBrand, 'PAYPAL');
    assert.deepEqual(await violations(), []);
    await page.close();
  });
});
