// Single rows of the spec's request tables that no group test covers (basic payment fields,
// card.numberType, bankAccount.bankName / country, tokenAccount's optional fields, overrideHolder,
// notificationUrl, risk.*), parsed as a merchant sends them, inside a whole request: generated
// valid values are accepted, and each kind of invalid value the field can have (too long, too
// short, wrong characters, unknown value, bad date, bad format) is refused naming exactly that
// parameter, with the code the merchant gets and secrets masked.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Nested } from '../../server/http/params.ts';
import { looksLikeCardNumber } from '../../server/schema/cardNumber.ts';
import { parseInitialPayment, parseRegistrationPayment, type ValidationContext } from '../../server/schema/requests.ts';
import { sepaDebit } from '../support/gateway.ts';

const RUNS = { numRuns: 100 };
const CTX: ValidationContext = { env: 'test', now: new Date('2026-03-15T12:00:00Z') };

type Kind = 'tooLong' | 'tooShort' | 'wrongChars' | 'unknownEnum' | 'badDate' | 'badFormat';
const KIND_TEXT: Record<Kind, string> = {
  tooLong: 'a value that is too long',
  tooShort: 'a value that is too short',
  wrongChars: 'a value with characters the field does not allow',
  unknownEnum: 'a value that is not one of the listed values',
  badDate: 'a timestamp that is no real moment or not yyyy-MM-dd HH:mm:ss',
  badFormat: 'a value of the wrong format or range',
};

/** A field as the spec types it: valid values, and invalid ones by kind. */
interface Field {
  valid: fc.Arbitrary<string>;
  bad: Partial<Record<Kind, fc.Arbitrary<string>>>;
}

// Field types of the spec's notation, written from the spec (not from the schemas).
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const LETTERS = LOWER + LOWER.toUpperCase();
const DIGITS = '0123456789';

function insert(s: string, c: string, at: number): string {
  const i = at % (s.length + 1);
  return s.slice(0, i) + c + s.slice(i);
}

/** AN: any characters, min to max long. */
const an = (max: number, min = 1): Field => ({
  valid: fc.string({ minLength: min, maxLength: max }),
  bad: { tooLong: fc.string({ minLength: max + 1, maxLength: max + 8 }), tooShort: fc.string({ maxLength: min - 1 }) },
});

/** Characters of one alphabet; `wrong` are characters the field refuses. */
const charsOf = (alphabet: string, max: number, min: number, wrong: string): Field => {
  const unit = fc.constantFrom(...alphabet);
  return {
    valid: fc.string({ unit, minLength: min, maxLength: max }),
    bad: {
      tooLong: fc.string({ unit, minLength: max + 1, maxLength: max + 8 }),
      tooShort: fc.string({ unit, maxLength: min - 1 }),
      wrongChars: fc.tuple(fc.string({ unit, minLength: Math.max(min - 1, 0), maxLength: max - 1 }), fc.constantFrom(...wrong), fc.nat()).map(([s, c, at]) => insert(s, c, at)),
    },
  };
};
const lettersDigits = (max: number, min = 1) => charsOf(LETTERS + DIGITS, max, min, ' -_#.é');
const digits = (max: number, min = 1) => charsOf(DIGITS, max, min, 'a-+ .');

