import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import { executeServerCommand, resetMouse, sendKeys, sendMouse } from '@web/test-runner-commands';
import { FRAME_HANG_MS, type CardForm } from '../../src/widget/card/card-form.component.ts';
import type { PaymentWidget } from '../../src/widget/payment-widget/payment-widget.component.ts';
import type { ParentMessage, SubmitMessage } from '../../src/core/messages.ts';
import { all, blur, description, formData, fromFrame, one, settle, stubFetch, type, widget } from './support.ts';

interface CardSetup {
  el: PaymentWidget;
  card: CardForm;
  posted: [string, ParentMessage][];
  frame: (field: 'number' | 'cvv', data: Record<string, unknown>) => Promise<void>;
  submit: () => Promise<void>;
}

async function cardForm(options = {}, locale = 'en'): Promise<CardSetup> {
  const el = await widget({ brands: 'VISA MASTER', action: 'https://shop.example/result', options, locale });
  const card = one<CardForm>(el, 'pw-card-form');
  const posted: [string, ParentMessage][] = [];
  card.frames.post = (field, message) => void posted.push([field, message]);
  const frame = async (field: 'number' | 'cvv', data: Record<string, unknown>) => {
    fromFrame(one(el, `iframe[data-field="${field}"]`), { channel: card.frames.channel, field, ...data });
    await settle(el);
  };
  await frame('number', { type: 'ready' });
  await frame('cvv', { type: 'ready' });
  const submit = async () => {
    one<HTMLButtonElement>(el, 'button[type="submit"]').click();
    await settle(el);
  };
  return { el, card, posted, frame, submit };
}

const validNumber = { type: 'state', empty: false, valid: true, complete: true, brand: 'VISA', cvvLength: 3 };
const validCvv = { type: 'state', empty: false, valid: true, complete: true, cvvLength: 3 };

async function fillValid(setup: CardSetup): Promise<void> {
  const { el, frame } = setup;
  await frame('number', validNumber);
  await frame('cvv', validCvv);
  type(one<HTMLInputElement>(el, '#expiry'), '0534');
  type(one<HTMLInputElement>(el, '#holder'), 'Jane Jones');
  await settle(el);
}

const submits = (posted: [string, ParentMessage][]) => posted.filter(([, m]) => m.type === 'submit') as [string, SubmitMessage][];

