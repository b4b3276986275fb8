// The widget's side of 3-D Secure and other redirects (docs/threeds-protocol.md): the challenge
// window it tells the paying frame, the POST of redirect.parameters into a frame of that size
// inside the widget or at the top level, and the webview page's form data held in the page.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { executeServerCommand, sendKeys } from '@web/test-runner-commands';
import type { CardForm } from '../../src/widget/card/card-form.component.ts';
import type { ConfigureMessage, ParentMessage } from '../../src/core/messages.ts';
import type { PaymentWidget } from '../../src/widget/payment-widget/payment-widget.component.ts';
import type { WidgetOptions } from '../../src/widget/options.ts';
import { all, CHECKOUT_ID, formData, fromFrame, GATEWAY, json, one, settle, stubFetch, type, widget } from './support.ts';

const AUTHENTICATE = `${GATEWAY}/v1/threeds/0123456789abcdef0123456789abcdef/authenticate`;
const pending = (parameters: unknown[] = [{ name: 'token', value: 'opaque-1' }]) => ({
  result: { code: '000.200.000', description: 'transaction pending' },
  id: CHECKOUT_ID,
  redirect: { url: AUTHENTICATE, parameters },
});

interface Submitted {
  method: string;
  action: string;
  target: string;
  fields: Record<string, string>;
  connected: boolean;
}

/** Forms the widget submits, recorded instead of sent (the test page must stay where it is). */
function recordSubmits() {
  const submitted: Submitted[] = [];
  const original = HTMLFormElement.prototype.submit;
  HTMLFormElement.prototype.submit = function (this: HTMLFormElement) {
    submitted.push({ method: this.method, action: this.action, target: this.target, fields: Object.fromEntries(new FormData(this) as unknown as Iterable<[string, string]>), connected: this.isConnected });
  };
  return { submitted, restore: () => (HTMLFormElement.prototype.submit = original) };
}

/** A card form in a widget `width` pixels wide, its frames ready, filled in. */
async function cardWidget(width: number, options: WidgetOptions = {}, locale = 'en') {
  const el = await widget({ brands: 'VISA MASTER PAYPAL', action: 'https://shop.example/result', options, locale });
  el.style.width = `${width}px`;
  const card = one<CardForm>(el, 'pw-card-form');
  const posted: [string, ParentMessage][] = [];
  card.frames.post = (field, message) => void posted.push([field, message]);
  const frame = async (field: 'number' | 'cvv', data: Record<string, unknown>) => {
    fromFrame(one(el, `iframe[data-field="${field}"]`), { channel: card.frames.channel, field, ...data });
    await settle(el);
  };
  await frame('number', { type: 'ready' });
  await frame('cvv', { type: 'ready' });
  await frame('number', { type: 'state', empty: false, valid: true, complete: true, brand: 'VISA', cvvLength: 3 });
  await frame('cvv', { type: 'state', empty: false, valid: true, complete: true, cvvLength: 3 });
  type(one<HTMLInputElement>(el, '#expiry'), '0534');
  type(one<HTMLInputElement>(el, '#holder'), 'Jane Jones');
  await settle(el);
  const lastConfigure = () => posted.filter(([field, m]) => field === 'number' && m.type === 'configure').map(([, m]) => m as ConfigureMessage).at(-1);
  const pay = async (answer: unknown) => {
    one<HTMLButtonElement>(el, 'button[type="submit"]').click();
    await settle(el);
    await frame('number', { type: 'submitted', status: 200, body: answer });
    await settle(el);
  };
  return { el, posted, lastConfigure, pay };
}

