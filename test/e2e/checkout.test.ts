import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { visaFacts } from '../support/cardFacts.ts';
import { framesInPage, pngPixel, shopPageText, startStage, watchFailedLoads, watchPolicyViolations, type Stage } from './support.ts';

const CARD = '4200000000000000';

describe('checkout in Chromium: a shop on another origin under a strict policy', () => {
  let stage: Stage;
  before(async () => {
    stage = await startStage();
  });
  after(() => stage?.close());

  /** The demo shop with this query ("?amount=100.51"). */
  async function openShop(query = ''): Promise<{ page: Page; violations: () => Promise<string[]>; failedLoads: () => string[] }> {
    const page = await stage.browser.newPage();
    const violations = await watchPolicyViolations(page);
    const failedLoads = watchFailedLoads(page);
    const response = await page.goto(`${stage.shopOrigin}/${query}`);
    const csp = response?.headers()['content-security-policy'] ?? '';
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.match(csp, /require-trusted-types-for 'script'/);
    return { page, violations, failedLoads };
  }

  const numberFrame = (page: Page) => page.frameLocator('iframe[src*="field=number"]');
  const cvvFrame = (page: Page) => page.frameLocator('iframe[src*="field=cvv"]');

  async function fillCard(page: Page, number = CARD, cvv = '123') {
    await numberFrame(page).locator('input[autocomplete="cc-number"]').fill(number);
    await page.getByLabel('Expiry date').fill('05/34');
    await cvvFrame(page).locator('input[autocomplete="cc-csc"]').fill(cvv);
    await page.getByLabel('Name on card').fill('Jane Jones');
  }

  /** Pays the form as filled in, lands on the result page, and answers what the merchant reads of that payment. */
  async function payAndRead(page: Page): Promise<Record<string, any>> {
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.waitForURL(/\/result\?/, { timeout: 15_000 });
    const merchant = await stage.merchant.get(`/v1/checkouts/${checkoutIdOf(page.url())}/payment`);
    assert.equal(merchant.body.result.code, '000.100.110');
    return merchant.body;
  }

  function checkoutIdOf(url: string): string {
    const id = new URL(url).searchParams.get('id');
    assert.ok(id, url);
    return id;
  }

  it('keeps one checkout per order: reload shows the same one, Back after paying shows its result rather than a new form to pay again', async () => {
    const { page, violations } = await openShop('?amount=12.00');
    const order = new URL(page.url()).searchParams.get('order');
    assert.ok(order, page.url());
    assert.equal(new URL(page.url()).searchParams.get('amount'), '12.00');
    await page.reload();
    assert.equal(new URL(page.url()).searchParams.get('order'), order);
    await fillCard(page);
    const paid = await payAndRead(page);
    assert.equal(checkoutIdOf(page.url()), order);
    await page.goBack();
    await page.waitForURL(/\/result\?/);
    assert.equal(checkoutIdOf(page.url()), order);
    assert.equal(await page.locator('h1.outcome').getAttribute('data-result-code'), '000.100.110');
    assert.equal(await page.locator('iframe[src*="field=number"]').count(), 0);
    // One payment of the order, not two.
    const merchant = await stage.merchant.get(`/v1/query?merchantTransactionId=${encodeURIComponent(paid.merchantTransactionId)}`);
    assert.deepEqual(merchant.body.payments.map((p: { id: string }) => p.id), [paid.id]);
    // Without an order in the address, a new one.
    await page.goto(`${stage.shopOrigin}/`);
    assert.notEqual(new URL(page.url()).searchParams.get('order'), order);
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('loads the script with SRI from the gateway origin and pays by card, landing on shopperResultUrl', async () => {
    const { page, violations, failedLoads } = await openShop();
    const script = page.locator('script[src*="paymentWidgets.js"]');
    assert.match((await script.getAttribute('integrity')) ?? '', /^sha384-[A-Za-z0-9+/]{64}$/);
    assert.equal(new URL((await script.getAttribute('src'))!).origin, stage.gatewayOrigin);
    assert.notEqual(stage.gatewayOrigin, stage.shopOrigin);

    await fillCard(page);
    const text = await shopPageText(page);
    assert.equal(text.includes(CARD), false, 'the shop page DOM holds the card number');
    assert.equal(text.includes('4200 0000 0000 0000'), false, 'the shop page DOM holds the formatted card number');

    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.waitForURL(/\/result\?/, { timeout: 15_000 });
    const url = new URL(page.url());
    const checkoutId = checkoutIdOf(page.url());
    assert.equal(url.origin + url.pathname, `${stage.shopOrigin}/result`);
    assert.equal(url.searchParams.get('resourcePath'), `/v1/checkouts/${checkoutId}/payment`);
    assert.equal(await page.locator('h1.outcome').getAttribute('data-result-code'), '000.100.110');

    const merchant = await stage.merchant.get(`/v1/checkouts/${checkoutId}/payment`);
    assert.equal(merchant.status, 200);
    assert.equal(merchant.body.result.code, '000.100.110');
    assert.equal(merchant.body.amount, '92.00');
    assert.deepEqual(merchant.body.card, { bin: '420000', last4Digits: '0000', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034', ...visaFacts });
    const payment = await stage.merchant.get(`/v1/payments/${merchant.body.id}`);
    assert.equal(payment.body.ndc, checkoutId);
    assert.deepEqual(await violations(), []);
    // Nothing the shopper's browser asked for failed on the way (no 404 for an icon, a map, a locale).
    assert.deepEqual(failedLoads(), []);
    await page.close();
  });

  it('pays when the shopper presses Enter in the security code frame, as in any field of the form', async () => {
    const { page, violations } = await openShop();
    await fillCard(page);
    await cvvFrame(page).locator('input[autocomplete="cc-csc"]').press('Enter');
    await page.waitForURL(/\/result\?/, { timeout: 15_000 });
    const merchant = await stage.merchant.get(`/v1/checkouts/${checkoutIdOf(page.url())}/payment`);
    assert.equal(merchant.body.result.code, '000.100.110');
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('saves the card when the shopper ticks "Save for future payments", and the next checkout pays with it in one click', async () => {
    const { page, violations } = await openShop('?save=ask');
    await fillCard(page);
    const save = page.getByLabel('Save for future payments');
    assert.equal(await save.isChecked(), false);
    await save.check();
    const registrationId = (await payAndRead(page)).registrationId as string;
    assert.match(registrationId, /^[0-9a-f]{32}$/);
    assert.equal(await page.locator('dl.result dd').filter({ hasText: registrationId }).count(), 1);

    await page.getByRole('link', { name: 'Buy again with the saved payment method' }).click();
    await page.getByText('•••• 0000').waitFor();
    assert.equal((await payAndRead(page)).registrationId, registrationId);
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('pays by SEPA direct debit, saves the account when asked, and pays with it in one click', async () => {
    const { page, violations } = await openShop('?save=ask');
    await page.getByLabel('SEPA direct debit').check();
    await page.getByLabel('Account holder').fill('Jane Jones');
    await page.getByLabel('IBAN').fill('DE89 3704 0044 0532 0130 00');
    await page.getByLabel(/SEPA direct debit mandate/).check();
    await page.locator('pw-bank-account-form').getByLabel('Save for future payments').check();
    const first = await payAndRead(page);
    assert.equal(first.paymentBrand, 'DIRECTDEBIT_SEPA');
    assert.equal(first.bankAccount.iban, 'DE89370400440532013000');
    const registrationId = first.registrationId as string;
    assert.match(registrationId, /^[0-9a-f]{32}$/);

    await page.getByRole('link', { name: 'Buy again with the saved payment method' }).click();
    await page.getByText('SEPA direct debit •••• 3000 · Jane Jones').waitFor();
    const again = await payAndRead(page);
    assert.equal(again.paymentBrand, 'DIRECTDEBIT_SEPA');
    assert.equal(again.registrationId, registrationId);
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('shows a decline in the form and lets the shopper pay again with the same checkout', async () => {
    const { page } = await openShop('?amount=100.51');
    await fillCard(page);
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.getByText('Declined by your bank. Try another card or method.').first().waitFor({ timeout: 15_000 });
    assert.match(page.url(), new RegExp(`^${stage.shopOrigin}/(\\?|$)`));
    await page.close();
  });

  it('requests the card frames while the form data is on its way, and shows their inputs once the form is shown', async () => {
    const page = await stage.browser.newPage();
    const violations = await watchPolicyViolations(page);
    // The form data is held until the number frame's page has been requested: with the frames
    // made only after the form data, this would time out.
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let formAsked = false;
    await page.route(/\/v1\/checkouts\/[^/]+\/form$/, async (route) => {
      formAsked = true;
      await released;
      await route.continue();
    });
    const frameAsked = page.waitForRequest(/\/v1\/frames\/card\?field=number&/, { timeout: 10_000 });
    const frameShown = page.waitForEvent('framenavigated', { predicate: (frame) => frame.url().includes('field=number'), timeout: 10_000 });
    frameShown.catch(() => undefined); // awaited below; a failure above must not leave it unhandled
    const loaded = page.goto(`${stage.shopOrigin}/`);
    await frameAsked;
    assert.equal(formAsked, true, 'the form data was not asked for');
    // The frames load meanwhile, inside the hidden form: no input to focus or type into yet.
    const number = await frameShown;
    await number.waitForLoadState('load');
    assert.equal(await number.locator('input[autocomplete="cc-number"]').count(), 0, 'the number frame shows an input before the form does');
    assert.equal(await page.getByText('Loading…').count(), 1);

    release();
    await loaded;
    await fillCard(page);
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.waitForURL(/\/result\?/, { timeout: 15_000 });
    assert.equal(await page.locator('h1.outcome').getAttribute('data-result-code'), '000.100.110');
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('on a page declaring color-scheme: dark, shows light text and card frames with no white corners behind their rounded inputs', async () => {
    const page = await stage.browser.newPage();
    const violations = await watchPolicyViolations(page);
    // Before the widget mounts (its listener comes later); CSSOM, which the shop's policy allows.
    // The shop page only: an init script runs in every frame.
    await page.addInitScript(`if (window === top) document.addEventListener('DOMContentLoaded', () => {
      document.documentElement.style.colorScheme = 'dark';
      document.documentElement.style.background = 'rgb(32, 33, 36)';
    });`);
    await page.goto(`${stage.shopOrigin}/`);
    const input = numberFrame(page).locator('input[autocomplete="cc-number"]');
    await input.waitFor();
    assert.equal(await page.getByText('Name on card').evaluate((label) => (globalThis as any).getComputedStyle(label).color), 'rgb(230, 232, 235)');
    assert.equal(await input.evaluate(() => (globalThis as any).getComputedStyle((globalThis as any).document.documentElement).colorScheme), 'dark');
    // The frame's top left corner, outside its input's rounded border: the page shows through.
    const shot = await page.locator('iframe[src*="field=number"]').screenshot();
    // (1, 1): outside the 6 px radius; (0, 0) may be partly the page around the frame.
    const [r, g, b] = pngPixel(shot, 1, 1);
    assert.ok(r < 80 && g < 80 && b < 80, `corner pixel rgb(${r}, ${g}, ${b}) is not the dark page`);
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('leaves no stray frames or listeners after 50 unmount and mount cycles', async () => {
    const { page, violations } = await openShop();
    await numberFrame(page).locator('input[autocomplete="cc-number"]').waitFor();
    const cdp = await page.context().newCDPSession(page);
    const listenerCount = async () => {
      let total = 0;
      for (const expression of ['window', 'document']) {
        const { result } = await cdp.send('Runtime.evaluate', { expression });
        const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId! });
        total += listeners.length;
      }
      return total;
    };
    const frames = () => framesInPage(page);
    const before = await listenerCount();
    const framesBefore = await frames();
    assert.equal(framesBefore, 2);
    for (let i = 0; i < 50; i++) {
      await page.evaluate('window.wpwl.unload()');
      assert.equal(await frames(), 0, `frames left after unload ${i}`);
      await page.evaluate('window.wpwl.mount()');
    }
    await numberFrame(page).locator('input[autocomplete="cc-number"]').waitFor();
    assert.equal(await frames(), framesBefore);
    assert.equal(await listenerCount(), before);
    assert.equal(page.frames().length, 1 + framesBefore, 'detached frames still attached to the page');
    assert.deepEqual(await violations(), []);
    await page.close();
  });
});
