import { expect, oneEvent } from '@open-wc/testing';
import { languageTag } from '../../src/core/browser.ts';
import type { RegistrationsList } from '../../src/widget/registrations/registrations-list.component.ts';
import type { ParentMessage, SubmitMessage } from '../../src/core/messages.ts';
import { all, blur, CHECKOUT_ID, description, formData, fromFrame, GATEWAY, json, one, REGISTRATIONS, settle, stubFetch, type, widget } from './support.ts';

/** The saved-card list with registrations.requireCvv: its security-code frame, and what the page posts to that frame. */
async function cvvList() {
  const el = await widget({ brands: 'VISA AMEX', options: { registrations: { requireCvv: true } } });
  const list = one<RegistrationsList>(el, 'pw-registrations');
  const posted: [string, ParentMessage][] = [];
  list.frames.post = (field, message) => void posted.push([field, message]);
  return { el, list, posted, frame: one<HTMLIFrameElement>(list, 'iframe') };
}

describe('saved cards', () => {
  let restore = () => {};
  afterEach(() => restore());

  it('lists the checkout’s saved cards of accepted brands and pays with one click', async () => {
    const fetchStub = stubFetch(formData({ registrations: REGISTRATIONS }), () => json({ result: { code: '000.100.110' }, redirect: { url: 'https://shop.example/r' } }));
    restore = fetchStub.restore;
    const el = await widget({ brands: 'VISA MASTER' });
    const methods = all<HTMLInputElement>(el, 'input[name="method"]');
    expect(methods.map((m) => m.value)).to.deep.equal(['saved', 'card']);
    expect(methods[0]!.checked).to.equal(true);
    const list = one<RegistrationsList>(el, 'pw-registrations');
    // The AMEX card is not offered on a page that takes VISA and MASTER only.
    const cards = all(list, '[part="saved-card"]');
    expect(cards.map((c) => c.textContent!.replace(/\s+/g, ' ').trim())).to.deep.equal(['Visa •••• 0000 · 05/34']);
    expect(one<HTMLInputElement>(list, 'input[type="radio"]').checked).to.equal(true);
    expect(all(list, 'iframe')).to.have.length(0);

    el.addEventListener('pw-result', (event) => event.preventDefault());
    const result = oneEvent(el, 'pw-result');
    one<HTMLButtonElement>(list, 'button[type="submit"]').click();
    expect((await result).detail.method).to.equal('saved');
    const call = fetchStub.calls.find((c) => c.url.endsWith('/payment'))!;
    expect(call.url).to.equal(`${GATEWAY}/v1/checkouts/${CHECKOUT_ID}/payment`);
    const sent = Object.fromEntries(new URLSearchParams(call.init.body as string));
    expect(sent.registrationId).to.equal(REGISTRATIONS[0]!.id);
    await expect(el).to.be.accessible();
  });

  it('lists a saved SEPA account beside the cards and pays with it: no security code, no billing address', async () => {
    const account = { id: 'cc'.repeat(16), paymentBrand: 'DIRECTDEBIT_SEPA', bankAccount: { holder: 'Jane Jones', last4Digits: '3000' } };
    const fetchStub = stubFetch(formData({ registrations: [account, ...REGISTRATIONS], billing: ['street1', 'city', 'postcode', 'country'] }), () =>
      json({ result: { code: '000.100.110' }, redirect: { url: 'https://shop.example/r' } }),
    );
    restore = fetchStub.restore;
    const el = await widget({ brands: 'VISA DIRECTDEBIT_SEPA', options: { registrations: { requireCvv: true } } });
    const methods = all<HTMLInputElement>(el, 'input[name="method"]');
    expect(methods.map((m) => m.closest('label')!.textContent!.trim())).to.deep.equal(['Saved payment methods', 'Card', 'SEPA direct debit']);
    const list = one<RegistrationsList>(el, 'pw-registrations');
    expect(one(list, 'legend').textContent).to.equal('Saved payment methods');
    expect(all(list, '[part="saved-card"]').map((c) => c.textContent!.replace(/\s+/g, ' ').trim())).to.deep.equal(['SEPA direct debit •••• 3000 · Jane Jones', 'Visa •••• 0000 · 05/34']);
    // The account is chosen: no security code (its frame is kept, hidden) and no billing address.
    const cvvFrame = one<HTMLIFrameElement>(list, 'iframe[data-field="cvv"]');
    expect(cvvFrame.getClientRects().length).to.equal(0);
    expect(all(list, '[part="billing"]')).to.have.length(0);
    await expect(el).to.be.accessible();

    el.addEventListener('pw-result', (event) => event.preventDefault());
    const submitted = oneEvent(el, 'pw-submit');
    one<HTMLButtonElement>(list, 'button[type="submit"]').click();
    expect((await submitted).detail).to.deep.equal({ method: 'saved', brand: 'DIRECTDEBIT_SEPA' });
    await settle(el);
    const call = fetchStub.calls.find((c) => c.url.endsWith('/payment'))!;
    const sent = Object.fromEntries(new URLSearchParams(call.init.body as string));
    expect(sent.registrationId).to.equal(account.id);
    expect(Object.keys(sent).filter((name) => name.startsWith('billing.') || name.startsWith('card.'))).to.deep.equal([]);

    // The card chosen: the same security code frame shows (what was typed in it stays), and the billing address.
    all<HTMLInputElement>(list, 'input[type="radio"]')[1]!.click();
    await settle(el);
    expect(all(list, 'iframe[data-field="cvv"]')).to.deep.equal([cvvFrame]);
    expect(cvvFrame.getClientRects().length).to.equal(1);
    expect(all(list, '[part="billing"]')).to.have.length(1);
  });

  it('sends the browser data 3-D Secure needs with a saved card paid without a security code, as the paying frame does', async () => {
    const fetchStub = stubFetch(formData({ registrations: REGISTRATIONS }), () => json({ result: { code: '000.100.110' }, redirect: { url: 'https://shop.example/r' } }));
    restore = fetchStub.restore;
    const el = await widget({ brands: 'VISA MASTER' });
    el.addEventListener('pw-result', (event) => event.preventDefault());
    const result = oneEvent(el, 'pw-result');
    one<HTMLButtonElement>(one<RegistrationsList>(el, 'pw-registrations'), 'button[type="submit"]').click();
    await result;
    const call = fetchStub.calls.find((c) => c.url.endsWith('/payment'))!;
    const sent = Object.fromEntries(new URLSearchParams(call.init.body as string));
    // Every field but acceptHeader, which no script can read: the gateway takes it from this request.
    const { challengeWindow, ...facts } = Object.fromEntries(Object.entries(sent).filter(([name]) => name.startsWith('customer.browser.')).map(([name, value]) => [name.slice(17), value]));
    expect(facts).to.deep.equal({
      language: languageTag(navigator.language),
      screenHeight: String(screen.height),
      screenWidth: String(screen.width),
      screenColorDepth: String(screen.colorDepth),
      timezone: String(new Date().getTimezoneOffset()),
      userAgent: navigator.userAgent,
      javaEnabled: 'false',
    });
    expect(challengeWindow).to.match(/^[1-5]$/);
    expect(sent.registrationId).to.equal(REGISTRATIONS[0]!.id);
  });

  it('asks for the security code in a frame, which then pays, when registrations.requireCvv is set', async () => {
    const fetchStub = stubFetch(formData({ registrations: REGISTRATIONS }));
    restore = fetchStub.restore;
    const { el, list, posted, frame } = await cvvList();
    expect(new URL(frame.src).searchParams.get('field')).to.equal('cvv');
    expect(frame.title).to.equal('Security code');

    const radios = all<HTMLInputElement>(list, 'input[type="radio"]');
    expect(radios).to.have.length(2);
    radios[1]!.click();
    await settle(el);
    const { channel } = list.frames;
    fromFrame(frame, { type: 'ready', channel, field: 'cvv' });
    await settle(el);
    expect(posted.at(-1)![1]).to.include({ type: 'configure', placeholder: '1234', label: 'Security code' });

    // Without a valid code nothing is sent.
    one<HTMLButtonElement>(list, 'button[type="submit"]').click();
    await settle(el);
    expect(posted.some(([, m]) => m.type === 'submit')).to.equal(false);
    expect(one(el, '[aria-live]').textContent).to.equal('Enter the security code.');

    fromFrame(frame, { type: 'state', channel, field: 'cvv', empty: false, valid: true, complete: true, cvvLength: 4 });
    await settle(el);
    one<HTMLButtonElement>(list, 'button[type="submit"]').click();
    await settle(el);
    const submit = posted.find(([, m]) => m.type === 'submit') as [string, SubmitMessage];
    expect(submit[0]).to.equal('cvv');
    expect(submit[1].fields).to.deep.equal({ registrationId: REGISTRATIONS[1]!.id });
    expect(fetchStub.calls.some((c) => c.url.endsWith('/payment'))).to.equal(false);

    const error = oneEvent(el, 'pw-error');
    fromFrame(frame, { type: 'submitted', channel, status: 400, body: { result: { code: '100.150.202' } } });
    expect((await error).detail.message).to.equal('Saved card no longer available.');
    await expect(el).to.be.accessible();
  });
});

