import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nest, type ParamError } from '../../server/http/params.ts';
import { parseInitialPayment, parseReferencing, parseRegistration, type ValidationContext } from '../../server/schema/requests.ts';

const NOW = new Date('2026-03-15T12:00:00Z');
const testCtx: ValidationContext = { env: 'test', now: NOW };
const liveCtx: ValidationContext = { env: 'live', now: NOW };

type Params = Record<string, string | undefined>;

const CARD: Params = {
  'card.number': '4200000000000000',
  'card.holder': 'Jane Jones',
  'card.expiryMonth': '05',
  'card.expiryYear': '2034',
  'card.cvv': '123',
};
const NO_CARD: Params = Object.fromEntries(Object.keys(CARD).map((k) => [k, undefined]));
const BASE: Params = { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...CARD };

/** Flat parameters as a merchant sends them; undefined leaves one out. */
function flat(...parts: Params[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of parts) for (const [k, v] of Object.entries(part)) if (v === undefined) delete out[k];
      else out[k] = v;
  return out;
}

function nested(params: Record<string, string>) {
  const { value, errors } = nest(params);
  assert.deepEqual(errors, []);
  return value;
}

function payment(overrides: Params = {}, ctx = testCtx) {
  return parseInitialPayment(nested(flat(BASE, overrides)), ctx);
}

/** The failure of a request that must fail. */
function failureOf(result: { ok: true } | { ok: false; failure: { code: string; parameterErrors: ParamError[] } }) {
  assert.equal(result.ok, false, 'the request should have been refused');
  return (result as { ok: false; failure: { code: string; parameterErrors: ParamError[] } }).failure;
}

/** Refused with `code`, and exactly these parameters named. */
function assertRefused(result: Parameters<typeof failureOf>[0], code: string, names: string[]) {
  const failure = failureOf(result);
  assert.equal(failure.code, code, JSON.stringify(failure));
  assert.deepEqual(failure.parameterErrors.map((e) => e.name).sort(), [...names].sort(), JSON.stringify(failure));
  return failure;
}

function accountOf(result: ReturnType<typeof payment>) {
  assert.equal(result.ok, true, result.ok ? '' : JSON.stringify(result.failure));
  return (result as { ok: true; value: { account: unknown } }).value.account;
}

