// The widget and the frame script under the policy shops are told to use: Trusted Types required
// for every DOM sink and no inline style attributes. Any violation fails the test.
import { expect, waitUntil } from '@open-wc/testing';
import { SecureField } from '../../src/secure/secure-field.ts';
import type { CardForm } from '../../src/widget/card/card-form.component.ts';
import { all, CHECKOUT_ID, fromFrame, one, settle, stubFetch, type, widget } from './support.ts';

describe('under a strict Content-Security-Policy with Trusted Types', () => {
  const violations: string[] = [];
  const record = (event: SecurityPolicyViolationEvent) => violations.push(`${event.effectiveDirective}: ${event.sample || event.blockedURI}`);

  before(() => {
    const meta = document.createElement('meta');
    meta.httpEquiv = 'Content-Security-Policy';
    meta.content = "require-trusted-types-for 'script'; style-src-attr 'none'; object-src 'none'";
    document.head.append(meta);
    document.addEventListener('securitypolicyviolation', record);
  });
  after(() => document.removeEventListener('securitypolicyviolation', record));

  it('enforces the policy in this page', async () => {
    const div = document.createElement('div');
    expect(() => {
      div.innerHTML = '<b>x</b>';
    }).to.throw(TypeError);
    await waitUntil(() => violations.length > 0);
    violations.length = 0;
  });

  it('renders and uses every method form without a violation', async () => {
    const fetchStub = stubFetch();
    try {
      const el = await widget({ brands: 'VISA DIRECTDEBIT_SEPA PAYPAL', locale: 'ar', options: { style: 'card', showCVVHint: true } });
      type(one<HTMLInputElement>(el, '#expiry'), '0120');
      one<HTMLButtonElement>(el, 'button[type="submit"]').click();
      await settle(el);
      for (const choice of all<HTMLInputElement>(el, 'input[name="method"]')) {
        choice.click();
        await settle(el);
        one<HTMLButtonElement>(el, 'button[type="submit"]').click();
        await settle(el);
      }
      expect(all(el, '[style]')).to.have.length(0);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(violations).to.deep.equal([]);
      await expect(el).to.be.accessible();
    } finally {
      fetchStub.restore();
    }
  });

  it('posts a 3-D Secure redirect into its frame without a violation', async () => {
    const fetchStub = stubFetch();
    // The test page must stay: the form is recorded, not sent.
    const submit = HTMLFormElement.prototype.submit;
    const sent: HTMLFormElement[] = [];
    HTMLFormElement.prototype.submit = function (this: HTMLFormElement) {
      sent.push(this);
    };
    try {
      const el = await widget({ brands: 'VISA', locale: 'en' });
      el.parentElement!.style.width = '420px';
      const card = one<CardForm>(el, 'pw-card-form');
      card.frames.post = () => undefined;
      const frame = (field: string, data: Record<string, unknown>) => fromFrame(one(el, `iframe[data-field="${field}"]`), { channel: card.frames.channel, field, ...data });
      frame('number', { type: 'ready' });
      frame('cvv', { type: 'ready' });
      frame('number', { type: 'state', empty: false, valid: true, complete: true, brand: 'VISA', cvvLength: 3 });
      frame('cvv', { type: 'state', empty: false, valid: true, complete: true, cvvLength: 3 });
      type(one<HTMLInputElement>(el, '#expiry'), '0534');
      type(one<HTMLInputElement>(el, '#holder'), 'Jane Jones');
      await settle(el);
      one<HTMLButtonElement>(el, 'button[type="submit"]').click();
      await settle(el);
      frame('number', { type: 'submitted', status: 200, body: { result: { code: '000.200.000' }, redirect: { url: 'http://127.0.0.1:9/v1/threeds/a/authenticate', parameters: [{ name: 'token', value: 't' }] } } });
      await waitUntil(() => sent.length === 1, 'the redirect was not posted');
      expect(sent[0]!.target).to.equal(one<HTMLIFrameElement>(el, 'iframe[part="challenge"]').name);
      expect(all(el, '[style]')).to.have.length(0);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(violations).to.deep.equal([]);
      await expect(el).to.be.accessible();
    } finally {
      HTMLFormElement.prototype.submit = submit;
      fetchStub.restore();
    }
  });

  it('builds the secure field without a violation', async () => {
    const parent = document.createElement('iframe');
    parent.title = 'fake shop page';
    document.body.append(parent);
    new SecureField({ field: 'number', channel: 'abcdef0123456789abcdef0123456789', origin: location.origin, locale: 'en', checkoutId: CHECKOUT_ID }, parent.contentWindow!);
    // The frame shows its input once the page configured it.
    window.dispatchEvent(
      new MessageEvent('message', {
        origin: location.origin,
        source: parent.contentWindow,
        data: { type: 'configure', channel: 'abcdef0123456789abcdef0123456789', locale: 'en', label: 'Card number', placeholder: '', style: { '--pw-color-text': '#222' } },
      }),
    );
    const input = document.querySelector<HTMLInputElement>('#pw-input')!;
    type(input, '4200000000000000');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(input.value).to.equal('4200 0000 0000 0000');
    expect(violations).to.deep.equal([]);
    await expect(input.form).to.be.accessible();
  });
});
