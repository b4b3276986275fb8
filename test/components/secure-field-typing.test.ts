// The shopper's keys in the card frames (src/secure/secure-field.ts), pressed for real in Chromium
// (sendKeys, and an IME's composition over the DevTools protocol): value and caret after each
// edit inside a grouped number, at its longest length, pasted, autofilled and composed.
import { expect, waitUntil } from '@open-wc/testing';
import { executeServerCommand, sendKeys } from '@web/test-runner-commands';
import { SecureField } from '../../src/secure/secure-field.ts';
import type { FrameMessage, StateMessage } from '../../src/core/messages.ts';
import { CHECKOUT_ID } from './support.ts';

const channel = 'fedcba9876543210fedcba9876543210';

describe('typing in the card frames', () => {
  let number: HTMLInputElement;
  let cvv: HTMLInputElement;
  const received: FrameMessage[] = [];
  const lastState = (field: 'number' | 'cvv') => [...received].reverse().find((m): m is StateMessage => m.type === 'state' && m.field === field)!;

  before(async () => {
    await executeServerCommand('pw-focused');
    const parent = document.createElement('iframe');
    parent.title = 'fake shop page';
    document.body.append(parent);
    parent.contentWindow!.addEventListener('message', (event) => received.push(event.data));
    for (const field of ['number', 'cvv'] as const) {
      new SecureField({ field, channel, origin: location.origin, locale: 'en', checkoutId: CHECKOUT_ID }, parent.contentWindow!);
      window.dispatchEvent(
        new MessageEvent('message', { data: { type: 'configure', channel, locale: 'en', label: field, placeholder: '', style: {} }, origin: location.origin, source: parent.contentWindow }),
      );
    }
    number = document.querySelector<HTMLInputElement>('input[name="cardnumber"]')!;
    cvv = document.querySelector<HTMLInputElement>('input[name="cvc"]')!;
  });

  /** The field focused, showing `digits` as the frame groups them, with the caret at `caret`. */
  async function showing(input: HTMLInputElement, digits: string, caret: number): Promise<void> {
    input.focus();
    input.select();
    await sendKeys({ press: 'Backspace' });
    if (digits) await sendKeys({ type: digits });
    input.setSelectionRange(caret, caret);
  }
  const seen = (input: HTMLInputElement) => [input.value, input.selectionStart, input.selectionEnd];

  it('takes the digit before a space with Backspace right after it, not only the space', async () => {
    await showing(number, '4123456789012345', 10);
    expect(seen(number)).to.deep.equal(['4123 4567 8901 2345', 10, 10]);
    await sendKeys({ press: 'Backspace' });
    expect(seen(number)).to.deep.equal(['4123 4568 9012 345', 8, 8]);
    await sendKeys({ press: 'Backspace' });
    expect(seen(number)).to.deep.equal(['4123 4589 0123 45', 7, 7]);
  });

  it('takes the digit after a space with Delete right before it, and goes on deleting', async () => {
    await showing(number, '4123456789012345', 4);
    await sendKeys({ press: 'Delete' });
    expect(seen(number)).to.deep.equal(['4123 5678 9012 345', 4, 4]);
    await sendKeys({ press: 'Delete' });
    expect(seen(number)).to.deep.equal(['4123 6789 0123 45', 4, 4]);
  });

  it('keeps its caret after the digit typed inside the number', async () => {
    await showing(number, '4123456789012345', 5);
    await sendKeys({ type: '0' });
    expect(seen(number)).to.deep.equal(['4123 0456 7890 1234 5', 6, 6]);
    await showing(number, '4123456789012345', 8);
    await sendKeys({ type: '0' });
    expect(seen(number)).to.deep.equal(['4123 4560 7890 1234 5', 9, 9]);
    number.select();
    await sendKeys({ type: '5' });
    expect(seen(number)).to.deep.equal(['5', 1, 1]);
  });

  it('shows a 19-digit number 4-4-4-4-3 and refuses a 20th digit wherever it is typed, losing none of the 19', async () => {
    await showing(number, '4123456789012345678', 23);
    expect(seen(number)).to.deep.equal(['4123 4567 8901 2345 678', 23, 23]);
    await sendKeys({ type: '9' });
    expect(seen(number)).to.deep.equal(['4123 4567 8901 2345 678', 23, 23]);
    number.setSelectionRange(2, 2);
    await sendKeys({ type: '9' });
    expect(seen(number)).to.deep.equal(['4123 4567 8901 2345 678', 2, 2]);
    // Pasted inside a number of 17: the paste's first two digits go in, as maxlength would take them.
    await showing(number, '41234567890123456', 5);
    document.execCommand('insertText', false, '9876');
    expect(seen(number)).to.deep.equal(['4123 9845 6789 0123 456', 7, 7]);
    // An AMEX number ends at 15 digits, the same way.
    await showing(number, '378282246310005', 7);
    await sendKeys({ type: '9' });
    expect(seen(number)).to.deep.equal(['3782 822463 10005', 7, 7]);
  });

  it('refuses a security code digit past the brand\u2019s length typed inside the code, losing none of the code', async () => {
    await showing(number, '4242424242424242', 19);
    await waitUntil(() => lastState('cvv')?.cvvLength === 3, 'the cvv frame learns the brand');
    await showing(cvv, '123', 1);
    await sendKeys({ type: '9' });
    expect(seen(cvv)).to.deep.equal(['123', 1, 1]);
    cvv.setSelectionRange(3, 3);
    await sendKeys({ type: '9' });
    expect(seen(cvv)).to.deep.equal(['123', 3, 3]);
  });

  it('takes a number pasted with spaces or dashes, and one autofilled whole (insertReplacementText)', async () => {
    await showing(number, '', 0);
    document.execCommand('insertText', false, '4111-1111 1111-1111');
    expect(seen(number)).to.deep.equal(['4111 1111 1111 1111', 19, 19]);
    number.blur();
    number.value = '5555555555554444';
    number.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertReplacementText' }));
    expect(number.value).to.equal('5555 5555 5555 4444');
    await waitUntil(() => lastState('number').brand === 'MASTER');
    expect(lastState('number')).to.include({ valid: true, complete: true });
  });

  it('leaves an IME\u2019s composition alone until it ends, then groups what it committed: no digit doubled', async () => {
    await showing(number, '4111', 4);
    await executeServerCommand('pw-ime', { text: '５' });
    expect(seen(number), 'as composed').to.deep.equal(['4111５', 5, 5]);
    await executeServerCommand('pw-ime', { text: '５５' });
    await executeServerCommand('pw-ime', { text: '５５', commit: true });
    expect(seen(number)).to.deep.equal(['4111 55', 7, 7]);
    await executeServerCommand('pw-ime', { text: '６' });
    await executeServerCommand('pw-ime', { text: '６', commit: true });
    expect(seen(number)).to.deep.equal(['4111 556', 8, 8]);
    // Inside the number, too.
    number.setSelectionRange(2, 2);
    await executeServerCommand('pw-ime', { text: '０' });
    await executeServerCommand('pw-ime', { text: '０', commit: true });
    expect(seen(number)).to.deep.equal(['4101 1556', 3, 3]);
  });
});
