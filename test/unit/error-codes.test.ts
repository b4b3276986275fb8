// The catalogue code of each failing parameter (server/schema/errors.ts): account data 100.100.x
// and 100.200.x, amounts and currencies 100.550.x, contact data 100.700.x and 100.900.x, addresses
// 100.800.x, everything else 200.300.404; the request answers the most specific code of all its
// errors. Fields are classified from the request schemas themselves, so a field added to any
// group is held to the same rule.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import fc from 'fast-check';
import { nest } from '../../server/http/params.ts';
import { catalogue } from '../../server/results.ts';
import { codeFor, failure, fromZod, maskValue, paramError } from '../../server/schema/errors.ts';
import { checkoutRequest } from '../../server/schema/checkout.ts';
import { initialPaymentRequest, parseInitialPayment, registrationRequest } from '../../server/schema/requests.ts';
import { shipping } from '../../server/schema/shipping.ts';
import { EMAIL } from '../../server/schema/contact.ts';
import { customer } from '../../server/schema/customer.ts';
import { parameterTemplates, type ParamTemplate } from '../support/params.ts';

const templates: ParamTemplate[] = [initialPaymentRequest, registrationRequest, checkoutRequest].flatMap((schema) => parameterTemplates(schema));
const byName = new Map(templates.map((t) => [t.name, t]));
/** The name as a merchant sends it: [n] becomes [0]. */
const sent = (name: string) => name.replace(/\[n\]/g, '[0]');

function jsonSchemaOf(t: ParamTemplate): Record<string, unknown> {
  return z.toJSONSchema(t.leaf, { unrepresentable: 'any', io: 'input' }) as Record<string, unknown>;
}

/** Fields whose schema is an amount: digits, a dot, two decimals (the main amount may leave them out). */
const AMOUNT_PATTERN = /^\^\\d\{1,\d+\}(\\\.\\d\{2\}|\(\\\.\\d\{2\}\)\?)\$$/;
const amountFields = templates.filter((t) => AMOUNT_PATTERN.test(String(jsonSchemaOf(t).pattern ?? '')));
const currencyFields = templates.filter((t) => jsonSchemaOf(t).pattern === '^[A-Z]{3}$' && !/country|Country/.test(t.name));
const emailFields = templates.filter((t) => String(jsonSchemaOf(t).pattern ?? '').includes('@'));

