import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import type { PaymentWidget } from '../../src/widget/payment-widget/payment-widget.component.ts';
import type { CardForm } from '../../src/widget/card/card-form.component.ts';
import { all, CHECKOUT_ID, formData, fromFrame, GATEWAY, json, localeFile, one, settle, stubFetch, type, widget } from './support.ts';

/** The method choice with this id ("saved", "card", "bank"…). */
const method = (el: PaymentWidget, id: string) => all<HTMLInputElement>(el, 'input[name="method"]').find((input) => input.value === id)!;

describe('<payment-widget>', () => {
  let fetchStub: ReturnType<typeof stubFetch>;
  afterEach(() => fetchStub.restore());

  it('offers one form per method of the given brands, narrowed to the checkout', async () => {
    fetchStub = stubFetch();
    const el = await widget({ brands: 'VISA MASTER DIRECTDEBIT_SEPA PAYPAL DINERS' });

    expect(fetchStub.calls[0]!.url).to.equal(`${GATEWAY}/v1/checkouts/${CHECKOUT_ID}/form`);
    expect(fetchStub.calls[0]!.init.credentials).to.equal('omit');
    const choices = all<HTMLInputElement>(el, 'input[name="method"]');
    expect(choices.map((c) => c.value)).to.deep.equal(['card', 'bank', 'virtual:PAYPAL']);
    expect(all(el, 'legend').map((l) => l.textContent)).to.include('Payment method');
    // DINERS is not a brand of the checkout's entity, AMEX is not on this page.
    const card = one<CardForm>(el, 'pw-card-form');
    expect(card.ctx.brands).to.deep.equal(['VISA', 'MASTER', 'DIRECTDEBIT_SEPA', 'PAYPAL']);
    expect(one(el, 'button[type="submit"]').textContent).to.equal('Pay €92.00');

    choices[1]!.click();
    await settle(el);
    // The card form stays, hidden and inert, with what the shopper typed (and its frames).
    expect(one<CardForm>(el, 'pw-card-form')).to.equal(card);
    expect(card.hidden).to.equal(true);
    expect(card.inert).to.equal(true);
    expect(all(el, 'pw-bank-account-form')).to.have.length(1);

    choices[2]!.click();
    await settle(el);
    expect(one(one(el, 'pw-virtual-account-form'), 'label').textContent).to.equal('PayPal: Account ID or email');
    await expect(el).to.be.accessible();
  });

  it('fits a 320 px wide screen with 16 px inputs and a large enough pay button', async () => {
    fetchStub = stubFetch();
    const el = await widget({ brands: 'VISA MASTER DIRECTDEBIT_SEPA PAYPAL', options: { showCVVHint: true } });
    el.parentElement!.style.width = '320px';
    for (const method of all<HTMLInputElement>(el, 'input[name="method"]')) {
      method.click();
      await settle(el);
      for (const node of [el, ...all(el, 'form, input, iframe, button, [part="field"]')]) {
        expect(node.getBoundingClientRect().right, `${node.localName}#${node.id} overflows`).to.be.at.most(el.getBoundingClientRect().left + 320.5);
      }
      for (const input of all<HTMLInputElement>(el, 'input:not([type="radio"]):not([type="checkbox"]), button')) {
        expect(parseFloat(getComputedStyle(input).fontSize), input.id).to.be.at.least(16);
      }
      const shown = all(el, 'button[type="submit"]').filter((button) => button.getClientRects().length > 0);
      expect(shown).to.have.length(1);
      expect(shown[0]!.getBoundingClientRect().height).to.be.at.least(44);
    }
    expect(el.scrollWidth).to.be.at.most(320);
    await expect(el).to.be.accessible();
  });

  it('stays within a narrow screen at a large font size (248 px of a 280 px phone, 200 %): long German words and the expiry and security code row wrap', async () => {
    fetchStub = stubFetch(formData({ billing: ['street1', 'city', 'postcode', 'country'] }));
    const root = document.documentElement;
    root.style.fontSize = '32px';
    try {
      const el = await widget({ brands: 'VISA DIRECTDEBIT_SEPA', locale: 'de', options: { showCVVHint: true, registrations: { askToSave: true } } });
      el.parentElement!.style.width = '248px';
      await waitUntil(() => one(el, '[part="billing"] legend').textContent === 'Rechnungsadresse', 'the German texts did not come');
      for (const method of all<HTMLInputElement>(el, 'input[name="method"]')) {
        method.click();
        await settle(el);
        const right = el.getBoundingClientRect().left + 248.5;
        for (const node of all(el, 'legend, label, [part="field"], input, select, iframe, button, p')) {
          if (node.getClientRects().length) expect(node.getBoundingClientRect().right, `${node.localName}#${node.id} ${node.textContent} overflows`).to.be.at.most(right);
        }
      }
      expect(el.scrollWidth).to.be.at.most(248);
    } finally {
      root.style.fontSize = '';
    }
  });

  it('renders only the form when the page offers a single method', async () => {
    fetchStub = stubFetch();
    const el = await widget({ brands: 'DIRECTDEBIT_SEPA' });
    expect(all(el, 'input[name="method"]')).to.have.length(0);
    expect(all(el, 'pw-bank-account-form')).to.have.length(1);
    await expect(el).to.be.accessible();
  });

  it('has one polite live region from the first render and announces errors into it', async () => {
    let answer: (response: Response) => void = () => {};
    fetchStub = stubFetch();
    window.fetch = (() => new Promise<Response>((resolve) => (answer = resolve))) as typeof fetch;
    const el = await fixture<PaymentWidget>(html`<payment-widget checkout-id=${CHECKOUT_ID} gateway=${GATEWAY} locale="en"></payment-widget>`);

    const regions = all(el, '[aria-live]');
    expect(regions).to.have.length(1);
    const region = regions[0]!;
    expect(region.getAttribute('aria-live')).to.equal('polite');
    expect(region.getAttribute('role')).to.equal('status');
    expect(region.textContent).to.equal('');
    expect(one(el, '[part="status"]').textContent).to.equal('Loading…');

    const error = oneEvent(el, 'pw-error');
    answer(json({ result: { code: '100.396.103', description: 'Previously pending transaction timed out' } }, 400));
    const { detail } = await error;
    await settle(el);
    expect(detail).to.deep.equal({ code: '100.396.103', message: 'Session expired. Reload the page.' });
    expect(all(el, '[aria-live]')).to.deep.equal([region]);
    expect(region.textContent).to.equal('Session expired. Reload the page.');
    expect(one(el, '[part="alert"]').textContent).to.equal('Session expired. Reload the page.');
    await expect(el).to.be.accessible();
  });

  it('says a paid checkout is paid (its form data answers the payment\u2019s code), not that the form could not be loaded', async () => {
    for (const [code, message] of [
      ['000.100.110', 'This payment is already complete.'],
      ['000.000.000', 'This payment is already complete.'],
      ['100.396.101', 'Payment cancelled.'],
      ['800.100.152', 'The payment form could not be loaded.'],
    ]) {
      fetchStub = stubFetch({ result: { code, description: '…' }, id: CHECKOUT_ID });
      const error = new Promise<CustomEvent>((resolve) => document.addEventListener('pw-error', (event) => resolve(event as CustomEvent), { once: true }));
      const el = await fixture<PaymentWidget>(html`<payment-widget checkout-id=${CHECKOUT_ID} gateway=${GATEWAY} locale="en"></payment-widget>`);
      expect((await error).detail, code).to.deep.equal({ code, message });
      await settle(el);
      expect(one(el, '[part="alert"]').textContent).to.equal(message);
      expect(all(el, 'pw-card-form')).to.have.length(0);
      fetchStub.restore();
    }
    fetchStub = stubFetch();
  });

  it('empties the live region when the shopper picks another method: an error of the last form is not read as the new one\u2019s', async () => {
    fetchStub = stubFetch();
    const el = await widget({ brands: 'VISA DIRECTDEBIT_SEPA' });
    const card = one<CardForm>(el, 'pw-card-form');
    for (const field of ['number', 'cvv'] as const) fromFrame(one(el, `iframe[data-field="${field}"]`), { channel: card.frames.channel, field, type: 'ready' });
    await settle(el);
    one<HTMLButtonElement>(card, 'button[type="submit"]').click();
    await settle(el);
    const region = one(el, '[aria-live]');
    expect(region.textContent).to.equal('Enter a valid card number.');
    method(el, 'bank').click();
    await settle(el);
    expect(region.textContent).to.equal('');
  });

  it('tells the shop when none of its brands can be paid with here: the alert, and pw-error once, never pw-ready', async () => {
    fetchStub = stubFetch();
    const events: Array<[string, unknown]> = [];
    const record = (event: Event) => events.push([event.type, (event as CustomEvent).detail]);
    document.addEventListener('pw-error', record);
    document.addEventListener('pw-ready', record);
    try {
      const el = await widget({ brands: 'FOOBAR' });
      await settle(el);
      el.requestUpdate();
      await settle(el);
      expect(one(el, '[part="alert"]').textContent).to.equal('Payment method not available.');
      expect(one(el, '[aria-live]').textContent).to.equal('Payment method not available.');
      expect(events).to.deep.equal([['pw-error', { code: '', message: 'Payment method not available.' }]]);
    } finally {
      document.removeEventListener('pw-error', record);
      document.removeEventListener('pw-ready', record);
    }
  });

  it('keeps its type and colours under a page\'s global reset (* { all: unset })', async () => {
    fetchStub = stubFetch();
    const reset = document.createElement('style');
    reset.textContent = '*, *::before, *::after { box-sizing: border-box; all: unset; }';
    document.head.append(reset);
    try {
      const el = await widget({ brands: 'VISA DIRECTDEBIT_SEPA' });
      el.style.setProperty('--pw-font-family', 'monospace');
      el.style.setProperty('--pw-color-text', 'rgb(1, 2, 3)');
      await settle(el);
      const legend = getComputedStyle(one(el, 'legend'));
      expect([legend.fontFamily, legend.color]).to.deep.equal(['monospace', 'rgb(1, 2, 3)']);
    } finally {
      reset.remove();
    }
  });

  it('keeps the text properties a shop page passes down out of the form (centred, uppercase, nowrap …)', async () => {
    fetchStub = stubFetch();
    const page = document.createElement('style');
    page.textContent = `body, payment-widget { text-align: center; text-transform: uppercase; letter-spacing: 2px; font-style: italic; font-weight: 700;
      white-space: nowrap; word-spacing: 8px; text-indent: 40px; text-shadow: 1px 1px red; }`;
    document.head.append(page);
    try {
      const el = await widget({ brands: 'VISA DIRECTDEBIT_SEPA', options: { showCVVHint: true } });
      el.parentElement!.style.width = '320px';
      await settle(el);
      for (const node of [one(el, 'legend'), one(el, '[part="label"]'), one(el, '[part="hint"]'), one(el, '.choice span')]) {
        const style = getComputedStyle(node);
        expect(
          [style.textAlign, style.textTransform, style.letterSpacing, style.fontStyle, style.whiteSpace, style.wordSpacing, style.textIndent, style.textShadow],
          node.textContent!,
        ).to.deep.equal(['start', 'none', 'normal', 'normal', 'normal', '0px', '0px', 'none']);
      }
      expect(getComputedStyle(one(el, '.choice span')).fontWeight).to.equal('400');
      // nowrap made the security code column (its hint) wider than the widget.
      for (const node of all(el, '[part="field"], iframe')) expect(node.getBoundingClientRect().right).to.be.at.most(el.getBoundingClientRect().right + 0.5);
      expect(document.documentElement.scrollWidth).to.be.at.most(document.documentElement.clientWidth);
    } finally {
      page.remove();
    }
  });

  it('never shrinks below its design on a page with html { font-size: 10px }, and grows with a larger root, frames included', async () => {
    fetchStub = stubFetch();
    const root = document.documentElement;
    try {
      for (const [rootSize, text] of [['10px', 16], ['20px', 20]] as const) {
        root.style.fontSize = rootSize;
        const el = await widget({ brands: 'VISA DIRECTDEBIT_SEPA' });
        const size = (selector: string) => parseFloat(getComputedStyle(one(el, selector)).fontSize);
        const height = (selector: string) => one(el, selector).getBoundingClientRect().height;
        expect(size('[part="label"]'), rootSize).to.be.at.least(15 * (text / 16) - 0.01);
        expect(size('.choice span'), rootSize).to.equal(text);
        for (const control of ['iframe[data-field="number"]', 'input[autocomplete="cc-name"]', 'button[type="submit"]']) {
          expect(height(control), `${control} at ${rootSize}`).to.be.at.least(44 * (text / 16) - 0.01);
        }
        expect(height('input[type="radio"]'), rootSize).to.equal(20 * (text / 16));
        // The frames resolve rem against their own document: they are sent px.
        const style = el.frameTokens();
        expect([style['--pw-font-size'], style['--pw-input-padding']], rootSize).to.deep.equal([`${text}px`, `0px ${(12 * text) / 16}px`]);
        el.remove();
      }
    } finally {
      root.style.fontSize = '';
    }
  });

  it('sends the frames every size token in px as the page resolves it, rem included (html { font-size: 62.5% })', async () => {
    fetchStub = stubFetch();
    const root = document.documentElement;
    root.style.fontSize = '62.5%';
    try {
      const el = await widget({ brands: 'VISA' });
      el.style.setProperty('--pw-radius', '1.2rem');
      el.style.setProperty('--pw-border-width', '0.2rem');
      const style = el.frameTokens();
      expect([style['--pw-radius'], style['--pw-border-width']]).to.deep.equal(['12px', '2px']);
      // What the page's own inputs show.
      const expiry = getComputedStyle(one(el, '#expiry'));
      expect([expiry.borderTopLeftRadius, expiry.borderTopWidth]).to.deep.equal(['12px', '2px']);
      el.remove();
    } finally {
      root.style.fontSize = '';
    }
  });

  it('follows a dark page\'s color-scheme, tells the frames to match it, and lets the shop\'s tokens win', async () => {
    fetchStub = stubFetch();
    const root = document.documentElement;
    root.style.colorScheme = 'dark';
    try {
      const el = await widget({ brands: 'VISA' });
      const card = one<CardForm>(el, 'pw-card-form');
      const posted: Record<string, unknown>[] = [];
      card.frames.post = (_field, message) => void posted.push(message as unknown as Record<string, unknown>);
      fromFrame(one(el, 'iframe[data-field="number"]'), { type: 'ready', channel: card.frames.channel, field: 'number' });
      await settle(el);
      expect(getComputedStyle(one(el, '[part="label"]')).color).to.equal('rgb(230, 232, 235)');
      expect(getComputedStyle(one(el, 'input[autocomplete="cc-name"]')).backgroundColor).to.equal('rgb(27, 31, 36)');
      expect(posted[0]).to.include({ type: 'configure', colorScheme: 'dark' });
      el.style.setProperty('--pw-color-text', 'rgb(1, 2, 3)');
      expect(getComputedStyle(one(el, '[part="label"]')).color).to.equal('rgb(1, 2, 3)');
      await expect(el).to.be.accessible();
    } finally {
      root.style.colorScheme = '';
    }
  });

  it('on a page of an opaque origin (sandboxed without allow-same-origin) shows only that the form cannot be loaded', async () => {
    fetchStub = stubFetch();
    const error = console.error;
    const logged: string[] = [];
    console.error = (message: string) => void logged.push(message);
    // window.origin is [Replaceable]: this page stands for one whose origin is opaque.
    Object.defineProperty(window, 'origin', { value: 'null', configurable: true });
    try {
      const el = await widget({ brands: 'VISA DIRECTDEBIT_SEPA' });
      expect(el.loadError).to.equal('The payment form could not be loaded.');
      expect(all(el, 'iframe, button, input, pw-card-form')).to.have.length(0);
      expect(fetchStub.calls.filter((call) => call.url.endsWith('/form'))).to.have.length(0);
      expect(logged.some((m) => m.includes('opaque origin'))).to.equal(true);
      await expect(el).to.be.accessible();
    } finally {
      delete (window as { origin?: string }).origin;
      console.error = error;
    }
  });

  it('formats the amount with the asked locale\u2019s region: pt-PT writes 92,00 €, pt-BR € 92,00', async () => {
    fetchStub = stubFetch();
    const portugal = await widget({ locale: 'pt-PT' });
    await waitUntil(() => /^Pagar/.test(one(portugal, 'button[type="submit"]').textContent ?? ''), 'the Portuguese texts did not come');
    expect(one(portugal, 'button[type="submit"]').textContent!.replace(/\s/g, ' ')).to.equal('Pagar 92,00 €');
    const portuguese = await widget({ locale: 'pt_BR' });
    await waitUntil(() => /^Pagar/.test(one(portuguese, 'button[type="submit"]').textContent ?? ''), 'the Portuguese texts did not come');
    expect(one(portuguese, 'button[type="submit"]').textContent!.replace(/\s/g, ' ')).to.equal('Pagar € 92,00');
  });

  it('writes the amount of a right-to-left language with its direction marks in its right-to-left texts, and as English does in English texts', async () => {
    const marks = /[\u200e\u200f\u061c]/;
    for (const [locale, currency, label] of [
      ['he', 'ILS', 'לתשלום 1,234.50 ₪'],
      ['he-IL', 'EUR', 'לתשלום 1,234.50 €'],
      ['fa', 'EUR', 'پرداخت € 1,234.50'],
      ['ar', 'EUR', 'ادفع 1,234.50 €'],
    ] as const) {
      fetchStub?.restore();
      fetchStub = stubFetch(formData({ amount: '1234.50', currency }));
      const el = await widget({ locale });
      const button = () => one(el, 'button[type="submit"]').textContent ?? '';
      expect(el.getAttribute('dir'), locale).to.equal('rtl');
      // The marks that place the amount in a right-to-left sentence stay.
      expect(marks.test(button()), `${locale}: ${JSON.stringify(button())}`).to.equal(true);
      expect(button().replace(/[\u200e\u200f\u061c]/g, '').replace(/\s/g, ' ')).to.equal(label);
    }
    // A Hebrew page whose texts cannot be had speaks English, its amount too: "Pay ₪1,234.50",
    // never "Pay  1,234.50₪" (Hebrew's format, its marks moving spaces and sign in an English sentence).
    fetchStub?.restore();
    fetchStub = stubFetch(formData({ amount: '1234.50', currency: 'ILS' }), undefined, () => json({ result: { code: '200.300.404' } }, 404));
    const english = await widget({ locale: 'he' });
    expect(english.getAttribute('dir')).to.equal('ltr');
    expect(one(english, 'button[type="submit"]').textContent).to.equal('Pay ₪1,234.50');
  });

  it('says when the gateway cannot be reached', async () => {
    fetchStub = stubFetch();
    const served = window.fetch;
    window.fetch = ((input: RequestInfo | URL, init?: RequestInit) => (String(input).endsWith('/form') ? Promise.reject(new TypeError('Failed to fetch')) : served(input, init))) as typeof fetch;
    const el = await fixture<PaymentWidget>(html`<payment-widget checkout-id=${CHECKOUT_ID} gateway=${GATEWAY} locale="de"></payment-widget>`);
    await waitUntil(() => el.loadError !== '');
    expect(el.loadError).to.equal('Keine Verbindung. Erneut versuchen.');
    await expect(el).to.be.accessible();
  });

  it('fetches the form data again once the browser is back online, saying "No connection" once meanwhile, and no longer after', async () => {
    fetchStub = stubFetch();
    const served = window.fetch;
    let online = false;
    window.fetch = ((input: RequestInfo | URL, init?: RequestInit) => (String(input).endsWith('/form') && !online ? Promise.reject(new TypeError('Failed to fetch')) : served(input, init))) as typeof fetch;
    const errors: string[] = [];
    const el = await fixture<PaymentWidget>(html`<payment-widget checkout-id=${CHECKOUT_ID} gateway=${GATEWAY} @pw-error=${(e: CustomEvent) => errors.push(e.detail.message)}></payment-widget>`);
    await waitUntil(() => el.loadError !== '');
    expect(el.loadError).to.equal('No connection. Try again.');
    await settle(el);
    expect(one(el, '[role="status"]').textContent).to.equal('No connection. Try again.');
    online = true;
    window.dispatchEvent(new Event('online'));
    await waitUntil(() => el.checkout !== undefined, 'the form data was not fetched again');
    await settle(el);
    expect(el.loadError).to.equal('');
    // The live region no longer says it either.
    expect(one(el, '[role="status"]').textContent).to.equal('');
    expect(all(el, 'iframe').length).to.equal(2);
    expect(errors).to.deep.equal(['No connection. Try again.']);
  });

  it('says "No connection" once even when a retry begins before the locale\u2019s texts have come', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const real = localeFile();
    fetchStub = stubFetch(undefined, undefined, async (call) => {
      await held;
      return real(call);
    });
    const served = window.fetch;
    let formCalls = 0;
    window.fetch = ((input: RequestInfo | URL, init?: RequestInit) => (String(input).endsWith('/form') ? (formCalls++, Promise.reject(new TypeError('Failed to fetch'))) : served(input, init))) as typeof fetch;
    const errors: string[] = [];
    const el = await fixture<PaymentWidget>(html`<payment-widget checkout-id=${CHECKOUT_ID} gateway=${GATEWAY} locale="de" @pw-error=${(e: CustomEvent) => errors.push(e.detail.message)}></payment-widget>`);
    await waitUntil(() => formCalls >= 1);
    // The browser is back, the gateway still out of reach; then the German texts come.
    window.dispatchEvent(new Event('online'));
    await waitUntil(() => formCalls >= 2);
    release();
    await waitUntil(() => el.loadError !== '', 'the form says nothing');
    expect(el.loadError).to.equal('Keine Verbindung. Erneut versuchen.');
    expect(errors).to.deep.equal(['Keine Verbindung. Erneut versuchen.']);
  });

  it('says so in English when the locale file cannot be reached either', async () => {
    fetchStub = stubFetch();
    window.fetch = (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch;
    const el = await fixture<PaymentWidget>(html`<payment-widget checkout-id=${CHECKOUT_ID} gateway=${GATEWAY} locale="de"></payment-widget>`);
    await waitUntil(() => el.loadError !== '');
    expect(el.loadError).to.equal('No connection. Try again.');
    expect(el.getAttribute('lang')).to.equal('en');
    await expect(el).to.be.accessible();
  });

  it('points the card frames at the gateway with the channel, origin, locale and checkout', async () => {
    fetchStub = stubFetch();
    const el = await widget({ brands: 'VISA MASTER' });
    const [number, cvv] = all<HTMLIFrameElement>(el, 'iframe');
    const urls = [number!, cvv!].map((frame) => new URL(frame.src));
    for (const [url, field] of [
      [urls[0]!, 'number'],
      [urls[1]!, 'cvv'],
    ] as const) {
      expect(url.origin).to.equal(GATEWAY);
      expect(url.pathname).to.equal('/v1/frames/card');
      expect(url.searchParams.get('field')).to.equal(field);
      expect(url.searchParams.get('channel')).to.match(/^[0-9a-f]{32}$/);
      expect(url.searchParams.get('origin')).to.equal(location.origin);
      expect(url.searchParams.get('locale')).to.equal('en');
      expect(url.searchParams.get('checkoutId')).to.equal(CHECKOUT_ID);
    }
    expect(urls[0]!.searchParams.get('channel')).to.equal(urls[1]!.searchParams.get('channel'));
    expect(number!.getAttribute('allow')).to.equal('payment');
    expect(number!.title).to.equal('Card number');
    expect(cvv!.title).to.equal('Security code');
    await expect(el).to.be.accessible();
  });

  it('ignores messages from another origin, another window or another channel', async () => {
    fetchStub = stubFetch();
    const el = await widget({ brands: 'VISA AMEX' });
    const card = one<CardForm>(el, 'pw-card-form');
    const number = one<HTMLIFrameElement>(el, 'iframe[data-field="number"]');
    const cvv = one<HTMLIFrameElement>(el, 'iframe[data-field="cvv"]');
    const { channel } = card.frames;
    const brands: unknown[] = [];
    el.addEventListener('pw-brand', (event) => brands.push((event as CustomEvent).detail.brand));
    const state = { type: 'state', channel, field: 'number', empty: false, valid: false, complete: false, brand: 'AMEX', cvvLength: 4 };

    fromFrame(number, state, 'https://evil.example');
    fromFrame(number, state, GATEWAY, window);
    fromFrame(number, state, GATEWAY, cvv.contentWindow);
    fromFrame(number, { ...state, channel: 'f'.repeat(32) });
    fromFrame(number, { ...state, brand: 'AMEX; color: red' });
    await settle(el);
    expect(brands).to.deep.equal([]);
    expect(card.frames.states.number).to.equal(undefined);

    fromFrame(number, state);
    await settle(el);
    expect(brands).to.deep.equal(['AMEX']);
    expect(one(el, '[part="brand"]').textContent).to.equal('American Express');
    await expect(el).to.be.accessible();
  });

  it('configures each frame once it is ready and fires pw-ready when both are', async () => {
    fetchStub = stubFetch();
    const el = await widget({ brands: 'VISA' });
    const card = one<CardForm>(el, 'pw-card-form');
    const posted: [string, Record<string, unknown>][] = [];
    card.frames.post = (field, message) => void posted.push([field, message as unknown as Record<string, unknown>]);
    let ready = 0;
    el.addEventListener('pw-ready', () => ready++);
    const { channel } = card.frames;

    fromFrame(one(el, 'iframe[data-field="number"]'), { type: 'ready', channel, field: 'number' });
    await settle(el);
    expect(ready).to.equal(0);
    expect(posted.map(([field, m]) => [field, m.type])).to.deep.equal([['number', 'configure']]);
    const configure = posted[0]![1];
    expect(configure).to.include({ channel, locale: 'en', label: 'Card number', placeholder: '1234 1234 1234 1234', invalid: false });
    expect((configure.style as Record<string, string>)['--pw-color-text']).to.equal('light-dark(#1b1f24, #e6e8eb)');
    expect(configure.colorScheme).to.equal('light');
    expect(Object.keys(configure.style as object).every((name) => name.startsWith('--pw-'))).to.equal(true);

    fromFrame(one(el, 'iframe[data-field="cvv"]'), { type: 'ready', channel, field: 'cvv' });
    await settle(el);
    expect(ready).to.equal(1);
    expect(posted.map(([field]) => field)).to.deep.equal(['number', 'cvv']);
    expect(posted[1]![1]).to.include({ label: 'Security code', placeholder: '123' });
    await expect(el).to.be.accessible();
  });

  it('is right-to-left in Arabic with the card fields left-to-right and Western digits', async () => {
    fetchStub = stubFetch();
    const el = await widget({ brands: 'VISA MASTER', locale: 'ar' });
    expect(el.getAttribute('dir')).to.equal('rtl');
    expect(el.getAttribute('lang')).to.equal('ar');
    expect(getComputedStyle(one(el, 'pw-card-form')).direction).to.equal('rtl');
    const expiry = one<HTMLInputElement>(el, '#expiry');
    expect(expiry.getAttribute('dir')).to.equal('ltr');
    expect(expiry.getAttribute('inputmode')).to.equal('numeric');
    expect(new URL(one<HTMLIFrameElement>(el, 'iframe').src).searchParams.get('locale')).to.equal('ar');
    expect(one(el, 'label[for="expiry"]').textContent).to.equal('تاريخ الانتهاء');
    // The amount keeps Western digits too.
    expect(one(el, 'button[type="submit"]').textContent).to.match(/92[.,]00/);

    const card = one<CardForm>(el, 'pw-card-form');
    const posted: Record<string, unknown>[] = [];
    card.frames.post = (_field, message) => void posted.push(message as unknown as Record<string, unknown>);
    fromFrame(one(el, 'iframe[data-field="number"]'), { type: 'ready', channel: card.frames.channel, field: 'number' });
    await settle(el);
    expect(posted[0]).to.include({ locale: 'ar', label: 'رقم البطاقة' });

    // Arabic-Indic digits typed into the expiry become Western digits.
    expiry.value = '٠٥٣٤';
    expiry.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    await settle(el);
    expect(expiry.value).to.equal('05/34');
    await expect(el).to.be.accessible();
  });

  it('uses the shop page language when no locale is given and falls back to English', async () => {
    fetchStub = stubFetch();
    document.documentElement.lang = 'pt-BR';
    try {
      const el = await fixture<PaymentWidget>(html`<payment-widget checkout-id=${CHECKOUT_ID} gateway=${GATEWAY} brands="VISA"></payment-widget>`);
      await waitUntil(() => el.checkout !== undefined);
      await settle(el);
      expect(el.getAttribute('lang')).to.equal('pt-BR');
      expect(one(el, 'label[for="holder"]').textContent).to.equal('Nome impresso no cartão');
      el.locale = 'xx';
      await settle(el);
      expect(el.getAttribute('lang')).to.equal('en');
      expect(el.getAttribute('dir')).to.equal('ltr');
      await expect(el).to.be.accessible();
    } finally {
      document.documentElement.lang = 'en';
    }
  });

  it('lets the shop replace texts with options.labels', async () => {
    fetchStub = stubFetch();
    const el = await widget({ brands: 'VISA', options: { labels: { holder: 'Cardholder', expiryDate: 'Valid thru', submit: 'Buy now', constructor: 'x', unknownKey: 'x' } } });
    expect(one(el, 'label[for="holder"]').textContent).to.equal('Cardholder');
    expect(one(el, 'label[for="expiry"]').textContent).to.equal('Valid thru');
    expect(one(el, 'button[type="submit"]').textContent).to.equal('Buy now');
    el.locale = 'constructor';
    await settle(el);
    expect(el.getAttribute('lang')).to.equal('en');
    await expect(el).to.be.accessible();
  });

  it('requests the card frames while the form data loads, hidden and inert, and shows that same form once it arrived', async () => {
    fetchStub = stubFetch();
    let answer: (response: Response) => void = () => {};
    window.fetch = (() => new Promise<Response>((resolve) => (answer = resolve))) as typeof fetch;
    const el = await fixture<PaymentWidget>(html`<payment-widget checkout-id=${CHECKOUT_ID} gateway=${GATEWAY} brands="VISA MASTER" locale="en"></payment-widget>`);
    await settle(el);
    let readyEvents = 0;
    el.addEventListener('pw-ready', () => readyEvents++);

    // The form data is not there yet, the frames are already requested (in parallel with it).
    expect(el.checkout).to.equal(undefined);
    expect(one(el, '[part="status"]').textContent).to.equal('Loading…');
    const card = one<CardForm>(el, 'pw-card-form');
    const frames = all<HTMLIFrameElement>(el, 'iframe');
    expect(frames.map((frame) => new URL(frame.src).searchParams.get('field'))).to.deep.equal(['number', 'cvv']);
    expect(card.hidden).to.equal(true);
    expect(card.inert).to.equal(true);
    expect(getComputedStyle(card).display).to.equal('none');
    // Frames ready before the form data: nothing is configured and the widget is not ready yet.
    const posted: [string, string][] = [];
    card.frames.post = (field, message) => void posted.push([field, message.type]);
    for (const field of ['number', 'cvv'] as const) fromFrame(one(el, `iframe[data-field="${field}"]`), { type: 'ready', channel: card.frames.channel, field });
    await settle(el);
    expect(posted).to.deep.equal([]);
    expect(readyEvents).to.equal(0);

    answer(json(formData()));
    await waitUntil(() => el.checkout !== undefined, 'the form data did not arrive');
    await settle(el);
    // The same form and frames (not loaded again), shown and configured; pw-ready once.
    expect(one<CardForm>(el, 'pw-card-form')).to.equal(card);
    expect(all<HTMLIFrameElement>(el, 'iframe')).to.deep.equal(frames);
    expect(card.hidden).to.equal(false);
    expect(card.inert).to.equal(false);
    expect(all(el, '[part="status"]')).to.have.length(0);
    expect(posted).to.deep.equal([
      ['number', 'configure'],
      ['cvv', 'configure'],
    ]);
    expect(readyEvents).to.equal(1);
    expect(one(el, 'button[type="submit"]').textContent).to.equal('Pay €92.00');
    await expect(el).to.be.accessible();
  });

  it('keeps the card form made while loading hidden behind saved cards, and shows it, frames and all, when the shopper picks a new card', async () => {
    const registrations = [{ id: 'aa'.repeat(16), paymentBrand: 'VISA', card: { last4Digits: '0000', expiryMonth: '05', expiryYear: '2034' } }];
    fetchStub = stubFetch();
    let answer: (response: Response) => void = () => {};
    window.fetch = (() => new Promise<Response>((resolve) => (answer = resolve))) as typeof fetch;
    const el = await fixture<PaymentWidget>(html`<payment-widget checkout-id=${CHECKOUT_ID} gateway=${GATEWAY} brands="VISA" locale="en"></payment-widget>`);
    await settle(el);
    const card = one<CardForm>(el, 'pw-card-form');
    const frames = all<HTMLIFrameElement>(el, 'iframe');
    const posted: [string, string][] = [];
    card.frames.post = (field, message) => void posted.push([field, message.type]);
    for (const field of ['number', 'cvv'] as const) fromFrame(one(el, `iframe[data-field="${field}"]`), { type: 'ready', channel: card.frames.channel, field });

    answer(json(formData({ registrations })));
    await waitUntil(() => el.checkout !== undefined, 'the form data did not arrive');
    await settle(el);
    // Saved cards first; the card form stays, hidden, inert and unconfigured.
    expect(all(el, 'pw-registrations')).to.have.length(1);
    expect(one<CardForm>(el, 'pw-card-form')).to.equal(card);
    expect(card.hidden).to.equal(true);
    expect(card.inert).to.equal(true);
    expect(getComputedStyle(card).display).to.equal('none');
    expect(posted).to.deep.equal([]);
    await expect(el).to.be.accessible();

    // A new card: the same form and frames (not loaded again), shown and configured.
    method(el, 'card').click();
    await settle(el);
    // The saved list stays too, hidden and inert (its security code frame and typing kept).
    const list = one(el, 'pw-registrations');
    expect([list.hidden, list.inert, getComputedStyle(list).display]).to.deep.equal([true, true, 'none']);
    expect(one<CardForm>(el, 'pw-card-form')).to.equal(card);
    expect(all<HTMLIFrameElement>(card, 'iframe')).to.deep.equal(frames);
    expect(card.hidden).to.equal(false);
    expect(card.inert).to.equal(false);
    expect(posted).to.deep.equal([
      ['number', 'configure'],
      ['cvv', 'configure'],
    ]);

    // Back to the saved cards and again to the card: still that form, nothing typed lost.
    type(one<HTMLInputElement>(card, '#holder'), 'Jane Jones');
    method(el, 'saved').click();
    await settle(el);
    expect(card.hidden).to.equal(true);
    method(el, 'card').click();
    await settle(el);
    expect(one<CardForm>(el, 'pw-card-form')).to.equal(card);
    expect(one<HTMLInputElement>(card, '#holder').value).to.equal('Jane Jones');
  });

  it('shows again what was typed into a form when the shopper comes back to its method, until another checkout loads', async () => {
    const registrations = [{ id: 'aa'.repeat(16), paymentBrand: 'VISA', card: { last4Digits: '0000', expiryMonth: '05', expiryYear: '2034' } }];
    fetchStub = stubFetch(formData({ registrations, billing: ['street1', 'city', 'postcode', 'country'] }));
    const el = await widget({ brands: 'VISA DIRECTDEBIT_SEPA PAYPAL' });
    type(one<HTMLInputElement>(one(el, 'pw-registrations'), '#street1'), 'Hauptstrasse 1');
    type(one<HTMLInputElement>(one(el, 'pw-card-form'), '#holder'), 'Jane Jones');
    method(el, 'bank').click();
    await settle(el);
    const typedBank = one(el, 'pw-bank-account-form');
    type(one<HTMLInputElement>(typedBank, '#iban'), 'DE89 3704 0044 0532 0130 00');
    type(one<HTMLInputElement>(typedBank, '#holder'), 'Jane Jones');
    one<HTMLInputElement>(typedBank, '#mandate').click();
    method(el, 'virtual:PAYPAL').click();
    await settle(el);
    type(one<HTMLInputElement>(el, '#account'), 'jane@example.com');

    method(el, 'bank').click();
    await settle(el);
    const bank = one(el, 'pw-bank-account-form');
    expect(one<HTMLInputElement>(bank, '#iban').value).to.equal('DE89 3704 0044 0532 0130 00');
    expect(one<HTMLInputElement>(bank, '#holder').value).to.equal('Jane Jones');
    expect(one<HTMLInputElement>(bank, '#mandate').checked).to.equal(true);
    method(el, 'virtual:PAYPAL').click();
    await settle(el);
    expect(one<HTMLInputElement>(el, '#account').value).to.equal('jane@example.com');
    method(el, 'saved').click();
    await settle(el);
    expect(one<HTMLInputElement>(one(el, 'pw-registrations'), '#street1').value).to.equal('Hauptstrasse 1');

    // Another checkout: nothing of the last one's typing.
    el.checkoutId = `${'b'.repeat(32)}.node`;
    await el.updateComplete;
    await waitUntil(() => el.checkout !== undefined, 'the form data did not load');
    await settle(el);
    expect(one<HTMLInputElement>(one(el, 'pw-registrations'), '#street1').value).to.equal('');
    expect(one<HTMLInputElement>(one(el, 'pw-card-form'), '#holder').value).to.equal('');
  });

  it('keeps the "Save for future payments" tick of a form made again (SEPA) when the shopper comes back to it', async () => {
    fetchStub = stubFetch();
    const el = await widget({ brands: 'VISA DIRECTDEBIT_SEPA', options: { registrations: { askToSave: true } } });
    method(el, 'bank').click();
    await settle(el);
    one<HTMLInputElement>(one(el, 'pw-bank-account-form'), '#save').click();
    method(el, 'card').click();
    await settle(el);
    expect(one<HTMLInputElement>(one(el, 'pw-card-form'), '#save').checked).to.equal(false);
    method(el, 'bank').click();
    await settle(el);
    expect(one<HTMLInputElement>(one(el, 'pw-bank-account-form'), '#save').checked).to.equal(true);
  });

  it('drops the card frames made while loading when the form data offers no card, or no form', async () => {
    for (const [form, shown] of [
      [formData({ brands: ['DIRECTDEBIT_SEPA'] }), 'pw-bank-account-form'],
      [{ result: { code: '100.396.103', description: 'Previously pending transaction timed out' } }, '[part="alert"]'],
    ] as const) {
      fetchStub = stubFetch();
      let answer: (response: Response) => void = () => {};
      window.fetch = (() => new Promise<Response>((resolve) => (answer = resolve))) as typeof fetch;
      const el = await fixture<PaymentWidget>(html`<payment-widget checkout-id=${CHECKOUT_ID} gateway=${GATEWAY} locale="en"></payment-widget>`);
      await settle(el);
      expect(all(el, 'iframe[data-field="number"]')).to.have.length(1);
      answer(json(form, 'brands' in form ? 200 : 400));
      await waitUntil(() => el.checkout !== undefined || el.loadError !== '', 'the form data did not arrive');
      await settle(el);
      expect(all(el, 'pw-card-form')).to.have.length(0);
      expect(all(el, 'iframe')).to.have.length(0);
      expect(all(el, shown)).to.have.length(1);
      fetchStub.restore();
    }
    fetchStub = stubFetch();
  });

  it('makes no card frames while loading for a page that offers no card brand', async () => {
    fetchStub = stubFetch();
    window.fetch = (() => new Promise<Response>(() => {})) as typeof fetch;
    const el = await fixture<PaymentWidget>(html`<payment-widget checkout-id=${CHECKOUT_ID} gateway=${GATEWAY} brands="DIRECTDEBIT_SEPA PAYPAL" locale="en"></payment-widget>`);
    await settle(el);
    expect(all(el, 'pw-card-form')).to.have.length(0);
    expect(all(el, 'iframe')).to.have.length(0);
    expect(one(el, '[part="status"]').textContent).to.equal('Loading…');
  });

  it('offers saved cards first and can hide the other forms while they are offered', async () => {
    fetchStub = stubFetch(formData({ registrations: [{ id: 'aa'.repeat(16), paymentBrand: 'VISA', card: { last4Digits: '0000', expiryMonth: '05', expiryYear: '2034' } }] }));
    const el = await widget({ brands: 'VISA DIRECTDEBIT_SEPA', options: { registrations: { hideInitialPaymentForms: true } } });
    expect(all(el, 'input[name="method"]')).to.have.length(0);
    expect(all(el, 'pw-registrations')).to.have.length(1);
    expect(all(el, 'pw-card-form')).to.have.length(0);
    await expect(el).to.be.accessible();
  });
});
