// Every parameter group of the spec, field by field: generated valid values are accepted, and each
// kind of invalid value (too long, too short, wrong characters, unknown enum value, bad date, bad
// amount, bad format) is refused with the zod issue and the parameter error naming the parameter
// as the merchant sent it. The conditional rules of the spec's notes have explicit tests below.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { z } from 'zod';
import { flatName, nest, type Nested } from '../../server/http/params.ts';
import { airline } from '../../server/schema/airline.ts';
import { cart, MAX_CART_ITEMS } from '../../server/schema/cart.ts';
import { chargebackQuery, chargebackResultCode, queryPaymentMethods, queryPaymentTypes } from '../../server/schema/chargebackQuery.ts';
import { mainAmount } from '../../server/schema/common.ts';
import { corporate } from '../../server/schema/corporate.ts';
import { customer } from '../../server/schema/customer.ts';
import { failure, fromZod, type CodedParamError } from '../../server/schema/errors.ts';
import { giftCard, giftCardTypes } from '../../server/schema/giftCard.ts';
import { marketPlace } from '../../server/schema/marketplace.ts';
import { merchant } from '../../server/schema/merchant.ts';
import { merchantBilling } from '../../server/schema/merchantBilling.ts';
import { merchantShipping } from '../../server/schema/merchantShipping.ts';
import { pos, posResponse } from '../../server/schema/pos.ts';
import { recipient } from '../../server/schema/recipient.ts';
import { recurringMigration } from '../../server/schema/recurringMigration.ts';
import { reportingParameters } from '../../server/schema/reporting.ts';
import { checkCronExpression, cronOf, cronSchedule, job } from '../../server/schema/scheduling.ts';
import { sender } from '../../server/schema/sender.ts';
import { shipping, shippingMethods } from '../../server/schema/shipping.ts';
import { checkStandingInstruction, standingInstruction } from '../../server/schema/standingInstruction.ts';
import { threeDSecure } from '../../server/schema/threeDSecure.ts';
import { checkWallet, walletGroups } from '../../server/schema/wallets.ts';

const RUNS = { numRuns: 100 };

// ---------------------------------------------------------------------------------------------
// A model of each group, written from the spec (not from the schemas): which values are valid,
// and which invalid values of each kind a field has.

type Kind = 'tooLong' | 'tooShort' | 'wrongChars' | 'unknownEnum' | 'badDate' | 'badAmount' | 'badFormat';
const KINDS: Kind[] = ['tooLong', 'tooShort', 'wrongChars', 'unknownEnum', 'badDate', 'badAmount', 'badFormat'];
const KIND_TEXT: Record<Kind, string> = {
  tooLong: 'a value that is too long',
  tooShort: 'a value that is too short',
  wrongChars: 'a value with characters the field does not allow',
  unknownEnum: 'a value that is not one of the listed values',
  badDate: 'a date that is no calendar day or not yyyy-MM-dd',
  badAmount: 'an amount without exactly two decimals',
  badFormat: 'a value of the wrong format or range',
};

type Path = Array<string | number>;
type Obj = Record<string, unknown>;
type Bad = Partial<Record<Kind, fc.Arbitrary<string>>>;
type Model =
  | { leaf: fc.Arbitrary<string>; bad: Bad }
  | { fields: Record<string, Model>; required?: string[]; fix?: (o: Obj) => Obj }
  | { items: Model; max?: number }
  | { map: fc.Arbitrary<string>; value: Model };

const leaf = (valid: fc.Arbitrary<string>, bad: Bad = {}): Model => ({ leaf: valid, bad });
const group = (fields: Record<string, Model>, options: { required?: string[]; fix?: (o: Obj) => Obj } = {}): Model => ({ fields, ...options });
const list = (items: Model, max = 3): Model => ({ items, max });

const validCache = new WeakMap<Model, fc.Arbitrary<unknown>>();
function validOf(model: Model): fc.Arbitrary<unknown> {
  let arbitrary = validCache.get(model);
  if (arbitrary) return arbitrary;
  if ('leaf' in model) arbitrary = model.leaf;
  else if ('items' in model) arbitrary = fc.array(validOf(model.items), { maxLength: model.max ?? 3 });
  else if ('map' in model) arbitrary = fc.dictionary(model.map, validOf(model.value), { maxKeys: 3 });
  else {
    const record = fc.record(Object.fromEntries(Object.entries(model.fields).map(([k, m]) => [k, validOf(m)])), { requiredKeys: model.required ?? [] }) as fc.Arbitrary<Obj>;
    arbitrary = model.fix ? record.map((o) => model.fix!({ ...o })) : record;
  }
  validCache.set(model, arbitrary);
  return arbitrary;
}

/** A valid value with one invalid leaf of the given kind, and the path to that leaf. */
function badOf(model: Model, kind: Kind): fc.Arbitrary<[unknown, Path]> | undefined {
  if ('leaf' in model) return model.bad[kind]?.map((v): [unknown, Path] => [v, []]);
  if ('items' in model) {
    const bad = badOf(model.items, kind);
    if (!bad) return undefined;
    return fc.tuple(fc.array(validOf(model.items), { maxLength: (model.max ?? 3) - 1 }), fc.nat(), bad).map(([items, at, [v, path]]): [unknown, Path] => {
      const index = at % (items.length + 1);
      const copy = [...items];
      copy.splice(index, 0, v);
      return [copy, [index, ...path]];
    });
  }
  if ('map' in model) {
    const bad = badOf(model.value, kind);
    if (!bad) return undefined;
    return fc.tuple(fc.dictionary(model.map, validOf(model.value), { maxKeys: 2 }), model.map, bad).map(([d, key, [v, path]]): [unknown, Path] => [{ ...d, [key]: v }, [key, ...path]]);
  }
  const options = Object.entries(model.fields).flatMap(([key, child]) => {
    const bad = badOf(child, kind);
    return bad ? [fc.tuple(validOf(model) as fc.Arbitrary<Obj>, bad).map(([o, [v, path]]): [unknown, Path] => [{ ...o, [key]: v }, [key, ...path]])] : [];
  });
  return options.length ? fc.oneof(...options) : undefined;
}

// Field types of the spec's notation.
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const LETTERS = LOWER + UPPER;
const DIGITS = '0123456789';
const SEPARATORS = ' .()/-';

/** Arbitraries are costly to build (stringMatching parses its pattern): each field type is built once. */
function once<A extends unknown[], R>(build: (...args: A) => R): (...args: A) => R {
  const built = new Map<string, R>();
  return (...args: A) => {
    const key = JSON.stringify(args);
    if (!built.has(key)) built.set(key, build(...args));
    return built.get(key)!;
  };
}

function insert(s: string, c: string, at: number): string {
  const i = at % (s.length + 1);
  return s.slice(0, i) + c + s.slice(i);
}

/** AN: any characters, min to max long. */
const an = once((max: number, min: number = 1) =>
  leaf(fc.string({ minLength: min, maxLength: max }), {
    tooLong: fc.string({ minLength: max + 1, maxLength: max + 8 }),
    ...(min > 0 ? { tooShort: fc.string({ maxLength: min - 1 }) } : {}),
  }),
);

/** Characters of one alphabet; `wrong` are characters the field refuses. */
const charsOf = once((alphabet: string, max: number, min: number, wrong: string): Model => {
  const unit = fc.constantFrom(...alphabet);
  return leaf(fc.string({ unit, minLength: min, maxLength: max }), {
    tooLong: fc.string({ unit, minLength: max + 1, maxLength: max + 8 }),
    tooShort: fc.string({ unit, maxLength: min - 1 }),
    wrongChars: fc.tuple(fc.string({ unit, minLength: Math.max(min - 1, 0), maxLength: max - 1 }), fc.constantFrom(...wrong), fc.nat()).map(([s, c, at]) => insert(s, c, at)),
  });
});
const digits = (max: number, min = 1) => charsOf(DIGITS, max, min, 'a-+ .');
const lettersDigits = (max: number, min = 1) => charsOf(LETTERS + DIGITS, max, min, ' -_#.');
const lettersDigitsSpaces = (max: number) => charsOf(`${LETTERS}${DIGITS} éÅŁ`, max, 1, '-_#.@');
// ISO 3166-1 country codes: a sample of assigned ones is valid; well-formed codes nobody was
// assigned are an unknown value.
const ASSIGNED = { alpha2: ['DE', 'FR', 'US', 'JP', 'BR', 'XK'], alpha3: ['DEU', 'GBR', 'USA', 'JPN', 'BRA'], numeric: ['276', '826', '840', '392', '076'] };
const UNASSIGNED = { alpha2: ['QQ', 'ZZ', 'AA', 'XX'], alpha3: ['QQQ', 'ZZZ', 'AAA'], numeric: ['000', '999', '001'] };
type CountryForm = keyof typeof ASSIGNED;
function countryOf(format: Model, forms: CountryForm[], anyCase = false): Model {
  const codes = forms.flatMap((form) => ASSIGNED[form]);
  const bad = 'leaf' in format ? format.bad : {};
  return leaf(fc.constantFrom(...codes, ...(anyCase ? codes.map((c) => c.toLowerCase()) : [])), { ...bad, unknownEnum: fc.constantFrom(...forms.flatMap((form) => UNASSIGNED[form])) });
}
const alpha3 = countryOf(charsOf(UPPER, 3, 3, 'a1-'), ['alpha3']);
const alpha2Upper = countryOf(charsOf(UPPER, 2, 2, 'a1-'), ['alpha2']);