describe('catalogue codes of every failing parameter', () => {
  it('finds the amounts, currencies and e-mails of every group in the schemas', () => {
    // A guard for the classification below: it must see the fields it is meant to hold.
    for (const name of ['amount', 'taxAmount', 'forex.tax', 'shipping.cost', 'cart.items[n].price', 'cart.items[n].shipping', 'cart.payments[n].amount', 'marketPlace.sellers[n].amount', 'airline.passengers[n].legs[n].fareAmount', 'risk.amount', 'threeDSecure.amount', 'recurringMigration.amount']) {
      assert.ok(amountFields.some((t) => t.name === name), `${name} not found among ${amountFields.length} amounts`);
    }
    for (const name of ['currency', 'forex.currency', 'cart.items[n].currency', 'cart.payments[n].currency', 'threeDSecure.currency']) assert.ok(currencyFields.some((t) => t.name === name), name);
    for (const name of ['customer.email', 'shipping.email', 'shipping.customer.email', 'merchant.billing.email', 'merchant.shipping.email', 'cart.items[n].recipient.email']) assert.ok(emailFields.some((t) => t.name === name), name);
  });

  it('gives every amount 100.550.303 when malformed and 100.550.300 when missing', () => {
    for (const t of amountFields) {
      assert.equal(codeFor(sent(t.name), false), '100.550.303', t.name);
      assert.equal(codeFor(sent(t.name), true), '100.550.300', t.name);
    }
  });

  it('gives every currency 100.550.401 when malformed and 100.550.400 when missing', () => {
    for (const t of currencyFields) {
      assert.equal(codeFor(sent(t.name), false), '100.550.401', t.name);
      assert.equal(codeFor(sent(t.name), true), '100.550.400', t.name);
    }
  });

  it('gives every e-mail 100.900.101 and every phone 100.900.200 (mobile 100.900.300)', () => {
    for (const t of emailFields) assert.equal(codeFor(sent(t.name), false), '100.900.101', t.name);
    const phones = templates.filter((t) => /(^|\.)(phone|workPhone|customerContactPhone)$/.test(t.name));
    assert.ok(phones.length >= 10, `${phones.length} phones`);
    for (const t of phones) assert.equal(codeFor(sent(t.name), false), '100.900.200', t.name);
    for (const name of ['customer.mobile', 'shipping.mobile', 'merchant.billing.mobile', 'shipping.customer.mobile']) assert.equal(codeFor(name, false), '100.900.300', name);
  });

  it('gives names, salutation, company, identification and birth date of people 100.700.x or 100.900.450', () => {
    const expected: Array<[string, string, string]> = [
      ['customer.surname', '100.700.100', '100.700.101'],
      ['shipping.customer.givenName', '100.700.200', '100.700.201'],
      ['sender.surname', '100.700.100', '100.700.101'],
      ['recipient.givenName', '100.700.200', '100.700.201'],
      ['merchant.billing.surname', '100.700.100', '100.700.101'],
      ['customer.salutation', '100.700.300', '100.700.300'],
      ['customer.companyName', '100.700.500', '100.700.500'],
      ['shipping.customer.identificationDocType', '100.700.800', '100.700.800'],
      ['customer.identificationDocId', '100.700.801', '100.700.801'],
      ['customer.birthDate', '100.900.450', '100.900.450'],
      ['recipient.birthDate', '100.900.450', '100.900.450'],
      ['customer.ip', '100.900.400', '100.900.401'],
    ];
    for (const [name, missing, invalid] of expected) {
      assert.ok(byName.has(name), name);
      assert.equal(codeFor(name, true), missing, name);
      assert.equal(codeFor(name, false), invalid, name);
    }
  });

  it('gives every street, postcode, city, state and country of an address 100.800.x', () => {
    const addresses = templates.filter((t) => /^(billing|shipping|merchant\.billing|merchant\.shipping|corporate|sender|recipient)\.(street[12]?|houseNumber[12]|address|postcode|postCode|city|state|country)$/.test(t.name));
    assert.ok(addresses.length >= 40, `${addresses.length} address fields`);
    for (const t of addresses) assert.match(codeFor(t.name, false), /^100\.800\.\d{3}$/, t.name);
    assert.equal(codeFor('billing.postcode', false), '100.800.202');
    assert.equal(codeFor('shipping.city', false), '100.800.302');
    assert.equal(codeFor('recipient.country', false), '100.800.501');
    assert.equal(codeFor('merchant.shipping.street1', false), '100.800.101');
    assert.equal(codeFor('cart.items[0].recipient.postcode', false), '100.800.202');
  });

  it('describes a code that fields of several groups share without naming one group\'s field or limit', () => {
    // merchant.billing.givenName (255) and recipient.givenName (48) share 100.700.201 with
    // customer.givenName: a description saying "customer.givenName … 50" would contradict both.
    const shared = new Map<string, Set<string>>();
    for (const t of templates) {
      for (const missing of [true, false]) {
        const code = codeFor(t.name, missing);
        if (code !== '200.300.404') shared.set(code, (shared.get(code) ?? new Set()).add(t.name.split(/[.[]/)[0]!));
      }
    }
    const acrossGroups = [...shared].filter(([, groups]) => groups.size > 1).map(([code]) => code);
    for (const code of ['100.700.101', '100.700.201', '100.800.101', '100.900.200']) assert.ok(acrossGroups.includes(code), code);
    for (const code of acrossGroups) {
      const description = catalogue[code as keyof typeof catalogue];
      assert.doesNotMatch(description, /\b(customer|billing|shipping|street1|street2)\b|between \d|at least \d|exceed \d/, `${code}: ${description}`);
    }
  });

  it('gives the account data 100.100.x and 100.200.x', () => {
    for (const t of templates.filter((t) => /^(card|tokenAccount|virtualAccount)\./.test(t.name) && t.name !== 'card.numberType')) assert.match(codeFor(t.name, false), /^100\.100\.\d{3}$/, t.name);
    for (const name of ['bankAccount.holder', 'bankAccount.iban', 'bankAccount.number', 'bankAccount.bankName']) assert.match(codeFor(name, false), /^100\.100\.\d{3}$/, name);
    for (const name of ['bankAccount.bic', 'bankAccount.bankCode', 'bankAccount.country']) assert.match(codeFor(name, false), /^100\.200\.\d{3}$/, name);
    for (const wallet of ['applePay', 'googlePay', 'samsungPay']) assert.equal(codeFor(`${wallet}.paymentToken`, false), '100.100.101');
  });

  it('gives everything else 200.300.404', () => {
    for (const name of ['cart.items[0].tax', 'cart.items[0].discount', 'customer.sex', 'standingInstruction.mode', 'pos.entryMode', 'giftCard.type', 'airline.passengers[0].legs[0].departureDate', 'transactionDueDate', 'bankAccount.mandate.id', 'customParameters[amount]', 'merchant.data[email]']) {
      assert.equal(codeFor(name, false), '200.300.404', name);
    }
  });
});

describe('the code of a request with several failing parameters', () => {
  it('answers the specific code even when a generic error comes first', () => {
    const errors = [paramError('customer.sex', 'X', 'must be M or F'), paramError('shipping.cost', '5', 'must have two decimals'), paramError('customer.email', 'x', 'is not an e-mail')];
    assert.equal(failure(errors).code, '100.550.303');
    assert.equal(failure([paramError('customer.sex', 'X', 'must be M or F')]).code, '200.300.404');
  });

  it('names a nested amount and answers 100.550.303 over HTTP-like input', () => {
    const result = parseInitialPayment(nest({ amount: '92.00', currency: 'EUR', paymentType: 'DB', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'cart.items[3].price': '1', 'cart.items[3].currency': 'eur' }).value, { env: 'test', now: new Date('2026-03-15T12:00:00Z') });
    assert.equal(result.ok, false);
    const f = (result as { ok: false; failure: { code: string; parameterErrors: Array<{ name: string }> } }).failure;
    assert.equal(f.code, '100.550.401');
    assert.deepEqual(f.parameterErrors.map((e) => e.name), ['cart.items[0]', 'cart.items[3].currency', 'cart.items[3].price']);
  });

  it('names a list with gaps once, at its first missing item', () => {
    const params: Record<string, string> = { amount: '92.00', currency: 'EUR', paymentType: 'DB', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'cart.items[999].name': 'last' };
    const result = parseInitialPayment(nest(params).value, { env: 'test', now: new Date('2026-03-15T12:00:00Z') });
    const f = (result as { ok: false; failure: { code: string; parameterErrors: unknown[] } }).failure;
    assert.equal(f.code, '200.300.404');
    assert.deepEqual(f.parameterErrors, [{ name: 'cart.items[0]', value: '', message: 'cart.items[0] is missing: the items of cart.items are numbered from 0 without gaps' }]);
  });

  it('keeps the message of a rule on a missing parameter ("is required when …")', () => {
    const parsed = shipping.safeParse({ customer: { email: 'john@example.com' } });
    assert.equal(parsed.success, false);
    const errors = fromZod(parsed.error!, { shipping: { customer: { email: 'john@example.com' } } } as never).map((e) => ({ ...e, name: `shipping.${e.name}` }));
    assert.deepEqual(errors.map((e) => e.message), [
      'customer.givenName is required when other shipping.customer parameters are sent, such as email',
      'customer.surname is required when other shipping.customer parameters are sent, such as email',
    ]);
  });

  it('says a group sent as a single value is a group', () => {
    const result = parseInitialPayment({ amount: '92.00', currency: 'EUR', paymentType: 'DB', card: { number: '4200000000000000', expiryMonth: '05', expiryYear: '2034' }, billing: 'Berlin' }, { env: 'test', now: new Date('2026-03-15T12:00:00Z') });
    const f = (result as { ok: false; failure: { parameterErrors: unknown[] } }).failure;
    assert.deepEqual(f.parameterErrors, [{ name: 'billing', value: 'Berlin', message: 'billing is a group of parameters, not a value: send billing.…' }]);
  });
});

describe('secrets in parameter errors', () => {
  it('masks account numbers to their last four, and PINs, tokens, terminal data and gift card numbers entirely', () => {
    assert.equal(maskValue('sender.accountNumber', '4200000000000000'), '************0000');
    assert.equal(maskValue('recipient.accountNumber', 'DE89370400440532013000'), '******************3000');
    assert.equal(maskValue('giftCard.number', '6036281234567890'), '****************');
    assert.equal(maskValue('giftCard.pin', '4711'), '****');
    assert.equal(maskValue('applePay.paymentToken', '{"a":1}'), '*******');
    assert.equal(maskValue('pos.encryptedPin.data', 'ABCD'), '****');
    assert.equal(maskValue('pos.encryptedSred.data', 'ABCD'), '****');
    assert.equal(maskValue('pos.iccDataRequest', '9F26'), '****');
    assert.equal(maskValue('pos.iccDataResponse', '910A'), '****');
    assert.equal(maskValue('bankAccount.number', '0532013000'), '0532013000');
    assert.equal(maskValue('shipping.trackingNumber', 'TRACK123'), 'TRACK123');
  });

  it('masks malformed and misspelt names that read like a secret, whatever their brackets', () => {
    for (const name of ['card[cvv]', 'card.cvv[x]', 'card.cvv.x', '[card.cvv]', 'card[securityCode]', 'card.cvc', 'card.cvv2', 'cvv', 'card[number]', 'card.number[0]', 'pos.pinBlock', 'apiToken', 'secret', 'token']) {
      assert.equal(maskValue(name, '987'), '***', name);
    }
    // A group's own name is not read: its other fields' errors stay readable.
    assert.equal(maskValue('tokenAccount.expiryMonth', '13'), '13');
    assert.equal(maskValue('shipping.city', 'Springfield'), 'Springfield');
    assert.equal(maskValue('threeDSecure.eci', '99'), '99');
    assert.equal(maskValue('merchant.data[color]', 'blue'), 'blue');
  });

  it('masks a card number inside any value (an id, a path) to its last four, and leaves masked values as they are', () => {
    assert.equal(maskValue('entityId', '4200000000000000'), '************0000');
    assert.equal(maskValue('path', '/v1/4200000000000000/x'), '/v1/************0000/x');
    assert.equal(maskValue('merchantTransactionId', 'order-4200000000000000-5200000000000007'), 'order-************0000-************0007');
    // In groups too, whatever the separator, inside any text.
    assert.equal(maskValue('card.holder', 'Jane 4200 0000 0000 0000'), 'Jane **** **** **** 0000');
    assert.equal(maskValue('card.holder', 'Jane 4200-0000-0000-0000'), 'Jane ****-****-****-0000');
    assert.equal(maskValue('foo', '4200.0000.0000.0000'), '****.****.****.0000');
    assert.equal(maskValue('foo', 'call 030 1234 5678'), 'call 030 1234 5678');
    // Digit runs that fail the Luhn check, or run on past 19 digits, are no card numbers.
    assert.equal(maskValue('merchantTransactionId', 'order-4200000000000001'), 'order-4200000000000001');
    assert.equal(maskValue('merchantTransactionId', '42000000000000000000'), '42000000000000000000');
    for (const [name, value] of [['card.number', '4200000000000000'], ['card[cvv]', '987'], ['path', '/v1/4200000000000000']] as const) {
      const once = maskValue(name, value);
      assert.equal(maskValue(name, once), once, name);
    }
  });
});

describe('long values', () => {
  it('an e-mail over its length is refused for its length alone: no pattern reads a long value (240 KB of dots once took 16 s)', () => {
    const crafted = `a@a${'.a'.repeat(120_000)}.@..a`;
    const result = parseInitialPayment(
      { amount: '92.00', currency: 'EUR', paymentType: 'DB', card: { number: '4200000000000000', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034' }, customer: { givenName: 'J', surname: 'J', email: crafted } },
      { env: 'test', now: new Date('2026-03-15T12:00:00Z') },
    );
    const f = (result as { ok: false; failure: { parameterErrors: Array<{ name: string; message: string }> } }).failure;
    assert.deepEqual(f.parameterErrors.map((e) => [e.name, e.message]), [['customer.email', 'customer.email must be at most 128 characters']]);
    // The length check ends the field's checks: its pattern never ran.
    const issues = customer.safeParse({ givenName: 'J', surname: 'J', email: crafted }).error!.issues;
    assert.deepEqual(issues.map((i) => i.message), ['must be at most 128 characters']);
  });

  it('the e-mail pattern is the one it replaced: something, an @, a domain with a dot inside it', () => {
    const before = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
    fc.assert(
      fc.property(fc.stringMatching(/^[a@. \tb]{0,12}$/), (value) => assert.equal(EMAIL.test(value), before.test(value), JSON.stringify(value))),
      { numRuns: 5000 },
    );
    for (const value of ['jane@example.com', 'a@.b.c', 'a@b..c', 'a@b.c']) assert.equal(EMAIL.test(value), true, value);
    for (const value of ['a@b.', 'a@.b', 'a@b', 'a@@b.c', 'a b@c.d']) assert.equal(EMAIL.test(value), false, value);
  });
});