describe('3-D Secure and other redirects in the widget', () => {
  let fetchStub: ReturnType<typeof stubFetch>;
  let forms: ReturnType<typeof recordSubmits>;
  beforeEach(() => {
    fetchStub = stubFetch();
    forms = recordSubmits();
  });
  afterEach(() => {
    forms.restore();
    fetchStub.restore();
  });

  it('tells the paying frame the largest challenge window the widget has room for', async () => {
    expect(innerHeight).to.be.at.least(400);
    const wide = await cardWidget(440);
    expect(wide.lastConfigure()?.challengeWindow).to.equal('2');
    const narrow = await cardWidget(300);
    expect(narrow.lastConfigure()?.challengeWindow).to.equal('1');
    const tiny = await cardWidget(240);
    expect(tiny.lastConfigure()?.challengeWindow).to.equal('5');
    await expect(tiny.el).to.be.accessible();
  });

  it('declares with the payment the challenge window its form has when Pay is pressed, the one it then shows', async () => {
    const { el, posted, lastConfigure, pay } = await cardWidget(440);
    expect(lastConfigure()?.challengeWindow).to.equal('2');
    // The window was made narrower: nothing in the form renders again until Pay.
    el.style.width = '300px';
    await pay(pending());
    await waitUntil(() => forms.submitted.length === 1, 'the widget posted the redirect');
    const submit = posted.findIndex(([, m]) => m.type === 'submit');
    const declared = posted.slice(0, submit).filter(([field, m]) => field === 'number' && m.type === 'configure').map(([, m]) => (m as ConfigureMessage).challengeWindow);
    expect(declared.at(-1)).to.equal('1');
    const frame = one<HTMLIFrameElement>(el, 'iframe[part="challenge"]');
    expect([frame.width, frame.height]).to.deep.equal(['250', '400']);
  });

  it('posts the redirect parameters into a 390×400 frame inside the widget, never wider than it', async () => {
    const { el, pay } = await cardWidget(440);
    const result = new Promise<CustomEvent>((resolve) => el.addEventListener('pw-result', (event) => resolve(event as CustomEvent), { once: true }));
    await pay(pending());
    expect((await result).detail).to.deep.include({ status: 200, code: '000.200.000', method: 'card' });
    await waitUntil(() => forms.submitted.length === 1, 'the widget posted the redirect');

    const frame = one<HTMLIFrameElement>(el, 'iframe[part="challenge"]');
    expect(frame.title).to.equal('3-D Secure');
    expect([frame.width, frame.height]).to.deep.equal(['390', '400']);
    const box = frame.getBoundingClientRect();
    expect([box.width, box.height]).to.deep.equal([390, 400]);
    expect(box.width).to.be.at.most(el.getBoundingClientRect().width);
    expect(frame.getAttribute('sandbox')).to.equal('allow-scripts allow-same-origin allow-forms allow-top-navigation');
    expect(frame.hasAttribute('style')).to.equal(false);
    // The form is gone; the frame took its place and has the focus.
    expect(all(el, 'pw-card-form')).to.have.length(0);
    expect(el.shadowRoot!.activeElement).to.equal(frame);

    expect(forms.submitted[0]).to.deep.equal({ method: 'post', action: AUTHENTICATE, target: frame.name, fields: { token: 'opaque-1' }, connected: true });
    expect(frame.name).to.match(/^pw-[0-9a-f]{16}$/);
    expect(all(el, 'form')).to.have.length(0);
    await expect(el).to.be.accessible();
  });

  it('gives the focus to the challenge page of another site once it loaded: the first Tab stays in it, not on Cancel', async () => {
    forms.restore();
    // The test server on another host name: another site, as the gateway is for a shop.
    const other = `${location.protocol}//${location.hostname === 'localhost' ? '127.0.0.1' : 'localhost'}:${location.port}`;
    const heard: { challenge: string; text?: string }[] = [];
    // As a shopper's tab is the focused one; after other test files this page may not be.
    await executeServerCommand('pw-focused');
    const listen = (event: MessageEvent) => event.origin === other && heard.push(event.data);
    addEventListener('message', listen);
    try {
      const { el, pay } = await cardWidget(440);
      await pay({ ...pending(), redirect: { url: `${other}/__threeds/challenge?parent=${encodeURIComponent(location.origin)}`, parameters: [{ name: 'token', value: 'opaque-1' }] } });
      await waitUntil(() => heard.some((m) => m.challenge === 'focus'), 'the challenge page never got the focus', { timeout: 5000 });
      await sendKeys({ press: 'Tab' });
      await waitUntil(() => heard.some((m) => m.challenge === 'focusin'), 'Tab did not move inside the challenge page', { timeout: 2000 });
      expect(heard.find((m) => m.challenge === 'focusin')?.text).to.equal('Approve');
      expect(el.shadowRoot!.activeElement).to.equal(one(el, 'iframe[part="challenge"]'));
    } finally {
      removeEventListener('message', listen);
    }
  });

  it('offers Cancel under the challenge: it posts the token to the authentication\'s cancel, into the frame, once', async () => {
    const { el, pay } = await cardWidget(440, {}, 'de');
    await pay(pending());
    await waitUntil(() => forms.submitted.length === 1, 'the widget posted the redirect');
    const frame = one<HTMLIFrameElement>(el, 'iframe[part="challenge"]');
    const cancel = one<HTMLButtonElement>(el, 'button[part="cancel"]');
    expect(cancel.textContent).to.equal('Abbrechen');
    expect(cancel.getBoundingClientRect().top).to.be.at.least(frame.getBoundingClientRect().bottom);
    cancel.click();
    cancel.click();
    await settle(el);
    expect(forms.submitted.slice(1)).to.deep.equal([
      { method: 'post', action: `${GATEWAY}/v1/threeds/0123456789abcdef0123456789abcdef/cancel`, target: frame.name, fields: { token: 'opaque-1' }, connected: true },
    ]);
    expect(cancel.getAttribute('aria-disabled')).to.equal('true');
    await expect(el).to.be.accessible();
    // The frame loaded again and the page is still here (the cancel failed, offline): Cancel works again.
    frame.dispatchEvent(new Event('load'));
    await settle(el);
    expect(cancel.getAttribute('aria-disabled')).to.equal('false');
    cancel.click();
    await settle(el);
    expect(forms.submitted.slice(1).map((f) => f.action)).to.deep.equal([1, 2].map(() => `${GATEWAY}/v1/threeds/0123456789abcdef0123456789abcdef/cancel`));
  });

  it('shrinks the frame with a widget made narrower after the window was chosen', async () => {
    const { el, pay } = await cardWidget(440);
    await pay(pending());
    el.style.width = '320px';
    const frame = one<HTMLIFrameElement>(el, 'iframe[part="challenge"]');
    expect(frame.getBoundingClientRect().width).to.equal(320);
    await expect(el).to.be.accessible();
  });

  it('goes to the top level when the shop asks for it (threeDSecureAtTopLevel)', async () => {
    const { el, lastConfigure, pay } = await cardWidget(440, { threeDSecureAtTopLevel: true });
    expect(lastConfigure()?.challengeWindow).to.equal('5');
    await pay(pending([{ name: 'token', value: 'opaque-2' }, { name: 'second', value: 'a&b=c' }]));
    expect(forms.submitted).to.deep.equal([{ method: 'post', action: AUTHENTICATE, target: '_top', fields: { token: 'opaque-2', second: 'a&b=c' }, connected: true }]);
    expect(all(el, 'iframe[part="challenge"]')).to.have.length(0);
    await expect(el).to.be.accessible();
  });

  it('goes to the top level by itself on a cross-origin isolated page (COOP and COEP: the issuer\u2019s pages could not be framed)', async () => {
    const own = Object.getOwnPropertyDescriptor(window, 'crossOriginIsolated');
    Object.defineProperty(window, 'crossOriginIsolated', { value: true, configurable: true });
    try {
      const { el, lastConfigure, pay } = await cardWidget(440);
      expect(lastConfigure()?.challengeWindow).to.equal('5');
      await pay(pending());
      expect(forms.submitted).to.deep.equal([{ method: 'post', action: AUTHENTICATE, target: '_top', fields: { token: 'opaque-1' }, connected: true }]);
      expect(all(el, 'iframe[part="challenge"]')).to.have.length(0);
    } finally {
      delete (window as { crossOriginIsolated?: boolean }).crossOriginIsolated;
      if (own) Object.defineProperty(window, 'crossOriginIsolated', own);
    }
    expect(crossOriginIsolated).to.equal(false);
  });

  it('sends a wallet or transfer redirect to the top level, whatever room the widget has', async () => {
    fetchStub.restore();
    fetchStub = stubFetch(formData(), () => json(pending([])));
    const el = await widget({ brands: 'PAYPAL', options: {} });
    el.style.width = '600px';
    type(one<HTMLInputElement>(el, '#account'), 'jane@example.com');
    one<HTMLButtonElement>(el, 'button[type="submit"]').click();
    await waitUntil(() => forms.submitted.length === 1, 'the widget posted the redirect');
    expect(forms.submitted[0]).to.deep.include({ method: 'post', action: AUTHENTICATE, target: '_top', fields: {} });
    await expect(el).to.be.accessible();
  });

  it('does not post when the shop cancels pw-result, nor to an address that is not http(s)', async () => {
    const first = await cardWidget(440);
    first.el.addEventListener('pw-result', (event) => event.preventDefault(), { once: true });
    await first.pay(pending());
    expect(all(first.el, 'iframe[part="challenge"]')).to.have.length(0);

    const second = await cardWidget(440);
    const error = new Promise<CustomEvent>((resolve) => second.el.addEventListener('pw-error', (event) => resolve(event as CustomEvent), { once: true }));
    await second.pay({ ...pending(), redirect: { url: 'javascript:alert(1)', parameters: [] } });
    expect(forms.submitted).to.deep.equal([]);
    // The shopper is told, and may try again.
    expect((await error).detail).to.deep.include({ code: '000.200.000', message: 'Technical error. Try again later.' });
    expect(one(second.el, '[part="alert"]').textContent).to.equal('Technical error. Try again later.');
    expect(one(second.el, 'button[type="submit"]').getAttribute('aria-disabled')).to.equal('false');
    await expect(second.el).to.be.accessible();
  });

  it('renders from the form data the page holds (the webview page) without asking the gateway', async () => {
    const data = JSON.stringify(formData({ amount: '12.34', brands: ['VISA', 'MASTER'] }));
    const el = await fixture<PaymentWidget>(html`<payment-widget checkout-id=${CHECKOUT_ID} gateway=${GATEWAY} locale="en" data-form=${data}></payment-widget>`);
    await waitUntil(() => el.checkout !== undefined, 'the form data was read');
    await settle(el);
    expect(fetchStub.calls.filter((call) => call.url.endsWith('/form'))).to.have.length(0);
    expect(el.checkout).to.deep.include({ amount: '12.34', currency: 'EUR', brands: ['VISA', 'MASTER'] });
    expect(one(el, 'button[type="submit"]').textContent).to.contain('12.34');
    expect(all(el, 'iframe[data-field]')).to.have.length(2);
    await expect(el).to.be.accessible();
  });
});
