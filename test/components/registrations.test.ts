import { expect, oneEvent } from '@open-wc/testing';
import { languageTag } from '../../src/core/browser.ts';
import type { RegistrationsList } from '../../src/widget/registrations/registrations-list.component.ts';
import type { ParentMessage, SubmitMessage } from '../../src/core/messages.ts';
import { all, CHECKOUT_ID, formData, fromFrame, GATEWAY, json, one, REGISTRATIONS, settle, stubFetch, widget } from './support.ts';

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
    const el = await widget({ brands: 'VISA AMEX', options: { registrations: { requireCvv: true } } });
    const list = one<RegistrationsList>(el, 'pw-registrations');
    const posted: [string, ParentMessage][] = [];
    list.frames.post = (field, message) => void posted.push([field, message]);
    const frame = one<HTMLIFrameElement>(list, 'iframe');
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
