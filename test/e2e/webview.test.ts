// The webview payment page in Chromium as an app's webview shows it: a phone's viewport, the
// result handed back to the app through its own URL scheme, and a second load with the network off
// (the service worker, registered with workbox-window, has the page, the widget and the frame).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { shopA } from '../support/gateway.ts';
import { fillCard, FITS_WITHOUT_SCROLLING, startStage, watchFailedLoads, watchPolicyViolations, type Stage } from './support.ts';

const APP_SCHEME = 'myshopapp://';
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };

describe('the webview payment page in Chromium', () => {
  let stage: Stage;
  before(async () => {
    stage = await startStage();
  });
  after(() => stage?.close());

  /** A checkout as a shop's app creates it: its result goes back to the app's own scheme. */
  async function appCheckout(extra: Record<string, string> = {}): Promise<string> {
    const answer = await stage.merchant.post('/v1/checkouts', {
      amount: '92.00',
      currency: 'EUR',
      paymentType: 'DB',
      shopperResultUrl: `${APP_SCHEME}checkout/result`,
      'merchant.app.schemeUrl': APP_SCHEME,
      ...extra,
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.id;
  }

  async function openPage(context: BrowserContext, checkoutId: string): Promise<{ page: Page; violations: () => Promise<string[]>; failedLoads: () => string[] }> {
    const page = await context.newPage();
    const violations = await watchPolicyViolations(page);
    const failedLoads = watchFailedLoads(page);
    const response = await page.goto(`${stage.gatewayOrigin}/v1/checkouts/${checkoutId}/page`);
    assert.equal(response?.status(), 200);
    assert.match(response?.headers()['content-security-policy'] ?? '', /require-trusted-types-for 'script'/);
    return { page, violations, failedLoads };
  }

  it('fits a phone and hands the result to the app through its own scheme', async () => {
    const context = await stage.browser.newContext(PHONE);
    const checkoutId = await appCheckout();
    const { page, violations, failedLoads } = await openPage(context, checkoutId);
    await fillCard(page, '4200000000000000');
    const fit = (await page.evaluate(FITS_WITHOUT_SCROLLING)) as Record<string, number>;
    assert.ok(fit.scrollWidth! <= fit.clientWidth!, `the page scrolls sideways on a phone: ${JSON.stringify(fit)}`);

    // The app's scheme is no web page: the webview hands the navigation to the app, which the
    // test sees as the request the page makes.
    const toApp = page.waitForRequest((request) => request.url().startsWith(APP_SCHEME), { timeout: 15_000 });
    await page.getByRole('button', { name: /^Pay/ }).click();
    const url = new URL((await toApp).url());
    assert.equal(`${url.protocol}//${url.host}${url.pathname}`, `${APP_SCHEME}checkout/result`);
    assert.equal(url.searchParams.get('id'), checkoutId);
    assert.equal(url.searchParams.get('resourcePath'), `/v1/checkouts/${checkoutId}/payment`);

    const merchant = await stage.merchant.get(`/v1/checkouts/${checkoutId}/payment`);
    assert.equal(merchant.body.result.code, '000.100.110');
    assert.deepEqual(await violations(), []);
    // The app's scheme is refused as a web load; nothing else the page asked for failed.
    assert.deepEqual(failedLoads().filter((load) => !load.includes(APP_SCHEME)), []);
    await context.close();
  });

  it('keeps its form clear of a notched phone\u2019s status bar and home indicator (viewport-fit=cover)', async () => {
    const context = await stage.browser.newContext(PHONE);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setSafeAreaInsetsOverride' as never, { insets: { top: 47, bottom: 34, left: 20, right: 20 } } as never);
    await page.goto(`${stage.gatewayOrigin}/v1/checkouts/${await appCheckout()}/page`);
    await page.locator('payment-widget').waitFor();
    const padding = await page.locator('main').evaluate((main) => {
      const style = (globalThis as any).getComputedStyle(main);
      return [style.paddingTop, style.paddingRight, style.paddingBottom, style.paddingLeft];
    });
    assert.deepEqual(padding, ['47px', '20px', '34px', '20px']);
    await context.close();
  });

  it('runs a card\u2019s 3-D Secure challenge in the widget on the gateway\u2019s own page, then hands the result to the app', async () => {
    // The page and the gateway's challenge pages share an origin here: the widget must not take a
    // step page it can read for the end of the challenge and send the whole page there.
    const context = await stage.browser.newContext(PHONE);
    const merchant = stage.gw.clientFor(shopA.token, shopA.threeDSecureEntityId);
    const checkoutId = await appCheckout({ entityId: shopA.threeDSecureEntityId, 'billing.street1': 'Main Street 1', 'billing.city': 'London', 'billing.postcode': 'SW1A1AA', 'billing.country': 'GB' });
    const { page, violations } = await openPage(context, checkoutId);
    await fillCard(page, '4200000000000042');
    const toApp = page.waitForRequest((request) => request.url().startsWith(APP_SCHEME), { timeout: 20_000 });
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.frameLocator('iframe[part="challenge"]').getByRole('button', { name: /approve/i }).click({ timeout: 15_000 });
    const url = new URL((await toApp).url());
    assert.equal(`${url.protocol}//${url.host}${url.pathname}`, `${APP_SCHEME}checkout/result`);
    assert.equal(url.searchParams.get('id'), checkoutId);
    assert.equal(page.url(), `${stage.gatewayOrigin}/v1/checkouts/${checkoutId}/page`, 'the page stayed until the app took the result');

    const paid = await merchant.get(`/v1/checkouts/${checkoutId}/payment`);
    assert.equal(paid.body.result.code, '000.100.110');
    assert.equal(paid.body.threeDSecure.authenticationStatus, 'Y');
    assert.deepEqual(await violations(), []);
    await context.close();
  });

  /** Whether the service worker keeps this page (a copy for an offline reload). */
  const KEPT = `caches.keys().then((names) => Promise.all(names.map((name) => caches.open(name).then((cache) => cache.match(location.href))))).then((found) => found.some(Boolean))`;

  it('drops its kept copy once a payment of it went on (reopened offline it would offer to pay again), and keeps it after a refusal', async () => {
    const context = await stage.browser.newContext(PHONE);
    const checkoutId = await appCheckout();
    const { page, violations } = await openPage(context, checkoutId);
    await page.waitForFunction(KEPT, undefined, { timeout: 10_000 });

    // Refused: the checkout takes another payment, so the copy stays.
    await fillCard(page, '4000000000000002');
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.getByText('Declined by your bank. Try another card or method.').first().waitFor({ timeout: 15_000 });
    assert.equal(await page.evaluate(KEPT), true, 'the copy stays after a refusal');

    const number = page.frameLocator('iframe[src*="field=number"]').locator('input[autocomplete="cc-number"]');
    await number.fill('4200000000000000');
    const toApp = page.waitForRequest((request) => request.url().startsWith(APP_SCHEME), { timeout: 15_000 });
    await page.getByRole('button', { name: /^Pay/ }).click();
    await toApp;
    await page.waitForFunction(`(${KEPT}).then((kept) => !kept)`, undefined, { timeout: 10_000 });
    assert.equal((await stage.merchant.get(`/v1/checkouts/${checkoutId}/payment`)).body.result.code, '000.100.110');

    // Offline, nothing offers to pay again: the load fails as any page the worker does not keep.
    await context.setOffline(true);
    await assert.rejects(page.reload(), /net::ERR_(FAILED|INTERNET_DISCONNECTED)/);
    await context.setOffline(false);
    // Online, the page is the checkout's state, and kept again as such.
    await page.goto(`${stage.gatewayOrigin}/v1/checkouts/${checkoutId}/page`);
    await page.getByText('This payment is already complete.').first().waitFor({ timeout: 10_000 });
    await page.waitForFunction(KEPT, undefined, { timeout: 10_000 });
    assert.deepEqual(await violations(), []);
    await context.close();
  });

  it('renders again with the network off: page, widget and frames come from the service worker', async () => {
    const context = await stage.browser.newContext(PHONE);
    const checkoutId = await appCheckout();
    const { page, violations } = await openPage(context, checkoutId);
    await page.frameLocator('iframe[src*="field=number"]').locator('input[autocomplete="cc-number"]').waitFor();
    // The worker is running and keeps this page (webview.js asked it to).
    await page.waitForFunction(`navigator.serviceWorker.controller !== null || navigator.serviceWorker.ready.then(() => true)`);
    await page.waitForFunction(KEPT, undefined, { timeout: 10_000 });

    await context.setOffline(true);
    const reloaded = await page.reload();
    assert.equal(reloaded?.fromServiceWorker(), true, 'the page came from the service worker');
    // The network is really off, and the worker answers no API call.
    assert.equal(await page.evaluate(`fetch('/v1/checkouts/${checkoutId}/form').then(() => 'answered', () => 'failed')`), 'failed');
    const number = page.frameLocator('iframe[src*="field=number"]').locator('input[autocomplete="cc-number"]');
    await number.waitFor({ timeout: 10_000 });
    // The frame page was rebuilt from the worker's template: it reads its settings from its own URL.
    const frame = (await (await page.locator('iframe[src*="field=number"]').elementHandle())!.contentFrame())!;
    assert.deepEqual(await frame.evaluate(`[document.documentElement.dataset.field ?? null, typeof document.documentElement.dataset.accept]`), [null, 'string']);
    await number.fill('4200000000000000');
    assert.equal(await number.inputValue(), '4200 0000 0000 0000');
    assert.match((await page.getByRole('button', { name: /^Pay/ }).textContent()) ?? '', /92\.00/);

    // Only the page, the scripts and the frame page were kept: never an API answer.
    const kept = (await page.evaluate(`caches.keys().then((names) => Promise.all(names.map((name) => caches.open(name).then((cache) => cache.keys())))).then((lists) => lists.flat().map((request) => new URL(request.url).pathname))`)) as string[];
    assert.ok(kept.length >= 6, `kept: ${kept.join(', ')}`);
    for (const path of kept) assert.match(path, /^\/v1\/(paymentWidgets\.js|webview\.js|frames\/secure-frame\.js|frames\/pages\.css|frames\/card|checkouts\/[^/]+\/page|locales\/[a-z]{2}(-[A-Za-z]+)?\.json)$/, `the service worker kept ${path}`);

    await context.setOffline(false);
    assert.deepEqual(await violations(), []);
    await context.close();
  });

  it('speaks the checkout\u2019s language: its texts preloaded with the page (one request), and offline from the service worker', async () => {
    const context = await stage.browser.newContext(PHONE);
    const checkoutId = await appCheckout({ locale: 'de' });
    const fromPage: string[] = [];
    context.on('request', (request) => {
      if (request.url().includes('/v1/locales/') && !request.serviceWorker()) fromPage.push(new URL(request.url()).pathname);
    });
    const { page, violations } = await openPage(context, checkoutId);
    const pay = page.getByRole('button', { name: /bezahlen$/ });
    await pay.waitFor();
    assert.equal(await page.locator('payment-widget').getAttribute('lang'), 'de');
    assert.equal(await page.getByLabel('Name auf der Karte').count(), 1);
    // The page's own title and direction follow the widget's language (an app's task switcher shows the title).
    assert.deepEqual([await page.title(), await page.evaluate('document.documentElement.dir')], ['Zahlungsart', 'ltr']);
    // The widget's fetch took the preloaded answer: the page asked for its locale once.
    assert.deepEqual(fromPage, ['/v1/locales/de.json']);

    // An active worker (a reload goes through no worker still installing) that keeps this page.
    await page.waitForFunction(`navigator.serviceWorker.ready.then(() => true)`);
    await page.waitForFunction(KEPT, undefined, { timeout: 10_000 });
    await context.setOffline(true);
    const reloaded = await page.reload();
    assert.equal(reloaded?.fromServiceWorker(), true, 'the page came from the service worker');
    await pay.waitFor({ timeout: 10_000 });
    assert.match((await pay.textContent()) ?? '', /^92,00\s€ bezahlen$/);
    assert.equal(await page.locator('payment-widget').getAttribute('lang'), 'de');
    await context.setOffline(false);
    assert.deepEqual(await violations(), []);

    // Arabic: right to left, the page as well as the widget.
    const arabic = await openPage(context, await appCheckout({ locale: 'ar' }));
    await arabic.page.waitForFunction(`document.documentElement.dir === 'rtl'`);
    assert.equal(await arabic.page.title(), 'طريقة الدفع');
    assert.deepEqual(await arabic.violations(), []);
    await context.close();
  });
});