describe('card group: card.number', () => {
  it('accepts a valid card number and detects its brand when paymentBrand is absent', () => {
    assert.deepEqual(accountOf(payment()), { method: 'CC', brand: 'VISA' });
    assert.deepEqual(accountOf(payment({ 'card.number': '5200000000000007' })), { method: 'CC', brand: 'MASTER' });
    assert.deepEqual(accountOf(payment({ 'card.number': '377777777777770', 'card.cvv': '1234' })), { method: 'CC', brand: 'AMEX' });
    assert.deepEqual(accountOf(payment({ 'card.number': '6011111111111117' })), { method: 'CC', brand: 'DISCOVER' });
  });

  it('keeps the paymentBrand the merchant sent when it matches the number', () => {
    assert.deepEqual(accountOf(payment({ paymentBrand: 'VISA' })), { method: 'CC', brand: 'VISA' });
  });

  it('takes 8 to 32 digits as the field, and of a card brand only its lengths (bin and last4Digits must not be most of the number)', () => {
    // 8 digits pass the field (no "at least 8"); the brand's lengths refuse them.
    assert.equal(failureOf(payment({ 'card.number': '42000000' })).parameterErrors[0]!.message, 'card.number has 8 digits; VISA card numbers have 16, 18 or 19');
    const short = assertRefused(payment({ 'card.number': '4123456784' }), '100.100.101', ['card.number']);
    assert.equal(short.parameterErrors[0]!.message, 'card.number has 10 digits; VISA card numbers have 16, 18 or 19');
    assert.equal(short.parameterErrors[0]!.value, '******6784');
    // A wrong length and a wrong check digit: one error for the number, its length.
    const both = assertRefused(payment({ 'card.number': '4123456785' }), '100.100.101', ['card.number']);
    assert.match(both.parameterErrors[0]!.message, /has 10 digits/);
    assertRefused(payment({ 'card.number': '40000000000000000000000000000002', paymentBrand: 'VISA' }), '100.100.101', ['card.number']);
    const amex = assertRefused(payment({ 'card.number': '34000000', paymentBrand: 'AMEX', 'card.cvv': '1234' }), '100.100.101', ['card.number']);
    assert.equal(amex.parameterErrors[0]!.message, 'card.number has 8 digits; AMEX card numbers have 15');
    assert.deepEqual(accountOf(payment({ 'card.number': '6759649826438453', paymentBrand: 'MAESTRO' })), { method: 'CC', brand: 'MAESTRO' });
    assert.deepEqual(accountOf(payment({ 'card.number': '675964982648', paymentBrand: 'MAESTRO' })), { method: 'CC', brand: 'MAESTRO' });
  });

  it('refuses 7 digits with 100.100.101 naming card.number', () => {
    const failure = assertRefused(payment({ 'card.number': '4200000' }), '100.100.101', ['card.number']);
    assert.equal(failure.parameterErrors[0]!.message, 'card.number must be at least 8 characters');
  });

  it('refuses 33 digits with 100.100.101 naming card.number', () => {
    assertRefused(payment({ 'card.number': '4'.repeat(33) }), '100.100.101', ['card.number']);
  });

  it('refuses a number with letters, spaces or dashes with 100.100.101', () => {
    for (const number of ['42000000000000a0', '4200 0000 0000 0000', '4200-0000-0000-0000']) {
      assertRefused(payment({ 'card.number': number }), '100.100.101', ['card.number']);
    }
  });

  it('refuses a number that fails the Luhn check with 100.100.101', () => {
    const failure = assertRefused(payment({ 'card.number': '4200000000000001' }), '100.100.101', ['card.number']);
    assert.equal(failure.parameterErrors[0]!.message, 'card.number is not a valid card number (check digit)');
  });

  it('refuses a paymentBrand that does not match the number with 100.100.700', () => {
    const failure = assertRefused(payment({ paymentBrand: 'MASTER' }), '100.100.700', ['paymentBrand']);
    assert.deepEqual(failure.parameterErrors[0], { name: 'paymentBrand', value: 'MASTER', message: 'paymentBrand does not match the card number, which is VISA' });
  });

  it('refuses a brand that is not a card brand for card data with 100.100.501', () => {
    assertRefused(payment({ paymentBrand: 'DIRECTDEBIT_SEPA' }), '100.100.501', ['paymentBrand']);
  });

  it('asks for paymentBrand with 100.100.500 when the brand cannot be detected', () => {
    assertRefused(payment({ 'card.number': '9999999999999995' }), '100.100.500', ['paymentBrand']);
  });

  it('asks for card.number with 100.100.100 when no account data is sent', () => {
    assertRefused(payment(NO_CARD), '100.100.100', ['card.number']);
  });

  it('asks for card.number with 100.100.100 when the card group lacks it', () => {
    assertRefused(payment({ 'card.number': undefined }), '100.100.100', ['card.number']);
  });
});

describe('card group: expiry', () => {
  it('refuses an expiry month outside 01-12 with 100.100.201', () => {
    for (const month of ['00', '13', '5', '1a', '012']) {
      assertRefused(payment({ 'card.expiryMonth': month }), '100.100.201', ['card.expiryMonth']);
    }
  });

  it('accepts every month from 01 to 12', () => {
    for (let m = 1; m <= 12; m++) accountOf(payment({ 'card.expiryMonth': String(m).padStart(2, '0') }));
  });

  it('refuses an expiry year that does not start with 19 or 20 with 100.100.301', () => {
    for (const year of ['2134', '1899', '34', '20345', 'abcd']) {
      assertRefused(payment({ 'card.expiryYear': year }), '100.100.301', ['card.expiryYear']);
    }
  });

  it('asks for a missing month with 100.100.200 and a missing year with 100.100.300', () => {
    assertRefused(payment({ 'card.expiryMonth': undefined }), '100.100.200', ['card.expiryMonth']);
    assertRefused(payment({ 'card.expiryYear': undefined }), '100.100.300', ['card.expiryYear']);
  });

  it('refuses a card that expired before the current month with 100.100.303', () => {
    const failure = assertRefused(payment({ 'card.expiryMonth': '02', 'card.expiryYear': '2026' }), '100.100.303', ['card.expiryYear']);
    assert.equal(failure.parameterErrors[0]!.message, 'card.expiryYear with card.expiryMonth 02 is in the past: the card has expired');
    assertRefused(payment({ 'card.expiryMonth': '12', 'card.expiryYear': '2025' }), '100.100.303', ['card.expiryYear']);
    assertRefused(payment({ 'card.expiryMonth': '05', 'card.expiryYear': '1999' }), '100.100.303', ['card.expiryYear']);
  });

  it('accepts a card that expires in the current month', () => {
    accountOf(payment({ 'card.expiryMonth': '03', 'card.expiryYear': '2026' }));
  });

  it('judges expiry against the validation clock, not the machine clock', () => {
    const card = { 'card.expiryMonth': '02', 'card.expiryYear': '2026' };
    accountOf(payment(card, { env: 'test', now: new Date('2026-02-28T23:59:59Z') }));
    assertRefused(payment(card, { env: 'test', now: new Date('2026-03-01T00:00:00Z') }), '100.100.303', ['card.expiryYear']);
  });
});