function oneOf(values: readonly string[]): Field {
  const variants = values.flatMap((v) => [v.toLowerCase(), `${v}X`, ` ${v}`, `${v} `]).filter((v) => !values.includes(v));
  return { valid: fc.constantFrom(...values), bad: { unknownEnum: fc.oneof(fc.constantFrom(...variants, ''), fc.string({ maxLength: 12 }).filter((v) => !values.includes(v))) } };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
const moment = fc.date({ min: new Date(Date.UTC(1970, 0, 1)), max: new Date(Date.UTC(2099, 11, 31, 23, 59, 59)), noInvalidDate: true });
/** yyyy-MM-dd HH:mm:ss (24 h) of a real moment. */
const timestamp: Field = {
  valid: moment.map((d) => d.toISOString().slice(0, 19).replace('T', ' ')),
  bad: {
    badDate: fc.oneof(
      fc.record({ y: fc.integer({ min: 1970, max: 2099 }), m: fc.integer({ min: 1, max: 12 }) }).chain(({ y, m }) => fc.integer({ min: daysIn(y, m) + 1, max: 39 }).map((d) => `${y}-${pad(m)}-${pad(d)} 10:00:00`)),
      moment.map((d) => d.toISOString().slice(0, 19)),
      moment.map((d) => d.toISOString().slice(0, 10)),
      moment.map((d) => `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} 10:00:00`),
      moment.chain((d) => {
        const day = d.toISOString().slice(0, 10);
        return fc.constantFrom(`${day} 24:00:00`, `${day} 12:60:00`, `${day} 12:00:60`, `${day} 1:00:00`, `${day} 12:00`, `${day} 12:00:00Z`);
      }),
    ),
  },
};

// fc.webUrl() is slow to build; a scheme, a host, a top-level domain and a path are enough here.
const webUrl = (maxPath: number) =>
  fc
    .tuple(fc.constantFrom('http', 'https'), fc.stringMatching(/^[a-z0-9-]{1,20}$/), fc.constantFrom('com', 'de', 'shop'), fc.stringMatching(new RegExp(`^[A-Za-z0-9/._~?=&-]{0,${maxPath}}$`)))
    .map(([scheme, host, tld, path]) => `${scheme}://${host}.${tld}/${path}`);
/** An absolute URL of 6 to 2048 characters. */
const absoluteUrl: Field = {
  valid: fc.oneof(webUrl(40), fc.integer({ min: 0, max: 2000 }).map((n) => `https://shop.example/${'p'.repeat(n)}`.slice(0, 2048))),
  bad: {
    tooLong: fc.integer({ min: 2049, max: 2060 }).map((n) => `https://shop.example/${'p'.repeat(n - 21)}`),
    tooShort: fc.constantFrom('a://b', 'x:y', ''),
    badFormat: fc.oneof(fc.constantFrom('/notify', 'shop.example/notify', 'not a url', 'http//shop.example', '//shop.example/notify'), fc.stringMatching(/^[a-z]{6,20}$/)),
  },
};

const month: Field = {
  valid: fc.integer({ min: 1, max: 12 }).map((m) => pad(m)),
  bad: { badFormat: fc.oneof(fc.constantFrom('00', '13', '1', '001', '12 ', 'ab'), fc.integer({ min: 13, max: 99 }).map(String)) },
};
const BASE64 = `${LETTERS}${DIGITS}+/=`;

// ---------------------------------------------------------------------------------------------
// The rows, each inside a request that is otherwise valid.

interface Row {
  /** The spec's name of the parameter, as sent. */
  name: string;
  field: Field;
  /** The code of the answer when this parameter alone is invalid (errors.ts by kind of field). */
  code: string;
  /** Values never shown in a parameter error (secrets). */
  masked?: boolean;
  /** The request around it. */
  base: Record<string, string>;
  parse: (input: Nested) => ReturnType<typeof parseInitialPayment> | ReturnType<typeof parseRegistrationPayment>;
}

const cardDebit = { amount: '92.00', currency: 'EUR', paymentBrand: 'VISA', paymentType: 'DB', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123' };
const sepa = sepaDebit();
const tokenDebit = { amount: '12.00', currency: 'EUR', paymentBrand: 'VISA', paymentType: 'DB', 'tokenAccount.number': '4895370012003478', 'tokenAccount.type': 'NETWORK' };
const registrationPayment = { amount: '10.00', currency: 'EUR', paymentType: 'DB' };

const initial = (input: Nested) => parseInitialPayment(input, CTX);
const onRegistration = (input: Nested) => parseRegistrationPayment(input, CTX);

const basic = (name: string, field: Field): Row => ({ name, field, code: '200.300.404', base: cardDebit, parse: initial });

const ROWS: Record<string, Row[]> = {
  'basic payment request fields': [
    basic('descriptor', an(127)),
    basic('merchantTransactionId', an(255, 8)),
    basic('merchantInvoiceId', an(255, 8)),
    basic('merchantMemo', an(255, 8)),
    basic('transactionCategory', oneOf(['EC', 'MO', 'TO', 'PO', 'PM', 'MOTO'])),
    basic('promotionCode', lettersDigits(15)),
    basic('locale', an(10)),
    basic('transactionPurposeCode', an(12)),
    basic('integrationType', an(10)),
    basic('transactionBai', an(2)),
    basic('transactionTti', an(3)),
    basic('transactionProcessingCode', oneOf(['PURCHASE', 'FUNDING', 'PAYMENT'])),
    basic('lifecycleId', an(35)),
    basic('referenceUuid', lettersDigits(32)),
    // "AN" without a length: at most 255 (decisions.md).
    basic('transactionPurposeAccount', an(255)),
  ],
  'card.numberType': [{ name: 'card.numberType', field: oneOf(['PAN', 'DPAN']), code: '200.300.404', base: cardDebit, parse: initial }],
  'bankAccount.bankName and bankAccount.country': [
    { name: 'bankAccount.bankName', field: an(255), code: '100.100.101', base: sepa, parse: initial },
    // Assigned ISO 3166-1 codes in either case; a well-formed code nobody was assigned is refused.
    { name: 'bankAccount.country', field: { ...charsOf(LETTERS, 2, 2, '1-_ é'), valid: fc.constantFrom('DE', 'fr', 'At', 'XK'), bad: { ...charsOf(LETTERS, 2, 2, '1-_ é').bad, unknownEnum: fc.constantFrom('QQ', 'zz', 'Aa') } }, code: '100.200.100', base: sepa, parse: initial },
  ],
  'tokenAccount.expiryMonth, expiryYear, cryptogram, dtvc': [
    { name: 'tokenAccount.expiryMonth', field: month, code: '100.100.101', base: tokenDebit, parse: initial },
    // Four digits, and not a year gone by (an expired token is refused with 100.100.303: test/api/payments.test.ts).
    { name: 'tokenAccount.expiryYear', field: { valid: fc.integer({ min: 2100, max: 9999 }).map(String), bad: digits(4, 4).bad }, code: '100.100.101', base: tokenDebit, parse: initial },
    { name: 'tokenAccount.cryptogram', field: charsOf(BASE64, 32, 28, '!-_ .'), code: '100.100.101', masked: true, base: tokenDebit, parse: initial },
    { name: 'tokenAccount.dtvc', field: digits(4, 3), code: '100.100.101', masked: true, base: tokenDebit, parse: initial },
  ],
  'overrideHolder (registration payments)': [{ name: 'overrideHolder', field: oneOf(['true', 'false']), code: '200.300.404', base: registrationPayment, parse: onRegistration }],
  notificationUrl: [{ name: 'notificationUrl', field: absoluteUrl, code: '200.300.404', base: cardDebit, parse: initial }],
  'risk.serviceId, orderTimestamp, brand, merchantWebsite, accountToken': [
    { name: 'risk.serviceId', field: an(255), code: '200.300.404', base: cardDebit, parse: initial },
    { name: 'risk.orderTimestamp', field: timestamp, code: '200.300.404', base: cardDebit, parse: initial },
    { name: 'risk.brand', field: an(255), code: '200.300.404', base: cardDebit, parse: initial },
    { name: 'risk.merchantWebsite', field: an(60), code: '200.300.404', base: cardDebit, parse: initial },
    { name: 'risk.accountToken', field: an(64), code: '200.300.404', masked: true, base: cardDebit, parse: initial },
  ],
};

/** The request as the HTTP layer hands it over: dotted names nested. */
function nested(flat: Record<string, string>): Nested {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(flat)) {
    const parts = name.split('.');
    let node = out;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts.at(-1)!] = value;
  }
  return out as Nested;
}