describe('card form', () => {
  let fetchStub: ReturnType<typeof stubFetch>;
  beforeEach(() => (fetchStub = stubFetch()));
  afterEach(() => fetchStub.restore());

  it('says the form could not be loaded when a card frame\'s page never arrives (no load event either)', async () => {
    // The hang timer runs at once; the frames' own load events are kept from the form.
    const later: Array<() => void> = [];
    const original = window.setTimeout;
    window.setTimeout = ((handler: () => void, ms?: number) => (ms === FRAME_HANG_MS ? later.push(handler) : original(handler, ms))) as typeof setTimeout;
    try {
      const el = await widget({ brands: 'VISA MASTER', action: 'https://shop.example/result' });
      const card = one<CardForm>(el, 'pw-card-form');
      fromFrame(one(el, 'iframe[data-field="cvv"]'), { channel: card.frames.channel, field: 'cvv', type: 'ready' });
      await settle(el);
      expect(one(card, '[part="alert"]').textContent).to.equal('');
      expect(later).to.have.length(1);
      later[0]!();
      await settle(el);
      expect(one(card, '[part="alert"]').textContent).to.equal('The payment form could not be loaded.');
    } finally {
      window.setTimeout = original;
    }
  });

  it('says the form could not be loaded when a card frame never says ready, tells the shop once (pw-error), and loads it again on Pay', async () => {
    const el = await widget({ brands: 'VISA MASTER', action: 'https://shop.example/result' });
    const errors: unknown[] = [];
    el.addEventListener('pw-error', (event) => errors.push((event as CustomEvent).detail));
    const card = one<CardForm>(el, 'pw-card-form');
    const posted: [string, ParentMessage][] = [];
    card.frames.post = (field, message) => void posted.push([field, message]);
    const numberFrame = one<HTMLIFrameElement>(el, 'iframe[data-field="number"]');
    fromFrame(one(el, 'iframe[data-field="cvv"]'), { channel: card.frames.channel, field: 'cvv', type: 'ready' });
    // The test's gateway answers nobody: the number frame's document is the browser's error page.
    await waitUntil(() => one(card, '[part="alert"]').textContent === 'The payment form could not be loaded.', 'no alert', { timeout: 6000 });
    // As a form whose data could not load: the shop's monitoring sees a broken form.
    expect(errors).to.deep.equal([{ code: '', message: 'The payment form could not be loaded.' }]);
    type(one<HTMLInputElement>(el, '#expiry'), '0534');
    type(one<HTMLInputElement>(el, '#holder'), 'Jane Jones');
    const reloaded = oneEvent(numberFrame, 'load');
    one<HTMLButtonElement>(el, 'button[type="submit"]').click();
    await settle(el);
    // No field is blamed and nothing is sent; the frame loads again.
    expect(all(el, '[aria-invalid="true"]')).to.have.length(0);
    expect(posted.filter(([, m]) => m.type === 'submit')).to.deep.equal([]);
    expect(errors).to.have.length(1);
    await reloaded;
    // Once it says ready, the form is whole again.
    fromFrame(numberFrame, { channel: card.frames.channel, field: 'number', type: 'ready' });
    await settle(el);
    expect(one(card, '[part="alert"]').textContent).to.equal('');
  });

  it('shows the pay button\'s edge in forced colors, where its background is not painted', async () => {
    const { el } = await cardForm();
    await executeServerCommand('pw-forced-colors', { active: true });
    try {
      expect(matchMedia('(forced-colors: active)').matches).to.equal(true);
      const button = getComputedStyle(one(el, 'button[type="submit"]'));
      expect([button.borderTopStyle, button.borderTopWidth]).to.deep.equal(['solid', '1px']);
      expect(button.borderTopColor).to.not.equal('rgba(0, 0, 0, 0)');
      // Outside forced colors the edge is transparent: the button looks as before.
      await executeServerCommand('pw-forced-colors', { active: false });
      expect(getComputedStyle(one(el, 'button[type="submit"]')).borderTopColor).to.equal('rgba(0, 0, 0, 0)');
    } finally {
      await executeServerCommand('pw-forced-colors', { active: false });
    }
  });

  it('keeps the expiry input level with the security code frame, whose hint makes its column taller', async () => {
    const { el } = await cardForm({ showCVVHint: true });
    const expiry = one<HTMLInputElement>(el, '#expiry').getBoundingClientRect();
    const cvv = one(el, 'iframe[data-field="cvv"]').getBoundingClientRect();
    expect(one(el, '[part="hint"]').textContent).to.not.equal('');
    expect(cvv.height).to.be.greaterThan(0);
    expect(Math.abs(expiry.top - cvv.top)).to.be.below(1);
  });

  it('keeps the expiry input level with the security code frame when only one of their labels wraps (a long word at a phone\u2019s width)', async () => {
    const { el } = await cardForm({ labels: { cvv: 'Kod zabezpieczający karty płatniczej' } });
    el.style.width = '300px';
    await settle(el);
    // The texts' own heights (the labels themselves share their row's).
    const textHeight = (label: Element) => {
      const range = document.createRange();
      range.selectNodeContents(label);
      return range.getBoundingClientRect().height;
    };
    const labels = [one(el, 'label[for="expiry"]'), [...one(el, 'pw-card-form').shadowRoot!.querySelectorAll('[part="label"]')].find((label) => label.textContent!.startsWith('Kod'))!].map(textHeight);
    expect(labels[1]).to.be.greaterThan(labels[0]! * 1.5);
    const expiry = one<HTMLInputElement>(el, '#expiry').getBoundingClientRect();
    const cvv = one(el, 'iframe[data-field="cvv"]').getBoundingClientRect();
    expect(Math.abs(expiry.top - cvv.top)).to.be.below(1);
  });

  it('labels its fields and points each at its error', async () => {
    const { el } = await cardForm();
    const holder = one<HTMLInputElement>(el, '#holder');
    const expiry = one<HTMLInputElement>(el, '#expiry');
    expect(holder.autocomplete).to.equal('cc-name');
    expect(expiry.autocomplete).to.equal('cc-exp');
    expect(expiry.inputMode).to.equal('numeric');
    expect(one(el, 'label[for="holder"]').textContent).to.equal('Name on card');
    expect(one(el, 'label[for="expiry"]').textContent).to.equal('Expiry date');
    for (const input of [holder, expiry]) {
      expect(input.getAttribute('aria-invalid')).to.equal('false');
      expect(input.getAttribute('aria-describedby')).to.equal(`${input.id}-error`);
    }
    expect(getComputedStyle(holder).fontSize).to.equal('16px');
    await expect(el).to.be.accessible();
  });

  it('lets the shopper correct the month of a filled expiry in place: an edit inside stays as typed, with its caret', async () => {
    const { el } = await cardForm();
    const expiry = one<HTMLInputElement>(el, '#expiry');
    // What the browser does to the field, then the input event: the value with the caret at `caret`.
    const edit = async (value: string, caret: number) => {
      expiry.value = value;
      expiry.setSelectionRange(caret, caret);
      expiry.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText' }));
      await settle(el);
    };
    type(expiry, '0635');
    await settle(el);
    expect(expiry.value).to.equal('06/35');
    // "06" selected and "0" typed, then "7": 07/35, not 00/357.
    await edit('0/35', 1);
    expect([expiry.value, expiry.selectionStart]).to.deep.equal(['0/35', 1]);
    await edit('07/35', 2);
    expect(expiry.value).to.equal('07/35');
    // Backspace after the month, then "8".
    await edit('0/35', 1);
    await edit('08/35', 2);
    expect(expiry.value).to.equal('08/35');
    // Delete at the start deletes: "8/35" stays, not "08/35" again.
    await edit('8/35', 0);
    expect([expiry.value, expiry.selectionStart]).to.deep.equal(['8/35', 0]);
    blur(expiry);
    await settle(el);
    expect(expiry.getAttribute('aria-invalid')).to.equal('false');
  });

  it('shows the expiry as keys type and delete it: the slash comes and goes at the end, an edit inside stays as typed', async () => {
    const { el } = await cardForm();
    await executeServerCommand('pw-focused');
    const expiry = one<HTMLInputElement>(el, '#expiry');
    const keys = async (keys: { type: string } | { press: string }) => {
      await sendKeys(keys);
      await settle(el);
      return [expiry.value, expiry.selectionStart];
    };
    expiry.focus();
    expect(await keys({ type: '05' })).to.deep.equal(['05', 2]);
    expect(await keys({ type: '/' }), 'a slash typed after the month').to.deep.equal(['05', 2]);
    expect(await keys({ type: '34' })).to.deep.equal(['05/34', 5]);
    expect(await keys({ press: 'Backspace' })).to.deep.equal(['05/3', 4]);
    expect(await keys({ press: 'Backspace' }), 'the slash goes with the last digit of the year').to.deep.equal(['05', 2]);
    expect(await keys({ type: '7' })).to.deep.equal(['05/7', 4]);
    expect(await keys({ type: '1' })).to.deep.equal(['05/71', 5]);
    expiry.setSelectionRange(3, 3);
    expect(await keys({ press: 'Backspace' }), 'Backspace over the slash, inside').to.deep.equal(['0571', 2]);
    expect(await keys({ press: 'End' })).to.deep.equal(['0571', 4]);
    expect(await keys({ type: '2' }), 'typing at the end formats again').to.deep.equal(['05/712', 6]);
    expiry.select();
    expect(await keys({ type: '9' })).to.deep.equal(['09', 2]);
  });

  it('lets an IME compose the expiry and formats what it commits, doubling no digit', async () => {
    const { el } = await cardForm();
    await executeServerCommand('pw-focused');
    const expiry = one<HTMLInputElement>(el, '#expiry');
    const ime = async (text: string, commit = false) => {
      await executeServerCommand('pw-ime', { text, commit });
      await settle(el);
      return [expiry.value, expiry.selectionStart];
    };
    expiry.focus();
    expect(await ime('０')).to.deep.equal(['０', 1]);
    expect(await ime('０５')).to.deep.equal(['０５', 2]);
    expect(await ime('０５３')).to.deep.equal(['０５３', 3]);
    expect(await ime('０５３', true)).to.deep.equal(['05/3', 4]);
    expect(await ime('４')).to.deep.equal(['05/3４', 5]);
    expect(await ime('４', true)).to.deep.equal(['05/34', 5]);
    blur(expiry);
    await settle(el);
    expect(expiry.getAttribute('aria-invalid')).to.equal('false');
  });

  it('shows an expired card and a bad holder with aria-invalid and a described error', async () => {
    const { el, posted, frame, submit } = await cardForm();
    await frame('number', validNumber);
    await frame('cvv', validCvv);
    const expiry = one<HTMLInputElement>(el, '#expiry');
    const holder = one<HTMLInputElement>(el, '#holder');
    type(expiry, '0120');
    type(holder, 'J');
    await settle(el);
    expect(expiry.value).to.equal('01/20');
    // No error while typing; it shows when the shopper leaves the field.
    expect(expiry.getAttribute('aria-invalid')).to.equal('false');
    blur(expiry);
    await settle(el);
    expect(expiry.getAttribute('aria-invalid')).to.equal('true');
    expect(description(expiry)).to.equal('This card has expired.');

    const validBorder = getComputedStyle(holder).borderTopColor;
    await submit();
    expect(holder.getAttribute('aria-invalid')).to.equal('true');
    // A name too short is told the least it must have (card.holder: 3 characters at least).
    expect(description(holder)).to.equal('Enter at least 3 characters.');
    // Marked in the error colour, not only described.
    const errorColour = getComputedStyle(one(el, '#holder-error')).color;
    expect(getComputedStyle(holder).borderTopColor).to.equal(errorColour);
    expect(errorColour).to.not.equal(validBorder);
    expect(getComputedStyle(expiry).borderTopColor).to.equal(errorColour);
    expect(one(el, '[aria-live]').textContent).to.equal('This card has expired.');
    expect(submits(posted)).to.have.length(0);

    type(expiry, '13/40');
    blur(expiry);
    await settle(el);
    expect(description(expiry)).to.equal('Use the format MM/YY.');
    // Emptied, it asks for the date rather than for a format.
    type(expiry, '');
    await settle(el);
    expect(description(expiry)).to.equal('Fill in this field.');
    // Well formed, but further ahead than any card is issued for: the year is the mistake.
    type(expiry, `12/${(new Date().getFullYear() + 21) % 100}`);
    await settle(el);
    expect(description(expiry)).to.equal('Check the expiry year.');

    // Two characters are still too few; none, or a digit, is no name on the card.
    for (const [typed, said] of [[' Al ', 'Enter at least 3 characters.'], ['', 'Enter the name on the card.'], ['J0', 'Enter the name on the card.'], ['J0hn', 'Enter the name on the card.']]) {
      type(holder, typed!);
      blur(holder);
      await settle(el);
      expect(description(holder), typed).to.equal(said);
    }

    // Corrected values clear their errors as they are typed.
    type(expiry, '0534');
    type(holder, 'Jane Jones');
    await settle(el);
    expect(expiry.getAttribute('aria-invalid')).to.equal('false');
    expect(holder.getAttribute('aria-invalid')).to.equal('false');
    expect(description(holder)).to.equal('');
    await expect(el).to.be.accessible();
  });

  it('pays on a press at the top edge of the button right after a wrong field, whose error would push the button down', async () => {
    const setup = await cardForm();
    const { el, posted, frame } = setup;
    await frame('number', validNumber);
    await frame('cvv', validCvv);
    type(one<HTMLInputElement>(el, '#expiry'), '0534');
    const holder = one<HTMLInputElement>(el, '#holder');
    type(holder, 'J');
    await settle(el);
    holder.focus();
    const button = one<HTMLButtonElement>(el, 'button[type="submit"]');
    button.scrollIntoView({ block: 'center' });
    const box = button.getBoundingClientRect();
    const at = { position: [Math.round(box.left + box.width / 2), Math.ceil(box.top + 2)] as [number, number] };
    try {
      // A real pointer: the holder loses focus between down and up, as it does for a shopper.
      await sendMouse({ type: 'move', ...at });
      await sendMouse({ type: 'down', ...at });
      await settle(el);
      await sendMouse({ type: 'up', ...at });
      await settle(el);
    } finally {
      await resetMouse();
    }
    // The click reached the button: the submit checked the form, announced the error and went back to the field.
    expect(one(el, '[aria-live]').textContent).to.equal('Enter at least 3 characters.');
    expect(holder.getAttribute('aria-invalid')).to.equal('true');
    expect(one<HTMLElement>(el, 'pw-card-form').shadowRoot!.activeElement).to.equal(holder);
    expect(submits(posted)).to.have.length(0);
  });

  it('names the detected brand for assistive technology: in the number field\'s name, and said once as it appears', async () => {
    const { el, posted, frame } = await cardForm({}, 'en');
    const region = one(el, '[aria-live]');
    await frame('number', { type: 'state', empty: false, valid: false, complete: false, brand: 'AMEX', cvvLength: 4 });
    const configured = () => [...posted].reverse().find(([field, m]) => field === 'number' && m.type === 'configure')![1] as { label: string };
    expect(configured().label).to.equal('Card number, American Express');
    expect(region.textContent).to.equal('American Express');
    expect(one(one(el, 'pw-card-form'), '[part="label"]').textContent!.replace(/\s+/g, ' ').trim()).to.equal('Card number American Express');
    // Typed on, the same brand is not said again; gone, the name is plain again.
    region.textContent = '';
    await frame('number', { type: 'state', empty: false, valid: true, complete: true, brand: 'AMEX', cvvLength: 4 });
    expect(region.textContent).to.equal('');
    await frame('number', { type: 'state', empty: true, valid: false, complete: false, cvvLength: 3 });
    expect(configured().label).to.equal('Card number');
  });

  it('tells the frames which of their fields is wrong', async () => {
    const { el, posted, frame, submit } = await cardForm();
    await frame('number', { type: 'state', empty: false, valid: false, complete: false, focused: false });
    const number = [...posted].reverse().find(([field, m]) => field === 'number' && m.type === 'configure')![1];
    expect(number).to.include({ invalid: true, ariaDescribedBy: 'Enter a valid card number.' });
    expect(description(one(el, 'iframe[data-field="number"]'))).to.equal('Enter a valid card number.');

    // A brand the page does not take is refused even when the number is valid.
    await frame('number', { ...validNumber, brand: 'AMEX', cvvLength: 4, focused: false });
    expect(description(one(el, 'iframe[data-field="number"]'))).to.equal('This card type is not accepted.');
    // The placeholder is shaped as AMEX numbers are grouped.
    expect([...posted].reverse().find(([field, m]) => field === 'number' && m.type === 'configure')![1]).to.include({ placeholder: '1234 123456 12345' });

    await submit();
    const cvv = [...posted].reverse().find(([field, m]) => field === 'cvv' && m.type === 'configure')![1];
    expect(cvv).to.include({ invalid: true, ariaDescribedBy: 'Enter the security code.', placeholder: '1234' });
    // Focus goes to the first wrong field, inside its frame.
    expect(posted.filter(([, m]) => m.type === 'focus')).to.deep.equal([['number', { type: 'focus', channel: one<CardForm>(el, 'pw-card-form').frames.channel }]]);
    // A code was typed, of the wrong length for the brand: the form says the length it wants.
    await frame('cvv', { type: 'state', empty: false, valid: false, complete: false, cvvLength: 4, focused: false });
    expect(description(one(el, 'iframe[data-field="cvv"]'))).to.equal('The security code has 4 digits.');
    await frame('cvv', { type: 'state', empty: false, valid: false, complete: false, cvvLength: 3, focused: false });
    expect(description(one(el, 'iframe[data-field="cvv"]'))).to.equal('The security code has 3 digits.');
    await frame('cvv', { type: 'state', empty: true, valid: false, complete: false, cvvLength: 3, focused: false });
    expect(description(one(el, 'iframe[data-field="cvv"]'))).to.equal('Enter the security code.');
    await expect(el).to.be.accessible();
  });

  it('pays when the shopper presses Enter in the card number or security code frame', async () => {
    const setup = await cardForm();
    const { el, posted, frame } = setup;
    await fillValid(setup);
    const submitEvent = oneEvent(el, 'pw-submit');
    await frame('cvv', { type: 'enter' });
    expect((await submitEvent).detail).to.deep.equal({ method: 'card', brand: 'VISA' });
    expect(submits(posted).map(([field]) => field)).to.deep.equal(['number']);
  });

  it('asks the number frame to pay with holder and expiry, never handling digits itself', async () => {
    const setup = await cardForm({ customParameters: { SHOPPER_order: 'A-17', other: 'dropped' } });
    const { el, card, posted, submit, frame } = setup;
    await fillValid(setup);
    const submitEvent = oneEvent(el, 'pw-submit');
    const warn = console.warn;
    const warned: string[] = [];
    console.warn = (message: string) => void warned.push(message);
    try {
      await submit();
    } finally {
      console.warn = warn;
    }
    // The parameter left out is named where the developer looks.
    expect(warned.filter((m) => m.includes('customParameters other left out'))).to.have.length(1);
    expect((await submitEvent).detail).to.deep.equal({ method: 'card', brand: 'VISA' });
    const [[field, message]] = submits(posted) as [[string, SubmitMessage]];
    expect(field).to.equal('number');
    expect(message.channel).to.equal(card.frames.channel);
    expect(message.idempotencyKey).to.match(/^pw-[0-9a-f]{32}$/);
    expect(message.fields).to.deep.equal({
      paymentBrand: 'VISA',
      'card.holder': 'Jane Jones',
      'card.expiryMonth': '05',
      'card.expiryYear': '2034',
      'customParameters[SHOPPER_order]': 'A-17',
    });
    const button = one(el, 'button[type="submit"]');
    expect(button.getAttribute('aria-disabled')).to.equal('true');
    expect(button.textContent).to.equal('Processing…');

    // A decline: the message is shown and announced, the form can be sent again with a new key.
    const error = oneEvent(el, 'pw-error');
    await frame('number', { type: 'submitted', status: 400, body: { result: { code: '800.100.152', description: 'transaction declined by authorization system' } } });
    expect((await error).detail).to.deep.equal({ code: '800.100.152', message: 'Declined by your bank. Try another card or method.', status: 400 });
    expect(one(el, '[part="alert"]').textContent).to.equal('Declined by your bank. Try another card or method.');
    expect(one(el, '[aria-live]').textContent).to.equal('Declined by your bank. Try another card or method.');
    expect(button.getAttribute('aria-disabled')).to.equal('false');
    await submit();
    const keys = submits(posted).map(([, m]) => m.idempotencyKey);
    expect(keys).to.have.length(2);
    expect(keys[1]).to.not.equal(keys[0]);
    await expect(el).to.be.accessible();
  });

  it('retries with the same Idempotency-Key after the network failed', async () => {
    const setup = await cardForm();
    const { el, posted, submit, frame } = setup;
    await fillValid(setup);
    await submit();
    await frame('number', { type: 'submitted', status: 0, body: null });
    expect(one(el, '[part="alert"]').textContent).to.equal('No connection. Try again.');
    await submit();
    const keys = submits(posted).map(([, m]) => m.idempotencyKey);
    expect(keys).to.have.length(2);
    expect(keys[1]).to.equal(keys[0]);
    await expect(el).to.be.accessible();
  });

  it('hands a successful answer to pw-result; cancelled (the shop stays on the page), the form ends, said and announced, with nothing to pay twice', async () => {
    const setup = await cardForm();
    const { el, posted, submit, frame } = setup;
    await fillValid(setup);
    await submit();
    const redirect = 'https://shop.example/result?id=x&resourcePath=%2Fv1%2Fcheckouts%2Fx%2Fpayment';
    const result = oneEvent(el, 'pw-result');
    // The test stays on the page: pw-result is cancelable, which a single-page app may use too.
    el.addEventListener('pw-result', (event) => event.preventDefault(), { once: true });
    await frame('number', { type: 'submitted', status: 200, body: { result: { code: '000.100.110' }, id: 'x', redirect: { url: redirect } } });
    const { detail } = await result;
    expect(detail).to.deep.include({ status: 200, code: '000.100.110', method: 'card' });
    expect(detail.body.redirect.url).to.equal(redirect);
    await settle(el);
    // It stayed on "Processing…" for ever, waiting for a navigation the shop had cancelled.
    expect(all(el, 'button[type="submit"], iframe')).to.have.length(0);
    expect(one(el, '[part="status"]').textContent).to.equal('This payment is already complete.');
    expect(one(el, '[role="status"]').textContent).to.equal('This payment is already complete.');
    expect(submits(posted)).to.have.length(1);
    await expect(el).to.be.accessible();
  });

  it('lets pw-submit (onBeforeSubmitCard) cancel the payment', async () => {
    const setup = await cardForm();
    const { el, posted, submit } = setup;
    await fillValid(setup);
    el.addEventListener('pw-submit', (event) => event.preventDefault(), { once: true });
    await submit();
    expect(submits(posted)).to.have.length(0);
    await expect(el).to.be.accessible();
  });

  it('takes holder and expiry the browser autofilled into the number frame', async () => {
    const { el, frame } = await cardForm();
    await frame('number', { type: 'autofill', fields: { 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034' } });
    expect(one<HTMLInputElement>(el, '#holder').value).to.equal('Jane Jones');
    expect(one<HTMLInputElement>(el, '#expiry').value).to.equal('05/34');
    await expect(el).to.be.accessible();
  });

  it('shows the security code hint and leaves the code out when requireCvv is false', async () => {
    fetchStub.restore();
    fetchStub = stubFetch();
    const withHint = await widget({ brands: 'VISA', options: { showCVVHint: true } });
    expect(one(withHint, '[part="hint"]').textContent).to.equal('3 digits on the back (Amex: 4 on the front)');
    await expect(withHint).to.be.accessible();

    const noCvv = await widget({ brands: 'VISA', options: { requireCvv: false, brandDetection: false } });
    expect(noCvv.shadowRoot!.querySelector('pw-card-form')!.shadowRoot!.querySelectorAll('iframe')).to.have.length(1);
    await expect(noCvv).to.be.accessible();
  });
});

describe('card form billing address', () => {
  const ASKED = ['street1', 'city', 'postcode', 'country'];
  let fetchStub: ReturnType<typeof stubFetch>;
  afterEach(() => fetchStub.restore());

  it('shows no billing address when the form data asks for none', async () => {
    fetchStub = stubFetch(formData({ billing: [] }));
    const setup = await cardForm();
    expect(all(setup.el, '[part="billing"]')).to.have.length(0);
    await fillValid(setup);
    await setup.submit();
    const [, message] = submits(setup.posted)[0]!;
    expect(Object.keys(message.fields).filter((name) => name.startsWith('billing.'))).to.deep.equal([]);
  });

  it('asks for the listed fields in a labelled group, with autocomplete and countries named in the locale', async () => {
    fetchStub = stubFetch(formData({ billing: ASKED }));
    const { el } = await cardForm({}, 'de');
    expect(one(el, '[part="billing"] legend').textContent).to.equal('Rechnungsadresse');
    const expected = { street1: ['address-line1', 'Straße und Hausnummer'], city: ['address-level2', 'Ort'], postcode: ['postal-code', 'Postleitzahl'], country: ['country', 'Land'] };
    for (const [id, [autocomplete, label]] of Object.entries(expected)) {
      const input = one<HTMLInputElement>(el, `#${id}`);
      expect(input.getAttribute('autocomplete')).to.equal(autocomplete);
      expect(one(el, `label[for="${id}"]`).textContent).to.equal(label);
      expect(input.getAttribute('aria-required')).to.equal('true');
      expect(input.getAttribute('aria-describedby')).to.equal(`${id}-error`);
    }
    const country = one<HTMLSelectElement>(el, 'select#country');
    expect(country.options.length).to.equal(250);
    expect(country.value).to.equal('');
    expect([...country.options].find((o) => o.value === 'DE')!.text).to.equal('Deutschland');
    await expect(el).to.be.accessible();
  });

  it('asks only for the fields the checkout lacks', async () => {
    fetchStub = stubFetch(formData({ billing: ['city', 'postcode'] }));
    const { el } = await cardForm();
    expect(all(el, '[part="billing"] input, [part="billing"] select').map((e) => e.id)).to.deep.equal(['postcode', 'city']);
  });

  it('validates the address on blur and submit, and sends it as billing.*', async () => {
    fetchStub = stubFetch(formData({ billing: ASKED }));
    const setup = await cardForm();
    const { el, posted, submit } = setup;
    await fillValid(setup);
    const postcode = one<HTMLInputElement>(el, '#postcode');
    type(postcode, '10115!');
    blur(postcode);
    await settle(el);
    expect(postcode.getAttribute('aria-invalid')).to.equal('true');
    expect(description(postcode)).to.equal('Enter a valid postcode.');

    await submit();
    expect(submits(posted)).to.have.length(0);
    const street = one<HTMLInputElement>(el, '#street1');
    expect(street.getAttribute('aria-invalid')).to.equal('true');
    expect(description(street)).to.equal('Fill in this field.');
    expect(one<HTMLSelectElement>(el, '#country').getAttribute('aria-invalid')).to.equal('true');
    expect(one(el, '[aria-live]').textContent).to.equal('Fill in this field.');

    type(street, ' Main Street 1 ');
    type(one<HTMLInputElement>(el, '#city'), 'Berlin');
    type(postcode, 'SW1A 1AA');
    const country = one<HTMLSelectElement>(el, '#country');
    country.value = 'GB';
    country.dispatchEvent(new Event('change'));
    await settle(el);
    expect(postcode.getAttribute('aria-invalid')).to.equal('false');
    await submit();
    const [field, message] = submits(posted)[0]!;
    expect(field).to.equal('number');
    expect(message.fields).to.include({ 'billing.street1': 'Main Street 1', 'billing.city': 'Berlin', 'billing.postcode': 'SW1A1AA', 'billing.country': 'GB', 'card.holder': 'Jane Jones' });
    await expect(el).to.be.accessible();
  });

  it('takes a postcode typed in Arabic-Indic or full-width digits (an Arabic keyboard, a Japanese IME) and sends it in ASCII', async () => {
    const cases: [string, string][] = [
      ['١٠١١٥', '10115'],
      ['۱۰۱۱۵', '10115'],
      ['１０１－００６５', '1010065'],
      ['101\u2010 0065', '1010065'],
    ];
    for (const [typed, sent] of cases) {
      fetchStub?.restore();
      fetchStub = stubFetch(formData({ billing: ASKED }));
      const setup = await cardForm({}, 'ar');
      const { el, posted, submit } = setup;
      await fillValid(setup);
      type(one<HTMLInputElement>(el, '#street1'), 'Main Street 1');
      type(one<HTMLInputElement>(el, '#city'), 'Berlin');
      const postcode = one<HTMLInputElement>(el, '#postcode');
      type(postcode, typed);
      blur(postcode);
      const country = one<HTMLSelectElement>(el, '#country');
      country.value = 'DE';
      country.dispatchEvent(new Event('change'));
      await settle(el);
      expect(postcode.getAttribute('aria-invalid'), typed).to.equal('false');
      await submit();
      const [, message] = submits(posted)[0]!;
      expect(message.fields['billing.postcode'], typed).to.equal(sent);
    }
  });
});

describe('card form: saving the card', () => {
  let fetchStub: ReturnType<typeof stubFetch>;
  beforeEach(() => (fetchStub = stubFetch()));
  afterEach(() => fetchStub.restore());

  it('asks the shopper to save the card when the shop asks (registrations.askToSave): unticked, createRegistration=true only once ticked', async () => {
    const setup = await cardForm({ registrations: { askToSave: true } });
    const { el, posted, submit, frame } = setup;
    const save = one<HTMLInputElement>(el, '#save');
    expect(save.type).to.equal('checkbox');
    expect(save.checked).to.equal(false);
    expect(one(el, 'label.choice:has(#save)').textContent!.trim()).to.equal('Save for future payments');
    await expect(el).to.be.accessible();

    await fillValid(setup);
    await submit();
    expect(submits(posted)[0]![1].fields).to.not.have.property('createRegistration');
    await frame('number', { type: 'submitted', status: 400, body: { result: { code: '800.100.152', description: 'declined' } } });

    save.click();
    await settle(el);
    await submit();
    expect(submits(posted)[1]![1].fields).to.include({ createRegistration: 'true', 'card.holder': 'Jane Jones' });
  });

  it('asks nobody to save when the shop does not ask, or the checkout stores the card anyway', async () => {
    expect(all((await cardForm()).el, '#save')).to.have.length(0);
    fetchStub.restore();
    fetchStub = stubFetch(formData({ createRegistration: true }));
    const { el } = await cardForm({ registrations: { askToSave: true } });
    expect(el.checkout!.createRegistration).to.equal(true);
    expect(all(el, '#save')).to.have.length(0);
  });
});