describe('card group: security code and holder', () => {
  it('accepts a 3-digit security code for VISA and a 4-digit one for AMEX', () => {
    accountOf(payment({ 'card.cvv': '000' }));
    accountOf(payment({ 'card.number': '377777777777770', 'card.cvv': '1234' }));
  });

  it('accepts a card without a security code', () => {
    accountOf(payment({ 'card.cvv': undefined }));
  });

  it('refuses a 4-digit code for VISA with 100.100.601', () => {
    const failure = assertRefused(payment({ 'card.cvv': '1234' }), '100.100.601', ['card.cvv']);
    assert.equal(failure.parameterErrors[0]!.message, 'card.cvv must be 3 digits for VISA');
  });

  it('refuses a 3-digit code for AMEX with 100.100.601', () => {
    const failure = assertRefused(payment({ 'card.number': '377777777777770', 'card.cvv': '123' }), '100.100.601', ['card.cvv']);
    assert.equal(failure.parameterErrors[0]!.message, 'card.cvv must be 4 digits for AMEX');
  });

  it('refuses a code of 2 or 5 digits, or with letters, with 100.100.601', () => {
    for (const cvv of ['12', '12345', '12a', '']) assertRefused(payment({ 'card.cvv': cvv }), '100.100.601', ['card.cvv']);
  });

  it('accepts holders of 3 and 128 letters, with accents, spaces, dots, apostrophes and hyphens', () => {
    for (const holder of ['Jan', 'a'.repeat(128), "Zoë O'Brien-Smith Jr.", 'Łukasz Żółć']) accountOf(payment({ 'card.holder': holder }));
  });

  it('refuses a holder of 2 or 129 characters with 100.100.402', () => {
    assertRefused(payment({ 'card.holder': 'Jo' }), '100.100.402', ['card.holder']);
    assertRefused(payment({ 'card.holder': 'a'.repeat(129) }), '100.100.402', ['card.holder']);
  });

  it('refuses a holder with digits or symbols with 100.100.402', () => {
    for (const holder of ['Jane 123', 'Jane <script>', 'Jane_Jones']) {
      const failure = assertRefused(payment({ 'card.holder': holder }), '100.100.402', ['card.holder']);
      assert.equal(failure.parameterErrors[0]!.value, holder);
    }
  });

  it('refuses a holder of no letter (spaces, dots, apostrophes or hyphens only) with 100.100.402, saying it needs a letter', () => {
    for (const holder of ['   ', '...', "-'-", ' . ']) {
      const failure = assertRefused(payment({ 'card.holder': holder }), '100.100.402', ['card.holder']);
      assert.match(failure.parameterErrors[0]!.message, /must contain a letter/);
    }
  });
});

