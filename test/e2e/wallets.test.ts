import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { shopA } from '../support/gateway.ts';
import { resultId, startStage, watchPolicyViolations, type Stage } from './support.ts';

/** A Google Pay token as its payment handler answers it (the simulator approves what it cannot decrypt). */
const TOKEN = JSON.stringify({ signature: 'MEUCIQ-e2e', protocolVersion: 'ECv2', signedMessage: '{"encryptedMessage":"e2e-secret-payload"}' });

// The browser's Payment Request API, stubbed before any script of the page runs: Google Pay can
// pay, the others cannot; the sheet answers a token at once. Plain JavaScript text (runs in the page).
const STUB = `{
  const token = ${JSON.stringify(TOKEN)};
  window.PaymentRequest = class {
    constructor(methodData, details) { this.methodData = methodData; this.details = details; }
    canMakePayment() { return Promise.resolve(this.methodData[0].supportedMethods === 'https://google.com/pay'); }
    async show() {
      window.__pwShown(JSON.stringify({ methodData: this.methodData, details: this.details }));
      return {
        methodName: this.methodData[0].supportedMethods,
        details: { apiVersion: 2, apiVersionMinor: 0, paymentMethodData: { type: 'CARD', description: 'Visa 1111', info: { cardNetwork: 'VISA', cardDetails: '1111' }, tokenizationData: { type: 'PAYMENT_GATEWAY', token } } },
        complete: (result) => window.__pwCompleted(result),
      };
    }
    addEventListener() {}
  };
}`;

describe('wallets in Chromium: Google Pay through the Payment Request API on the demo shop', () => {
  let stage: Stage;
  before(async () => {
    stage = await startStage({ entityId: shopA.walletEntityId });
  });
  after(() => stage?.close());

  it('pays a checkout with Google Pay end to end and lands on the result page with a successful payment', async () => {
    const page = await stage.browser.newPage();
    const violations = await watchPolicyViolations(page);
    const shown: Array<{ methodData: Array<{ supportedMethods: string; data: any }>; details: any }> = [];
    const completed: string[] = [];
    await page.exposeFunction('__pwShown', (json: string) => void shown.push(JSON.parse(json)));
    await page.exposeFunction('__pwCompleted', (result: string) => void completed.push(result));
    await page.addInitScript(STUB);
    await page.goto(`${stage.shopOrigin}/?wallets=1`);

    const button = page.getByRole('button', { name: 'Pay with Google Pay' });
    await button.waitFor({ timeout: 10_000 });
    // Only the wallet the browser can pay with; the card form is still there.
    assert.equal(await page.getByRole('button', { name: /Apple Pay|Samsung Pay/ }).count(), 0);
    assert.equal(await page.getByLabel('Name on card').count(), 1);

    await button.click();
    await page.waitForURL(/\/result\?/, { timeout: 15_000 });
    const checkoutId = resultId(page.url());
    assert.equal(new URL(page.url()).searchParams.get('resourcePath'), `/v1/checkouts/${checkoutId}/payment`);
    assert.equal(await page.locator('h1.outcome').getAttribute('data-result-code'), '000.100.110');
    assert.deepEqual(completed, ['success']);

    // The sheet was asked for the checkout's total, tokenized for this gateway and the shop's entity.
    assert.equal(shown.length, 1);
    const [{ methodData, details }] = shown as [(typeof shown)[number]];
    assert.equal(methodData[0]!.supportedMethods, 'https://google.com/pay');
    assert.deepEqual(methodData[0]!.data.allowedPaymentMethods[0].tokenizationSpecification, {
      type: 'PAYMENT_GATEWAY',
      parameters: { gateway: 'pwgateway', gatewayMerchantId: shopA.walletEntityId },
    });
    assert.deepEqual(details.total.amount, { currency: 'EUR', value: '92.00' });

    const merchant = await stage.merchant.get(`/v1/checkouts/${checkoutId}/payment`);
    assert.equal(merchant.status, 200);
    assert.equal(merchant.body.result.code, '000.100.110');
    assert.equal(merchant.body.paymentBrand, 'GOOGLEPAY');
    assert.equal(merchant.body.amount, '92.00');
    assert.equal(JSON.stringify(merchant.body).includes('e2e-secret-payload'), false);
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it("constructs the wallets' real Payment Requests within the shop's policy: no violation, the card form stays", async () => {
    const page = await stage.browser.newPage();
    const violations = await watchPolicyViolations(page);
    await page.goto(`${stage.shopOrigin}/?wallets=1`);
    await page.getByLabel('Name on card').waitFor({ timeout: 10_000 });
    // Chromium fetches each identifier's manifest (unreachable here, so no wallet can pay) once connect-src allows it.
    await page.waitForTimeout(500);
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('shows no wallet button and keeps the card form when the browser has no Payment Request API', async () => {
    const page = await stage.browser.newPage();
    await page.addInitScript('delete window.PaymentRequest;');
    await page.goto(`${stage.shopOrigin}/?wallets=1`);
    await page.getByLabel('Name on card').waitFor({ timeout: 10_000 });
    assert.equal(await page.getByRole('button', { name: /Pay with/ }).count(), 0);
    await page.close();
  });
});