/** The value a nested, parsed request holds at a dotted name. */
function at(value: unknown, name: string): unknown {
  return name.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value);
}

const lastFour = (value: string) => '*'.repeat(value.length - 4) + value.slice(-4);
const maskDigits = (run: string) => {
  let left = run.replace(/\D/g, '').length - 4;
  return run.replace(/\d/g, (digit) => (left-- > 0 ? '*' : digit));
};

for (const [title, rows] of Object.entries(ROWS)) {
  describe(`row ${title}`, () => {
    for (const row of rows) {
      it(`${row.name}: accepts generated valid values and keeps them as sent`, () => {
        fc.assert(
          fc.property(row.field.valid, (value) => {
            const result = row.parse(nested({ ...row.base, [row.name]: value }));
            assert.ok(result.ok, `${row.name}=${JSON.stringify(value)} should have been accepted: ${result.ok ? '' : JSON.stringify(result.failure)}`);
            assert.equal(at(result.value, row.name), value);
          }),
          RUNS,
        );
      });

      for (const [kind, bad] of Object.entries(row.field.bad) as Array<[Kind, fc.Arbitrary<string>]>) {
        it(`${row.name}: refuses ${KIND_TEXT[kind]} with ${row.code}, naming the parameter${row.masked ? ', value masked' : ''}`, () => {
          fc.assert(
            fc.property(bad, (value) => {
              const result = row.parse(nested({ ...row.base, [row.name]: value }));
              assert.equal(result.ok, false, `${row.name}=${JSON.stringify(value)} should have been refused`);
              const { failure } = result as { ok: false; failure: { code: string; parameterErrors: Array<{ name: string; value: string; message: string }> } };
              assert.deepEqual(failure.parameterErrors.map((e) => e.name), [row.name], JSON.stringify(failure));
              assert.equal(failure.code, row.code);
              const [error] = failure.parameterErrors;
              assert.ok(error!.message.startsWith(`${row.name} `), error!.message);
              // A secret is masked whole; any other value shows as sent, except a card number in it (its last four then).
              const shown = row.masked ? '*'.repeat(value.length) : looksLikeCardNumber(value) ? lastFour(value) : value.replace(/(?<!\d)\d(?:[ .-]?\d){11,18}(?!\d)/g, (run) => (looksLikeCardNumber(run.replace(/\D/g, '')) ? maskDigits(run) : run));
              assert.equal(error!.value, shown);
            }),
            RUNS,
          );
        });
      }
    }
  });
}
