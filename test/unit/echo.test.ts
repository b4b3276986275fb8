// What a payment keeps and answers of its request (server/schema/echo.ts): every structure, with
// the secrets of each group masked or left out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { echoedDetails, isCardNumber, maskedAccount, maskNumber, withoutSecrets } from '../../server/schema/echo.ts';

describe('echo: secrets of each group', () => {
  it('leaves out giftCard.pin and masks giftCard.number to its last four characters', () => {
    assert.deepEqual(echoedDetails({ giftCard: { number: '6036281234567890', pin: '4711', holder: 'Jane Jones', type: 'BIRTHDAY' } }), {
      giftCard: { number: '************7890', holder: 'Jane Jones', type: 'BIRTHDAY' },
    });
  });

  it('masks a gift card number shorter than 8 characters entirely', () => {
    assert.deepEqual(echoedDetails({ giftCard: { number: '1234567', pin: '12' } }), { giftCard: { number: '*******' } });
    assert.deepEqual(echoedDetails({ giftCard: { pin: '12' } }), {});
  });

  it('leaves out pos.encryptedPin, pos.encryptedSred and pos.iccDataRequest, keeping the terminal fields', () => {
    const pos = {
      terminalId: '12345678',
      entryMode: 'ICC',
      encryptedPin: { data: 'ABCDEF0123', ksn: 'FFFF9876' },
      encryptedSred: { data: 'c2VjcmV0', ksn: 'FFFF1234' },
      iccDataRequest: '9F2608A1B2C3D4E5F60718',
      location: { latitude: '52.52', longitude: '13.405' },
      pinEntryCapability: 'PIN_ENTRY_AVAILABLE',
    };
    assert.deepEqual(echoedDetails({ pos }), {
      pos: { terminalId: '12345678', entryMode: 'ICC', location: { latitude: '52.52', longitude: '13.405' }, pinEntryCapability: 'PIN_ENTRY_AVAILABLE' },
    });
  });

  it('leaves out every wallet paymentToken, and a wallet group that held only its token', () => {
    assert.deepEqual(echoedDetails({ applePay: { paymentToken: '{"data":"secret"}', cardNetwork: 'Visa', cardType: 'debit' } }), { applePay: { cardNetwork: 'Visa', cardType: 'debit' } });
    assert.deepEqual(echoedDetails({ googlePay: { paymentToken: '{"signature":"x"}' } }), {});
    assert.deepEqual(echoedDetails({ samsungPay: { source: 'app' } }), { samsungPay: { source: 'app' } });
  });

  it('masks sender.accountNumber and recipient.accountNumber to the last four digits when they are card numbers', () => {
    assert.deepEqual(echoedDetails({ sender: { name: 'Jane Jones', accountNumber: '4200000000000000', accountNumberType: 'OTHER' } }), {
      sender: { name: 'Jane Jones', accountNumber: '************0000', accountNumberType: 'OTHER' },
    });
    assert.deepEqual(echoedDetails({ recipient: { accountNumber: '5200 0000 0000 0007' } }), { recipient: { accountNumber: '************0007' } });
    // CARD_ACCOUNT says it is a card, whatever its check digit.
    assert.deepEqual(echoedDetails({ sender: { accountNumber: '1234567890123456', accountNumberType: 'CARD_ACCOUNT' } }), {
      sender: { accountNumber: '************3456', accountNumberType: 'CARD_ACCOUNT' },
    });
  });

  it('keeps account numbers that are not card numbers as sent (IBAN, e-mail, a number failing the check digit)', () => {
    for (const accountNumber of ['DE89370400440532013000', 'jane@example.com', '4200000000000001', '12345678901']) {
      assert.deepEqual(echoedDetails({ recipient: { accountNumber, accountNumberType: 'IBAN' } }), { recipient: { accountNumber, accountNumberType: 'IBAN' } });
    }
  });

  it('answers amount, type, brand, accounts and instructions elsewhere or never', () => {
    const request = {
      amount: '92.00', currency: 'EUR', paymentType: 'DB', paymentBrand: 'VISA', testMode: 'INTERNAL', createRegistration: 'true', sequence: 'FINAL',
      card: { number: '4200000000000000', cvv: '123', expiryMonth: '05', expiryYear: '2034' },
      descriptor: 'Shop A', customer: { givenName: 'Jane', surname: 'Jones' }, transactionDueDate: '2030-01-31',
    };
    assert.deepEqual(echoedDetails(request), { descriptor: 'Shop A', customer: { givenName: 'Jane', surname: 'Jones' }, transactionDueDate: '2030-01-31' });
  });

  it('keeps groups without secrets whole (shipping, cart, merchant, airline …)', () => {
    const cart = { items: [{ name: 'Shoe', price: '10.00' }], payments: [{ type: 'PROMOTION', amount: '1.00' }] };
    const merchant = { name: 'Shop', billing: { city: 'Berlin' }, data: { 'store.id': 'B-17' } };
    assert.deepEqual(echoedDetails({ cart, merchant, shipping: { city: 'Hamburg', customer: { givenName: 'J', surname: 'J' } } }), {
      cart,
      merchant,
      shipping: { city: 'Hamburg', customer: { givenName: 'J', surname: 'J' } },
    });
  });
});