describe('bank account group', () => {
  const SEPA: Params = { ...NO_CARD, paymentBrand: 'DIRECTDEBIT_SEPA', 'bankAccount.holder': 'Jane Jones', 'bankAccount.iban': 'DE89370400440532013000' };

  it('accepts a valid IBAN as a direct debit account', () => {
    assert.deepEqual(accountOf(payment(SEPA)), { method: 'DD', brand: 'DIRECTDEBIT_SEPA' });
    assert.deepEqual(accountOf(payment({ ...SEPA, 'bankAccount.iban': 'GB82WEST12345698765432' })), { method: 'DD', brand: 'DIRECTDEBIT_SEPA' });
  });

  it('refuses an IBAN with wrong check digits with 100.100.101', () => {
    const failure = assertRefused(payment({ ...SEPA, 'bankAccount.iban': 'DE89370400440532013001' }), '100.100.101', ['bankAccount.iban']);
    assert.deepEqual(failure.parameterErrors[0], {
      name: 'bankAccount.iban',
      value: 'DE89370400440532013001',
      message: 'bankAccount.iban is not a valid IBAN (country, length or check digits)',
    });
  });

  it('refuses an IBAN with the wrong length for its country with 100.100.101', () => {
    assertRefused(payment({ ...SEPA, 'bankAccount.iban': 'DE8937040044053201300' }), '100.100.101', ['bankAccount.iban']);
  });

  it('refuses an IBAN in the wrong format (lower case, spaces) with 100.100.101', () => {
    assertRefused(payment({ ...SEPA, 'bankAccount.iban': 'de89370400440532013000' }), '100.100.101', ['bankAccount.iban']);
    assertRefused(payment({ ...SEPA, 'bankAccount.iban': 'DE89 3704 0044 0532 0130 00' }), '100.100.101', ['bankAccount.iban']);
  });

  it('accepts a valid 8- or 11-character BIC', () => {
    accountOf(payment({ ...SEPA, 'bankAccount.bic': 'COBADEFFXXX' }));
    accountOf(payment({ ...SEPA, 'bankAccount.bic': 'COBADEFF' }));
  });

  it('refuses an invalid BIC with 100.200.103', () => {
    assertRefused(payment({ ...SEPA, 'bankAccount.bic': 'ZZZZ1234' }), '100.200.103', ['bankAccount.bic']);
    assertRefused(payment({ ...SEPA, 'bankAccount.bic': 'COBADEFFX' }), '100.200.103', ['bankAccount.bic']);
  });

  it('accepts holders of 4 and 128 characters', () => {
    accountOf(payment({ ...SEPA, 'bankAccount.holder': 'Jane' }));
    accountOf(payment({ ...SEPA, 'bankAccount.holder': 'J'.repeat(128) }));
  });

  it('refuses a holder of 3 or 129 characters with 100.100.401', () => {
    assertRefused(payment({ ...SEPA, 'bankAccount.holder': 'Jan' }), '100.100.401', ['bankAccount.holder']);
    assertRefused(payment({ ...SEPA, 'bankAccount.holder': 'J'.repeat(129) }), '100.100.401', ['bankAccount.holder']);
  });

  it('asks for a holder with 100.100.400', () => {
    assertRefused(payment({ ...SEPA, 'bankAccount.holder': undefined }), '100.100.400', ['bankAccount.holder']);
  });

  it('asks for an IBAN or an account number with 100.100.100', () => {
    const failure = assertRefused(payment({ ...SEPA, 'bankAccount.iban': undefined }), '100.100.100', ['bankAccount.iban', 'bankAccount.bic']);
    assert.equal(failure.parameterErrors.find((e) => e.name === 'bankAccount.iban')!.message, 'bankAccount.iban or bankAccount.number is required');
  });

  it('accepts an account number with a BIC or a bank code instead of an IBAN', () => {
    accountOf(payment({ ...SEPA, 'bankAccount.iban': undefined, 'bankAccount.number': '0532013000', 'bankAccount.bic': 'COBADEFFXXX' }));
    accountOf(payment({ ...SEPA, 'bankAccount.iban': undefined, 'bankAccount.number': '0532013000', 'bankAccount.bankCode': '37040044' }));
  });

  it('asks for a BIC or bank code with 100.200.103 when only an account number is sent', () => {
    assertRefused(payment({ ...SEPA, 'bankAccount.iban': undefined, 'bankAccount.number': '0532013000' }), '100.200.103', ['bankAccount.bic']);
  });

  it('refuses a card brand for a bank account with 100.100.501', () => {
    assertRefused(payment({ ...SEPA, paymentBrand: 'VISA' }), '100.100.501', ['paymentBrand']);
  });

  it('asks for paymentBrand with 100.100.500 for a bank account', () => {
    assertRefused(payment({ ...SEPA, paymentBrand: undefined }), '100.100.500', ['paymentBrand']);
  });
});

describe('token account group', () => {
  const TOKEN: Params = { ...NO_CARD, paymentBrand: 'VISA', 'tokenAccount.number': '4200000000000000', 'tokenAccount.type': 'NETWORK' };

  it('accepts a token of 12 to 19 digits of either type', () => {
    assert.deepEqual(accountOf(payment(TOKEN)), { method: 'TA', brand: 'VISA' });
    accountOf(payment({ ...TOKEN, 'tokenAccount.number': '123456789012', 'tokenAccount.type': 'EXTERNAL' }));
    accountOf(payment({ ...TOKEN, 'tokenAccount.number': '1234567890123456789' }));
  });

  it('refuses a token of 11 or 20 digits with 100.100.101, masking the number', () => {
    const short = assertRefused(payment({ ...TOKEN, 'tokenAccount.number': '12345678901' }), '100.100.101', ['tokenAccount.number']);
    assert.equal(short.parameterErrors[0]!.value, '*******8901');
    const long = assertRefused(payment({ ...TOKEN, 'tokenAccount.number': '1'.repeat(20) }), '100.100.101', ['tokenAccount.number']);
    assert.equal(long.parameterErrors[0]!.value, `${'*'.repeat(16)}1111`);
  });

  it('refuses a token type other than EXTERNAL or NETWORK', () => {
    const failure = assertRefused(payment({ ...TOKEN, 'tokenAccount.type': 'OTHER' }), '100.100.101', ['tokenAccount.type']);
    assert.equal(failure.parameterErrors[0]!.message, 'tokenAccount.type must be one of EXTERNAL, NETWORK');
  });

  it('asks for the token type', () => {
    assertRefused(payment({ ...TOKEN, 'tokenAccount.type': undefined }), '100.100.100', ['tokenAccount.type']);
  });

  it('refuses a brand that is not a card brand for a token with 100.100.501', () => {
    assertRefused(payment({ ...TOKEN, paymentBrand: 'DIRECTDEBIT_SEPA' }), '100.100.501', ['paymentBrand']);
  });
});