function oneOf(values: readonly string[]): Model {
  const variants = values.flatMap((v) => [v.toLowerCase(), v.toUpperCase(), `${v}X`, ` ${v}`]).filter((v) => !values.includes(v));
  const others = [fc.constantFrom(...variants), fc.string({ minLength: 1, maxLength: 12 }).filter((v) => !values.includes(v))];
  // Codes of digits (sourceOfFunds 01-09): every other code of the same width.
  const width = values[0]!.length;
  if (values.every((v) => /^\d+$/.test(v) && v.length === width)) others.push(fc.integer({ min: 0, max: 10 ** width - 1 }).map((n) => pad(n, width)).filter((v) => !values.includes(v)));
  return leaf(fc.constantFrom(...values), { unknownEnum: fc.oneof(...others) });
}
const bool = oneOf(['true', 'false']);

const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const day = fc.date({ min: new Date(Date.UTC(1900, 0, 1)), max: new Date(Date.UTC(2099, 11, 31)), noInvalidDate: true });
const validDate = day.map((d) => d.toISOString().slice(0, 10));
const validDateTime = day.map((d) => d.toISOString().slice(0, 19).replace('T', ' '));
const badDay = fc.oneof(
  fc.record({ y: fc.integer({ min: 1900, max: 2099 }), m: fc.integer({ min: 1, max: 12 }) }).chain(({ y, m }) => fc.integer({ min: daysIn(y, m) + 1, max: 39 }).map((d) => `${y}-${pad(m)}-${pad(d)}`)),
  fc.record({ y: fc.integer({ min: 1900, max: 2099 }), m: fc.constantFrom(0, 13, 14, 19, 99), d: fc.integer({ min: 1, max: 28 }) }).map(({ y, m, d }) => `${y}-${pad(m)}-${pad(d)}`),
  fc.constantFrom('2023-02-29', '2100-02-29', '2024-04-31', '2024-01-00'),
  day.map((d) => `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${d.getUTCFullYear()}`),
  day.map((d) => d.toISOString().slice(0, 10).replace(/-/g, '/')),
  day.map((d) => `${d.getUTCFullYear()}-${d.getUTCMonth() + 1}-${d.getUTCDate()}`).filter((v) => v.length < 10),
);
const date = leaf(validDate, { badDate: badDay });
const dateTime = leaf(validDateTime, {
  badDate: fc.oneof(
    badDay.map((d) => `${d} 12:00:00`),
    validDate.map((d) => `${d}T12:00:00`),
    validDate,
    validDate.chain((d) => fc.constantFrom(`${d} 24:00:00`, `${d} 12:60:00`, `${d} 12:00:60`, `${d} 1:00:00`)),
  ),
});

/** An amount with up to `integers` integer digits and exactly two decimals. */
const money = once((integers: number = 10) =>
  leaf(fc.stringMatching(new RegExp(`^[0-9]{1,${integers}}\\.[0-9]{2}$`)), {
    badAmount: fc.oneof(
      fc.stringMatching(new RegExp(`^[0-9]{1,${integers}}$`)),
      fc.stringMatching(new RegExp(`^[0-9]{1,${integers}}\\.[0-9]$`)),
      fc.stringMatching(new RegExp(`^[0-9]{1,${integers}}\\.[0-9]{3,4}$`)),
      fc.stringMatching(new RegExp(`^[0-9]{1,${integers}},[0-9]{2}$`)),
      fc.stringMatching(new RegExp(`^-[0-9]{1,${integers}}\\.[0-9]{2}$`)),
      fc.stringMatching(new RegExp(`^[0-9]{${integers + 1},${integers + 3}}\\.[0-9]{2}$`)),
    ),
  }),
);

/** customer.phone: an optional +, then digits and separators, min to max long. */
const plusPhone = once((max: number = 25, min: number = 1) => {
  const unit = fc.constantFrom(...DIGITS, ...SEPARATORS);
  return leaf(fc.tuple(fc.constantFrom('', '+'), fc.string({ unit, minLength: min, maxLength: max - 1 })).map(([p, s]) => p + s), {
    tooLong: fc.string({ unit, minLength: max + 1, maxLength: max + 5 }),
    tooShort: fc.string({ unit, maxLength: min - 1 }),
    wrongChars: fc.tuple(fc.string({ unit, minLength: min, maxLength: max - 2 }), fc.constantFrom('a', '#', '_', '+'), fc.nat()).map(([s, c, at]) => `1${insert(s, c, at)}`),
  });
});
const customerPhone = plusPhone();

/** A leading + or digit, then digits and separators, min to max long. */
const phoneFromDigit = once((max: number, min: number) => {
  const unit = fc.constantFrom(...DIGITS, ...SEPARATORS);
  const first = fc.constantFrom('+', ...DIGITS);
  return leaf(fc.tuple(first, fc.string({ unit, minLength: min - 1, maxLength: max - 1 })).map(([f, s]) => f + s), {
    tooLong: fc.tuple(first, fc.string({ unit, minLength: max, maxLength: max + 5 })).map(([f, s]) => f + s),
    tooShort: fc.tuple(first, fc.string({ unit, maxLength: min - 2 })).map(([f, s]) => f + s),
    wrongChars: fc.oneof(
      fc.tuple(fc.string({ unit, minLength: min, maxLength: max - 2 }), fc.constantFrom('a', '#', '_', 'x'), fc.nat()).map(([s, c, at]) => `1${insert(s, c, at)}`),
      fc.string({ unit: fc.constantFrom(...SEPARATORS), minLength: min, maxLength: max }).map((s) => `-${s}`.slice(0, max)),
    ),
  });
});

const email = once((min: number = 6) =>
  leaf(fc.tuple(fc.stringMatching(/^[a-z0-9._]{1,20}$/), fc.stringMatching(/^[a-z0-9-]{1,20}$/), fc.stringMatching(/^[a-z]{2,6}$/)).map(([l, d, t]) => `${l}@${d}.${t}`), {
    tooLong: fc.stringMatching(/^[a-z]{1,10}$/).map((d) => `${'a'.repeat(125)}@${d}.de`),
    ...(min > 5 ? { tooShort: fc.constantFrom('a@b.c', 'a@b') } : {}),
    wrongChars: fc.constantFrom('jane doe@example.com', 'jane@exa mple.com', 'jane.example.com', 'jane@@example.com'),
  }),
);

// fc.webUrl() takes a second to build; a host, a top-level domain and a path are enough here.
const webUrl = fc
  .tuple(fc.constantFrom('http', 'https'), fc.stringMatching(/^[a-z0-9-]{1,20}$/), fc.constantFrom('com', 'de', 'shop', 'co.uk'), fc.stringMatching(/^[A-Za-z0-9/._~-]{0,40}$/))
  .map(([scheme, host, tld, path]) => `${scheme}://${host}.${tld}/${path}`);
const url = leaf(webUrl, { badFormat: fc.constantFrom('example.com/shop', '/products/1', 'not a url', 'http//example.com') });
const keyedName = fc.stringMatching(/^[A-Za-z0-9._]{3,64}$/).filter((k) => !['__proto__', 'constructor', 'prototype'].includes(k));
const percentage = (max: number) =>
  leaf(fc.oneof(fc.integer({ min: 0, max: 100 }).map(String), fc.integer({ min: 0, max: 9999 }).map((n) => (n / 100).toFixed(2))), {
    badFormat: fc.oneof(fc.integer({ min: 101, max: 999 }).map(String), fc.constantFrom('-1', '19.999', '19%', 'abc', '100.01')),
    tooLong: fc.constant('1'.repeat(max + 1)),
  });

// ---------------------------------------------------------------------------------------------
// The groups.

const streetValue = fc.tuple(fc.constantFrom(...LETTERS), fc.string({ maxLength: 99 })).map(([a, b]) => a + b);
const street = leaf(streetValue, { tooLong: fc.string({ minLength: 101, maxLength: 110 }) });

/** billing's street rules on a generated valid address: houseNumber2 only with houseNumber1. */
const fixStreets = (o: Obj): Obj => {
  if (o.houseNumber2 !== undefined && o.houseNumber1 === undefined) o.houseNumber1 = '1';
  return o;
};

