// Wallet buttons (Apple Pay, Google Pay, Samsung Pay) through a stubbed window.PaymentRequest:
// shown only for what canMakePayment() allows, with each wallet's method data; the token is paid
// through the checkout's payment endpoint and the sheet completed with the outcome.
import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import type { PaymentWidget } from '../../src/widget/payment-widget/payment-widget.component.ts';
import type { WalletButtons } from '../../src/widget/wallets/wallet-buttons.component.ts';
import type { WidgetOptions } from '../../src/widget/options.ts';
import { all, CHECKOUT_ID, formData, GATEWAY, json, one, REGISTRATIONS, settle, stubFetch, widget, type FetchCall, type Responder } from './support.ts';

const WALLET = {
  merchantName: 'Test Shop A',
  country: 'DE',
  gatewayMerchantId: '8a8294174b7ecb28014b9699220015ce',
  gateway: 'pwgateway',
  appleMerchantId: 'merchant.com.pwgateway',
  samsungServiceId: 'pwgateway',
  environment: 'TEST',
};
const BRANDS = ['VISA', 'MASTER', 'AMEX', 'DIRECTDEBIT_SEPA', 'APPLEPAY', 'GOOGLEPAY', 'SAMSUNGPAY'];
const GOOGLE = 'https://google.com/pay';
const APPLE = 'https://apple.com/apple-pay';
const SAMSUNG = 'https://spay.samsung.com';

type Can = boolean | 'throw' | 'reject';

/** What a stubbed payment sheet does when shown: answer these details, or close (AbortError). */
interface Sheet {
  details?: unknown;
  validationURL?: string;
  /** The name of the DOMException show() rejects with instead (the wallet refusing the request). */
  error?: string;
}

/** A stand-in for the browser's PaymentRequest: records every request, answers as told. */
function stubPaymentRequest(can: Record<string, Can>, sheet: Sheet = {}) {
  const original = Object.getOwnPropertyDescriptor(window, 'PaymentRequest');
  const requests: FakeRequest[] = [];
  const completed: string[] = [];
  const sessions: unknown[] = [];
  class FakeRequest extends EventTarget {
    shown = false;
    constructor(
      readonly methodData: PaymentMethodData[],
      readonly details: PaymentDetailsInit,
    ) {
      super();
      requests.push(this);
    }
    canMakePayment(): Promise<boolean> {
      const answer = can[this.methodData[0]!.supportedMethods] ?? false;
      if (answer === 'throw') throw new DOMException('Not allowed', 'NotAllowedError');
      if (answer === 'reject') return Promise.reject(new DOMException('Not supported', 'NotSupportedError'));
      return Promise.resolve(answer);
    }
    async show() {
      this.shown = true;
      if (sheet.error) throw new DOMException('The wallet refused the request', sheet.error);
      if (sheet.validationURL) {
        let session: Promise<unknown> = Promise.resolve();
        const event = Object.assign(new Event('merchantvalidation'), { validationURL: sheet.validationURL, complete: (p: Promise<unknown>) => (session = p) });
        this.dispatchEvent(event);
        try {
          sessions.push(await session);
        } catch {
          throw new DOMException('Merchant validation failed', 'AbortError');
        }
      }
      if (sheet.details === undefined) throw new DOMException('Closed by the shopper', 'AbortError');
      return { methodName: this.methodData[0]!.supportedMethods, details: sheet.details, complete: async (result: string) => void completed.push(result) };
    }
  }
  Object.defineProperty(window, 'PaymentRequest', { value: FakeRequest, configurable: true, writable: true });
  return {
    requests,
    completed,
    sessions,
    restore: () => (original ? Object.defineProperty(window, 'PaymentRequest', original) : delete (window as { PaymentRequest?: unknown }).PaymentRequest),
  };
}

/** The widget for a checkout with wallets, once the wallet buttons have asked the browser. */
async function walletWidget(options: { brands?: string; form?: Record<string, unknown>; respond?: Responder; labels?: Record<string, string>; locale?: string; options?: WidgetOptions } = {}) {
  const fetchStub = stubFetch(formData({ brands: BRANDS, wallet: WALLET, ...options.form }), options.respond);
  const el = await widget({ brands: options.brands ?? BRANDS.join(' '), locale: options.locale, options: { ...options.options, ...(options.labels ? { labels: options.labels } : {}) } });
  const buttons = all<WalletButtons>(el, 'pw-wallet-buttons')[0];
  if (buttons) await waitUntil(() => buttons.available !== undefined, 'the wallets were not asked');
  await settle(el);
  return { el, fetchStub };
}