describe('virtual account group', () => {
  const VA: Params = { ...NO_CARD, paymentBrand: 'PAYPAL', 'virtualAccount.accountId': 'jane@example.com' };

  it('accepts an account id of 1 to 100 characters', () => {
    assert.deepEqual(accountOf(payment(VA)), { method: 'VA', brand: 'PAYPAL' });
    accountOf(payment({ ...VA, 'virtualAccount.accountId': 'x' }));
    accountOf(payment({ ...VA, 'virtualAccount.accountId': 'x'.repeat(100) }));
  });

  it('refuses an empty or 101-character account id naming virtualAccount.accountId', () => {
    assertRefused(payment({ ...VA, 'virtualAccount.accountId': '' }), '100.100.101', ['virtualAccount.accountId']);
    assertRefused(payment({ ...VA, 'virtualAccount.accountId': 'x'.repeat(101) }), '100.100.101', ['virtualAccount.accountId']);
  });

  it('asks for paymentBrand with 100.100.500 for a virtual account', () => {
    assertRefused(payment({ ...VA, paymentBrand: undefined }), '100.100.500', ['paymentBrand']);
  });

  it('names the account field the brand needs when no account is sent: virtualAccount.accountId, bankAccount.iban or .country, else card.number', () => {
    const bare: Params = { ...NO_CARD };
    assertRefused(payment({ ...bare, paymentBrand: 'PAYPAL' }), '100.100.100', ['virtualAccount.accountId']);
    assert.equal(failureOf(payment({ ...bare, paymentBrand: 'PAYPAL' })).parameterErrors[0]!.message, 'virtualAccount.accountId is required for PAYPAL: send virtualAccount');
    assert.deepEqual(failureOf(payment({ ...bare, paymentBrand: 'DIRECTDEBIT_SEPA' })).parameterErrors.map((e) => e.name), ['bankAccount.iban']);
    assert.deepEqual(failureOf(payment({ ...bare, paymentBrand: 'ONLINE_TRANSFER' })).parameterErrors.map((e) => e.name), ['bankAccount.country']);
    for (const brand of ['VISA', undefined]) assert.deepEqual(failureOf(payment({ ...bare, paymentBrand: brand })).parameterErrors.map((e) => e.name), ['card.number'], String(brand));
  });

  it('refuses createRegistration for a virtual account', () => {
    assertRefused(payment({ ...VA, createRegistration: 'true' }), '200.300.404', ['createRegistration']);
  });
});