const customerFields = {
  merchantCustomerId: an(255),
  givenName: an(50),
  middleName: an(50, 2),
  surname: an(50),
  sex: oneOf(['M', 'F']),
  birthDate: date,
  phone: customerPhone,
  mobile: customerPhone,
  workPhone: an(25),
  email: email(),
  companyName: an(60),
  identificationDocType: oneOf(['IDCARD', 'PASSPORT', 'TAXSTATEMENT']),
  identificationDocId: an(64, 8),
  ip: an(255),
  merchantReference: an(255),
  salutation: oneOf(['MR', 'MRS', 'MS', 'MX']),
  language: charsOf(UPPER, 2, 2, 'a1-'),
  category: oneOf(['INDIVIDUAL', 'COMPANY']),
  status: oneOf(['NEW', 'EXISTING']),
  browserFingerprint: group({ id: an(255), value: an(4096) }),
};
const shippingCustomerModel = group(customerFields, {
  fix: (o) => {
    if (Object.keys(o).length > 0) {
      o.givenName ??= 'Jane';
      o.surname ??= 'Jones';
    }
    if ((o.identificationDocType === undefined) !== (o.identificationDocId === undefined)) {
      o.identificationDocType ??= 'PASSPORT';
      o.identificationDocId ??= 'C01X00T47';
    }
    return o;
  },
});

const shippingFields = {
  street1: street,
  street2: street,
  houseNumber1: an(100),
  houseNumber2: an(100),
  city: charsOf(`${LETTERS}ÉéøŁ .'-`, 80, 1, `0123456789#_@`),
  state: charsOf(`${LETTERS}${DIGITS}.`, 50, 1, ' -_#'),
  postcode: lettersDigits(16),
  country: countryOf(charsOf(LETTERS, 2, 2, '1-_'), ['alpha2'], true),
  method: oneOf(shippingMethods),
  cost: money(10),
  comment: an(160),
  expectedDate: date,
  logisticsProvider: an(255),
  trackingNumber: an(255),
  returnTrackingNumber: an(255),
  normalized: an(255),
  validationStatus: an(255),
  warehouse: an(100),
  preference: oneOf(['GET_FROM_FILE', 'NO_SHIPPING', 'SET_PROVIDED_ADDRESS']),
  middleName: an(255),
  companyName: an(60),
  phone: phoneFromDigit(25, 5),
  mobile: phoneFromDigit(25, 5),
  workPhone: an(25),
  email: email(),
  type: oneOf(['RETURN', 'SHIPMENT']),
};

const billingFields = {
  street1: street,
  street2: street,
  houseNumber1: an(100),
  houseNumber2: an(100),
  city: an(80),
  state: charsOf(`${LETTERS}${DIGITS}.`, 50, 1, ' -_#'),
  postcode: lettersDigits(16),
  country: alpha2Upper,
  normalized: an(255),
  validationStatus: an(255),
};

const coordinates = leaf(fc.stringMatching(/^-?[0-9]{1,2}(\.[0-9]{1,4})?,-?[0-9]{1,3}(\.[0-9]{1,4})?$/), {
  tooLong: fc.constant('-12.123456789,-123.123456789'),
  wrongChars: fc.constantFrom('52.52;13.40', '52.52', 'north,east', '52,52,13'),
});

const merchantModel = group({
  name: an(100),
  mcc: an(4),
  street: an(100),
  city: an(100),
  state: an(50),
  countryCode: countryOf(digits(3, 3), ['numeric']),
  country: alpha2Upper,
  postcode: an(16),
  geographicCoordinates: coordinates,
  serviceLocationCity: an(100),
  serviceLocationState: an(50),
  serviceLocationCountryCode: an(3),
  serviceLocationPostCode: an(16),
  serviceLocationGeographicCoordinates: coordinates,
  additionalContact: an(255),
  phone: an(25),
  customerContactPhone: an(25),
  websiteId: an(255),
  url: an(255),
  partnerIdCode: an(60),
  isoId: an(255),
  payFacId: an(255),
  payFacName: an(255),
  marketplaceId: an(255),
  submerchantId: an(100),
  taxId: an(60),
  data: { map: keyedName, value: an(2048, 0) },
  foreignRetailIndicator: an(25),
  legalName: an(100),
  app: group({
    schemeUrl: leaf(fc.stringMatching(/^[a-z][a-z0-9+.-]{0,20}:\/\/[a-z0-9/]{0,30}$/).filter((v) => !/^(javascript|data|vbscript|file|blob|about|filesystem):/.test(v)), {
      badFormat: fc.constantFrom('javascript:alert(1)', 'data:text/html,hi', 'myshop', '//myshop'),
      tooLong: fc.constant(`myshop://${'a'.repeat(250)}`),
    }),
  }),
  billing: group(
    { ...billingFields, givenName: an(255), surname: an(255), middleName: an(255), companyName: an(60), phone: an(25), workPhone: an(25), mobile: plusPhone(25, 5), email: email() },
    { fix: fixStreets },
  ),
  shipping: group(shippingFields, { fix: fixStreets }),
});

const cartItemModel = group({
  name: an(255),
  merchantItemId: an(255),
  type: oneOf(['PHYSICAL', 'DIGITAL', 'MIXED', 'ANONYMOUS_DONATION', 'AUTHORITIES_PAYMENT']),
  quantity: leaf(fc.oneof(fc.integer({ min: 0, max: 99999 }).map(String), fc.stringMatching(/^[0-9]{1,2}\.[0-9]{1,2}$/), fc.stringMatching(/^[0-9]\.[0-9]{3}$/)), {
    tooLong: fc.constantFrom('123456', '12.345', '1234.5'),
    badFormat: fc.constantFrom('1.2345', '-1', '1,5', 'two', '.5'),
  }),
  currency: leaf(fc.constantFrom('EUR', 'USD', 'GBP', 'CHF', 'JPY'), { unknownEnum: fc.constantFrom('eur', 'EURO', 'XXY', 'E1R', 'ZZZ') }),
  description: an(2048),
  price: money(10),
  totalAmount: money(10),
  taxAmount: money(10),
  totalTaxAmount: money(10),
  tax: percentage(6),
  taxCategory: oneOf(['AA', 'S', 'E', 'Z']),
  shipping: money(10),
  discount: percentage(13),
  sku: an(255),
  commodityCode: digits(8),
  commodityDescription: an(50),
  originalPrice: money(10),
  giftMessage: an(255),
  shippingMethod: an(255),
  shippingInstructions: an(255),
  shippingTrackingNumber: an(255),
  quantityUnit: oneOf(['M', 'CM', 'KG', 'G', 'COUNT']),
  productUrl: url,
  imageUrl: url,
  totalDiscountAmount: money(10),
  productCode: an(30),
  partNumber: an(30),
  itemNumber: leaf(fc.integer({ min: 1, max: 999 }).map(String), { badFormat: fc.constantFrom('0', '000', '1000', '-1', 'one', '1.0') }),
  vatReferenceNumber: an(30),
  sellerId: an(255),
  deliveryDate: date,
  recipient: group({
    salutation: an(5),
    firstName: an(48),
    middleName: an(50),
    lastName: an(48),
    apartment: an(100),
    street: an(100),
    address: an(100),
    city: an(80),
    state: an(50),
    postcode: an(16),
    country: leaf(fc.constantFrom(...ASSIGNED.alpha2, ...ASSIGNED.numeric), { badFormat: fc.constantFrom('de', 'DEU', '12', '1234', 'D1'), unknownEnum: fc.constantFrom(...UNASSIGNED.alpha2, ...UNASSIGNED.numeric) }),
    phone: digits(25),
    email: email(1),
  }),
});

const cartModel = group({
  items: list(cartItemModel),
  payments: list(
    group({
      name: an(255),
      type: oneOf(['GIFTCARD', 'PROMOTION']),
      amount: money(10),
      currency: leaf(fc.constantFrom('EUR', 'USD'), { unknownEnum: fc.constantFrom('eur', 'XXY', 'EURO') }),
      status: oneOf(['pending', 'authorized', 'captured']),
      brand: an(255),
      primary: bool,
    }),
  ),
});

const senderModel = group({
  name: lettersDigitsSpaces(100),
  givenName: lettersDigitsSpaces(50),
  middleName: lettersDigitsSpaces(50),
  surname: lettersDigitsSpaces(50),
  birthDate: date,
  phone: phoneFromDigit(25, 7),
  accountNumber: an(32),
  street: an(100),
  city: lettersDigitsSpaces(50),
  state: lettersDigitsSpaces(50),
  country: alpha3,
  postcode: an(30),
  accountNumberType: oneOf(['OTHER', 'RTN_AND_BANK_ACCOUNT', 'IBAN', 'IBAN_AND_BIC', 'CARD_ACCOUNT']),
  sourceOfFunds: oneOf(['01', '02', '03', '04', '05', '06', '07', '08', '09']),
  entityType: an(50),
  nationality: charsOf(`${LETTERS} é`, 50, 1, '1-_#'),
  occupation: an(50),
  birthCountry: alpha3,
  identificationType: an(50),
  identificationValue: an(50),
  identificationCountry: alpha3,
});

const recipientModel = group({
  givenName: lettersDigitsSpaces(48),
  middleName: lettersDigitsSpaces(48),
  surname: lettersDigitsSpaces(48),
  birthDate: date,
  phone: phoneFromDigit(25, 8),
  accountNumber: an(32),
  street: an(100),
  city: an(50),
  state: an(50),
  country: alpha3,
  postcode: an(30),
  accountNumberType: oneOf(['OTHER', 'RTN_AND_BANK_ACCOUNT', 'IBAN', 'EMAIL', 'PHONE_NUMBER', 'BAN_AND_BIC', 'WALLET_ID', 'SOCIAL_NETWORK_ID']),
  nationality: charsOf(`${LETTERS} é`, 50, 1, '1-_#'),
  identificationType: an(50),
  identificationValue: an(50),
  identificationCountry: alpha3,
  birthCountry: alpha3,
  entityType: an(50),
  relationship: an(50),
  occupation: an(50),
});

