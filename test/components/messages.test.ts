import { expect } from '@open-wc/testing';
import { isSafeCssValue, parseBroadcast, parseFrameMessage, parseMessage, parseParentMessage } from '../../src/core/messages.ts';
import type { CardForm } from '../../src/widget/card/card-form.component.ts';
import { fromFrame, one, settle, stubFetch, widget } from './support.ts';

const channel = '0123456789abcdef0123456789abcdef';

describe('frame messages (src/core/messages.ts)', () => {
  it('accepts each message of the protocol', () => {
    const valid = [
      { type: 'configure', channel, locale: 'de', label: 'Kartennummer', placeholder: '1234', style: { '--pw-color-text': '#111' } },
      { type: 'configure', channel, locale: 'ar', label: 'x', placeholder: '', style: {}, ariaDescribedBy: 'Enter a valid card number.', invalid: true },
      { type: 'submit', channel, idempotencyKey: 'pw-1', fields: { paymentBrand: 'VISA', 'card.holder': 'Jane', 'customParameters[SHOPPER_id]': '7' } },
      // The billing address 3-D Secure 2 needs, when the card form asks for it.
      { type: 'submit', channel, idempotencyKey: 'pw-2', fields: { 'card.holder': 'Jane', createRegistration: 'true', 'billing.street1': 'Main Street 1', 'billing.city': 'London', 'billing.postcode': 'SW1A 1AA', 'billing.country': 'GB' } },
      { type: 'focus', channel },
      { type: 'clear', channel },
      { type: 'ready', channel, field: 'number' },
      { type: 'enter', channel, field: 'cvv' },
      { type: 'state', channel, field: 'cvv', empty: true, valid: false, complete: false },
      { type: 'state', channel, field: 'number', empty: false, valid: true, complete: true, brand: 'AMEX', cvvLength: 4, focused: false },
      { type: 'submitted', channel, status: 200, body: { result: { code: '000.100.110' }, redirect: { url: 'https://shop.example/r' } } },
      { type: 'submitted', channel, status: 0, body: null },
      { type: 'autofill', channel, fields: { 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034' } },
    ];
    for (const message of valid) expect(parseMessage(message, channel), JSON.stringify(message)).to.deep.equal(message);
    expect(parseParentMessage(valid[0], channel)).to.not.equal(null);
    expect(parseFrameMessage(valid[0], channel), 'a frame never sends configure').to.equal(null);
    expect(parseParentMessage(valid[6], channel), 'the page never sends ready').to.equal(null);
    expect(parseParentMessage(valid[7], channel), 'the page never sends enter').to.equal(null);
  });

  it('rejects wrong channels, unknown types and wrong field types', () => {
    const rejected: unknown[] = [
      null,
      'ready',
      [],
      { type: 'ready', field: 'number' },
      { type: 'ready', channel: 'f'.repeat(32), field: 'number' },
      { type: 'ready', channel: channel.toUpperCase(), field: 'number' },
      { type: 'hello', channel },
      { type: 'toString', channel },
      { type: '__proto__', channel },
      { type: 'ready', channel, field: 'holder' },
      { type: 'state', channel, field: 'number', empty: 'no', valid: true, complete: true },
      { type: 'state', channel, field: 'number', empty: false, valid: true, complete: true, cvvLength: 5 },
      { type: 'state', channel, field: 'number', empty: false, valid: true, complete: true, brand: 'visa<script>' },
      { type: 'submitted', channel, status: 200, body: { id: 'no result' } },
      { type: 'submitted', channel, status: 1.5, body: null },
      { type: 'autofill', channel, fields: { 'card.number': '4200000000000000' } },
      { type: 'configure', channel, locale: 'en', label: 1, placeholder: '', style: {} },
      { type: 'configure', channel, locale: 'en', label: 'x', placeholder: '', style: { color: 'red' } },
      { type: 'configure', channel, locale: 'en', label: 'x', placeholder: '', style: { '--pw-color-text': 'red;}body{display:none' } },
      { type: 'configure', channel, locale: 'en', label: 'x', placeholder: '', style: { '--pw-font-family': '"unclosed' } },
      { type: 'submit', channel, idempotencyKey: '', fields: {} },
      { type: 'submit', channel, idempotencyKey: 'k', fields: { 'card.number': '4200000000000000' } },
      { type: 'submit', channel, idempotencyKey: 'k', fields: { 'card.cvv': '123' } },
      { type: 'submit', channel, idempotencyKey: 'k', fields: { 'customParameters[other]': 'x' } },
      { type: 'submit', channel, idempotencyKey: 'k', fields: { paymentBrand: 4 } },
      { type: 'submit', channel, idempotencyKey: 'k', fields: { 'billing.street2': 'x' } },
    ];
    for (const message of rejected) expect(parseMessage(message, channel), JSON.stringify(message)).to.equal(null);
    // A well-formed message on a malformed channel key is refused too.
    expect(parseMessage({ type: 'focus', channel: 'abc' }, 'abc')).to.equal(null);
  });

  it('keeps CSS values inside their declaration', () => {
    expect(isSafeCssValue('"Helvetica Neue", Arial, sans-serif')).to.equal(true);
    expect(isSafeCssValue('rgb(0 0 0 / 50%)')).to.equal(true);
    for (const value of ['red;', 'a}b', 'x\\', '<b>', "it's", 'a\nb', 'x'.repeat(201)]) expect(isSafeCssValue(value), value).to.equal(false);
  });

  it('validates the messages between the two frames', () => {
    expect(parseBroadcast({ type: 'cvv-request' })).to.deep.equal({ type: 'cvv-request' });
    expect(parseBroadcast({ type: 'cvv', value: '1234' })).to.deep.equal({ type: 'cvv', value: '1234' });
    expect(parseBroadcast({ type: 'brand', brand: 'AMEX' })).to.deep.equal({ type: 'brand', brand: 'AMEX' });
    expect(parseBroadcast({ type: 'cvv', value: '12345' })).to.equal(null);
    expect(parseBroadcast({ type: 'cvv', value: 'abc' })).to.equal(null);
    expect(parseBroadcast({ type: 'number', value: '4200' })).to.equal(null);
  });

  it('leaves the widget untouched by messages the parser rejects', async () => {
    const fetchStub = stubFetch();
    try {
      const el = await widget({ brands: 'VISA' });
      const card = one<CardForm>(el, 'pw-card-form');
      const frame = one<HTMLIFrameElement>(el, 'iframe[data-field="number"]');
      let events = 0;
      for (const name of ['pw-brand', 'pw-ready', 'pw-error', 'pw-result']) el.addEventListener(name, () => events++);
      fromFrame(frame, { type: 'state', channel: card.frames.channel, field: 'number', empty: false, valid: 'yes', complete: true, brand: 'VISA' });
      fromFrame(frame, { type: 'ready', channel: card.frames.channel, field: 'cvv' });
      fromFrame(frame, { type: 'submitted', channel: card.frames.channel, status: 200, body: 'paid' });
      await settle(el);
      expect(events).to.equal(0);
      expect(card.frames.ready.size).to.equal(0);
      expect(card.frames.states).to.deep.equal({});
      await expect(el).to.be.accessible();
    } finally {
      fetchStub.restore();
    }
  });
});