describe('saved cards billing address', () => {
  const ASKED = ['street1', 'city', 'postcode', 'country'];
  let restore = () => {};
  afterEach(() => restore());

  const paid = () => json({ result: { code: '000.100.110' }, redirect: { url: 'https://shop.example/r' } });
  const sentOf = (calls: { url: string; init: RequestInit }[]) => {
    const call = calls.find((c) => c.url.endsWith('/payment'));
    return call ? Object.fromEntries(new URLSearchParams(call.init.body as string)) : undefined;
  };
  const billingSent = (sent: Record<string, string>) => Object.fromEntries(Object.entries(sent).filter(([name]) => name.startsWith('billing.')));

  /** Fills every asked field with a valid value. */
  async function fillAddress(list: RegistrationsList): Promise<void> {
    type(one<HTMLInputElement>(list, '#street1'), ' Main Street 1 ');
    type(one<HTMLInputElement>(list, '#city'), 'Berlin');
    type(one<HTMLInputElement>(list, '#postcode'), 'SW1A 1AA');
    const country = one<HTMLSelectElement>(list, '#country');
    country.value = 'GB';
    country.dispatchEvent(new Event('change'));
    await settle(list);
  }

  it('asks for no billing address when the form data lists none, and sends none', async () => {
    const fetchStub = stubFetch(formData({ registrations: REGISTRATIONS, billing: [] }), paid);
    restore = fetchStub.restore;
    const el = await widget({ brands: 'VISA MASTER' });
    const list = one<RegistrationsList>(el, 'pw-registrations');
    expect(all(list, '[part="billing"]')).to.have.length(0);
    el.addEventListener('pw-result', (event) => event.preventDefault());
    const result = oneEvent(el, 'pw-result');
    one<HTMLButtonElement>(list, 'button[type="submit"]').click();
    await result;
    expect(billingSent(sentOf(fetchStub.calls)!)).to.deep.equal({});
  });

  it('asks only for the listed fields, labelled in the locale, with autocomplete, below the saved cards', async () => {
    const fetchStub = stubFetch(formData({ registrations: REGISTRATIONS, billing: ['city', 'postcode', 'country'] }));
    restore = fetchStub.restore;
    const el = await widget({ brands: 'VISA MASTER', locale: 'de' });
    const list = one<RegistrationsList>(el, 'pw-registrations');
    expect(one(list, '[part="billing"] legend').textContent).to.equal('Rechnungsadresse');
    expect(all(list, '[part="billing"] input, [part="billing"] select').map((e) => e.id)).to.deep.equal(['postcode', 'city', 'country']);
    const expected = { city: ['address-level2', 'Ort'], postcode: ['postal-code', 'Postleitzahl'], country: ['country', 'Land'] };
    for (const [id, [autocomplete, label]] of Object.entries(expected)) {
      const input = one<HTMLInputElement>(list, `#${id}`);
      expect(input.getAttribute('autocomplete')).to.equal(autocomplete);
      expect(one(list, `label[for="${id}"]`).textContent).to.equal(label);
      expect(input.getAttribute('aria-required')).to.equal('true');
      expect(input.getAttribute('aria-describedby')).to.equal(`${id}-error`);
    }
    const country = one<HTMLSelectElement>(list, 'select#country');
    expect(country.options.length).to.equal(250);
    expect(country.value).to.equal('');
    expect([...country.options].find((o) => o.value === 'DE')!.text).to.equal('Deutschland');
    // The address comes after the saved cards and before the pay button.
    const form = one(list, 'form');
    expect([...form.children].map((c) => c.getAttribute('part') ?? c.localName)).to.deep.equal(['fieldset', 'billing', 'alert', 'button']);
    await expect(el).to.be.accessible();
  });

  it('asks for the holder of a saved account without one on a checkout with overrideHolder, and sends it with the account', async () => {
    const nameless = { id: 'dd'.repeat(16), paymentBrand: 'VISA', card: { last4Digits: '0000', expiryMonth: '05', expiryYear: '2034' } };
    const account = { id: 'cc'.repeat(16), paymentBrand: 'DIRECTDEBIT_SEPA', bankAccount: { last4Digits: '3000' } };
    const fetchStub = stubFetch(formData({ registrations: [nameless, account, REGISTRATIONS[0]], billing: [], overrideHolder: true }), paid);
    restore = fetchStub.restore;
    const el = await widget({ brands: 'VISA DIRECTDEBIT_SEPA' });
    const list = one<RegistrationsList>(el, 'pw-registrations');
    const holderLabel = () => all<HTMLInputElement>(list, '#holder').map((input) => input.labels![0]!.textContent);
    expect(holderLabel()).to.deep.equal(['Name on card']);
    expect(one<HTMLInputElement>(list, '#holder').autocomplete).to.equal('cc-name');
    await expect(el).to.be.accessible();
    // The bank account asks for its account holder; a card with a holder asks nothing.
    const radios = all<HTMLInputElement>(list, 'input[type="radio"]');
    radios[1]!.click();
    await settle(el);
    expect(holderLabel()).to.deep.equal(['Account holder']);
    // The bank account's own rule and message: "Ann" is too short for bankAccount.holder (4 at least), "Smith & Co" is a name.
    const accountHolder = one<HTMLInputElement>(list, '#holder');
    type(accountHolder, 'Ann');
    blur(accountHolder);
    await settle(el);
    expect(description(accountHolder)).to.equal('Enter the account holder\u2019s name.');
    type(accountHolder, 'Smith & Co');
    blur(accountHolder);
    await settle(el);
    expect(accountHolder.getAttribute('aria-invalid')).to.equal('false');
    type(accountHolder, '');
    radios[2]!.click();
    await settle(el);
    expect(holderLabel()).to.deep.equal([]);
    radios[0]!.click();
    await settle(el);

    one<HTMLButtonElement>(list, 'button[type="submit"]').click();
    await settle(el);
    expect(sentOf(fetchStub.calls)).to.equal(undefined);
    const holder = one<HTMLInputElement>(list, '#holder');
    expect(holder.getAttribute('aria-invalid')).to.equal('true');
    expect(description(holder)).to.equal('Enter the name on the card.');

    type(holder, ' Jane Jones ');
    el.addEventListener('pw-result', (event) => event.preventDefault());
    const result = oneEvent(el, 'pw-result');
    one<HTMLButtonElement>(list, 'button[type="submit"]').click();
    await result;
    expect(sentOf(fetchStub.calls)).to.include({ registrationId: nameless.id, 'card.holder': 'Jane Jones' });
  });

  it('asks for no holder without overrideHolder, even for a saved account that has none', async () => {
    const nameless = { id: 'dd'.repeat(16), paymentBrand: 'VISA', card: { last4Digits: '0000', expiryMonth: '05', expiryYear: '2034' } };
    const fetchStub = stubFetch(formData({ registrations: [nameless], billing: [] }), paid);
    restore = fetchStub.restore;
    const el = await widget({ brands: 'VISA' });
    expect(all(one<RegistrationsList>(el, 'pw-registrations'), '#holder')).to.have.length(0);
  });

  it('refuses to pay while an asked field is missing or invalid, marking each, then sends billing.* with the saved card', async () => {
    const fetchStub = stubFetch(formData({ registrations: REGISTRATIONS, billing: ASKED }), paid);
    restore = fetchStub.restore;
    const el = await widget({ brands: 'VISA MASTER' });
    const list = one<RegistrationsList>(el, 'pw-registrations');
    const postcode = one<HTMLInputElement>(list, '#postcode');
    type(postcode, '10115!');
    blur(postcode);
    await settle(el);
    expect(postcode.getAttribute('aria-invalid')).to.equal('true');
    expect(description(postcode)).to.equal('Enter a valid postcode.');

    one<HTMLButtonElement>(list, 'button[type="submit"]').click();
    await settle(el);
    expect(sentOf(fetchStub.calls)).to.equal(undefined);
    const street = one<HTMLInputElement>(list, '#street1');
    expect(street.getAttribute('aria-invalid')).to.equal('true');
    expect(description(street)).to.equal('Fill in this field.');
    expect(one<HTMLInputElement>(list, '#city').getAttribute('aria-invalid')).to.equal('true');
    expect(one<HTMLSelectElement>(list, '#country').getAttribute('aria-invalid')).to.equal('true');
    expect(one(el, '[aria-live]').textContent).to.equal('Fill in this field.');
    expect(list.shadowRoot!.activeElement).to.equal(street);
    await expect(el).to.be.accessible();

    await fillAddress(list);
    for (const id of ['street1', 'city', 'postcode', 'country']) expect(one(list, `#${id}`).getAttribute('aria-invalid'), id).to.equal('false');
    el.addEventListener('pw-result', (event) => event.preventDefault());
    const result = oneEvent(el, 'pw-result');
    one<HTMLButtonElement>(list, 'button[type="submit"]').click();
    expect((await result).detail.method).to.equal('saved');
    const sent = sentOf(fetchStub.calls)!;
    expect(sent.registrationId).to.equal(REGISTRATIONS[0]!.id);
    // Trimmed, the postcode without its space, as the card form sends them.
    expect(billingSent(sent)).to.deep.equal({ 'billing.street1': 'Main Street 1', 'billing.city': 'Berlin', 'billing.postcode': 'SW1A1AA', 'billing.country': 'GB' });
    expect(sent['customer.browser.userAgent']).to.equal(navigator.userAgent);
  });

  it('with registrations.requireCvv, checks code and address together and hands billing.* to the paying frame', async () => {
    const fetchStub = stubFetch(formData({ registrations: REGISTRATIONS, billing: ['street1', 'country'] }));
    restore = fetchStub.restore;
    const { el, list, posted, frame } = await cvvList();
    const { channel } = list.frames;
    fromFrame(frame, { type: 'ready', channel, field: 'cvv' });
    await settle(el);

    one<HTMLButtonElement>(list, 'button[type="submit"]').click();
    await settle(el);
    expect(posted.some(([, m]) => m.type === 'submit')).to.equal(false);
    // The security code comes first, so its error is the one announced; the address is marked too.
    expect(one(el, '[aria-live]').textContent).to.equal('Enter the security code.');
    expect(one(list, '#street1').getAttribute('aria-invalid')).to.equal('true');
    expect(one(list, '#country').getAttribute('aria-invalid')).to.equal('true');
    expect(all(list, '#city, #postcode')).to.have.length(0);

    fromFrame(frame, { type: 'state', channel, field: 'cvv', empty: false, valid: true, complete: true, cvvLength: 3 });
    type(one<HTMLInputElement>(list, '#street1'), 'Main Street 1');
    const country = one<HTMLSelectElement>(list, '#country');
    country.value = 'DE';
    country.dispatchEvent(new Event('change'));
    await settle(el);
    one<HTMLButtonElement>(list, 'button[type="submit"]').click();
    await settle(el);
    const submit = posted.find(([, m]) => m.type === 'submit') as [string, SubmitMessage];
    expect(submit[0]).to.equal('cvv');
    expect(submit[1].fields).to.deep.equal({ registrationId: REGISTRATIONS[0]!.id, 'billing.street1': 'Main Street 1', 'billing.country': 'DE' });
    expect(fetchStub.calls.some((c) => c.url.endsWith('/payment'))).to.equal(false);
    await expect(el).to.be.accessible();
  });
});