describe('amounts and currency', () => {
  it('accepts a main amount without decimals, with two decimals, and with ten integer digits', () => {
    for (const amount of ['92', '92.00', '0.01', '9999999999.99']) accountOf(payment({ amount }));
  });

  it('refuses a main amount with one or three decimals, eleven digits or a comma with 100.550.303', () => {
    for (const amount of ['92.5', '92.001', '12345678901', '92,00', '-1.00', '1e3']) {
      const failure = assertRefused(payment({ amount }), '100.550.303', ['amount']);
      assert.equal(failure.parameterErrors[0]!.value, amount);
    }
  });

  it('refuses a fraction in a currency without minor units (ISO 4217 exponent 0) with 100.550.303, and takes .00', () => {
    for (const currency of ['JPY', 'KRW', 'CLP', 'ISK']) {
      const failure = assertRefused(payment({ amount: '100.50', currency }), '100.550.303', ['amount']);
      assert.equal(failure.parameterErrors[0]!.message, `amount must be a whole amount in ${currency}, a currency without minor units (such as 100 or 100.00)`);
      accountOf(payment({ amount: '100.00', currency }));
      accountOf(payment({ amount: '100', currency }));
    }
    // Two minor units by ISO 4217 and the card schemes, whatever ICU says of HUF.
    for (const currency of ['EUR', 'HUF']) accountOf(payment({ amount: '100.50', currency }));
    assertRefused(parseReferencing(nested({ paymentType: 'RF', amount: '1.50', currency: 'JPY' }), testCtx), '100.550.303', ['amount']);
  });

  it('accepts a taxAmount with exactly two decimals', () => {
    accountOf(payment({ taxAmount: '10.00', discountAmount: '0.50' }));
  });

  it('refuses a taxAmount without decimals with 100.550.303, naming taxAmount', () => {
    const failure = assertRefused(payment({ taxAmount: '10' }), '100.550.303', ['taxAmount']);
    assert.deepEqual(failure.parameterErrors[0], {
      name: 'taxAmount',
      value: '10',
      message: 'taxAmount must be an amount with up to 10 digits and exactly two decimals, such as 10.00',
    });
  });

  it('refuses a discountAmount with one decimal with 100.550.303, naming discountAmount', () => {
    assertRefused(payment({ discountAmount: '1.5' }), '100.550.303', ['discountAmount']);
  });

  it('refuses a zero amount with 100.550.300', () => {
    for (const amount of ['0', '0.00', '000.00']) {
      const failure = assertRefused(payment({ amount }), '100.550.300', ['amount']);
      assert.equal(failure.parameterErrors[0]!.message, 'amount must be greater than zero');
    }
  });

  it('asks for the amount with 100.550.300', () => {
    const failure = assertRefused(payment({ amount: undefined }), '100.550.300', ['amount']);
    assert.equal(failure.parameterErrors[0]!.message, 'amount is required');
  });

  it('refuses a currency that is not three upper-case ISO 4217 letters with 100.550.401', () => {
    for (const currency of ['eur', 'EURO', 'XYZ', 'E1R']) assertRefused(payment({ currency }), '100.550.401', ['currency']);
  });

  it('takes the active currencies of ISO 4217 List One whatever the runtime\u2019s ICU lists (VED, XCG, ZWG, SLE, KWD)', () => {
    for (const currency of ['VED', 'VES', 'XCG', 'ZWG', 'SLE', 'KWD', 'CUP', 'EUR', 'USD']) accountOf(payment({ currency }));
  });

  it('refuses withdrawn currencies, funds, metals, units of account and test codes with 100.550.401', () => {
    const refused = [
      ...['HRK', 'CUC', 'ANG', 'BGN', 'SLL', 'ZWL', 'VEF'],
      ...['BOV', 'CHE', 'CHW', 'CLF', 'COU', 'MXV', 'USN', 'UYI', 'UYW', 'XAD'],
      ...['XAU', 'XAG', 'XPD', 'XPT', 'XBA', 'XBB', 'XBC', 'XBD', 'XDR', 'XSU', 'XUA', 'XTS', 'XXX'],
    ];
    for (const currency of refused) {
      const failure = assertRefused(payment({ currency }), '100.550.401', ['currency']);
      assert.equal(failure.parameterErrors[0]!.message, 'currency is not an ISO 4217 currency', currency);
    }
  });

  it('accepts ISO 4217 currencies', () => {
    for (const currency of ['EUR', 'USD', 'JPY', 'CHF', 'GBP']) accountOf(payment({ currency }));
  });

  it('asks for the currency with 100.550.400', () => {
    assertRefused(payment({ currency: undefined }), '100.550.400', ['currency']);
  });
});