describe('echo: what a checkout stores of the merchant\'s request', () => {
  it('keeps every field but the secrets, accounts and amounts included', () => {
    const stored = withoutSecrets({ amount: '92.00', paymentType: 'DB', giftCard: { number: '6036281234567890', pin: '4711' }, sender: { accountNumber: '4200000000000000' } });
    assert.deepEqual(stored, { amount: '92.00', paymentType: 'DB', giftCard: { number: '************7890' }, sender: { accountNumber: '************0000' } });
  });

  it('gives the same answer when masked twice (a checkout\'s stored request is echoed again by its payment)', () => {
    const once = withoutSecrets({ giftCard: { number: '6036281234567890' }, recipient: { accountNumber: '4200000000000000' } });
    assert.deepEqual(withoutSecrets(once), once);
  });
});

describe('echo: the account', () => {
  it('shows a card by bin, last four digits, holder and expiry, never number or security code', () => {
    assert.deepEqual(maskedAccount({ card: { number: '4200000000000000', cvv: '123', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034' } }), {
      card: { bin: '420000', last4Digits: '0000', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034' },
    });
  });

  it('shows the bin only while at least five digits stay hidden: a 15-digit AMEX has one, a 12 or 14-digit card only its last four', () => {
    const shown = (number: string) => maskedAccount({ card: { number, expiryMonth: '05', expiryYear: '2034' } }).card;
    assert.deepEqual(shown('340000000000009'), { bin: '340000', last4Digits: '0009', expiryMonth: '05', expiryYear: '2034' });
    assert.deepEqual(shown('36000000000008'), { last4Digits: '0008', expiryMonth: '05', expiryYear: '2034' });
    assert.deepEqual(shown('675964982648'), { last4Digits: '2648', expiryMonth: '05', expiryYear: '2034' });
  });

  it('shows a token account by type, last four digits and expiry, never its cryptogram', () => {
    assert.deepEqual(maskedAccount({ tokenAccount: { number: '4895370012345678', type: 'NETWORK', cryptogram: 'AgAAAAAABk4DWZ4C28yUQAAAAAA=' } }), {
      tokenAccount: { type: 'NETWORK', last4Digits: '5678' },
    });
  });
});

describe('echo: helpers', () => {
  it('masks numbers of 8 characters or more to their last four', () => {
    assert.equal(maskNumber('12345678'), '****5678');
    assert.equal(maskNumber('1234567'), '*******');
    assert.equal(maskNumber(''), '');
  });

  it('recognises card numbers by type or by 12 to 19 digits with a valid check digit', () => {
    assert.equal(isCardNumber('4200000000000000', undefined), true);
    assert.equal(isCardNumber('377777777777770', 'OTHER'), true);
    assert.equal(isCardNumber('4200000000000001', undefined), false);
    assert.equal(isCardNumber('00000000000', undefined), false);
    assert.equal(isCardNumber('anything', 'CARD_ACCOUNT'), true);
  });
});
