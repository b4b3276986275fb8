import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/widget/index.ts';
import { PaymentWidget } from '../../src/widget/payment-widget/payment-widget.component.ts';
import type { WpwlOptions } from '../../src/widget/options.ts';
import { all, CHECKOUT_ID, GATEWAY, settle, stubFetch } from './support.ts';

/** Counts the window's message listeners the widget adds and removes. */
function countMessageListeners() {
  const add = window.addEventListener;
  const remove = window.removeEventListener;
  const live = new Set<unknown>();
  window.addEventListener = function (this: Window, ...args: Parameters<typeof add>) {
    if (args[0] === 'message') live.add(args[1]);
    return add.apply(this, args);
  } as typeof add;
  window.removeEventListener = function (this: Window, ...args: Parameters<typeof remove>) {
    if (args[0] === 'message') live.delete(args[1]);
    return remove.apply(this, args);
  } as typeof remove;
  return { live, restore: () => Object.assign(window, { addEventListener: add, removeEventListener: remove }) };
}

describe('classic form mount (paymentWidgets.js)', () => {
  let fetchStub: ReturnType<typeof stubFetch>;
  let listeners: ReturnType<typeof countMessageListeners>;
  beforeEach(() => {
    fetchStub = stubFetch();
    listeners = countMessageListeners();
    PaymentWidget.defaultGateway = GATEWAY;
  });
  afterEach(() => {
    window.wpwl!.unload();
    delete window.wpwlOptions;
    fetchStub.restore();
    listeners.restore();
  });

  const shopForm = () =>
    fixture<HTMLFormElement>(html`<div>
      <form action="https://shop.example/result" class="paymentWidgets" data-brands="VISA MASTER DIRECTDEBIT_SEPA" data-checkout-id=${CHECKOUT_ID}></form>
    </div>`);

  it('loaded a second time, the script takes over: one widget per form, and unload removes it', async () => {
    const page = await shopForm();
    window.wpwl!.mount();
    const first = window.wpwl!;
    expect(page.querySelectorAll('payment-widget')).to.have.length(1);
    // A second copy of the script: a new module instance, as a second <script> element is.
    await import(`../../src/widget/index.ts?copy=${Date.now()}`);
    expect(window.wpwl).to.not.equal(first);
    expect(page.querySelectorAll('payment-widget')).to.have.length(1);
    window.wpwl!.unload();
    expect(page.querySelectorAll('payment-widget')).to.have.length(0);
  });

  it('mounts a widget into form.paymentWidgets with wpwlOptions and calls its callbacks', async () => {
    const calls: string[] = [];
    window.wpwlOptions = {
      locale: 'fr',
      showCVVHint: true,
      onReady: () => calls.push('ready'),
      onBeforeSubmitCard: () => {
        calls.push('before');
        return false;
      },
      onError: (error) => calls.push(`error ${error.code}`),
    } satisfies WpwlOptions;
    const page = await shopForm();
    window.wpwl!.mount();
    const el = page.querySelector('payment-widget')!;
    expect(el.parentElement!.matches('form.paymentWidgets')).to.equal(true);
    expect(el.checkoutId).to.equal(CHECKOUT_ID);
    expect(el.brands).to.equal('VISA MASTER DIRECTDEBIT_SEPA');
    expect(el.action).to.equal('https://shop.example/result');
    await waitUntil(() => el.checkout !== undefined);
    await settle(el);
    expect(el.getAttribute('lang')).to.equal('fr');
    expect(all(el, '[part="hint"]')).to.have.length(1);

    // pw-submit for a card asks onBeforeSubmitCard; false cancels.
    const proceed = el.dispatchEvent(new CustomEvent('pw-submit', { detail: { method: 'card' }, cancelable: true }));
    expect(proceed).to.equal(false);
    el.dispatchEvent(new CustomEvent('pw-ready'));
    el.dispatchEvent(new CustomEvent('pw-error', { detail: { code: '800.100.152', message: 'x' } }));
    expect(calls).to.deep.equal(['before', 'ready', 'error 800.100.152']);
    await expect(page).to.be.accessible();
  });

  it('warns in development about unknown options', async () => {
    const warn = console.warn;
    const warnings: string[] = [];
    console.warn = (message: string) => void warnings.push(message);
    try {
      window.wpwlOptions = { brandDetectionType: 'binlist' } as WpwlOptions;
      await fixture(html`<form class="paymentWidgets" data-brands="VISA" data-checkout-id=${CHECKOUT_ID}></form>`);
      window.wpwl!.mount();
      expect(warnings.some((w) => w.includes('wpwlOptions.brandDetectionType'))).to.equal(true);
    } finally {
      console.warn = warn;
    }
  });

  /** Mounts into `form`, and answers what the shop learnt: onError calls, console errors, the alert. */
  async function mountFailing(form: ReturnType<typeof html>) {
    const error = console.error;
    const logged: string[] = [];
    console.error = (message: string) => void logged.push(message);
    const errors: unknown[] = [];
    window.wpwlOptions = { onError: (detail) => errors.push(detail) };
    try {
      const page = await fixture<HTMLFormElement>(form);
      window.wpwl!.mount();
      const el = page.querySelector('payment-widget')!;
      await waitUntil(() => errors.length > 0, 'no onError');
      await settle(el);
      return { el, errors, logged, alert: all(el, '[part="alert"]').map((a) => a.textContent) };
    } finally {
      console.error = error;
    }
  }

  it('says a form without a checkout id cannot be loaded: the alert, pw-error and onError, and why in the console', async () => {
    const { el, errors, logged, alert } = await mountFailing(html`<form class="paymentWidgets" data-brands="VISA"></form>`);
    expect(errors).to.deep.equal([{ code: '', message: 'The payment form could not be loaded.' }]);
    expect(alert).to.deep.equal(['The payment form could not be loaded.']);
    expect(logged.some((m) => m.includes('no checkout id'))).to.equal(true);
    expect(all(el, 'iframe')).to.have.length(0);
    expect(fetchStub.calls.filter((call) => call.url.endsWith('/form'))).to.have.length(0);
  });

  it('finds its gateway and checkout id from a <script type="module"> (no currentScript), and says so when no script tells them', async () => {
    // An element the browser does not run (unknown type) stands for the module script.
    const script = document.createElement('script');
    script.type = 'text/x-not-run';
    script.src = `${GATEWAY}/v1/paymentWidgets.js?checkoutId=${CHECKOUT_ID}`;
    document.head.append(script);
    PaymentWidget.defaultGateway = '';
    const page = await fixture<HTMLDivElement>(html`<div><form class="paymentWidgets" data-brands="VISA"></form></div>`);
    try {
      await import(`../../src/widget/index.ts?module=${Date.now()}`);
      expect(PaymentWidget.defaultGateway).to.equal(GATEWAY);
      const el = page.querySelector('payment-widget')!;
      expect(el.checkoutId).to.equal(CHECKOUT_ID);
      await waitUntil(() => el.checkout !== undefined);
      expect(fetchStub.calls[0]!.url).to.equal(`${GATEWAY}/v1/checkouts/${CHECKOUT_ID}/form`);
    } finally {
      window.wpwl!.unload();
      script.remove();
      page.remove();
    }

    // No such script at all: neither the shop's origin nor silence.
    PaymentWidget.defaultGateway = '';
    fetchStub.calls.length = 0;
    await import(`../../src/widget/index.ts?none=${Date.now()}`);
    const { errors, logged, alert } = await mountFailing(html`<form class="paymentWidgets" data-brands="VISA" data-checkout-id=${CHECKOUT_ID}></form>`);
    expect(errors).to.have.length(1);
    expect(alert).to.deep.equal(['The payment form could not be loaded.']);
    expect(logged.some((m) => m.includes('cannot tell the gateway'))).to.equal(true);
    expect(fetchStub.calls.filter((call) => call.url.endsWith('/form'))).to.have.length(0);
  });

  it('unloads every widget, frame and listener, and mounts again without a reload', async () => {
    const page = await shopForm();
    const before = listeners.live.size;
    for (let cycle = 0; cycle < 5; cycle++) {
      window.wpwl!.mount();
      const el = page.querySelector('payment-widget')!;
      await waitUntil(() => el.checkout !== undefined);
      await settle(el);
      expect(all(el, 'iframe')).to.have.length(2);
      expect(listeners.live.size).to.be.greaterThan(before);
      // Mounting again replaces the widget rather than adding a second one.
      window.wpwl!.mount();
      expect(page.querySelectorAll('payment-widget')).to.have.length(1);
      await settle(page.querySelector('payment-widget')!);
      window.wpwl!.unload();
      expect(page.querySelectorAll('payment-widget')).to.have.length(0);
      expect(all(document, 'iframe')).to.have.length(0);
      expect(listeners.live.size).to.equal(before);
    }
    window.wpwl!.mount();
    await waitUntil(() => page.querySelector('payment-widget')?.checkout !== undefined);
    await settle(page.querySelector('payment-widget')!);
    await expect(page).to.be.accessible();
  });
});