describe('request-wide rules', () => {
  it('names an unknown parameter', () => {
    const failure = assertRefused(payment({ foo: 'bar' }), '200.300.404', ['foo']);
    assert.deepEqual(failure.parameterErrors[0], { name: 'foo', value: 'bar', message: 'foo is not a parameter of this request' });
  });

  it('names an unknown parameter inside a known group, masking a secret-looking value', () => {
    const failure = assertRefused(payment({ 'card.pin': '1234' }), '200.300.404', ['card.pin']);
    assert.deepEqual(failure.parameterErrors[0], { name: 'card.pin', value: '****', message: 'card.pin is not a parameter of this request' });
  });

  it('masks a card number or a security code sent under a mistyped name, and shows other unknown values', () => {
    const failure = assertRefused(payment({ 'card.numbr': '4200 0000 0000 0000', 'card.cvc': '123', cardSecurityCode: '1234', pan: '4111111111111111', shoeSize: '42', orderRef: '1234567890123' }), '200.300.404', ['card.numbr', 'card.cvc', 'cardSecurityCode', 'pan', 'shoeSize', 'orderRef']);
    const shown = Object.fromEntries(failure.parameterErrors.map((e) => [e.name, e.value]));
    assert.deepEqual(shown, {
      'card.numbr': '***************0000',
      'card.cvc': '***',
      cardSecurityCode: '****',
      pan: '************1111',
      shoeSize: '42',
      // 13 digits failing the check digit: not a card number.
      orderRef: '1234567890123',
    });
  });

  it('names an unknown [key] of customParameters when the key breaks the naming rule', () => {
    assertRefused(payment({ 'customParameters[ab]': 'x' }), '200.300.404', ['customParameters[ab]']);
    accountOf(payment({ 'customParameters[SHOPPER_x.y]': 'x' }));
  });

  it('refuses card and bank account data in one request', () => {
    const failure = assertRefused(
      payment({ paymentBrand: 'VISA', 'bankAccount.holder': 'Jane Jones', 'bankAccount.iban': 'DE89370400440532013000' }),
      '200.300.404',
      ['bankAccount'],
    );
    assert.equal(failure.parameterErrors[0]!.message, 'bankAccount cannot be sent together with card');
  });

  it('names every extra account group when three are sent', () => {
    assertRefused(
      payment({ 'virtualAccount.accountId': 'jane', 'tokenAccount.number': '4200000000000000', 'tokenAccount.type': 'NETWORK' }),
      '200.300.404',
      ['virtualAccount', 'tokenAccount'],
    );
  });

  it('refuses a referencing payment type on /v1/payments with 600.200.300', () => {
    assertRefused(payment({ paymentType: 'CP' }), '600.200.300', ['paymentType']);
  });

  it('accepts testMode in the test environment', () => {
    accountOf(payment({ testMode: 'EXTERNAL' }));
    accountOf(payment({ testMode: 'INTERNAL' }));
  });

  it('refuses testMode in the live environment with 600.200.701', () => {
    const failure = assertRefused(payment({ testMode: 'INTERNAL' }, liveCtx), '600.200.701', ['testMode']);
    assert.deepEqual(failure.parameterErrors[0], { name: 'testMode', value: 'INTERNAL', message: 'testMode is only allowed in the test environment' });
  });

  it('accepts the same request without testMode in the live environment', () => {
    accountOf(payment({}, liveCtx));
  });

  it('lists every failing parameter of a request with three bad fields', () => {
    const failure = assertRefused(payment({ currency: 'eur', 'card.expiryMonth': '13', 'card.cvv': '12' }), '100.550.401', ['currency', 'card.expiryMonth', 'card.cvv']);
    assert.equal(failure.parameterErrors.length, 3);
  });

  it('lists testMode in live together with the other failing parameters', () => {
    assertRefused(payment({ testMode: 'INTERNAL', amount: '1.5' }, liveCtx), '600.200.701', ['testMode', 'amount']);
  });

  it('never returns the full card number in parameterErrors, only its last four digits', () => {
    for (const number of ['4200000000000001', '42000000000000a0', '4'.repeat(33)]) {
      const failure = failureOf(payment({ 'card.number': number }));
      const error = failure.parameterErrors.find((e) => e.name === 'card.number')!;
      assert.equal(error.value, '*'.repeat(number.length - 4) + number.slice(-4));
      assert.equal(JSON.stringify(failure).includes(number), false);
    }
  });

  it('never returns the security code in parameterErrors', () => {
    for (const cvv of ['98765', '12', '1a3']) {
      const failure = failureOf(payment({ 'card.cvv': cvv }));
      const error = failure.parameterErrors.find((e) => e.name === 'card.cvv')!;
      assert.equal(error.value, '*'.repeat(cvv.length));
      assert.equal(JSON.stringify(failure).includes(cvv), false);
    }
    const amex = failureOf(payment({ 'card.number': '377777777777770', 'card.cvv': '987' }));
    assert.deepEqual(amex.parameterErrors, [{ name: 'card.cvv', value: '***', message: 'card.cvv must be 4 digits for AMEX' }]);
  });
});