const corporateModel = group({
  name: an(30),
  description: an(160),
  street: an(100),
  address: an(100),
  city: an(80),
  state: an(50),
  postCode: an(16),
  suite: an(30),
  postboxNumber: an(15),
  purchase: oneOf(['Y', 'N']),
  phone: digits(25),
  fax: digits(25),
  vatId: an(255),
});

const text255 = an(255);
const legModel = group({
  ...Object.fromEntries(
    ['ticketNumber', 'stopOverAllowed', 'restrictions', 'flightNumber', 'fareBasis', 'exchangeTicketNum', 'departureCountry', 'departureAirport', 'airlineName', 'airlineCode', 'departureTime', 'arrivalCountry', 'arrivalAirport', 'arrivalTime', 'couponNumber', 'classOfService', 'carrierCode'].map((k) => [k, text255]),
  ),
  taxAmount: money(),
  feesAmount: money(),
  fareAmount: money(),
  departureTaxAmount: money(),
  departureDate: date,
  arrivalDate: date,
  timeToDeparture: an(10),
});
const airlineModel = group({
  totalTaxAmount: money(),
  totalFeesAmount: money(),
  totalFareAmount: money(),
  ticketIssueDate: date,
  ...Object.fromEntries(['ticketIssueAddress', 'thirdPartyBooking', 'bookingtype', 'ticketDeliveryMethod', 'bookingRefNum', 'agentName', 'agentCode'].map((k) => [k, text255])),
  passengers: list(
    group({
      ...Object.fromEntries(['type', 'name', 'ticketRestricted', 'ticketNumber', 'status', 'phone', 'frequentFlyerNumber', 'email', 'dob', 'checkDigit'].map((k) => [k, text255])),
      residenceCountry: alpha2Upper,
      legs: list(legModel, 2),
    }),
    2,
  ),
});

const degrees = (integers: number, bound: number) =>
  leaf(
    fc.tuple(fc.constantFrom('', '-', '+'), fc.integer({ min: 0, max: bound - 1 }), fc.stringMatching(/^[0-9]{1,8}$/)).map(([sign, whole, decimals]) => `${sign}${whole}.${decimals}`),
    { badFormat: fc.constantFrom(`${bound + 1}.0`, '12', `${'1'.repeat(integers + 1)}.5`, '12.123456789', '12,5', 'N12.5') },
  );
const posModel = group(
  {
    terminalId: digits(32),
    entryMode: oneOf(['MANUAL', 'MAGSTRIPE', 'MAGSTRIPE_AS_FALLBACK', 'ICC', 'NFC_ICC', 'NFC_MAGSTRIPE']),
    deviceId: digits(32),
    deviceType: an(32),
    encryptedPin: group({ data: lettersDigits(2048), ksn: lettersDigits(2048) }),
    encryptedSred: group({ data: an(2048), ksn: an(2048) }),
    iccDataRequest: an(2048),
    location: group({ accuracy: digits(32), latitude: degrees(2, 90), longitude: degrees(3, 180) }),
    panSequenceNumber: digits(32),
    pinEntryCapability: oneOf(['PIN_ENTRY_AVAILABLE', 'PIN_ENTRY_UNAVAILABLE']),
    transactionSequenceNumber: digits(32),
    transactionSource: oneOf(['POS']),
  },
  { required: ['terminalId', 'entryMode'] },
);

const posResponseModel = group({
  clearing: group({ authorizationAcquirerCode: lettersDigits(2048), authorizationIssuerCode: lettersDigits(2048), identifier: lettersDigits(2048) }),
  merchantId: lettersDigits(2048),
  iccDataResponse: lettersDigits(2048),
  statusText: lettersDigits(2048),
  timestamp: dateTime,
});

const sortDates = (o: Obj, from: string, to: string): Obj => {
  if (o[from] !== undefined && o[to] !== undefined && String(o[to]) < String(o[from])) [o[from], o[to]] = [o[to], o[from]];
  return o;
};
const reportingModel = group(
  { date: group({ from: date, to: date }, { required: ['from', 'to'], fix: (o) => sortDates(o, 'from', 'to') }), sortValue: oneOf(['SettlementTxDate']), sortOrder: oneOf(['ASC', 'DESC', 'asc', 'desc']) },
  { required: ['date'] },
);

const giftCardModel = group({ number: an(255, 2), pin: an(255, 2), holder: an(255, 2), message: an(160, 2), type: oneOf(giftCardTypes) });

const recurringMigrationModel = group(
  { paymentType: oneOf(['DB', 'CD', 'PA']), amount: money(8), requestTimestamp: dateTime, connectorTxId1: an(128), connectorTxId2: an(128), connectorTxId3: an(128) },
  { required: ['paymentType'] },
);