const walletButtons = (el: PaymentWidget) => all<HTMLButtonElement>(el, 'button[part="wallet"]');
const paymentCalls = (calls: FetchCall[]) => calls.filter((c) => c.url.endsWith('/payment'));
const posted = (call: FetchCall) => Object.fromEntries(new URLSearchParams(String(call.init.body)));

const GOOGLE_DETAILS = {
  apiVersion: 2,
  apiVersionMinor: 0,
  paymentMethodData: { type: 'CARD', description: 'Visa •••• 1111', info: { cardNetwork: 'VISA', cardDetails: '1111' }, tokenizationData: { type: 'PAYMENT_GATEWAY', token: '{"signature":"MEUC","protocolVersion":"ECv2","signedMessage":"{}"}' } },
};
const APPLE_DETAILS = {
  token: {
    paymentData: { version: 'EC_v1', data: 'ZW5jcnlwdGVk', signature: 'MIAG', header: { ephemeralPublicKey: 'MFkw', publicKeyHash: 'aGFzaA==', transactionId: 'a1b2' } },
    paymentMethod: { displayName: 'Visa 1111', network: 'Visa', type: 'debit' },
    transactionIdentifier: 'A1B2',
  },
};

describe('wallet buttons', () => {
  let restore: Array<() => unknown> = [];
  afterEach(() => {
    for (const r of restore) r();
    restore = [];
  });

  it('shows a button only for the wallets the browser can pay with, above the other methods', async () => {
    const pr = stubPaymentRequest({ [GOOGLE]: true, [APPLE]: false, [SAMSUNG]: true });
    const { el, fetchStub } = await walletWidget();
    restore.push(pr.restore, fetchStub.restore);

    expect(walletButtons(el).map((b) => b.textContent)).to.deep.equal(['Pay with Google Pay', 'Pay with Samsung Pay']);
    expect(walletButtons(el).every((b) => b.type === 'button')).to.equal(true);
    // The other methods stay: the method choice and the card form.
    expect(all<HTMLInputElement>(el, 'input[name="method"]').map((c) => c.value)).to.deep.equal(['card', 'bank']);
    expect(all(el, 'pw-card-form')).to.have.length(1);
    const order = all(el, 'pw-wallet-buttons, fieldset[part="methods"]').map((e) => e.localName);
    expect(order).to.deep.equal(['pw-wallet-buttons', 'fieldset']);
    // Each wallet was asked once, with its own method identifier and the checkout's total.
    expect(pr.requests.map((r) => r.methodData[0]!.supportedMethods)).to.deep.equal([APPLE, GOOGLE, SAMSUNG]);
    for (const request of pr.requests) expect(request.details.total).to.deep.equal({ label: 'Test Shop A', amount: { currency: 'EUR', value: '92.00' } });
    await expect(el).to.be.accessible();
  });

  it("sends each wallet the data its payment handler expects, with the entity's card networks", async () => {
    const pr = stubPaymentRequest({});
    const { fetchStub } = await walletWidget();
    restore.push(pr.restore, fetchStub.restore);
    const data = (method: string) => pr.requests.find((r) => r.methodData[0]!.supportedMethods === method)!.methodData[0]!.data as Record<string, any>;

    expect(data(GOOGLE)).to.deep.equal({
      environment: 'TEST',
      apiVersion: 2,
      apiVersionMinor: 0,
      merchantInfo: { merchantName: 'Test Shop A' },
      allowedPaymentMethods: [
        {
          type: 'CARD',
          parameters: { allowedAuthMethods: ['PAN_ONLY', 'CRYPTOGRAM_3DS'], allowedCardNetworks: ['VISA', 'MASTERCARD', 'AMEX'] },
          tokenizationSpecification: { type: 'PAYMENT_GATEWAY', parameters: { gateway: 'pwgateway', gatewayMerchantId: WALLET.gatewayMerchantId } },
        },
      ],
    });
    expect(data(APPLE)).to.deep.equal({
      version: 3,
      merchantIdentifier: 'merchant.com.pwgateway',
      merchantCapabilities: ['supports3DS'],
      supportedNetworks: ['visa', 'masterCard', 'amex'],
      countryCode: 'DE',
    });
    expect(data(SAMSUNG)).to.deep.equal({
      version: '1',
      productId: 'pwgateway',
      allowedCardNetworks: ['visa', 'mastercard', 'amex'],
      orderNumber: CHECKOUT_ID.slice(0, 32),
      merchantName: 'Test Shop A',
      merchantGatewayParameter: { userId: WALLET.gatewayMerchantId },
      paymentProtocol: 'PROTOCOL_3DS',
    });
  });

  it('leaves the form as it is without the Payment Request API, or when the browser refuses the question', async () => {
    const original = Object.getOwnPropertyDescriptor(window, 'PaymentRequest');
    delete (window as { PaymentRequest?: unknown }).PaymentRequest;
    restore.push(() => original && Object.defineProperty(window, 'PaymentRequest', original));
    const without = await walletWidget();
    restore.push(without.fetchStub.restore);
    expect(walletButtons(without.el)).to.have.length(0);
    expect(all(without.el, 'pw-card-form')).to.have.length(1);
    expect(all(without.el, '[part="alert"]').filter((a) => a.textContent)).to.have.length(0);
    without.fetchStub.restore();

    const pr = stubPaymentRequest({ [GOOGLE]: 'throw', [APPLE]: 'reject', [SAMSUNG]: true });
    restore.push(pr.restore);
    const throwing = await walletWidget();
    restore.push(throwing.fetchStub.restore);
    expect(walletButtons(throwing.el).map((b) => b.textContent)).to.deep.equal(['Pay with Samsung Pay']);
    expect(all(throwing.el, 'pw-card-form')).to.have.length(1);
  });

  it("offers no wallet the checkout's entity or the page leaves out", async () => {
    const pr = stubPaymentRequest({ [GOOGLE]: true, [APPLE]: true, [SAMSUNG]: true });
    restore.push(pr.restore);
    // The entity offers Google Pay only; the page lists all three.
    const entity = await walletWidget({ form: { brands: ['VISA', 'GOOGLEPAY'] } });
    restore.push(entity.fetchStub.restore);
    expect(walletButtons(entity.el).map((b) => b.textContent)).to.deep.equal(['Pay with Google Pay']);
    entity.fetchStub.restore();
    // The page leaves the wallets out.
    const page = await walletWidget({ brands: 'VISA MASTER' });
    restore.push(page.fetchStub.restore);
    expect(all(page.el, 'pw-wallet-buttons')).to.have.length(0);
  });

  it("pays with Google Pay's token and completes the sheet with success", async () => {
    const pr = stubPaymentRequest({ [GOOGLE]: true }, { details: GOOGLE_DETAILS });
    const respond: Responder = () => json({ result: { code: '000.100.110', description: 'ok' }, id: CHECKOUT_ID, paymentBrand: 'GOOGLEPAY', redirect: { url: 'https://shop.example/result?id=1' } });
    const { el, fetchStub } = await walletWidget({ respond });
    restore.push(pr.restore, fetchStub.restore);
    const submitted = oneEvent(el, 'pw-submit');
    el.addEventListener('pw-result', (event) => event.preventDefault());
    const result = oneEvent(el, 'pw-result');

    walletButtons(el)[0]!.click();
    expect((await submitted).detail).to.deep.equal({ method: 'wallet', brand: 'GOOGLEPAY' });
    const { detail } = await result;
    expect(detail.method).to.equal('wallet');
    expect(detail.code).to.equal('000.100.110');

    const [call] = paymentCalls(fetchStub.calls);
    expect(call!.url).to.equal(`${GATEWAY}/v1/checkouts/${CHECKOUT_ID}/payment`);
    expect(call!.init.method).to.equal('POST');
    expect(call!.init.credentials).to.equal('omit');
    expect((call!.init.headers as Record<string, string>)['Idempotency-Key']).to.match(/^pw-[0-9a-f]{32}$/);
    expect(posted(call!)).to.deep.equal({ paymentBrand: 'GOOGLEPAY', 'googlePay.paymentToken': GOOGLE_DETAILS.paymentMethodData.tokenizationData.token });
    expect(pr.completed).to.deep.equal(['success']);
    await settle(el);
    // Paid, and the shop stays on the page: the form ends (nothing left to pay twice with).
    expect(walletButtons(el)).to.have.length(0);
    expect(one(el, '[part="status"]').textContent).to.equal('This payment is already complete.');
  });

  it('completes the sheet with fail on a decline and says why', async () => {
    const pr = stubPaymentRequest({ [GOOGLE]: true }, { details: GOOGLE_DETAILS });
    const respond: Responder = () => json({ result: { code: '800.100.151', description: 'transaction declined (invalid card)' }, id: CHECKOUT_ID, paymentBrand: 'GOOGLEPAY' }, 400);
    const { el, fetchStub } = await walletWidget({ respond });
    restore.push(pr.restore, fetchStub.restore);
    const error = oneEvent(el, 'pw-error');

    walletButtons(el)[0]!.click();
    expect((await error).detail.code).to.equal('800.100.151');
    await settle(el);
    expect(pr.completed).to.deep.equal(['fail']);
    const alert = one(one(el, 'pw-wallet-buttons'), '[part="alert"]');
    expect(alert.textContent).to.equal('Declined by your bank. Try another card or method.');
    expect(walletButtons(el)[0]!.getAttribute('aria-disabled')).to.equal('false');
    await expect(el).to.be.accessible();
  });

  it('validates the merchant with the gateway for Apple Pay, then pays its token with the card network and type', async () => {
    const session = { epochTimestamp: 1, merchantSessionIdentifier: 'SIM_1', signature: 'c2ln' };
    const pr = stubPaymentRequest({ [APPLE]: true }, { details: APPLE_DETAILS, validationURL: 'https://apple-pay-gateway.apple.com/paymentservices/startSession' });
    const respond: Responder = (call) =>
      call.url.endsWith('/applePaySession') ? json({ result: { code: '000.100.110' }, id: CHECKOUT_ID, merchantSession: session }) : json({ result: { code: '000.100.110' }, id: CHECKOUT_ID, paymentBrand: 'APPLEPAY' });
    const { el, fetchStub } = await walletWidget({ respond });
    restore.push(pr.restore, fetchStub.restore);
    el.addEventListener('pw-result', (event) => event.preventDefault());
    const result = oneEvent(el, 'pw-result');

    expect(walletButtons(el).map((b) => b.textContent)).to.deep.equal(['Pay with Apple Pay']);
    walletButtons(el)[0]!.click();
    await result;

    const validation = fetchStub.calls.find((c) => c.url.endsWith('/applePaySession'))!;
    expect(validation.url).to.equal(`${GATEWAY}/v1/checkouts/${CHECKOUT_ID}/applePaySession`);
    expect(validation.init.method).to.equal('POST');
    expect(validation.init.credentials).to.equal('omit');
    expect(posted(validation)).to.deep.equal({ validationUrl: 'https://apple-pay-gateway.apple.com/paymentservices/startSession' });
    expect(pr.sessions).to.deep.equal([session]);
    expect(posted(paymentCalls(fetchStub.calls)[0]!)).to.deep.equal({
      paymentBrand: 'APPLEPAY',
      'applePay.paymentToken': JSON.stringify(APPLE_DETAILS.token.paymentData),
      'applePay.cardNetwork': 'Visa',
      'applePay.cardType': 'debit',
    });
    expect(pr.completed).to.deep.equal(['success']);
  });

  it('says Apple Pay is not available when the gateway refuses the merchant validation, and pays nothing', async () => {
    const pr = stubPaymentRequest({ [APPLE]: true }, { details: APPLE_DETAILS, validationURL: 'https://apple-pay-gateway.apple.com/paymentservices/startSession' });
    const respond: Responder = () => json({ result: { code: '600.200.201', description: 'Channel/Merchant not configured for this payment method' } }, 400);
    const { el, fetchStub } = await walletWidget({ respond });
    restore.push(pr.restore, fetchStub.restore);

    walletButtons(el)[0]!.click();
    const buttons = one<WalletButtons>(el, 'pw-wallet-buttons');
    await waitUntil(() => buttons.alert !== '', 'no message');
    await settle(el);
    expect(one(buttons, '[part="alert"]').textContent).to.equal('Payment method not available.');
    expect(paymentCalls(fetchStub.calls)).to.have.length(0);
    expect(pr.completed).to.deep.equal([]);
    expect(walletButtons(el)[0]!.getAttribute('aria-disabled')).to.equal('false');
  });

  it('pays nothing when the shopper closes the sheet or the shop cancels pw-submit', async () => {
    const pr = stubPaymentRequest({ [GOOGLE]: true });
    const { el, fetchStub } = await walletWidget();
    restore.push(pr.restore, fetchStub.restore);
    const asked = pr.requests.length;

    walletButtons(el)[0]!.click();
    await waitUntil(() => pr.requests.some((r) => r.shown), 'the sheet was not shown');
    await settle(el);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(paymentCalls(fetchStub.calls)).to.have.length(0);
    expect(one(one(el, 'pw-wallet-buttons'), '[part="alert"]').textContent).to.equal('');
    expect(walletButtons(el)[0]!.getAttribute('aria-disabled')).to.equal('false');

    el.addEventListener('pw-submit', (event) => event.preventDefault());
    const before = pr.requests.length;
    walletButtons(el)[0]!.click();
    await settle(el);
    expect(pr.requests.length).to.equal(before);
    expect(before).to.equal(asked + 1);
  });

  it("takes its label from the widget's texts: its locale's, and wpwlOptions.labels over them", async () => {
    const pr = stubPaymentRequest({ [GOOGLE]: true, [APPLE]: true });
    restore.push(pr.restore);
    const german = await walletWidget({ locale: 'de' });
    restore.push(german.fetchStub.restore);
    expect(walletButtons(german.el).map((b) => b.textContent)).to.deep.equal(['Mit Apple Pay bezahlen', 'Mit Google Pay bezahlen']);
    german.fetchStub.restore();

    const labelled = await walletWidget({ labels: { payWith: 'Zahlen mit {0}' } });
    restore.push(labelled.fetchStub.restore);
    expect(walletButtons(labelled.el).map((b) => b.textContent)).to.deep.equal(['Zahlen mit Apple Pay', 'Zahlen mit Google Pay']);
  });

  it('offers the wallets alone when the page lists nothing else, and says so when none is available', async () => {
    const pr = stubPaymentRequest({ [GOOGLE]: true });
    const alone = await walletWidget({ brands: 'GOOGLEPAY APPLEPAY' });
    restore.push(pr.restore, alone.fetchStub.restore);
    expect(walletButtons(alone.el).map((b) => b.textContent)).to.deep.equal(['Pay with Google Pay']);
    expect(all(alone.el, 'pw-card-form, fieldset[part="methods"]')).to.have.length(0);
    alone.fetchStub.restore();

    // Nothing to pay with is told to the shop: pw-error once, never pw-ready.
    const events: Array<[string, unknown]> = [];
    const record = (event: Event) => events.push([event.type, (event as CustomEvent).detail]);
    document.addEventListener('pw-error', record);
    document.addEventListener('pw-ready', record);
    restore.push(() => {
      document.removeEventListener('pw-error', record);
      document.removeEventListener('pw-ready', record);
    });
    const none = await walletWidget({ brands: 'APPLEPAY' });
    restore.push(none.fetchStub.restore);
    await waitUntil(() => events.length > 0, 'no event');
    await settle(none.el);
    expect(walletButtons(none.el)).to.have.length(0);
    expect(one(one(none.el, 'pw-wallet-buttons'), '[part="alert"]').textContent).to.equal('Payment method not available.');
    expect(events).to.deep.equal([['pw-error', { code: '', message: 'Payment method not available.' }]]);
    await expect(none.el).to.be.accessible();
  });
  it("asks Apple Pay for the lowest version that knows the entity's networks, and Samsung Pay only for its own", async () => {
    const pr = stubPaymentRequest({});
    const { fetchStub } = await walletWidget({ form: { brands: ['VISA', 'MASTER', 'MAESTRO', 'JCB', 'DISCOVER', 'APPLEPAY', 'GOOGLEPAY', 'SAMSUNGPAY'] } });
    restore.push(pr.restore, fetchStub.restore);
    const data = (method: string) => pr.requests.find((r) => r.methodData[0]!.supportedMethods === method)!.methodData[0]!.data as Record<string, any>;

    // maestro came with Apple Pay version 4: a version-3 request naming it is refused.
    expect(data(APPLE).version).to.equal(4);
    expect(data(APPLE).supportedNetworks).to.deep.equal(['visa', 'masterCard', 'maestro', 'jcb', 'discover']);
    expect(data(GOOGLE).allowedPaymentMethods[0].parameters.allowedCardNetworks).to.deep.equal(['VISA', 'MASTERCARD', 'MAESTRO', 'JCB', 'DISCOVER']);
    // Samsung Pay takes visa, mastercard, amex and discover.
    expect(data(SAMSUNG).allowedCardNetworks).to.deep.equal(['visa', 'mastercard', 'discover']);
  });

  it('offers no Samsung Pay button when Samsung Pay could hand over none of the entity\'s card networks', async () => {
    const pr = stubPaymentRequest({ [SAMSUNG]: true, [GOOGLE]: true });
    const { el, fetchStub } = await walletWidget({ form: { brands: ['JCB', 'GOOGLEPAY', 'SAMSUNGPAY'] } });
    restore.push(pr.restore, fetchStub.restore);
    expect(walletButtons(el).map((b) => b.textContent)).to.deep.equal(['Pay with Google Pay']);
    expect(pr.requests.map((r) => r.methodData[0]!.supportedMethods)).to.deep.equal([GOOGLE]);
  });

  for (const [brand, method, details] of [
    ['Samsung Pay', SAMSUNG, { billingAddress: { country: 'DE' } }],
    ['Apple Pay', APPLE, { token: { paymentData: null, paymentMethod: { network: 'Visa', type: 'debit' } } }],
  ] as const) {
    it(`sends nothing of a ${brand} answer that holds no token, and says it failed`, async () => {
      const pr = stubPaymentRequest({ [method]: true }, { details });
      const { el, fetchStub } = await walletWidget({ respond: () => json({ result: { code: '000.100.110' }, id: CHECKOUT_ID }) });
      restore.push(pr.restore, fetchStub.restore);
      const error = oneEvent(el, 'pw-error');

      walletButtons(el)[0]!.click();
      expect((await error).detail.code).to.equal('999.999.999');
      expect(paymentCalls(fetchStub.calls)).to.have.length(0);
      expect(pr.completed).to.deep.equal(['fail']);
    });
  }

  it('completes the sheet with unknown, not success, for a pending answer (a redirect still to come)', async () => {
    const pr = stubPaymentRequest({ [GOOGLE]: true }, { details: GOOGLE_DETAILS });
    const respond: Responder = () =>
      json({ result: { code: '000.200.000', description: 'transaction pending' }, id: CHECKOUT_ID, paymentBrand: 'GOOGLEPAY', redirect: { url: `${GATEWAY}/v1/threeDSecure/step`, parameters: [{ name: 'step', value: '1' }] } });
    const { el, fetchStub } = await walletWidget({ respond });
    restore.push(pr.restore, fetchStub.restore);
    el.addEventListener('pw-result', (event) => event.preventDefault());
    const result = oneEvent(el, 'pw-result');

    walletButtons(el)[0]!.click();
    expect((await result).detail.code).to.equal('000.200.000');
    expect(pr.completed).to.deep.equal(['unknown']);
  });

  it('gives the focus back to the wallet button after a decline', async () => {
    const pr = stubPaymentRequest({ [GOOGLE]: true }, { details: GOOGLE_DETAILS });
    const respond: Responder = () => json({ result: { code: '800.100.151', description: 'transaction declined (invalid card)' }, id: CHECKOUT_ID, paymentBrand: 'GOOGLEPAY' }, 400);
    const { el, fetchStub } = await walletWidget({ respond });
    restore.push(pr.restore, fetchStub.restore);
    const buttons = one<WalletButtons>(el, 'pw-wallet-buttons');

    walletButtons(el)[0]!.click();
    await waitUntil(() => buttons.alert !== '', 'no message');
    await settle(el);
    expect(buttons.shadowRoot!.activeElement === walletButtons(el)[0], 'the focus is on the wallet button').to.equal(true);
  });

  it('tells the shop and the screen reader why Apple Pay failed when the gateway refuses the merchant validation, and gives the focus back', async () => {
    const pr = stubPaymentRequest({ [APPLE]: true }, { details: APPLE_DETAILS, validationURL: 'https://apple-pay-gateway.apple.com/paymentservices/startSession' });
    const respond: Responder = () => json({ result: { code: '600.200.201', description: 'Channel/Merchant not configured for this payment method' } }, 400);
    const { el, fetchStub } = await walletWidget({ respond });
    restore.push(pr.restore, fetchStub.restore);
    const error = oneEvent(el, 'pw-error');

    walletButtons(el)[0]!.click();
    const { detail } = await error;
    expect(detail).to.deep.equal({ code: '600.200.201', message: 'Payment method not available.' });
    await settle(el);
    expect(el.announcer.message).to.equal('Payment method not available.');
    const buttons = one<WalletButtons>(el, 'pw-wallet-buttons');
    expect(buttons.shadowRoot!.activeElement === walletButtons(el)[0], 'the focus is on the wallet button').to.equal(true);
    expect(paymentCalls(fetchStub.calls)).to.have.length(0);
  });

  it('keeps the wallet buttons when registrations.hideInitialPaymentForms hides the card and other forms (express buttons)', async () => {
    const pr = stubPaymentRequest({ [GOOGLE]: true });
    const { el, fetchStub } = await walletWidget({ form: { registrations: REGISTRATIONS }, options: { registrations: { hideInitialPaymentForms: true } } });
    restore.push(pr.restore, fetchStub.restore);
    expect(walletButtons(el).map((b) => b.textContent)).to.deep.equal(['Pay with Google Pay']);
    expect(all(el, 'pw-registrations')).to.have.length(1);
    expect(all(el, 'pw-card-form, fieldset[part="methods"]')).to.have.length(0);
    await expect(el).to.be.accessible();
  });
  it('says the wallet is not available when it refuses to show its sheet, which is not the shopper closing it', async () => {
    const pr = stubPaymentRequest({ [GOOGLE]: true }, { error: 'InvalidStateError' });
    const { el, fetchStub } = await walletWidget();
    restore.push(pr.restore, fetchStub.restore);
    const error = oneEvent(el, 'pw-error');

    walletButtons(el)[0]!.click();
    expect((await error).detail).to.deep.equal({ code: '', message: 'Payment method not available.' });
    await settle(el);
    expect(one(one(el, 'pw-wallet-buttons'), '[part="alert"]').textContent).to.equal('Payment method not available.');
    expect(el.announcer.message).to.equal('Payment method not available.');
    expect(paymentCalls(fetchStub.calls)).to.have.length(0);
    expect(walletButtons(el)[0]!.getAttribute('aria-disabled')).to.equal('false');
  });

  it('disables the wallet buttons once the checkout has expired: a press opens no sheet and says so', async () => {
    const pr = stubPaymentRequest({ [GOOGLE]: true }, { details: GOOGLE_DETAILS });
    // No time left by the gateway's clock (its own date, not the browser's).
    const { el, fetchStub } = await walletWidget({ form: { timestamp: '2001-02-03 04:05:06+0000', expiresAt: '2001-02-03 04:05:06+0000' } });
    restore.push(pr.restore, fetchStub.restore);
    expect(walletButtons(el).map((b) => b.getAttribute('aria-disabled'))).to.deep.equal(['true']);
    expect(el.announcer.message).to.equal('Session expired. Reload the page.');
    el.announcer.clear();

    walletButtons(el)[0]!.click();
    await settle(el);
    expect(pr.requests.some((r) => r.shown)).to.equal(false);
    expect(paymentCalls(fetchStub.calls)).to.have.length(0);
    expect(el.announcer.message).to.equal('Session expired. Reload the page.');
    await expect(el).to.be.accessible();
  });
});
