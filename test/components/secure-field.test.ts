// The frame page's script, run in the test page: its "parent" is a same-origin iframe window,
// its gateway is this page's origin with fetch stubbed.
import { expect, waitUntil } from '@open-wc/testing';
import { readSettings, SecureField } from '../../src/secure/secure-field.ts';
import type { FrameMessage } from '../../src/core/messages.ts';
import { CHECKOUT_ID, json, type } from './support.ts';

const channel = 'abcdef0123456789abcdef0123456789';

describe('secure card field (frame page script)', () => {
  let parent: HTMLIFrameElement;
  let received: FrameMessage[];
  let field: SecureField;
  let input: HTMLInputElement;
  /** What the frame showed before the page configured it. */
  let inputBeforeConfigure: Element | null;
  const originalFetch = window.fetch;

  before(async () => {
    parent = document.createElement('iframe');
    parent.title = 'fake shop page';
    document.body.append(parent);
    received = [];
    parent.contentWindow!.addEventListener('message', (event) => received.push(event.data));
    field = new SecureField({ field: 'number', channel, origin: location.origin, locale: 'en', checkoutId: CHECKOUT_ID }, parent.contentWindow!);
    await waitUntil(() => received.length >= 2);
    inputBeforeConfigure = document.querySelector('#pw-input');
    // The widget configures a frame once its form shows (the frame shows its input then).
    window.dispatchEvent(
      new MessageEvent('message', {
        data: { type: 'configure', channel, locale: 'en', label: 'Card number', placeholder: '', style: {} },
        origin: location.origin,
        source: parent.contentWindow,
      }),
    );
    input = document.querySelector<HTMLInputElement>('#pw-input')!;
  });
  after(() => {
    window.fetch = originalFetch;
  });

  /** A message "from the shop page" (the fake parent window). */
  const fromParent = (data: unknown, origin = location.origin, source: MessageEventSource | null = parent.contentWindow) =>
    window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
  const lastState = () => [...received].reverse().find((m) => m.type === 'state')!;

  it('reads its settings from the frame page (data attributes, else the URL)', () => {
    const root = document.documentElement;
    expect(readSettings(document, `?field=cvv&channel=${channel}&origin=https%3A%2F%2Fshop.example&locale=de&checkoutId=${CHECKOUT_ID}`)).to.deep.equal({
      field: 'cvv',
      channel,
      origin: 'https://shop.example',
      locale: 'de',
      checkoutId: CHECKOUT_ID,
    });
    root.dataset.field = 'number';
    root.dataset.channel = channel;
    root.dataset.origin = 'https://shop.example';
    try {
      expect(readSettings(document, `?field=cvv&channel=${channel}&origin=https%3A%2F%2Fevil.example`)!.origin).to.equal('https://shop.example');
      expect(readSettings(document, '')!.field).to.equal('number');
      root.dataset.origin = 'https://shop.example/path';
      expect(readSettings(document, ''), 'an origin, not a URL').to.equal(null);
    } finally {
      delete root.dataset.field;
      delete root.dataset.channel;
      delete root.dataset.origin;
    }
    expect(readSettings(document, '?field=number&channel=short&origin=https%3A%2F%2Fshop.example')).to.equal(null);
  });

  it('says it is ready at once and shows its input only once the page configured it', () => {
    // A frame loads while the widget's form is still hidden (the form data loading): until the
    // widget shows its form and configures the frame, there is nothing to focus or type into.
    expect(received[0]).to.deep.equal({ type: 'ready', channel, field: 'number' });
    expect(inputBeforeConfigure).to.equal(null);
    expect(input.isConnected).to.equal(true);
  });

  it('says it is ready and describes its input for assistive technology', async () => {
    expect(received[0]).to.deep.equal({ type: 'ready', channel, field: 'number' });
    expect(input.getAttribute('autocomplete')).to.equal('cc-number');
    expect(input.getAttribute('inputmode')).to.equal('numeric');
    expect(input.getAttribute('dir')).to.equal('ltr');
    expect(input.getAttribute('aria-invalid')).to.equal('false');
    expect(document.querySelector('label[for="pw-input"]')!.textContent).to.equal('Card number');
    // Hidden holder and expiry inputs for the browser's autofill, out of the tab order.
    const autofill = [...document.querySelectorAll<HTMLInputElement>('[aria-hidden="true"] input')];
    expect(autofill.map((i) => [i.autocomplete, i.tabIndex])).to.deep.equal([
      ['cc-name', -1],
      ['cc-exp', -1],
    ]);
    await expect(document.querySelector('form')).to.be.accessible();
  });

  it('takes the widget\'s colour scheme on its root, so that the embedding iframe shows no opaque backdrop', () => {
    const scheme = () => getComputedStyle(document.documentElement).colorScheme;
    fromParent({ type: 'configure', channel, locale: 'en', label: 'Card number', placeholder: '', style: {}, colorScheme: 'dark' });
    expect(scheme()).to.equal('dark');
    fromParent({ type: 'configure', channel, locale: 'en', label: 'evil', placeholder: '', style: {}, colorScheme: 'dark light; color: red' });
    expect(scheme()).to.equal('dark');
    expect(input.labels![0]!.textContent).to.equal('Card number');
    fromParent({ type: 'configure', channel, locale: 'en', label: 'Card number', placeholder: '', style: {}, colorScheme: 'light' });
    expect(scheme()).to.equal('light');
    fromParent({ type: 'configure', channel, locale: 'en', label: 'Card number', placeholder: '', style: {} });
    expect(scheme()).to.equal('normal');
  });

  it('applies configure from the page: label, placeholder, error text, tokens through a constructed sheet', async () => {
    fromParent({ type: 'configure', channel, locale: 'ar', label: 'رقم البطاقة', placeholder: '1234 1234 1234 1234', ariaDescribedBy: 'أدخل رقم بطاقة صالحًا.', invalid: true, style: { '--pw-color-text': 'rgb(1, 2, 3)' } });
    expect(document.querySelector('label')!.textContent).to.equal('رقم البطاقة');
    expect(input.placeholder).to.equal('1234 1234 1234 1234');
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    expect(document.getElementById(input.getAttribute('aria-describedby')!)!.textContent).to.equal('أدخل رقم بطاقة صالحًا.');
    expect(document.documentElement.lang).to.equal('ar');
    expect(document.documentElement.dir).to.equal('ltr');
    expect(getComputedStyle(input).color).to.equal('rgb(1, 2, 3)');
    expect(input.hasAttribute('style')).to.equal(false);

    // From another origin, another window or with an unsafe token: ignored.
    fromParent({ type: 'configure', channel, locale: 'en', label: 'evil', placeholder: '', style: {} }, 'https://evil.example');
    fromParent({ type: 'configure', channel, locale: 'en', label: 'evil', placeholder: '', style: {} }, location.origin, window);
    fromParent({ type: 'configure', channel, locale: 'en', label: 'evil', placeholder: '', style: { '--pw-color-text': 'red;}*{display:none' } });
    expect(document.querySelector('label')!.textContent).to.equal('رقم البطاقة');

    fromParent({ type: 'configure', channel, locale: 'en', label: 'Card number', placeholder: '', invalid: false, style: {} });
    expect(input.getAttribute('aria-invalid')).to.equal('false');
    expect(input.hasAttribute('aria-describedby')).to.equal(false);
    await expect(document.querySelector('form')).to.be.accessible();
  });

  it('titles its page with the label in the widget\u2019s language, not the English the gateway served it with', () => {
    // The frame page comes titled "Card number" whatever its lang; assistive technology may read
    // the title of a frame's document, in the language of its lang attribute.
    fromParent({ type: 'configure', channel, locale: 'de', label: 'Kartennummer', placeholder: '', style: {} });
    expect([document.documentElement.lang, document.title]).to.deep.equal(['de', 'Kartennummer']);
    fromParent({ type: 'configure', channel, locale: 'en', label: 'Card number, Visa', placeholder: '', style: {} });
    expect([document.documentElement.lang, document.title]).to.deep.equal(['en', 'Card number, Visa']);
    fromParent({ type: 'configure', channel, locale: 'en', label: 'Card number', placeholder: '', style: {} });
  });

  it('shows focus on its input in error too: a ring in the focus colour that no error style hides', async () => {
    fromParent({ type: 'configure', channel, locale: 'en', label: 'Card number', placeholder: '', invalid: true, style: { '--pw-color-focus': 'rgb(0, 0, 255)' } });
    input.blur();
    const ring = () => {
      const style = getComputedStyle(input);
      return `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`;
    };
    expect(ring()).to.match(/^none /);
    input.focus();
    expect(ring()).to.equal('solid 2px rgb(0, 0, 255)');
    input.blur();
    fromParent({ type: 'configure', channel, locale: 'en', label: 'Card number', placeholder: '', invalid: false, style: {} });
  });

  it('groups the digits, maps other digit scripts, and reports state without digits', async () => {
    type(input, '٤٢٠٠٠٠٠٠٠٠٠٠٠٠٠٠');
    expect(input.value).to.equal('4200 0000 0000 0000');
    await waitUntil(() => lastState()?.type === 'state' && (lastState() as { valid: boolean }).valid);
    expect(lastState()).to.deep.equal({ type: 'state', channel, field: 'number', empty: false, valid: true, complete: false, brand: 'VISA', cvvLength: 3 });
    type(input, '3782 822463 10005');
    await waitUntil(() => (lastState() as { brand?: string }).brand === 'AMEX');
    expect(input.value).to.equal('3782 822463 10005');
    expect(lastState()).to.include({ valid: true, complete: true, cvvLength: 4 });
    type(input, '4200 0000 0000 0001');
    await waitUntil(() => (lastState() as { brand?: string }).brand === 'VISA');
    expect(lastState()).to.include({ valid: false });
    expect(JSON.stringify(received)).to.not.match(/42000|0000 0000|37828/);
    type(input, '4200000000000000');
    await waitUntil(() => (lastState() as { valid: boolean }).valid);
    await expect(document.querySelector('form')).to.be.accessible();
  });

  it('tells the page when the shopper presses Enter (the page submits its form), not while composing', async () => {
    const enters = () => received.filter((m) => m.type === 'enter');
    const before = enters().length;
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', isComposing: true, bubbles: true }));
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
    const pressed = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
    input.dispatchEvent(pressed);
    await waitUntil(() => enters().length > before);
    expect(enters().slice(before)).to.deep.equal([{ type: 'enter', channel, field: 'number' }]);
    expect(pressed.defaultPrevented).to.equal(true);
  });

  it('pays with the page’s Idempotency-Key, the cvv from the other frame, and retries once with the same key', async () => {
    // The cvv frame's side of the BroadcastChannel.
    const cvvFrame = new BroadcastChannel(`pw-${channel}`);
    cvvFrame.onmessage = (event) => {
      if (event.data.type === 'cvv-request') cvvFrame.postMessage({ type: 'cvv', value: '123' });
    };
    cvvFrame.postMessage({ type: 'cvv', value: '' });
    const requests: { url: string; init: RequestInit }[] = [];
    window.fetch = (async (url: RequestInfo | URL, init: RequestInit = {}) => {
      requests.push({ url: String(url), init });
      if (requests.length === 1) throw new TypeError('Failed to fetch');
      return json({ result: { code: '000.100.110', description: 'ok' }, id: CHECKOUT_ID, redirect: { url: 'https://shop.example/r' } });
    }) as typeof fetch;
    await new Promise((resolve) => setTimeout(resolve, 50));

    fromParent({ type: 'submit', channel, idempotencyKey: 'pw-key-1', fields: { 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034' } });
    await waitUntil(() => received.some((m) => m.type === 'submitted'), 'no submitted message', { timeout: 5000 });
    cvvFrame.close();

    expect(requests).to.have.length(2);
    for (const request of requests) {
      expect(request.url).to.equal(`/v1/checkouts/${CHECKOUT_ID}/payment`);
      expect(request.init.method).to.equal('POST');
      expect(request.init.credentials).to.equal('omit');
      expect((request.init.headers as Record<string, string>)['Idempotency-Key']).to.equal('pw-key-1');
      const body = Object.fromEntries(new URLSearchParams(request.init.body as string));
      expect(Object.fromEntries(Object.entries(body).filter(([name]) => !name.startsWith('customer.browser.')))).to.deep.equal({
        'card.holder': 'Jane Jones',
        'card.expiryMonth': '05',
        'card.expiryYear': '2034',
        'card.number': '4200000000000000',
        paymentBrand: 'VISA',
        'card.cvv': '123',
      });
      // Browser data for 3-D Secure; full page until configure names a window; no Accept header in this page.
      expect(body).to.deep.include({ 'customer.browser.userAgent': navigator.userAgent, 'customer.browser.javaEnabled': 'false', 'customer.browser.challengeWindow': '5' });
      expect(body).to.not.have.property('customer.browser.acceptHeader');
    }
    const submitted = received.find((m) => m.type === 'submitted');
    expect(submitted).to.deep.equal({ type: 'submitted', channel, status: 200, body: { result: { code: '000.100.110', description: 'ok' }, id: CHECKOUT_ID, redirect: { url: 'https://shop.example/r' } } });
    await expect(document.querySelector('form')).to.be.accessible();
  });

  it('sends the 3-D Secure browser data with the payment: the page’s Accept header and the challenge window from configure', async () => {
    // A second frame, on a channel of its own, whose page has the Accept header the gateway wrote into it.
    const other = 'fedcba9876543210fedcba9876543210';
    const root = document.documentElement;
    root.dataset.accept = 'text/html,application/xhtml+xml,*/*;q=0.8';
    const settings = readSettings(document, `?field=number&channel=${other}&origin=${encodeURIComponent(location.origin)}&checkoutId=${CHECKOUT_ID}`)!;
    delete root.dataset.accept;
    expect(settings.accept).to.equal('text/html,application/xhtml+xml,*/*;q=0.8');
    const forms = document.querySelectorAll('form').length;
    new SecureField(settings, parent.contentWindow!);
    const requests: string[] = [];
    window.fetch = (async (_url: RequestInfo | URL, init: RequestInit = {}) => {
      requests.push(init.body as string);
      return json({ result: { code: '000.200.000' }, id: CHECKOUT_ID, redirect: { url: 'https://gateway.example/v1/threeds/a/authenticate', parameters: [{ name: 'token', value: 't' }] } });
    }) as typeof fetch;
    try {
      // The page has room for 390×400 (2).
      fromParent({ type: 'configure', channel: other, locale: 'en', label: 'Card number', placeholder: '', style: {}, challengeWindow: '2' });
      const form = document.querySelectorAll('form')[forms]!;
      type(form.querySelector<HTMLInputElement>('input')!, '4200000000000091');
      fromParent({ type: 'submit', channel: other, idempotencyKey: 'pw-key-3ds', fields: { 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'customer.browser.timezone': '999' } });
      await waitUntil(() => requests.length === 1, 'the frame paid', { timeout: 5000 });
      expect(Object.fromEntries(new URLSearchParams(requests[0]))).to.deep.include({
        'card.number': '4200000000000091',
        'customer.browser.acceptHeader': 'text/html,application/xhtml+xml,*/*;q=0.8',
        'customer.browser.language': navigator.language.split('-').slice(0, 2).join('-'),
        'customer.browser.screenHeight': String(screen.height),
        'customer.browser.screenWidth': String(screen.width),
        'customer.browser.screenColorDepth': String(screen.colorDepth),
        // The frame's own clock wins over anything the page sent.
        'customer.browser.timezone': String(new Date().getTimezoneOffset()),
        'customer.browser.userAgent': navigator.userAgent,
        'customer.browser.javaEnabled': 'false',
        'customer.browser.challengeWindow': '2',
      });
      // A window that is not one of the five codes is refused with the whole configure.
      fromParent({ type: 'configure', channel: other, locale: 'en', label: 'evil', placeholder: '', style: {}, challengeWindow: '02' });
      expect(form.querySelector('label')!.textContent).to.equal('Card number');
    } finally {
      document.querySelectorAll('form')[forms]?.remove();
    }
    await expect(document.querySelector('form')).to.be.accessible();
  });

  it('refuses to send digits the page asks for, and payment fields it may not set', async () => {
    const before = received.length;
    window.fetch = (() => Promise.reject(new Error('must not be called'))) as typeof fetch;
    fromParent({ type: 'submit', channel, idempotencyKey: 'k', fields: { 'card.number': '4111111111111111' } });
    fromParent({ type: 'submit', channel, idempotencyKey: 'k', fields: { registrationId: 'a'.repeat(32) } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(received.length).to.equal(before);
    expect(field).to.be.instanceOf(SecureField);
    await expect(document.querySelector('form')).to.be.accessible();
  });

  it('forwards what the browser autofilled into the hidden holder and expiry inputs', async () => {
    const [name, expiry] = document.querySelectorAll<HTMLInputElement>('[aria-hidden="true"] input');
    name!.value = 'Jane Jones';
    expiry!.value = '05/34';
    expiry!.dispatchEvent(new Event('change'));
    await waitUntil(() => received.some((m) => m.type === 'autofill'));
    expect(received.find((m) => m.type === 'autofill')).to.deep.equal({
      type: 'autofill',
      channel,
      fields: { 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034' },
    });
    await expect(document.querySelector('form')).to.be.accessible();
  });
});
