// The paying frames' allowlist (src/core/messages.ts) held against what the checkout's payment
// endpoint takes (server/schema/checkout.ts): a field the page sends with a card goes through the
// number or cvv frame, which drops the whole submit if one name is not on its list. A page field
// the gateway learns must be placed here on purpose: forwarded, or never through a frame.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseParentMessage } from '../../src/core/messages.ts';
import { pageAccountPayment, pageRegistrationPayment } from '../../server/schema/checkout.ts';
import { flatParams } from '../../server/schema/flat.ts';

const CHANNEL = '0123456789abcdef0123456789abcdef';

/** Fields a frame never forwards from the page: the frame adds the card itself, other accounts are paid by the page. */
const NEVER_THROUGH_A_FRAME = /^(card\.(number|cvv|numberType)|bankAccount\.|virtualAccount\.|applePay\.|googlePay\.|samsungPay\.)/;

const forwards = (name: string) => parseParentMessage({ type: 'submit', channel: CHANNEL, idempotencyKey: 'pw-1', fields: { [name]: 'x' } }, CHANNEL) !== null;

describe('the paying frames forward what the checkout payment takes', () => {
  const names = [...new Set([...flatParams(pageAccountPayment), ...flatParams(pageRegistrationPayment)].map((p) => p.name.replace('[key]', '[SHOPPER_order]')))];

  it('forwards every page field of a card or saved-card payment, and nothing of the card itself or of another account', () => {
    assert.ok(names.length > 30, names.join(' '));
    const wrong = names.filter((name) => forwards(name) === NEVER_THROUGH_A_FRAME.test(name));
    assert.deepEqual(wrong, [], 'forwarded when it must not be, or refused when the card form needs it');
    for (const name of ['billing.street1', 'billing.country', 'createRegistration', 'registrationId', 'customer.browser.challengeWindow']) assert.equal(forwards(name), true, name);
  });

  it('forwards no name the checkout payment does not take', () => {
    for (const name of ['billing.street2', 'customer.givenName', 'amount', 'shopperResultUrl', 'customParameters[ORDER]', 'card.number', 'card.cvv']) assert.equal(forwards(name), false, name);
  });
});