describe('parseReferencing', () => {
  const reference = (params: Params, ctx = testCtx) => parseReferencing(nested(flat(params)), ctx);

  it('accepts a capture with amount and currency', () => {
    const result = reference({ paymentType: 'CP', amount: '10.00', currency: 'EUR', sequence: 'FINAL' });
    assert.equal(result.ok, true);
    assert.deepEqual(result.ok && { paymentType: result.value.paymentType, amount: result.value.amount, currency: result.value.currency, sequence: result.value.sequence }, {
      paymentType: 'CP',
      amount: '10.00',
      currency: 'EUR',
      sequence: 'FINAL',
    });
  });

  it('asks a capture, refund and rebill for amount (100.550.300) and currency', () => {
    for (const paymentType of ['CP', 'RF', 'RB']) {
      const failure = assertRefused(reference({ paymentType }), '100.550.300', ['amount', 'currency']);
      assert.deepEqual(failure.parameterErrors, [
        { name: 'amount', value: '', message: `amount is required for ${paymentType}` },
        { name: 'currency', value: '', message: `currency is required for ${paymentType}` },
      ]);
    }
  });

  it('asks a capture for currency with 100.550.400 when only the amount is sent', () => {
    assertRefused(reference({ paymentType: 'CP', amount: '10.00' }), '100.550.400', ['currency']);
  });

  it('accepts a reversal without amount or currency', () => {
    assert.equal(reference({ paymentType: 'RV' }).ok, true);
  });

  it('takes a currency withdrawn since payments were made in it (a BGN authorization is still captured and refunded in BGN), and no other', () => {
    for (const currency of ['BGN', 'HRK', 'CUC', 'ANG', 'SLL', 'ZWL']) {
      for (const paymentType of ['CP', 'RF', 'RB']) assert.equal(reference({ paymentType, amount: '10.00', currency }).ok, true, `${paymentType} ${currency}`);
    }
    for (const currency of ['VEF', 'XDR', 'XTS', 'XYZ']) assertRefused(reference({ paymentType: 'CP', amount: '10.00', currency }), '100.550.401', ['currency']);
  });

  it('refuses a zero capture with 100.550.300', () => {
    assertRefused(reference({ paymentType: 'CP', amount: '0.00', currency: 'EUR' }), '100.550.300', ['amount']);
  });

  it('refuses an initial payment type with 600.200.300', () => {
    assertRefused(reference({ paymentType: 'DB', amount: '1.00', currency: 'EUR' }), '600.200.300', ['paymentType']);
  });

  it('refuses account data on a referencing payment, naming each parameter of the group', () => {
    assertRefused(reference({ paymentType: 'CP', amount: '1.00', currency: 'EUR', 'card.number': '4200000000000000' }), '200.300.404', ['card.number']);
  });

  it('refuses testMode in the live environment with 600.200.701', () => {
    assertRefused(reference({ paymentType: 'RV', testMode: 'INTERNAL' }, liveCtx), '600.200.701', ['testMode']);
  });
});

describe('parseRegistration', () => {
  const register = (params: Params, ctx = testCtx) => parseRegistration(nested(flat(params)), ctx);

  it('stores a card without amount, detecting its brand', () => {
    const result = register(CARD);
    assert.equal(result.ok, true);
    assert.deepEqual(result.ok && result.value.account, { method: 'CC', brand: 'VISA' });
  });

  it('stores a bank account', () => {
    const result = register({ paymentBrand: 'DIRECTDEBIT_SEPA', 'bankAccount.holder': 'Jane Jones', 'bankAccount.iban': 'DE89370400440532013000' });
    assert.deepEqual(result.ok && result.value.account, { method: 'DD', brand: 'DIRECTDEBIT_SEPA' });
  });

  it('names the payment fields a registration does not take', () => {
    const failure = failureOf(register({ ...CARD, amount: '1.00', currency: 'EUR', paymentType: 'DB' }));
    assert.deepEqual(failure.parameterErrors.map((e) => e.name).sort(), ['amount', 'currency', 'paymentType']);
  });

  it('refuses an IBAN with wrong check digits with 100.100.101', () => {
    assertRefused(register({ paymentBrand: 'DIRECTDEBIT_SEPA', 'bankAccount.holder': 'Jane Jones', 'bankAccount.iban': 'DE89370400440532013001' }), '100.100.101', [
      'bankAccount.iban',
    ]);
  });

  it('refuses an expired card with 100.100.303', () => {
    assertRefused(register({ ...CARD, 'card.expiryYear': '2025' }), '100.100.303', ['card.expiryYear']);
  });

  it('refuses a Luhn-invalid card with 100.100.101 and masks it', () => {
    const failure = assertRefused(register({ ...CARD, 'card.number': '4200000000000001' }), '100.100.101', ['card.number']);
    assert.equal(failure.parameterErrors[0]!.value, '************0001');
  });

  it('asks for account data with 100.100.100', () => {
    assertRefused(register({ paymentBrand: 'VISA' }), '100.100.100', ['card.number']);
  });

  it('refuses testMode in the live environment with 600.200.701', () => {
    assertRefused(register({ ...CARD, testMode: 'EXTERNAL' }, liveCtx), '600.200.701', ['testMode']);
  });
});

describe('every bad parameter in one answer', () => {
  it('lists a wrong check digit next to a malformed currency', () => {
    const failure = failureOf(payment({ currency: 'eur', 'card.number': '4200000000000001' }));
    assert.deepEqual(failure.parameterErrors.map((e) => e.name).sort(), ['card.number', 'currency']);
  });

  it('names every parameter of an unknown group with 200.300.404', () => {
    const failure = failureOf(payment({ 'foo.bar': 'x', 'foo.baz[0]': 'y' }));
    assert.equal(failure.code, '200.300.404');
    assert.deepEqual(failure.parameterErrors.map((e) => e.name), ['foo.bar', 'foo.baz[0]']);
  });
});
