import { expect, oneEvent } from '@open-wc/testing';
import type { PaymentWidget } from '../../src/widget/payment-widget/payment-widget.component.ts';
import { blur, CHECKOUT_ID, description, GATEWAY, json, one, settle, stubFetch, type, widget, type FetchCall, type Responder } from './support.ts';

async function sepa(respond?: Responder, brands = 'DIRECTDEBIT_SEPA', locale = 'en') {
  const fetchStub = stubFetch(undefined, respond);
  const el = await widget({ brands, locale });
  const input = (id: string) => one<HTMLInputElement>(el, `#${id}`);
  const submit = async () => {
    one<HTMLButtonElement>(el, 'button[type="submit"]').click();
    await settle(el);
  };
  return { el, fetchStub, input, submit };
}

async function fill(el: PaymentWidget, input: (id: string) => HTMLInputElement, values: { holder?: string; iban?: string; bic?: string; mandate?: boolean }) {
  if (values.holder !== undefined) type(input('holder'), values.holder);
  if (values.iban !== undefined) type(input('iban'), values.iban);
  if (values.bic !== undefined) type(input('bic'), values.bic);
  if (values.mandate) input('mandate').click();
  await settle(el);
}

const paymentCalls = (calls: FetchCall[]) => calls.filter((c) => c.url.endsWith('/payment'));