// Cron fields: single values, ranges, steps and lists within the field's range.
const cronValue = (min: number, max: number, extra: string[] = []) => {
  const n = fc.integer({ min, max });
  return fc.oneof(
    fc.constantFrom('*', ...extra),
    n.map(String),
    fc.tuple(n, n).map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`),
    fc.integer({ min: 1, max: Math.max(1, max - min) }).map((s) => `*/${s}`),
    fc.tuple(n, fc.integer({ min: 1, max: Math.max(1, Math.min(10, max - min)) })).map(([a, s]) => `${a}/${s}`),
    fc.uniqueArray(n, { minLength: 2, maxLength: 4 }).map((xs) => xs.join(',')),
  );
};
const cronFieldModel = (min: number, max: number, extra: string[], bad: string[], wrong: string[]) =>
  leaf(cronValue(min, max, extra), { badFormat: fc.constantFrom(...bad), wrongChars: fc.constantFrom(...wrong) });
const second = cronFieldModel(0, 59, [], ['60', '0-60', '*/0', '99'], ['?', 'L', '5W', '1#2', 'a']);
const hour = cronFieldModel(0, 23, [], ['24', '0-24', '30'], ['?', 'L', '1#2']);
const dayOfMonth = cronFieldModel(1, 31, ['?', 'L', 'LW', '15W'], ['0', '32', '0-5'], ['#', '1#2', 'MON', 'x']);
const month = cronFieldModel(1, 12, [], ['0', '13', '0-12'], ['?', 'L', 'JAN', '1#1']);
const dayOfWeek = leaf(fc.oneof(cronValue(1, 7, ['?', '6L', '2#3']), fc.constantFrom('MON', 'MON-FRI', 'SUN,SAT', 'TUE#2')), {
  badFormat: fc.constantFrom('0', '8', '0-6', '2#6'),
  wrongChars: fc.constantFrom('mo', 'W', '15W', 'MONDAY', 'X'),
});
const year = leaf(fc.oneof(fc.constant(''), cronValue(1970, 2099)), { badFormat: fc.constantFrom('1969', '2100', '1900-2000', '99') , wrongChars: fc.constantFrom('?', 'L', '2030#1') });
const expression = leaf(
  fc
    .tuple(cronValue(0, 59), cronValue(0, 59), cronValue(0, 23), cronValue(1, 31, ['L', 'LW']), cronValue(1, 12), fc.constantFrom('MON-FRI', '2#3', '6L', '1,7'), fc.oneof(fc.constant(''), cronValue(1970, 2099)), fc.boolean())
    .map(([s, mi, h, dom, mo, dow, y, domFirst]) => [s, mi, h, domFirst ? dom : '?', mo, domFirst ? '?' : dow, y].filter((p) => p !== '').join(' ')),
  {
    badFormat: fc.constantFrom('0 12 * * ?', '* * * * *', '0 0 12 * * ? 2030 1', '0 0 12 1 * 2', '0 0 12 ? * 8', '0 0 12 * * ? 1969', '60 0 12 * * ?', '0 0 12 ? 13 *', '@daily', ''),
    tooLong: fc.constant(`0 0 12 ? * ${Array.from({ length: 80 }, () => 'MON').join(',')}`),
  },
);
const jobModel = group(
  {
    name: an(64),
    year,
    month,
    dayOfMonth,
    dayOfWeek,
    hour,
    minute: second,
    second,
    startDate: dateTime,
    endDate: dateTime,
    noticeUnit: oneOf(['YEAR', 'MONTH', 'WEEK', 'DAY', 'HOUR', 'MINUTE', 'SECOND']),
    durationUnit: oneOf(['YEAR', 'MONTH', 'WEEK', 'DAY', 'HOUR', 'MINUTE', 'SECOND']),
    noticeNumber: digits(16),
    durationNumber: digits(16),
    noticeCallable: oneOf(['ANYTIME', 'DURATION_END']),
    expression,
  },
  {
    fix: (o) => {
      if (o.dayOfMonth !== undefined && o.dayOfWeek !== undefined && o.dayOfMonth !== '?') o.dayOfWeek = '?';
      // '?' as the day of the month needs a dayOfWeek that names the days.
      if (o.dayOfMonth === '?' && (o.dayOfWeek === undefined || o.dayOfWeek === '?')) o.dayOfWeek = 'MON';
      return sortDates(o, 'startDate', 'endDate');
    },
  },
);

const standingInstructionModel = group({
  type: oneOf(['UNSCHEDULED', 'INSTALLMENT', 'RECURRING']),
  recurringType: oneOf(['STANDING_ORDER', 'SUBSCRIPTION']),
  mode: oneOf(['INITIAL', 'REPEATED']),
  source: oneOf(['CIT', 'MIT']),
  initialTransactionId: an(255),
  industryPractice: oneOf(['INCREMENTAL_AUTH', 'RESUBMISSION', 'REAUTHORIZATION', 'DELAYED_CHARGES', 'NO_SHOW']),
  expiry: date,
  frequency: digits(4),
  numberOfInstallments: digits(3),
  agreementId: an(35),
});

const codeListModel = (codes: readonly string[]) =>
  leaf(fc.uniqueArray(fc.constantFrom(...codes), { minLength: 1, maxLength: 5 }).map((xs) => xs.join(',')), {
    unknownEnum: fc.oneof(
      fc.uniqueArray(fc.constantFrom(...codes), { minLength: 2, maxLength: 3 }).chain((xs) => fc.constantFrom(`${xs.join(',')},ZZ`, `${xs.join(',')},`, xs.join(', '), xs.join(';'), xs.join(',').toLowerCase())),
      fc.constantFrom('', 'ZZ'),
    ),
  });
const chargebackQueryModel = group(
  {
    chargebackResultCode: leaf(fc.stringMatching(/^000\.100\.2[0-9]{2}$/), { badFormat: fc.constantFrom('000.100.1', '000.100.2', '000.100.210.1', '000.100.110', '000-100-201', '000.100.2ab') }),
    merchantTransactionId: an(255),
    limit: leaf(fc.integer({ min: 100, max: 500 }).map(String), { badFormat: fc.constantFrom('99', '501', '0', '1000', '100.0', '1e2', 'max', '0100', ' 100') }),
    date: group({ from: dateTime, to: dateTime }, { fix: (o) => sortDates(o, 'from', 'to') }),
    paymentTypes: codeListModel(queryPaymentTypes),
    paymentMethods: codeListModel(queryPaymentMethods),
    includeLinkedTransactions: bool,
    shortId: an(14),
  },
  {
    fix: (o) => {
      const d = o.date as Obj | undefined;
      if (d && (d.from === undefined) !== (d.to === undefined)) {
        d.from ??= d.to;
        d.to ??= d.from;
      }
      if (d && Object.keys(d).length === 0) delete o.date;
      if (o.date !== undefined) delete o.merchantTransactionId;
      return o;
    },
  },
);

const token = leaf(fc.string({ minLength: 1, maxLength: 300 }), { tooLong: fc.constant('x'.repeat(65537)), tooShort: fc.constant('') });
const walletSource = oneOf(['web', 'app']);
const walletsModel = group({
  applePay: group({ paymentToken: token, cardNetwork: an(255), cardType: an(255), source: walletSource }),
  googlePay: group({ paymentToken: token, source: walletSource }),
  samsungPay: group({ paymentToken: token, source: walletSource }),
});

// customer.*: the fields shipping.customer.* copies, and the shopper's device (browser.*, app.*).
const twoDigitCodes = (from: number, to: number, bad: string[]) =>
  leaf(fc.integer({ min: from, max: to }).map((n) => pad(n)), { badFormat: fc.constantFrom(...bad) });
const customerModel = group({
  ...customerFields,
  browser: group({
    acceptHeader: an(2048),
    language: leaf(fc.constantFrom('de', 'en-US', 'pt-BR', 'zh-Hant', 'gsw', 'es-419'), { tooLong: fc.constantFrom('abc-12345', 'deu-DEUTS'), badFormat: fc.constantFrom('english', 'en_US', 'e', '12', 'en-', 'en-US-x') }),
    screenHeight: digits(6),
    screenWidth: digits(6),
    timezone: leaf(fc.integer({ min: -840, max: 720 }).map(String), { badFormat: fc.constantFrom('-841', '721', '1.5', 'UTC', '+1000', '--60'), tooLong: fc.constantFrom('+00060', '-000060') }),
    userAgent: an(2048),
    javaEnabled: bool,
    screenColorDepth: digits(2),
    challengeWindow: leaf(fc.constantFrom('1', '2', '3', '4', '5', '01', '02', '03', '04', '05'), { badFormat: fc.constantFrom('0', '6', '00', '06', '001', '1a', 'FULL') }),
    deviceId: an(32),
  }),
  app: group({ deviceId: an(40) }),
});

// threeDSecure.*: the authentication-message fields, the external server's proof and result, the
// exemption fields and the domestic scheme's data (the rules across fields: checkThreeDSecure).
const exactly = (length: number, valid: fc.Arbitrary<string>) =>
  leaf(valid, { tooLong: fc.string({ minLength: length + 1, maxLength: length + 8 }), tooShort: fc.string({ maxLength: length - 1 }) });
const requestorModel = group({ requestorId: an(100), requestorName: an(100) });
const threeDSecureModel = group({
  amount: money(9),
  currency: leaf(fc.constantFrom('EUR', 'USD', 'GBP', 'CHF', 'JPY'), { unknownEnum: fc.constantFrom('eur', 'EURO', 'XXY', 'E1R', 'ZZZ') }),
  deviceInfo: leaf(fc.string({ minLength: 1, maxLength: 300 }), { tooLong: fc.constant('x'.repeat(65537)), tooShort: fc.constant('') }),
  merchant: group({ name: an(100), url: an(2048), country: countryOf(charsOf(UPPER, 3, 2, 'a1-'), ['alpha3']) }),
  v2: group({ visa: requestorModel, mastercard: requestorModel, amex: requestorModel, diners: requestorModel, jcb: requestorModel, cartesBancaires: requestorModel }),
  channel: twoDigitCodes(1, 99, ['00', '1', '100', '1a', ' 01', '-1']),
  npa: bool,
  decoupled: bool,
  threeRIInd: oneOf(['RECURRING', 'SPLIT_SHIPMENT', 'DELAYED_SHIPMENT']),
  authenticationInd: oneOf(['PAYMENT', 'RECURRING', 'INSTALLMENT', 'ADD_CARD', 'MAINTAIN_CARD', 'EMV_ID', 'BILLING_AGREEMENT', 'SPLIT_SHIPMENT', '_DELAYED_SHIPMENT', 'SPLIT_PAYMENT']),
  disable: bool,
  eci: twoDigitCodes(1, 8, ['00', '09', '5', '10', 'ab', '005']),
  verificationId: exactly(28, fc.string({ minLength: 28, maxLength: 28 })),
  authenticationStatus: oneOf(['Y', 'I', 'A', 'U', 'N']),
  dsTransactionId: exactly(36, fc.uuid()),
  acsTransactionId: exactly(36, fc.uuid()),
  challengeMandatedIndicator: oneOf(['Y', 'N']),
  version: leaf(fc.tuple(fc.constantFrom('1', '2'), fc.nat(9), fc.nat(9)).map(([a, b, c]) => `${a}.${b}.${c}`), { badFormat: fc.constantFrom('3.0.0', '0.1.0', '2.2', '2.10.0', 'v2.2.0', '2.2.0.1', '2.a.0') }),
  authType: twoDigitCodes(1, 4, ['00', '05', '1', '4', '010']),
  transactionStatusReason: leaf(fc.stringMatching(/^[0-9]{1,2}$/), { badFormat: fc.constantFrom('123', 'a1', '1 ', '') }),
  challengeIndicator: twoDigitCodes(1, 9, ['00', '10', '1', '9', 'a1']),
  exemptionFlag: twoDigitCodes(1, 4, ['00', '05', '1', 'a1']),
  schemeData: {
    fields: {
      'CB-ITEMSNB': leaf(fc.stringMatching(/^[0-9]{1,2}$/), { badFormat: fc.constantFrom('', '123', 'a', '1.5', '-1') }),
      'CB-SCORE_MERCHANT': charsOf(`${LETTERS}${DIGITS} +:`, 20, 1, '-_#.@'),
      'CB-USECASE': leaf(fc.stringMatching(/^[0-9]{1,2}$/), { badFormat: fc.constantFrom('123', 'a1', '') }),
    },
  },
});

interface Group {
  /** The parameter prefix the schema sits under in a request (empty for a request of its own). */
  prefix: string[];
  schema: z.ZodType;
  model: Model;
}

const merchantWithAddresses = merchant.extend({ billing: merchantBilling.optional(), shipping: merchantShipping.optional() });

const GROUPS: Record<string, Group> = {
  'customer.*': { prefix: ['customer'], schema: customer, model: customerModel },
  'shipping.* and shipping.customer.*': { prefix: ['shipping'], schema: shipping, model: group({ ...shippingFields, customer: shippingCustomerModel }, { fix: fixStreets }) },
  'merchant.* with merchant.billing.* and merchant.shipping.*': { prefix: ['merchant'], schema: merchantWithAddresses, model: merchantModel },
  'applePay.*, googlePay.* and samsungPay.*': { prefix: [], schema: z.strictObject(walletGroups), model: walletsModel },
  'corporate.*': { prefix: ['corporate'], schema: corporate, model: corporateModel },
  'sender.*': { prefix: ['sender'], schema: sender, model: senderModel },
  'recipient.*': { prefix: ['recipient'], schema: recipient, model: recipientModel },
  'cart.items[n].* (with recipient.*) and cart.payments[n].*': { prefix: ['cart'], schema: cart, model: cartModel },
  'marketPlace.sellers[n].*': { prefix: ['marketPlace'], schema: marketPlace, model: group({ sellers: list(group({ id: an(255), amount: money(10) })) }) },
  'airline.*, passengers[n].* and legs[n].*': { prefix: ['airline'], schema: airline, model: airlineModel },
  'recurringMigration.*': { prefix: ['recurringMigration'], schema: recurringMigration, model: recurringMigrationModel },
  'pos.* (request)': { prefix: ['pos'], schema: pos, model: posModel },
  'pos.* (response)': { prefix: ['pos'], schema: posResponse, model: posResponseModel },
  'reporting parameters': { prefix: [], schema: reportingParameters, model: reportingModel },
  'giftCard.*': { prefix: ['giftCard'], schema: giftCard, model: giftCardModel },
  'job.*': { prefix: ['job'], schema: job, model: jobModel },
  'threeDSecure.*': { prefix: ['threeDSecure'], schema: threeDSecure, model: threeDSecureModel },
  'standingInstruction.*': { prefix: ['standingInstruction'], schema: standingInstruction, model: standingInstructionModel },
  'chargeback and query parameters': { prefix: [], schema: chargebackQuery, model: chargebackQueryModel },
};

// ---------------------------------------------------------------------------------------------
// Parsing a group as it sits in a request, and the parameter errors a merchant would see.

const wrapped = new Map<Group, z.ZodType>();
function wrap(g: Group): z.ZodType {
  let schema = wrapped.get(g);
  if (!schema) {
    schema = g.prefix.reduceRight<z.ZodType>((inner, key) => z.strictObject({ [key]: inner }), g.schema);
    wrapped.set(g, schema);
  }
  return schema;
}

function parse(g: Group, value: unknown): { ok: true } | { ok: false; issues: z.core.$ZodIssue[]; errors: CodedParamError[] } {
  const input = g.prefix.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Nested;
  const result = wrap(g).safeParse(input);
  return result.success ? { ok: true } : { ok: false, issues: result.error.issues, errors: fromZod(result.error, input) };
}

/** The parameter errors of a request that must be refused. */
function refused(g: Group, value: unknown): CodedParamError[] {
  const result = parse(g, value);
  assert.equal(result.ok, false, `should have been refused: ${JSON.stringify(value)}`);
  return (result as { errors: CodedParamError[] }).errors;
}

function accepted(g: Group, value: unknown): void {
  const result = parse(g, value);
  assert.ok(result.ok, `should have been accepted: ${JSON.stringify(value)}\n${result.ok ? '' : JSON.stringify(result.errors)}`);
}

/** Refused, naming `name`; returns that parameter's error. */
function refusedNaming(g: Group, value: unknown, name: string): CodedParamError {
  const errors = refused(g, value);
  const error = errors.find((e) => e.name === name);
  assert.ok(error, `expected ${name} among ${JSON.stringify(errors.map((e) => e.name))}`);
  return error;
}

for (const [title, g] of Object.entries(GROUPS)) {
  describe(`group ${title}`, () => {
    it('accepts generated valid values of every field', () => {
      fc.assert(fc.property(validOf(g.model), (value) => accepted(g, value)), RUNS);
    });

    for (const kind of KINDS) {
      const bad = badOf(g.model, kind);
      if (!bad) continue;
      it(`refuses ${KIND_TEXT[kind]}, naming the parameter in the zod issue path and the parameter error`, () => {
        fc.assert(
          fc.property(bad, ([value, path]) => {
            const name = flatName([...g.prefix, ...path]);
            const result = parse(g, value);
            assert.equal(result.ok, false, `${name}=${JSON.stringify(valueAt(value, path))} should have been refused`);
            const { issues, errors } = result as { issues: z.core.$ZodIssue[]; errors: CodedParamError[] };
            assert.ok(issues.some((issue) => flatName(issue.path) === name), `no zod issue at ${name}: ${JSON.stringify(issues.map((i) => flatName(i.path)))}`);
            assert.ok(errors.some((e) => e.name === name && e.message.startsWith(name)), `no parameter error for ${name}: ${JSON.stringify(errors)}`);
          }),
          RUNS,
        );
      });
    }
  });
}

function valueAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], value);
}

// ---------------------------------------------------------------------------------------------
// Conditional rules of the spec's notes.

const SHIPPING = GROUPS['shipping.* and shipping.customer.*']!;
const MERCHANT = GROUPS['merchant.* with merchant.billing.* and merchant.shipping.*']!;
const JOB = GROUPS['job.*']!;
const CHARGEBACK = GROUPS['chargeback and query parameters']!;
const REPORTING = GROUPS['reporting parameters']!;
const CART = GROUPS['cart.items[n].* (with recipient.*) and cart.payments[n].*']!;

describe('street1 plus street2 must not be digits only', () => {
  it('refuses shipping.street1=12 with shipping.street2=34 with 100.800.102 naming shipping.street1', () => {
    const error = refusedNaming(SHIPPING, { street1: '12', street2: ' 34' }, 'shipping.street1');
    assert.equal(error.code, '100.800.102');
    assert.equal(failure(refused(SHIPPING, { street1: '12', street2: ' 34' })).code, '100.800.102');
  });

  it('names shipping.street2 when it alone is digits only', () => {
    refusedNaming(SHIPPING, { street2: '221' }, 'shipping.street2');
  });

  it('accepts a street with digits and a name, in either field', () => {
    accepted(SHIPPING, { street1: '221b', street2: 'Baker Street' });
    accepted(SHIPPING, { street1: '221', street2: 'Baker Street' });
  });

  it('applies to merchant.shipping.* and merchant.billing.* as well', () => {
    refusedNaming(MERCHANT, { shipping: { street1: '1', street2: '2' } }, 'merchant.shipping.street1');
    refusedNaming(MERCHANT, { billing: { street1: '10' } }, 'merchant.billing.street1');
  });
});

describe('houseNumber2 requires houseNumber1', () => {
  it('refuses shipping.houseNumber2 without shipping.houseNumber1', () => {
    const error = refusedNaming(SHIPPING, { street1: 'Baker Street', houseNumber2: 'b' }, 'shipping.houseNumber2');
    assert.equal(error.message, 'shipping.houseNumber2 requires houseNumber1');
  });

  it('accepts houseNumber2 with houseNumber1', () => {
    accepted(SHIPPING, { street1: 'Baker Street', houseNumber1: '221', houseNumber2: 'b' });
  });

  it('refuses merchant.shipping.houseNumber2 and merchant.billing.houseNumber2 alone', () => {
    refusedNaming(MERCHANT, { shipping: { houseNumber2: 'b' } }, 'merchant.shipping.houseNumber2');
    refusedNaming(MERCHANT, { billing: { houseNumber2: 'b' } }, 'merchant.billing.houseNumber2');
  });
});

describe('shipping.customer: the customer rules', () => {
  it('requires givenName (100.700.200) and surname (100.700.100) when another shipping.customer parameter is sent', () => {
    const errors = refused(SHIPPING, { customer: { email: 'jane@example.com' } });
    assert.deepEqual(errors.map((e) => [e.name, e.code]).sort(), [['shipping.customer.givenName', '100.700.200'], ['shipping.customer.surname', '100.700.100']]);
  });

  it('accepts a name alone, and no customer at all', () => {
    accepted(SHIPPING, { customer: { givenName: 'Jane', surname: 'Jones' } });
    accepted(SHIPPING, { city: 'Berlin' });
  });

  it('requires identificationDocType and identificationDocId together', () => {
    const name = { givenName: 'Jane', surname: 'Jones' };
    assert.equal(refusedNaming(SHIPPING, { customer: { ...name, identificationDocType: 'PASSPORT' } }, 'shipping.customer.identificationDocId').code, '100.700.801');
    assert.equal(refusedNaming(SHIPPING, { customer: { ...name, identificationDocId: 'C01X00T47' } }, 'shipping.customer.identificationDocType').code, '100.700.800');
    accepted(SHIPPING, { customer: { ...name, identificationDocType: 'PASSPORT', identificationDocId: 'C01X00T47' } });
  });

  it('has no browser.* and no app.*: they describe the shopper\'s device', () => {
    refusedNaming(SHIPPING, { customer: { givenName: 'Jane', surname: 'Jones', browser: { language: 'de' } } }, 'shipping.customer.browser.language');
    refusedNaming(SHIPPING, { customer: { givenName: 'Jane', surname: 'Jones', app: { deviceId: 'x' } } }, 'shipping.customer.app.deviceId');
  });
});

describe('job: dayOfWeek and dayOfMonth', () => {
  it('refuses both a dayOfWeek and a dayOfMonth, naming job.dayOfWeek', () => {
    const error = refusedNaming(JOB, { dayOfMonth: '1', dayOfWeek: 'MON' }, 'job.dayOfWeek');
    assert.match(error.message, /one of them must be '\?'/);
  });

  it("accepts both when one of them is '?', and either alone", () => {
    accepted(JOB, { dayOfMonth: '?', dayOfWeek: 'MON' });
    accepted(JOB, { dayOfMonth: '15', dayOfWeek: '?' });
    accepted(JOB, { dayOfWeek: '2#3' });
    accepted(JOB, { dayOfMonth: 'L' });
  });

  it("refuses '?' as the day of the month when no dayOfWeek names the days (Quartz: '?' in one of the two only)", () => {
    refusedNaming(JOB, { dayOfMonth: '?' }, 'job.dayOfMonth');
    refusedNaming(JOB, { dayOfMonth: '?', dayOfWeek: '?' }, 'job.dayOfMonth');
  });

  it("schedules the spec's defaults, with '?' for the day field not sent", () => {
    assert.equal(cronOf({}), '0 0 0 1 1 ? *');
    assert.equal(cronOf({ dayOfWeek: 'MON', hour: '9', month: '*' }), '0 0 9 ? * MON *');
    assert.equal(cronOf({ dayOfMonth: '15', month: '*', year: '' }), '0 0 0 15 * ?');
    assert.equal(cronOf({ expression: ' 0  0 12 ? * MON-FRI ' }), '0 0 12 ? * MON-FRI');
  });

  it('refuses endDate before startDate', () => {
    refusedNaming(JOB, { startDate: '2030-01-02 00:00:00', endDate: '2030-01-01 00:00:00' }, 'job.endDate');
  });
});

describe('job.expression: 7 cron fields, the year optional, checked with croner', () => {
  // Quartz reads names in any case: mon-fri is MON-FRI.
  for (const expression of ['0 0 12 ? * MON-FRI', '0 0 12 ? * mon-fri', '0 0 12 l * ?', '0 0 12 ? * MON-FRI 2030', '0 0/5 * * * ?', '0 15 10 L * ? 2030-2035', '0 0 12 ? * 6#3 *', '0 0 0 1 1 ? 2099', '30 45 23 15W 1-6/2 ?']) {
    it(`accepts "${expression}"`, () => {
      assert.equal(checkCronExpression(expression), undefined);
      accepted(JOB, { expression });
    });
  }

  const refusals: Array<[string, RegExp]> = [
    ['0 12 * * ?', /must have 7 fields .* it has 5/],
    ['0 0 12 * * ? 2030 1', /it has 8/],
    ['0 0 12 1 * MON', /dayOfMonth and a dayOfWeek/],
    ['0 0 12 * * *', /dayOfMonth and a dayOfWeek/],
    ['0 0 12 ? * 0', /dayOfWeek field '0'/],
    ['0 0 12 ? * 8', /dayOfWeek field '8'/],
    ['0 0 12 ? * ?', /'\?' as both dayOfMonth and dayOfWeek/],
    ['0 0 12 * * ? 1969', /year field '1969'/],
    ['0 0 12 * * ? 2100', /year field '2100'/],
    ['60 0 12 * * ?', /second field '60'/],
    ['0 60 12 * * ?', /minute field '60'/],
    ['0 0 24 * * ?', /hour field '24'/],
    ['0 0 12 ? 13 *', /month field '13'/],
    ['0 0 12 L-3 * ?', /dayOfMonth field 'L-3' that .*L-n, days before the last, is not supported/],
    ['0 0 12 ? * FRI-MON', /dayOfWeek field 'FRI-MON'/],
    ['0 0 12 ? * 2#6', /dayOfWeek field '2#6'/],
  ];
  for (const [expression, message] of refusals) {
    it(`refuses "${expression}" naming job.expression`, () => {
      assert.match(checkCronExpression(expression) ?? '', message);
      refusedNaming(JOB, { expression }, 'job.expression');
    });
  }

  it('refuses separate fields outside the spec\'s allowed content, naming the field', () => {
    refusedNaming(JOB, { minute: '60' }, 'job.minute');
    refusedNaming(JOB, { hour: '?' }, 'job.hour');
    refusedNaming(JOB, { month: 'JAN' }, 'job.month');
    refusedNaming(JOB, { dayOfWeek: 'LW' }, 'job.dayOfWeek');
    accepted(JOB, { year: '' });
  });

  it('keeps the separate fields together to job.expression\'s 256 characters, and each field to 256 before croner reads it', () => {
    const every = (from: number, to: number, step: number) => Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step).join(',');
    const lists = { second: every(0, 55, 5), minute: every(0, 55, 5), hour: every(0, 22, 2), dayOfMonth: every(1, 31, 2), month: every(1, 12, 1), year: every(2027, 2070, 1) };
    const refused = job.safeParse(lists).error!.issues;
    assert.deepEqual(refused.map((i) => [i.path.join('.'), i.message]), [['year', `makes a schedule of ${cronOf(lists).length} characters; job.second to job.year together take at most 256, as job.expression does`]]);
    assert.equal(job.safeParse({ ...lists, year: every(2027, 2030, 1) }).success, true);
    assert.deepEqual(job.safeParse({ hour: Array(150).fill('1').join(',') }).error!.issues.map((i) => i.message), ['must be at most 256 characters']);
  });

  it('steps the year from 1970 as Quartz does, also without the * and in each item of a list', () => {
    const years = (expression: string) => cronSchedule(expression).nextRuns(3, new Date('2026-06-01T00:00:00Z')).map((d) => d.toISOString().slice(0, 4));
    assert.deepEqual(years('0 0 0 1 1 ? */3'), ['2027', '2030', '2033']);
    assert.deepEqual(years('0 0 0 1 1 ? /3'), ['2027', '2030', '2033']);
    assert.deepEqual(years('0 0 0 1 1 ? */4'), ['2030', '2034', '2038']);
    assert.deepEqual(years('0 0 0 1 1 ? 2028/5,*/7'), ['2028', '2033', '2038']);
    assert.deepEqual(years('0 0 0 1 1 ? 2027-2035/4'), ['2027', '2031', '2035']);
  });

  it('reads an L of its own in dayOfWeek as Quartz does: the last day of the week, Saturday', () => {
    accepted(JOB, { dayOfWeek: 'L' });
    accepted(JOB, { dayOfWeek: 'MON,L' });
    assert.equal(checkCronExpression('0 0 0 ? * L *'), undefined);
    const saturdays = cronSchedule('0 0 0 ? * L *').nextRuns(3, new Date('2026-11-25T00:00:00Z'));
    assert.deepEqual(saturdays.map((d) => d.toISOString()), ['2026-11-28T00:00:00.000Z', '2026-12-05T00:00:00.000Z', '2026-12-12T00:00:00.000Z']);
    const mondaysAndSaturdays = cronSchedule('0 0 0 ? * MON,L *').nextRuns(2, new Date('2026-11-25T00:00:00Z'));
    assert.deepEqual(mondaysAndSaturdays.map((d) => d.toISOString()), ['2026-11-28T00:00:00.000Z', '2026-11-30T00:00:00.000Z']);
  });
});

describe('standingInstruction: shopper authentication', () => {
  const none = { hasCvv: false, hasThreeDSecure: false };
  const names = (errors: CodedParamError[]) => errors.map((e) => e.name);

  it('refuses INITIAL without a security code or 3-D Secure data, naming standingInstruction.mode', () => {
    const errors = checkStandingInstruction({ mode: 'INITIAL', type: 'RECURRING' }, none);
    assert.deepEqual(names(errors), ['standingInstruction.mode']);
    assert.match(errors[0]!.message, /card\.cvv \(a token.s tokenAccount\.dtvc or cryptogram\) or 3-D Secure/);
  });

  it('accepts INITIAL with a security code, or with 3-D Secure data', () => {
    assert.deepEqual(checkStandingInstruction({ mode: 'INITIAL' }, { hasCvv: true, hasThreeDSecure: false }), []);
    assert.deepEqual(checkStandingInstruction({ mode: 'INITIAL' }, { hasCvv: false, hasThreeDSecure: true }), []);
  });

  it('refuses REPEATED with a security code or 3-D Secure data', () => {
    assert.deepEqual(names(checkStandingInstruction({ mode: 'REPEATED' }, { hasCvv: true, hasThreeDSecure: false })), ['standingInstruction.mode']);
    assert.deepEqual(names(checkStandingInstruction({ mode: 'REPEATED' }, { hasCvv: false, hasThreeDSecure: true })), ['standingInstruction.mode']);
    assert.deepEqual(checkStandingInstruction({ mode: 'REPEATED', source: 'MIT' }, none), []);
  });

  it('requires numberOfInstallments for an INSTALLMENT with 3-D Secure, and only then', () => {
    const auth = { hasCvv: true, hasThreeDSecure: true };
    assert.deepEqual(names(checkStandingInstruction({ type: 'INSTALLMENT', mode: 'INITIAL' }, auth)), ['standingInstruction.numberOfInstallments']);
    assert.deepEqual(checkStandingInstruction({ type: 'INSTALLMENT', mode: 'INITIAL', numberOfInstallments: '12' }, auth), []);
    assert.deepEqual(checkStandingInstruction({ type: 'INSTALLMENT', mode: 'INITIAL' }, { hasCvv: true, hasThreeDSecure: false }), []);
    assert.deepEqual(checkStandingInstruction({ type: 'RECURRING', mode: 'INITIAL' }, auth), []);
  });

  it('requires initialTransactionId for an MIT on a card that is not a registration of this gateway', () => {
    assert.deepEqual(names(checkStandingInstruction({ source: 'MIT', mode: 'REPEATED' }, { ...none, tokenized: false })), ['standingInstruction.initialTransactionId']);
    assert.deepEqual(checkStandingInstruction({ source: 'MIT', mode: 'REPEATED', initialTransactionId: '123456789012345' }, { ...none, tokenized: false }), []);
    assert.deepEqual(checkStandingInstruction({ source: 'MIT', mode: 'REPEATED' }, { ...none, tokenized: true }), []);
  });

  it('names nothing when no standingInstruction is sent', () => {
    assert.deepEqual(checkStandingInstruction(undefined, none), []);
  });
});

describe('chargeback and query parameters: time frame, merchantTransactionId, limit', () => {
  const from = '2024-01-01 00:00:00';
  const to = '2024-01-31 23:59:59';

  it('refuses date.from without date.to, and date.to without date.from', () => {
    refusedNaming(CHARGEBACK, { date: { from } }, 'date.from');
    refusedNaming(CHARGEBACK, { date: { to } }, 'date.to');
    accepted(CHARGEBACK, { date: { from, to } });
  });

  it('refuses date.to before date.from', () => {
    refusedNaming(CHARGEBACK, { date: { from: to, to: from } }, 'date.to');
  });

  it('refuses merchantTransactionId combined with a time frame, and takes it alone', () => {
    const error = refusedNaming(CHARGEBACK, { merchantTransactionId: 'order-20240101', date: { from, to } }, 'merchantTransactionId');
    assert.match(error.message, /cannot be combined with a date\.from\/date\.to time frame/);
    accepted(CHARGEBACK, { merchantTransactionId: 'order-20240101' });
  });

  it('takes limit from 100 to 500 only', () => {
    for (const limit of ['100', '250', '500']) accepted(CHARGEBACK, { limit });
    for (const limit of ['99', '501', '0', '1000']) refusedNaming(CHARGEBACK, { limit }, 'limit');
  });

  it('takes the spec\'s payment type and method codes as comma-separated lists', () => {
    accepted(CHARGEBACK, { paymentTypes: 'DB,PA,3D,CB', paymentMethods: 'CC,DD' });
    assert.match(refusedNaming(CHARGEBACK, { paymentTypes: 'DB,XX' }, 'paymentTypes').message, /'XX'/);
    refusedNaming(CHARGEBACK, { paymentMethods: 'CC,' }, 'paymentMethods');
  });

  it('takes chargeback reasons 000.100.2 followed by two digits', () => {
    assert.ok(chargebackResultCode.safeParse('000.100.299').success);
    assert.ok(!chargebackResultCode.safeParse('000.100.300').success);
  });
});

describe('reporting parameters: the period', () => {
  it('requires date.from and date.to', () => {
    refusedNaming(REPORTING, { date: { from: '2024-01-01' } }, 'date.to');
    refusedNaming(REPORTING, {}, 'date');
  });

  it('refuses date.to before date.from, and accepts one day', () => {
    refusedNaming(REPORTING, { date: { from: '2024-02-01', to: '2024-01-31' } }, 'date.to');
    accepted(REPORTING, { date: { from: '2024-02-29', to: '2024-02-29' } });
  });
});

describe('amounts, dates and limits of every group', () => {
  it('takes the main amount without decimals but every other amount with exactly two', () => {
    assert.ok(mainAmount.safeParse('92').success);
    refusedNaming(SHIPPING, { cost: '92' }, 'shipping.cost');
    refusedNaming(CART, { items: [{ price: '10.5' }] }, 'cart.items[0].price');
    refusedNaming(CART, { payments: [{ amount: '5' }] }, 'cart.payments[0].amount');
    refusedNaming(GROUPS['recurringMigration.*']!, { paymentType: 'DB', amount: '123456789.00' }, 'recurringMigration.amount');
    accepted(CART, { items: [{ price: '9999999999.99', originalPrice: '12.00' }] });
  });

  it('takes real calendar days only', () => {
    accepted(SHIPPING, { expectedDate: '2024-02-29' });
    refusedNaming(SHIPPING, { expectedDate: '2023-02-29' }, 'shipping.expectedDate');
    refusedNaming(GROUPS['sender.*']!, { birthDate: '1990-04-31' }, 'sender.birthDate');
  });

  it('takes a cart of 1000 items and refuses 1001, naming cart.items', () => {
    const items = Array.from({ length: MAX_CART_ITEMS }, (_, i) => ({ name: `item ${i}`, quantity: '1', price: '1.00' }));
    accepted(CART, { items });
    refusedNaming(CART, { items: [...items, { name: 'one more' }] }, 'cart.items');
  });

  it('has the body parser refuse cart.items[1000] before validation', () => {
    const { errors } = nest({ 'cart.items[999].name': 'last', 'cart.items[1000].name': 'too many' });
    assert.deepEqual(errors.map((e) => e.name), ['cart.items[1000].name']);
  });

  it('names a parameter of a passenger\'s leg with both indexes', () => {
    refusedNaming(GROUPS['airline.*, passengers[n].* and legs[n].*']!, { passengers: [{ name: 'A' }, { legs: [{}, { departureDate: '2024-13-01' }] }] }, 'airline.passengers[1].legs[1].departureDate');
  });

  it('names a merchant.data key that is not 3 to 64 letters, digits, dots or underscores', () => {
    const error = refusedNaming(MERCHANT, { data: { ab: 'x', 'order.id_1': 'y' } }, 'merchant.data[ab]');
    assert.match(error.message, /3 to 64 letters, digits, dots or underscores/);
  });
});

describe('enums and lengths the spec states oddly', () => {
  it('takes giftCard.type SEASONS_GREETINGS although it has 17 characters (AN16)', () => {
    accepted(GROUPS['giftCard.*']!, { type: 'SEASONS_GREETINGS' });
  });

  it('takes recipient.accountNumberType BAN_AND_BIC as written, not IBAN_AND_BIC', () => {
    accepted(GROUPS['recipient.*']!, { accountNumberType: 'BAN_AND_BIC' });
    refusedNaming(GROUPS['recipient.*']!, { accountNumberType: 'IBAN_AND_BIC' }, 'recipient.accountNumberType');
  });

  it('takes recipient.phone of a leading character and 7 to 24 more', () => {
    accepted(GROUPS['recipient.*']!, { phone: '+1234567' });
    refusedNaming(GROUPS['recipient.*']!, { phone: '+123456' }, 'recipient.phone');
  });

  it('masks giftCard.number and giftCard.pin in parameter errors', () => {
    const error = refusedNaming(GROUPS['giftCard.*']!, { pin: '1' }, 'giftCard.pin');
    assert.equal(error.value, '*');
  });
});

describe('mobile wallets: an encrypted token, or decrypted card data marked by source', () => {
  const card = { number: '4200000000000000', expiryMonth: '05', expiryYear: '2034' };
  const threeDSecure = { verificationId: 'AAACAgSRBklmQCFgMpEGAAAAAAA=', eci: '05' };
  const names = (errors: CodedParamError[]) => errors.map((e) => e.name).sort();

  it('accepts a paymentToken alone, and source with the decrypted card and its 3-D Secure proof', () => {
    assert.deepEqual(checkWallet({ applePay: { paymentToken: '{"data":"…"}', cardNetwork: 'Visa', cardType: 'debit' } }), []);
    assert.deepEqual(checkWallet({ googlePay: { source: 'app' }, card, threeDSecure }), []);
    assert.deepEqual(checkWallet({ card }), []);
  });

  it('requires card.number, expiry, threeDSecure.verificationId and threeDSecure.eci with source', () => {
    assert.deepEqual(names(checkWallet({ samsungPay: { source: 'web' } })), ['card.expiryMonth', 'card.expiryYear', 'card.number', 'threeDSecure.eci', 'threeDSecure.verificationId']);
    assert.deepEqual(names(checkWallet({ samsungPay: { source: 'web' }, card })), ['threeDSecure.eci', 'threeDSecure.verificationId']);
  });

  it('refuses a wallet with neither form, both forms, a card next to a token, or two wallets', () => {
    assert.deepEqual(names(checkWallet({ applePay: {} })), ['applePay.paymentToken']);
    assert.deepEqual(names(checkWallet({ applePay: { paymentToken: 't', source: 'web' } })), ['applePay.source']);
    assert.deepEqual(names(checkWallet({ googlePay: { paymentToken: 't' }, card })), ['card.number']);
    assert.deepEqual(names(checkWallet({ applePay: { paymentToken: 't' }, googlePay: { paymentToken: 't' } })), ['googlePay']);
  });
});
