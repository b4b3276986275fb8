// The checkout's end in the widget (WCAG 2.2.1; it cannot be extended, docs/decisions.md): a
// notice 2 minutes before it, said once, and at its end Pay disabled and "Session expired" said
// without a press; never while a payment is on its way or went on, never after an unmount. The
// gateway's clock is set in 2001, far from the browser's: only its own difference counts.
import { aTimeout, expect, waitUntil } from '@open-wc/testing';
import type { CardForm } from '../../src/widget/card/card-form.component.ts';
import type { PaymentWidget } from '../../src/widget/payment-widget/payment-widget.component.ts';
import { all, CHECKOUT_ID, formData, fromFrame, GATEWAY, json, one, settle, stubFetch, type, widget, type Responder } from './support.ts';

const SOON = 'This payment page expires in less than 2 minutes.';
const EXPIRED = 'Session expired. Reload the page.';

/** The form data of a checkout with `seconds` left by the gateway's clock, in "yyyy-MM-dd HH:mm:ss+0000". */
function leftSeconds(seconds: number) {
  const now = Date.UTC(2001, 1, 3, 4, 5, 6);
  const stamp = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}+0000`;
  return formData({ timestamp: stamp(now), expiresAt: stamp(now + seconds * 1000) });
}

/** The widget's own notice above the form ('' when none). */
const notice = (el: PaymentWidget) => el.shadowRoot!.querySelector('[part="root"] > p[part="alert"]')?.textContent ?? '';
const region = (el: PaymentWidget) => el.shadowRoot!.querySelector('[role="status"]')!;
const payButtons = (el: PaymentWidget) => all<HTMLButtonElement>(el, 'button[type="submit"]');

/** What the live region says from now on, each text once it is rendered. */
function spoken(el: PaymentWidget): string[] {
  const said: string[] = [];
  new MutationObserver(() => {
    const text = region(el).textContent!.trim();
    if (text) said.push(text);
  }).observe(region(el), { subtree: true, characterData: true, childList: true });
  return said;
}

/** The card form with its frames ready and filled in; `pay` presses Pay and `answer` is the number frame's answer. */
async function card(el: PaymentWidget) {
  const form = one<CardForm>(el, 'pw-card-form');
  form.frames.post = () => undefined;
  const frame = async (field: 'number' | 'cvv', data: Record<string, unknown>) => {
    fromFrame(one(el, `iframe[data-field="${field}"]`), { channel: form.frames.channel, field, ...data });
    await settle(el);
  };
  await frame('number', { type: 'ready' });
  await frame('cvv', { type: 'ready' });
  await frame('number', { type: 'state', empty: false, valid: true, complete: true, brand: 'VISA', cvvLength: 3 });
  await frame('cvv', { type: 'state', empty: false, valid: true, complete: true, cvvLength: 3 });
  type(one<HTMLInputElement>(el, '#expiry'), '0534');
  type(one<HTMLInputElement>(el, '#holder'), 'Jane Jones');
  await settle(el);
  return {
    pay: async () => {
      one<HTMLButtonElement>(form, 'button[type="submit"]').click();
      await settle(el);
    },
    answer: (status: number, body: unknown) => frame('number', { type: 'submitted', status, body }),
  };
}

describe('the checkout\u2019s end in <payment-widget>', () => {
  let fetchStub: ReturnType<typeof stubFetch>;
  const load = async (seconds: number, attributes: Parameters<typeof widget>[0] = {}, respond?: Responder) => {
    fetchStub = stubFetch(leftSeconds(seconds), respond);
    return widget(attributes);
  };
  afterEach(() => fetchStub.restore());

  it('shows and says "expires in less than 2 minutes" once, 2 minutes before the end by the gateway\u2019s clock', async () => {
    const el = await load(121, { brands: 'VISA' });
    const said = spoken(el);
    // 2 minutes and 1 second left: nothing yet (the browser's clock, years after 2001, is not asked).
    expect(notice(el)).to.equal('');
    expect(region(el).textContent).to.equal('');
    await waitUntil(() => notice(el) === SOON, 'no notice 2 minutes before the end', { timeout: 3000 });
    await settle(el);
    expect(region(el).textContent).to.equal(SOON);
    expect(payButtons(el)[0]!.getAttribute('aria-disabled')).to.equal('false');
    await aTimeout(1200);
    expect(said).to.deep.equal([SOON]);
    await expect(el).to.be.accessible();
  });

  it('shows and says it at once in the shopper\u2019s language when less than 2 minutes are left', async () => {
    const el = await load(90, { brands: 'VISA', locale: 'de' });
    expect(notice(el)).to.equal('Diese Zahlungsseite läuft in weniger als 2 Minuten ab.');
    expect(region(el).textContent).to.equal('Diese Zahlungsseite läuft in weniger als 2 Minuten ab.');
    await expect(el).to.be.accessible();
  });

  it('at the end disables Pay and says "Session expired" without a press; a press pays nothing and says it again', async () => {
    const el = await load(2, { brands: 'VISA DIRECTDEBIT_SEPA' });
    const said = spoken(el);
    const errors: unknown[] = [];
    el.addEventListener('pw-error', (event) => errors.push((event as CustomEvent).detail));
    expect(notice(el)).to.equal(SOON);
    await waitUntil(() => notice(el) === EXPIRED, 'the end was not said', { timeout: 4000 });
    await settle(el);
    expect(said).to.deep.equal([EXPIRED]);
    // The shop hears of the end once, as of an expired checkout's load: it may make a new one.
    expect(errors).to.deep.equal([{ code: '100.396.103', message: EXPIRED }]);
    // The card form's Pay, and the SEPA form's once chosen.
    expect(payButtons(el).map((b) => b.getAttribute('aria-disabled'))).to.deep.equal(['true']);
    all<HTMLInputElement>(el, 'input[name="method"]').find((input) => input.value === 'bank')!.click();
    await settle(el);
    type(one<HTMLInputElement>(el, '#holder'), 'Jane Jones');
    type(one<HTMLInputElement>(el, '#iban'), 'DE89370400440532013000');
    one<HTMLInputElement>(el, '#mandate').click();
    await settle(el);
    const pay = one<HTMLButtonElement>(one(el, 'pw-bank-account-form'), 'button[type="submit"]');
    expect(pay.getAttribute('aria-disabled')).to.equal('true');
    pay.click();
    await aTimeout(300);
    await settle(el);
    expect(fetchStub.calls.filter((c) => c.url.endsWith('/payment'))).to.deep.equal([]);
    expect(said).to.deep.equal([EXPIRED, EXPIRED]);
    await expect(el).to.be.accessible();
  });

  it('waits for the answer of a payment on its way at the end, and says the end once it failed', async () => {
    const el = await load(2, { brands: 'VISA' });
    const { pay, answer } = await card(el);
    const said = spoken(el);
    await pay();
    await aTimeout(2500);
    // The gateway held the checkout before its end: its answer decides.
    expect(notice(el)).to.equal(SOON);
    expect(said).to.deep.equal(['Processing…']);
    await answer(400, { result: { code: '800.100.151', description: 'transaction declined (invalid card)' }, id: CHECKOUT_ID });
    expect(notice(el)).to.equal(EXPIRED);
    expect(payButtons(el)[0]!.getAttribute('aria-disabled')).to.equal('true');
    expect(region(el).textContent).to.equal(EXPIRED);
  });

  it('says nothing of the end once a payment went on to its 3-D Secure challenge', async () => {
    const el = await load(2, { brands: 'VISA' });
    el.style.width = '440px';
    const { pay, answer } = await card(el);
    const said = spoken(el);
    // The challenge's POST is not sent: the frame stays empty.
    const submit = HTMLFormElement.prototype.submit;
    HTMLFormElement.prototype.submit = () => undefined;
    await pay();
    await answer(200, { result: { code: '000.200.000', description: 'transaction pending' }, id: CHECKOUT_ID, redirect: { url: `${GATEWAY}/v1/threeds/${'0'.repeat(32)}/authenticate`, parameters: [] } });
    expect(all(el, 'iframe[part="challenge"]')).to.have.length(1);
    await aTimeout(2500);
    await settle(el);
    expect(all(el, 'iframe[part="challenge"]')).to.have.length(1);
    expect(notice(el)).to.equal('');
    expect(said).to.deep.equal(['Processing…']);
    HTMLFormElement.prototype.submit = submit;
  });

  it('says nothing of the end once paid, the shop keeping the page', async () => {
    const paid = await load(2, { brands: 'DIRECTDEBIT_SEPA' }, () => json({ result: { code: '000.100.110', description: 'Request successfully processed' }, id: CHECKOUT_ID }));
    paid.addEventListener('pw-result', (event) => event.preventDefault());
    type(one<HTMLInputElement>(paid, '#holder'), 'Jane Jones');
    type(one<HTMLInputElement>(paid, '#iban'), 'DE89370400440532013000');
    one<HTMLInputElement>(paid, '#mandate').click();
    await settle(paid);
    const saidPaid = spoken(paid);
    one<HTMLButtonElement>(paid, 'button[type="submit"]').click();
    await waitUntil(() => paid.paid, 'the payment did not end the form');
    await aTimeout(2500);
    await settle(paid);
    expect(saidPaid.filter((text) => text === EXPIRED)).to.deep.equal([]);
    expect(one(paid, '[part="status"]').textContent).to.equal('This payment is already complete.');
  });

  it('catches up at once when the page is shown again, its timer held while it was hidden (a phone put away)', async () => {
    const el = await load(150, { brands: 'VISA' });
    expect(notice(el)).to.equal('');
    // 40 s later by the clock, the 30 s timer not yet fired (a hidden page's timers are held).
    const now = Date.now;
    const later = now() + 40_000;
    Date.now = () => later;
    try {
      document.dispatchEvent(new Event('visibilitychange'));
      await settle(el);
      expect(notice(el)).to.equal(SOON);
      expect(region(el).textContent).to.equal(SOON);
    } finally {
      Date.now = now;
    }
  });

  it('keeps no timer once the widget is removed (a single-page shop unmounting it)', async () => {
    const el = await load(2, { brands: 'VISA' });
    expect(notice(el)).to.equal(SOON);
    const parent = el.parentElement!;
    el.remove();
    await aTimeout(2500);
    await settle(el);
    expect(notice(el)).to.equal(SOON);
    expect(el.announcer.message).to.equal(SOON);
    expect(payButtons(el)[0]!.getAttribute('aria-disabled')).to.equal('false');
    // Mounted again: its form data is read afresh, and its end followed again.
    parent.append(el);
    await waitUntil(() => notice(el) === SOON, 'the form data was not read again');
  });
});