describe('SEPA direct debit form', () => {
  let restore = () => {};
  afterEach(() => restore());

  /** The form filled and paid, the gateway's answer lost (the one retry's too): it says "No connection". */
  async function paidWithAnswerLost(respond: Responder) {
    const setup = await sepa(respond);
    restore = setup.fetchStub.restore;
    await fill(setup.el, setup.input, { holder: 'Jane Jones', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', mandate: true });
    await setup.submit();
    await settle(setup.el);
    expect(one(setup.el, '[part="alert"]').textContent).to.equal('No connection. Try again.');
    return setup;
  }

  it('keeps the mandate and save checkboxes full size beside a long text in a narrow form', async () => {
    const { el, fetchStub } = await sepa(undefined, 'DIRECTDEBIT_SEPA', 'de');
    restore = fetchStub.restore;
    el.style.width = '300px';
    el.options = { registrations: { askToSave: true } };
    await settle(el);
    for (const box of [one<HTMLInputElement>(el, '#mandate'), one<HTMLInputElement>(el, 'input[part="checkbox"]:not(#mandate)')]) {
      const size = box.getBoundingClientRect();
      expect([Math.round(size.width), Math.round(size.height)], box.id || 'save').to.deep.equal([20, 20]);
    }
  });

  it('checks the IBAN (SEPA country, BBAN format, check digits), the BIC and the mandate', async () => {
    const { el, input, submit, fetchStub } = await sepa();
    restore = fetchStub.restore;
    expect(one(el, 'label[for="iban"]').textContent).to.equal('IBAN');
    expect(input('iban').getAttribute('dir')).to.equal('ltr');
    expect(input('bic').getAttribute('aria-required')).to.equal('false');

    await fill(el, input, { holder: 'Al', iban: 'DE89 3704 0044 0532 0130 01', bic: 'COBADEF' });
    blur(input('holder'));
    blur(input('iban'));
    blur(input('bic'));
    await settle(el);
    // The account holder's own message: this form has no card.
    expect(description(input('holder'))).to.equal('Enter the account holder\u2019s name.');
    type(input('holder'), 'Jane Jones');
    expect(input('iban').getAttribute('aria-invalid')).to.equal('true');
    expect(description(input('iban'))).to.equal('Enter a valid SEPA IBAN.');
    expect(input('bic').getAttribute('aria-invalid')).to.equal('true');
    expect(description(input('bic'))).to.equal('Enter a valid BIC.');

    // A valid IBAN outside the SEPA area is refused too (Brazil).
    type(input('iban'), 'BR1800360305000010009795493C1');
    await settle(el);
    expect(description(input('iban'))).to.equal('Enter a valid SEPA IBAN.');

    type(input('iban'), 'de89370400440532013000');
    type(input('bic'), 'COBADEFFXXX');
    await settle(el);
    blur(input('iban'));
    await settle(el);
    expect(input('iban').value).to.equal('DE89 3704 0044 0532 0130 00');
    expect(input('iban').getAttribute('aria-invalid')).to.equal('false');
    expect(input('bic').getAttribute('aria-invalid')).to.equal('false');

    await submit();
    expect(input('mandate').getAttribute('aria-invalid')).to.equal('true');
    expect(description(input('mandate'))).to.equal('Accept the mandate to continue.');
    expect(one(el, '[aria-live]').textContent).to.equal('Accept the mandate to continue.');
    expect(paymentCalls(fetchStub.calls)).to.have.length(0);
    await expect(el).to.be.accessible();
  });

  it('sends the account to the checkout payment endpoint with an Idempotency-Key', async () => {
    const answers: Response[] = [];
    const respond: Responder = () => answers.shift() ?? json({ result: { code: '000.100.110' } });
    const { el, input, submit, fetchStub } = await sepa(respond, 'DIRECTDEBIT_SEPA', 'de');
    restore = fetchStub.restore;
    await fill(el, input, { holder: 'Jana Jonas', iban: 'DE89 3704 0044 0532 0130 00', bic: '', mandate: true });
    answers.push(json({ result: { code: '100.100.101', description: 'invalid …' }, id: CHECKOUT_ID }, 400));
    const error = oneEvent(el, 'pw-error');
    await submit();
    expect((await error).detail.message).to.equal('Einige Angaben sind ungültig.');
    await settle(el);
    const [call] = paymentCalls(fetchStub.calls);
    expect(call!.url).to.equal(`${GATEWAY}/v1/checkouts/${CHECKOUT_ID}/payment`);
    expect(call!.init.method).to.equal('POST');
    expect(call!.init.credentials).to.equal('omit');
    const headers = call!.init.headers as Record<string, string>;
    expect(headers['Content-Type']).to.equal('application/x-www-form-urlencoded');
    expect(headers['Idempotency-Key']).to.match(/^pw-[0-9a-f]{32}$/);
    expect(Object.fromEntries(new URLSearchParams(call!.init.body as string))).to.deep.equal({
      paymentBrand: 'DIRECTDEBIT_SEPA',
      'bankAccount.holder': 'Jana Jonas',
      'bankAccount.iban': 'DE89370400440532013000',
      'bankAccount.country': 'DE',
    });
    expect(one(el, '[part="alert"]').textContent).to.equal('Einige Angaben sind ungültig.');
    await expect(el).to.be.accessible();
  });

  it('holds the choice of method while a payment is on its way, so that its answer is not dropped with the form', async () => {
    let answer: (response: Response) => void = () => undefined;
    // SEPA beside PayPal: no card form (whose fields would match first) in the page.
    const { el, input, fetchStub } = await sepa(() => new Promise<Response>((resolve) => (answer = resolve)), 'DIRECTDEBIT_SEPA PAYPAL');
    restore = fetchStub.restore;
    const methods = () => [...el.shadowRoot!.querySelectorAll<HTMLInputElement>('input[name="method"]')];
    await fill(el, input, { holder: 'Jane Jones', iban: 'DE89370400440532013000', mandate: true });
    one<HTMLButtonElement>(one(el, 'pw-bank-account-form'), 'button[type="submit"]').click();
    await settle(el);
    expect(paymentCalls(fetchStub.calls)).to.have.length(1);
    // On its way: the methods cannot be changed (a click on PayPal does nothing).
    expect(methods().map((m) => m.matches(':disabled'))).to.deep.equal([true, true]);
    methods().find((m) => m.value !== 'bank')!.click();
    await settle(el);
    expect(el.shadowRoot!.querySelector('pw-bank-account-form')).to.not.equal(null);
    // A decline gives the form back, the methods with it.
    const error = oneEvent(el, 'pw-error');
    answer(json({ result: { code: '800.100.151', description: 'transaction declined (invalid card)' }, id: CHECKOUT_ID }, 400));
    expect((await error).detail.code).to.equal('800.100.151');
    await settle(el);
    expect(methods().map((m) => m.matches(':disabled'))).to.deep.equal([false, false]);
  });

  it('sends createRegistration=true when the shopper ticks "Save for future payments" (registrations.askToSave)', async () => {
    const fetchStub = stubFetch();
    restore = fetchStub.restore;
    const el = await widget({ brands: 'DIRECTDEBIT_SEPA', options: { registrations: { askToSave: true } } });
    const input = (id: string) => one<HTMLInputElement>(el, `#${id}`);
    await fill(el, input, { holder: 'Jane Jones', iban: 'DE89 3704 0044 0532 0130 00', mandate: true });
    expect(input('save').checked).to.equal(false);
    input('save').click();
    await settle(el);
    one<HTMLButtonElement>(el, 'button[type="submit"]').click();
    await settle(el);
    const [call] = paymentCalls(fetchStub.calls);
    expect(Object.fromEntries(new URLSearchParams(call!.init.body as string))).to.include({ createRegistration: 'true', 'bankAccount.iban': 'DE89370400440532013000' });
    await expect(el).to.be.accessible();
  });

  it('retries once with the same key when the connection drops, then reports it', async () => {
    let failures = 3;
    const respond: Responder = () => {
      if (failures-- > 0) throw new TypeError('Failed to fetch');
      return json({ result: { code: '000.100.110' }, redirect: { url: 'https://shop.example/done?id=1' } });
    };
    const { el, input, submit, fetchStub } = await paidWithAnswerLost(respond);
    el.addEventListener('pw-result', (event) => event.preventDefault());
    const result = oneEvent(el, 'pw-result');
    await submit();
    expect((await result).detail.code).to.equal('000.100.110');
    const keys = paymentCalls(fetchStub.calls).map((c) => (c.init.headers as Record<string, string>)['Idempotency-Key']);
    // Two tries in the first attempt, two in the second: one key for all of them.
    expect(keys).to.have.length(4);
    expect(new Set(keys).size).to.equal(1);
    expect(new URLSearchParams(paymentCalls(fetchStub.calls)[0]!.init.body as string).get('bankAccount.bic')).to.equal('COBADEFFXXX');
    await expect(el).to.be.accessible();
  });

  it('after a lost answer and an edited field, asks the checkout again with a fresh key rather than say the details are invalid', async () => {
    // The gateway as it is: the lost attempt paid the checkout, but its answer and the one retry
    // were lost; its key with other fields is refused; any other key is told the checkout is paid.
    let paidWith: string | undefined;
    let lost = 2;
    const respond: Responder = ({ init }) => {
      const key = (init.headers as Record<string, string>)['Idempotency-Key']!;
      paidWith ??= key;
      if (lost-- > 0) throw new TypeError('Failed to fetch');
      if (key === paidWith) {
        return json({ result: { code: '200.300.404', parameterErrors: [{ name: 'Idempotency-Key', value: key, message: 'Idempotency-Key was already used for a request with other parameters' }] } }, 400);
      }
      return json({ result: { code: '000.100.110' }, id: CHECKOUT_ID, redirect: { url: 'https://shop.example/done?id=1' } }, 400);
    };
    const { el, input, submit, fetchStub } = await paidWithAnswerLost(respond);
    await fill(el, input, { holder: 'Jane Smith' });
    el.addEventListener('pw-result', (event) => event.preventDefault());
    const result = oneEvent(el, 'pw-result');
    await submit();
    expect((await result).detail).to.include({ status: 400, code: '000.100.110' });
    await settle(el);
    expect(one(el, '[part="status"]').textContent).to.equal('This payment is already complete.');
    const calls = paymentCalls(fetchStub.calls);
    const keys = calls.map((c) => (c.init.headers as Record<string, string>)['Idempotency-Key']);
    expect(keys).to.have.length(4);
    expect(new Set(keys.slice(0, 3)).size).to.equal(1);
    expect(keys[3]).to.not.equal(keys[0]);
    expect(new URLSearchParams(calls[3]!.init.body as string).get('bankAccount.holder')).to.equal('Jane Smith');
  });
});
