// The shapes of each request, composed from the spec's groups, and the rules that span groups.
import cardValidator from 'card-validator';
import { isValidBIC, isValidIBAN } from 'ibantools';
import { z } from 'zod';
import { acceptor } from './accept.ts';
import { luhn } from './cardNumber.ts';
import type { GatewayEnv } from '../config.ts';
import type { Nested } from '../http/params.ts';
import { airline } from './airline.ts';
import { checkOtherAmounts, wholeAmountError, type StoredAmounts } from './amounts.ts';
import { asynchronousFields, checkShopperResultUrl } from './asynchronous.ts';
import { bankAccount, transactionDueDate } from './bankAccount.ts';
import { basicFields, checkPurposeCode, forex, testMode } from './basic.ts';
import { referenceCurrency } from './common.ts';
import { billing } from './billing.ts';
import { card } from './card.ts';
import { cart } from './cart.ts';
import { corporate } from './corporate.ts';
import { customParameters } from './customParameters.ts';
import { checkCustomer, customer } from './customer.ts';
import { failure, fromZod, paramError, sentNames, type CodedParamError, type ValidationFailure } from './errors.ts';
import { giftCard } from './giftCard.ts';
import { marketPlace } from './marketplace.ts';
import { merchant } from './merchant.ts';
import { pos } from './pos.ts';
import { recipient } from './recipient.ts';
import { recurringMigration } from './recurringMigration.ts';
import { registrationFields } from './registration.ts';
import { risk } from './risk.ts';
import { sender } from './sender.ts';
import { shipping } from './shipping.ts';
import { checkAgreement, checkStandingInstruction, standingInstruction, type ShopperAuthentication } from './standingInstruction.ts';
import { checkThreeDSecure, threeDSecure } from './threeDSecure.ts';
import { tokenAccount } from './tokenAccount.ts';
import { virtualAccount } from './virtualAccount.ts';
import { checkWallet, WALLET_BRANDS, walletBrands, walletGroups, walletOf, WALLETS } from './wallets.ts';

// Groups any payment may carry besides its account (initial payments, registration payments,
// checkouts and the payments of a checkout), in the spec's order. Each is stored with the payment
// and echoed in its answers, secrets masked (echo.ts).
export const commonGroups = {
  ...basicFields,
  forex: forex.optional(),
  transactionDueDate: transactionDueDate.optional(),
  customer: customer.optional(),
  billing: billing.optional(),
  shipping: shipping.optional(),
  corporate: corporate.optional(),
  sender: sender.optional(),
  recipient: recipient.optional(),
  merchant: merchant.optional(),
  cart: cart.optional(),
  marketPlace: marketPlace.optional(),
  airline: airline.optional(),
  threeDSecure: threeDSecure.optional(),
  customParameters: customParameters.optional(),
  giftCard: giftCard.optional(),
  risk: risk.optional(),
  standingInstruction: standingInstruction.optional(),
  ...asynchronousFields,
  testMode: testMode.optional(),
};

/** The groups of commonGroups whose rules span fields or groups. */
export type CrossGroups = Partial<
  Pick<
    z.infer<z.ZodObject<typeof commonGroups>>,
    | 'customer' | 'threeDSecure' | 'customParameters' | 'shopperResultUrl' | 'merchant' | 'standingInstruction' | 'sender' | 'recipient' | 'transactionProcessingCode' | 'transactionPurposeCode'
    | 'currency' | 'taxAmount' | 'discountAmount' | 'forex' | 'shipping' | 'cart' | 'marketPlace' | 'airline' | 'risk'
  >
>;

/** Rules between parameters of the common groups: other amounts in a whole currency, customer names, exemptions, the 3-D Secure flow, where the shopper goes, a transfer's purpose. */
export function checkCommonGroups(v: CrossGroups & { amount?: string }, now: Date, stored?: StoredAmounts): CodedParamError[] {
  return [
    ...checkOtherAmounts(v, stored),
    ...checkPurposeCode(v),
    ...checkCustomer(v.customer),
    ...checkBirthDates(v, now),
    ...checkAgreement(v.standingInstruction, now),
    ...checkThreeDSecure(v.threeDSecure, v.customParameters),
    ...checkShopperResultUrl(v.shopperResultUrl, v.merchant?.app?.schemeUrl),
  ];
}

/**
 * The latest calendar day anywhere at `now`: the day at UTC+14, the earliest time zone. A date
 * after it has not begun for anyone yet, whichever zone the person's date was written in.
 */
export function latestDayAnywhere(now: Date): string {
  return new Date(now.getTime() + 14 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/** Days that must have come: one after today at UTC+14 has begun for no one yet, and is refused naming it. */
function checkDaysCame(sent: Array<[name: string, day: string | undefined, why: string]>, now: Date): CodedParamError[] {
  const given = sent.filter(([, day]) => day !== undefined);
  if (!given.length) return [];
  const latest = latestDayAnywhere(now);
  // A timestamp's day is its first ten characters (yyyy-MM-dd).
  return given.flatMap(([name, day, why]) => (day!.slice(0, 10) > latest ? [paramError(name, day, `is in the future: ${why}`)] : []));
}

/** A mandate's signature and a migrated registration's first request happened before this request. */
export const checkPastDates = (v: { bankAccount?: { mandate?: { dateOfSignature?: string } }; recurringMigration?: { requestTimestamp?: string } }, now: Date) =>
  checkDaysCame(
    [
      ['bankAccount.mandate.dateOfSignature', v.bankAccount?.mandate?.dateOfSignature, 'a mandate is signed before its debits'],
      ['recurringMigration.requestTimestamp', v.recurringMigration?.requestTimestamp, 'it is the time of the initial request, made already'],
    ],
    now,
  );

/** A birth date is a day that has come: one still ahead (a typo, 1990 as 2090) is refused naming it, as an impossible day is. */
const BORN = 'it must be a date that has come';
const checkBirthDates = (v: CrossGroups, now: Date) =>
  checkDaysCame(
    [
      ['customer.birthDate', v.customer?.birthDate, BORN],
      ['shipping.customer.birthDate', v.shipping?.customer?.birthDate, BORN],
      ['sender.birthDate', v.sender?.birthDate, BORN],
      ['recipient.birthDate', v.recipient?.birthDate, BORN],
    ],
    now,
  );

export const initialPaymentRequest = z.strictObject({
  ...commonGroups,
  paymentType: z.enum(['PA', 'DB', 'CD'], { error: 'must be PA, DB or CD for an initial payment' }),
  card: card.optional(),
  bankAccount: bankAccount.optional(),
  virtualAccount: virtualAccount.optional(),
  tokenAccount: tokenAccount.optional(),
  ...walletGroups,
  pos: pos.optional(),
  // overrideHolder is the registration payment's and the checkout's: a new account's holder is its own holder field.
  createRegistration: registrationFields.createRegistration,
});
export type InitialPaymentRequest = z.infer<typeof initialPaymentRequest>;

export const referencingRequest = z.strictObject({
  ...basicFields,
  paymentType: z.enum(['CP', 'RV', 'RF', 'RB'], { error: 'must be CP, RV, RF or RB for a referencing payment' }),
  amount: basicFields.amount.optional(),
  currency: referenceCurrency.optional(),
  customParameters: customParameters.optional(),
  testMode: testMode.optional(),
});
export type ReferencingRequest = z.infer<typeof referencingRequest>;

export const registrationRequest = z.strictObject({
  paymentBrand: basicFields.paymentBrand,
  card: card.optional(),
  bankAccount: bankAccount.optional(),
  virtualAccount: virtualAccount.optional(),
  tokenAccount: tokenAccount.optional(),
  customParameters: customParameters.optional(),
  merchantTransactionId: basicFields.merchantTransactionId,
  recurringMigration: recurringMigration.optional(),
  testMode: testMode.optional(),
});
export type RegistrationRequest = z.infer<typeof registrationRequest>;

export const registrationPaymentRequest = z.strictObject({
  ...commonGroups,
  paymentType: z.enum(['PA', 'DB', 'CD'], { error: 'must be PA, DB or CD' }),
  card: z.strictObject({ cvv: card.shape.cvv, holder: card.shape.holder }).optional(),
  // A holder for this payment only, with overrideHolder=true, when the registration has none (the spec's overrideHolder).
  bankAccount: z.strictObject({ holder: bankAccount.shape.holder.optional() }).optional(),
  overrideHolder: registrationFields.overrideHolder,
});
export type RegistrationPaymentRequest = z.infer<typeof registrationPaymentRequest>;

/** Card, direct debit, virtual account, token account, online transfer, wallet token. */
export type Method = 'CC' | 'DD' | 'VA' | 'TA' | 'OT' | 'WA';

/** The online-transfer brand: a bank account (holder and country) approved at the bank's page. */
export const ONLINE_TRANSFER = 'ONLINE_TRANSFER';

/** Brands each account group pays with; card brands are detected from the number. */
const CARD_BRANDS: Record<string, string> = {
  visa: 'VISA',
  mastercard: 'MASTER',
  'american-express': 'AMEX',
  'diners-club': 'DINERS',
  discover: 'DISCOVER',
  jcb: 'JCB',
  unionpay: 'CHINAUNIONPAY',
  maestro: 'MAESTRO',
  elo: 'ELO',
  mir: 'MIR',
  hiper: 'HIPER',
  hipercard: 'HIPERCARD',
};
export const cardBrands = new Set(Object.values(CARD_BRANDS));
/** The lengths each card brand's numbers have (card-validator's table). */
const CARD_LENGTHS = new Map(Object.entries(CARD_BRANDS).map(([type, brand]) => [brand, cardValidator.creditCardType.getTypeInfo(type).lengths]));
export const bankBrands = new Set(['DIRECTDEBIT_SEPA', 'SEPA', 'DIRECTDEBIT', 'BANKTRANSFER']);

export interface ValidationContext {
  env: GatewayEnv;
  now: Date;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; failure: ValidationFailure };

export function parseWith<S extends z.ZodType>(schema: S, input: Nested, ctx: ValidationContext, extra: (v: z.infer<S>) => CodedParamError[]): Parsed<z.infer<S>> {
  const errors: CodedParamError[] = [];
  if (ctx.env === 'live' && input.testMode !== undefined) {
    errors.push(paramError('testMode', String(input.testMode), 'is only allowed in the test environment', '600.200.701'));
  }
  // A valid request skips zod's parse (accept.ts); any doubt, and every error, is zod's.
  const parsed = acceptor(schema)(input) ? { success: true as const, data: input as z.infer<S>, error: undefined } : schema.safeParse(input);
  if (parsed.success) {
    errors.push(...extra(parsed.data));
  } else {
    errors.push(...fromZod(parsed.error, input));
    // The rules that span fields still run when the account itself is well-formed, so that one
    // answer lists every bad parameter (a wrong check digit next to a wrong currency).
    const failed = new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? '')));
    if (![...ACCOUNT_FIELDS].some((field) => failed.has(field)) && schema instanceof z.ZodObject) {
      const wellFormed = Object.fromEntries(Object.entries(input).filter(([key]) => !failed.has(key) && key in schema.shape));
      const named = new Set(errors.map((e) => e.name));
      // A rule over the groups left out sees their parameters as missing: one that was sent is not.
      const sent = sentNames(input);
      errors.push(...extra(wellFormed as z.infer<S>).filter((e) => !named.has(e.name) && !(e.value === '' && sent.has(e.name))));
    } else {
      // The account has errors of its own: its number's check digit is still named, when the number is well formed.
      errors.push(...checkDigitErrors(input, new Set(parsed.error.issues.map((issue) => issue.path.join('.')))));
    }
  }
  return errors.length ? { ok: false, failure: failure(errors) } : { ok: true, value: parsed.data as z.infer<S> };
}

/** A well-formed card number or IBAN whose check digits are wrong, beside its group's other errors. */
function checkDigitErrors(input: Nested, failedPaths: Set<string>): CodedParamError[] {
  const card = input.card;
  const bank = input.bankAccount;
  const errors: CodedParamError[] = [];
  if (isGroup(card) && typeof card.number === 'string' && !failedPaths.has('card.number') && !luhn(card.number)) {
    errors.push(paramError('card.number', card.number, 'is not a valid card number (check digit)', '100.100.101'));
  }
  if (isGroup(bank) && typeof bank.iban === 'string' && !failedPaths.has('bankAccount.iban') && !isValidIBAN(bank.iban)) {
    errors.push(paramError('bankAccount.iban', bank.iban, 'is not a valid IBAN (country, length or check digits)', '100.100.101'));
  }
  return errors;
}

const isGroup = (value: unknown): value is Nested => typeof value === 'object' && value !== null && !Array.isArray(value);

const ACCOUNT_FIELDS = new Set(['card', 'bankAccount', 'virtualAccount', 'tokenAccount', ...WALLETS, 'paymentBrand']);

/** The field a request without any account misses, as its brand tells: the card number unless it names another kind. */
function missingAccount(brand: string | undefined): CodedParamError {
  if (brand === ONLINE_TRANSFER) return paramError('bankAccount.country', undefined, `is required for ${ONLINE_TRANSFER}: send bankAccount`, '100.200.100');
  if (brand !== undefined && bankBrands.has(brand)) return paramError('bankAccount.iban', undefined, `is required for ${brand}: send bankAccount`);
  if (brand !== undefined && !cardBrands.has(brand) && !walletBrands.has(brand)) return paramError('virtualAccount.accountId', undefined, `is required for ${brand}: send virtualAccount`);
  return paramError('card.number', undefined, 'is required: send card, bankAccount, virtualAccount, tokenAccount or a wallet\'s paymentToken');
}

/** The groups that are an account by themselves, with their method; a wallet's encrypted token is one too (accountOf). */
export const ACCOUNT_GROUPS = { card: 'CC', bankAccount: 'DD', virtualAccount: 'VA', tokenAccount: 'TA' } as const satisfies Record<string, Method>;

/** The one account of a request: card, bank account, virtual account, token account or a wallet's encrypted token. */
function accountOf(v: AccountFields): { method?: Method; errors: CodedParamError[] } {
  const present: Array<readonly [string, Method]> = (Object.entries(ACCOUNT_GROUPS) as Array<[keyof typeof ACCOUNT_GROUPS, Method]>).filter(([group]) => v[group] !== undefined);
  // A wallet's encrypted token is an account of its own; its decrypted form is the card beside it
  // (a token next to a card is checkWallet's to name).
  const wallet = walletOf(v);
  if (wallet?.paymentToken !== undefined && v.card === undefined) present.push([wallet.name, 'WA']);
  if (present.length === 0) {
    // A wallet's decrypted form without its card: checkWallet names every missing field.
    if (wallet) return { errors: [] };
    return { errors: [missingAccount(v.paymentBrand)] };
  }
  if (present.length > 1) {
    return { errors: present.slice(1).map(([group]) => paramError(group, '', `cannot be sent together with ${present[0]![0]}`, '200.300.404')) };
  }
  return { method: present[0]![1], errors: [] };
}

/** A card is good through the last day of its expiry month (UTC). */
export function hasExpired(expiryMonth: string, expiryYear: string, now: Date): boolean {
  return Number(expiryYear) * 12 + (Number(expiryMonth) - 1) < now.getUTCFullYear() * 12 + now.getUTCMonth();
}

/** A card's or token's expiry, when it has one (a token's is optional); a year alone has passed once the next one began. */
export function expiryHasPassed({ expiryMonth, expiryYear }: { expiryMonth?: string | undefined; expiryYear?: string | undefined }, now: Date): boolean {
  if (!expiryYear) return false;
  return hasExpired(expiryMonth ?? '12', expiryYear, now);
}

// card-validator tries every pattern of every brand and clones each match, on every call. No
// pattern is longer than 8 digits, so the brand depends on the first 8 digits only (a BIN, not
// cardholder data) and is kept per prefix.
const BRAND_PREFIX = 8;
const brandByPrefix = new Map<string, string | undefined>();

/** The brand of a card number (card-validator), or undefined: the payment response's brandResult too. */
export function brandOfNumber(number: string): string | undefined {
  const prefix = number.length >= BRAND_PREFIX && /^\d+$/.test(number) ? number.slice(0, BRAND_PREFIX) : undefined;
  if (prefix !== undefined && brandByPrefix.has(prefix)) return brandByPrefix.get(prefix);
  const detected = cardValidator.number(number);
  const brand = detected.card ? CARD_BRANDS[detected.card.type] : undefined;
  if (prefix !== undefined) {
    if (brandByPrefix.size >= 10_000) brandByPrefix.clear();
    brandByPrefix.set(prefix, brand);
  }
  return brand;
}

export function checkCard(c: z.infer<typeof card>, brand: string | undefined, now: Date): { brand?: string; errors: CodedParamError[] } {
  const errors: CodedParamError[] = [];
  const detectedBrand = brandOfNumber(c.number);
  const finalBrand = brand ?? detectedBrand;
  if (!finalBrand) errors.push(paramError('paymentBrand', undefined, 'is required: the card brand could not be detected from the number', '100.100.500'));
  else if (brand && cardBrands.has(brand) && detectedBrand && detectedBrand !== brand) {
    errors.push(paramError('paymentBrand', brand, `does not match the card number, which is ${detectedBrand}`, '100.100.700'));
  } else if (brand && !cardBrands.has(brand)) {
    errors.push(paramError('paymentBrand', brand, 'is not a card brand', '100.100.501'));
  }
  // The spec's 8-32 digits is the field; a number of its brand has that brand's lengths (also
  // what keeps bin and last4Digits from being most of the number).
  const lengths = finalBrand ? CARD_LENGTHS.get(finalBrand) : undefined;
  // One error for the number: its length when that is wrong, else its check digit.
  if (lengths && !lengths.includes(c.number.length)) {
    errors.unshift(paramError('card.number', c.number, `has ${c.number.length} digits; ${finalBrand} card numbers have ${lengths.join(', ').replace(/, (\d+)$/, ' or $1')}`, '100.100.101'));
  } else if (!luhn(c.number)) {
    errors.unshift(paramError('card.number', c.number, 'is not a valid card number (check digit)', '100.100.101'));
  }
  if (hasExpired(c.expiryMonth, c.expiryYear, now)) errors.push(paramError('card.expiryYear', c.expiryYear, `with card.expiryMonth ${c.expiryMonth} is in the past: the card has expired`, '100.100.303'));
  const cvv = finalBrand ? cvvError(finalBrand, c.cvv) : undefined;
  if (cvv) errors.push(cvv);
  return { brand: finalBrand, errors };
}

/** A security code of the wrong length for the brand (4 digits for AMEX, 3 for the others), on a new card or a stored one. */
export function cvvError(brand: string, cvv: string | undefined): CodedParamError | undefined {
  const length = brand === 'AMEX' ? 4 : 3;
  return cvv !== undefined && cvv.length !== length ? paramError('card.cvv', cvv, `must be ${length} digits for ${brand}`, '100.100.601') : undefined;
}

function checkBankAccount(b: z.infer<typeof bankAccount>): CodedParamError[] {
  const errors: CodedParamError[] = [];
  if (b.iban === undefined && b.number === undefined) errors.push(paramError('bankAccount.iban', undefined, 'or bankAccount.number is required', '100.100.100'));
  if (b.iban !== undefined && !isValidIBAN(b.iban)) errors.push(paramError('bankAccount.iban', b.iban, 'is not a valid IBAN (country, length or check digits)', '100.100.101'));
  if (b.bic === undefined && b.bankCode === undefined && b.iban === undefined) errors.push(paramError('bankAccount.bic', undefined, 'or bankAccount.bankCode is required', '100.200.103'));
  if (b.bic !== undefined && !isValidBIC(b.bic.toUpperCase())) errors.push(paramError('bankAccount.bic', b.bic, 'is not a valid BIC', '100.200.103'));
  return errors;
}

/** An online transfer names the shopper's bank by country; account numbers, when sent, must be valid. */
function checkTransferAccount(b: z.infer<typeof bankAccount>): CodedParamError[] {
  const errors: CodedParamError[] = [];
  if (b.country === undefined) errors.push(paramError('bankAccount.country', undefined, `is required for ${ONLINE_TRANSFER}`, '100.200.100'));
  if (b.iban !== undefined && !isValidIBAN(b.iban)) errors.push(paramError('bankAccount.iban', b.iban, 'is not a valid IBAN (country, length or check digits)', '100.100.101'));
  if (b.bic !== undefined && !isValidBIC(b.bic.toUpperCase())) errors.push(paramError('bankAccount.bic', b.bic, 'is not a valid BIC', '100.200.103'));
  return errors;
}

/** An amount above zero, and whole in a currency without minor units (100.50 JPY cannot be charged); `name` is the parameter it came in. */
export function checkAmount(amount: string | undefined, currency?: string, name = 'amount'): CodedParamError[] {
  if (amount === undefined) return [];
  if (/^0+(\.00)?$/.test(amount)) return [paramError(name, amount, 'must be greater than zero', '100.550.300')];
  const fraction = wholeAmountError(name, amount, currency);
  return fraction ? [fraction] : [];
}


export interface AccountCheck {
  method: Method;
  brand: string;
}

/** The fields an account may come in; every request with an account has them (the wallets only initial payments). */
export type AccountFields = Pick<InitialPaymentRequest, 'paymentBrand' | 'card' | 'bankAccount' | 'virtualAccount' | 'tokenAccount'> &
  Partial<Pick<InitialPaymentRequest, 'applePay' | 'googlePay' | 'samsungPay' | 'threeDSecure'>>;

export function checkAccount(v: AccountFields, now: Date): { account?: AccountCheck; errors: CodedParamError[] } {
  const walletErrors = checkWallet(v);
  const checked = checkAccountData(v, now);
  const named = new Set(walletErrors.map((e) => e.name));
  return { ...checked, errors: [...walletErrors, ...checked.errors.filter((e) => !named.has(e.name))] };
}

function checkAccountData(v: AccountFields, now: Date): { account?: AccountCheck; errors: CodedParamError[] } {
  const { method, errors } = accountOf(v);
  if (!method) return { errors };
  const wallet = walletOf(v);
  if (method === 'WA') {
    const brand = WALLET_BRANDS[wallet!.name];
    if (v.paymentBrand !== undefined && v.paymentBrand !== brand) return { errors: [paramError('paymentBrand', v.paymentBrand, `must be ${brand} for ${wallet!.name}.paymentToken`, '100.100.501')] };
    return { account: { method, brand }, errors: [] };
  }
  if (method === 'CC') {
    // A wallet's decrypted card pays with the wallet's brand when paymentBrand names it, otherwise as the card.
    const walletBrand = wallet ? WALLET_BRANDS[wallet.name] : undefined;
    const viaWallet = walletBrand !== undefined && v.paymentBrand === walletBrand;
    const checked = checkCard(v.card!, viaWallet ? undefined : v.paymentBrand, now);
    const brand = viaWallet && checked.brand ? walletBrand : checked.brand;
    return { account: brand ? { method, brand } : undefined, errors: checked.errors };
  }
  if (!v.paymentBrand) return { errors: [paramError('paymentBrand', undefined, 'is required for this account', '100.100.500')] };
  if (method === 'DD' && v.paymentBrand === ONLINE_TRANSFER) {
    return { account: { method: 'OT', brand: v.paymentBrand }, errors: checkTransferAccount(v.bankAccount!) };
  }
  if (method === 'DD') {
    const bankErrors = checkBankAccount(v.bankAccount!);
    if (!bankBrands.has(v.paymentBrand)) bankErrors.push(paramError('paymentBrand', v.paymentBrand, 'is not a bank account brand', '100.100.501'));
    return { account: { method, brand: v.paymentBrand }, errors: bankErrors };
  }
  // A virtual account pays with its provider's brand (PAYPAL, ALIPAY, …), never a card's, a bank's or a wallet's.
  if (method === 'VA' && (cardBrands.has(v.paymentBrand) || bankBrands.has(v.paymentBrand) || walletBrands.has(v.paymentBrand) || v.paymentBrand === ONLINE_TRANSFER)) {
    return { errors: [paramError('paymentBrand', v.paymentBrand, 'is not a virtual account brand: a card, bank account or wallet brand needs its own account data', '100.100.501')] };
  }
  if (method === 'TA' && !cardBrands.has(v.paymentBrand)) {
    return { errors: [paramError('paymentBrand', v.paymentBrand, 'must be a card brand for a token account', '100.100.501')] };
  }
  if (method === 'TA' && expiryHasPassed(v.tokenAccount!, now)) {
    const { expiryMonth, expiryYear } = v.tokenAccount!;
    return { errors: [paramError('tokenAccount.expiryYear', expiryYear, `${expiryMonth ? `with tokenAccount.expiryMonth ${expiryMonth} ` : ''}is in the past: the token has expired`, '100.100.303')] };
  }
  return { account: { method, brand: v.paymentBrand }, errors: [] };
}

export function parseInitialPayment(input: Nested, ctx: ValidationContext): Parsed<InitialPaymentRequest & { account: AccountCheck }> {
  let account: AccountCheck | undefined;
  const parsed = parseWith(initialPaymentRequest, input, ctx, (v) => {
    const checked = checkAccount(v, ctx.now);
    account = checked.account;
    const errors = [...checkAmount(v.amount, v.currency), ...checked.errors, ...checkCommonGroups(v, ctx.now), ...checkPastDates(v, ctx.now)];
    if (v.createRegistration === 'true' && checked.account?.method === 'VA') errors.push(paramError('createRegistration', 'true', 'is not available for virtual accounts'));
    if (v.createRegistration === 'true' && checked.account?.method === 'OT') errors.push(paramError('createRegistration', 'true', 'is not available for online transfers'));
    if (v.createRegistration === 'true' && walletOf(v)) errors.push(paramError('createRegistration', 'true', 'is not available for wallet payments: the wallet keeps the card itself'));
    return errors;
  });
  return parsed.ok ? { ok: true, value: { ...parsed.value, account: account! } } : parsed;
}

export function parseReferencing(input: Nested, ctx: ValidationContext): Parsed<ReferencingRequest> {
  return parseWith(referencingRequest, input, ctx, (v) => {
    const errors = checkAmount(v.amount, v.currency);
    if (v.paymentType !== 'RV') {
      if (v.amount === undefined) errors.push(paramError('amount', undefined, `is required for ${v.paymentType}`, '100.550.300'));
      if (v.currency === undefined) errors.push(paramError('currency', undefined, `is required for ${v.paymentType}`, '100.550.400'));
    }
    return errors;
  });
}

export function parseRegistration(input: Nested, ctx: ValidationContext): Parsed<RegistrationRequest & { account: AccountCheck }> {
  let account: AccountCheck | undefined;
  const parsed = parseWith(registrationRequest, input, ctx, (v) => {
    const checked = checkAccount(v, ctx.now);
    account = checked.account;
    if (checked.account?.method === 'OT') return [...checked.errors, paramError('paymentBrand', v.paymentBrand, 'cannot be registered: an online transfer is approved at the bank each time', '100.100.501')];
    return [...checked.errors, ...checkPastDates(v, ctx.now)];
  });
  return parsed.ok ? { ok: true, value: { ...parsed.value, account: account! } } : parsed;
}

export function parseRegistrationPayment(input: Nested, ctx: ValidationContext): Parsed<RegistrationPaymentRequest> {
  return parseWith(registrationPaymentRequest, input, ctx, (v) => [...checkAmount(v.amount, v.currency), ...checkCommonGroups(v, ctx.now), ...checkHolderOverride(v)]);
}

/** A holder sent with a registration payment is taken only with overrideHolder=true: otherwise it would be dropped silently. */
function checkHolderOverride(v: Pick<RegistrationPaymentRequest, 'card' | 'bankAccount' | 'overrideHolder'>): CodedParamError[] {
  if (v.overrideHolder === 'true') return [];
  const sent: Array<[string, string | undefined]> = [['card.holder', v.card?.holder], ['bankAccount.holder', v.bankAccount?.holder]];
  return sent.filter(([, holder]) => holder !== undefined).map(([name, holder]) => paramError(name, holder, 'is taken on a payment with a registration only with overrideHolder=true', '200.300.404'));
}

/** What a payment is once its account is known: the method, and how the shopper was authenticated. */
export interface ProcessingFacts extends ShopperAuthentication {
  method: Method;
}

/**
 * The rules between groups that need the payment as it will be processed, not only as it was
 * sent: card-on-file authentication (standingInstruction.mode against card.cvv, external 3-D
 * Secure proof or the gateway's own authentication, MIT on a card not registered here) and
 * transactionDueDate on direct debits only. The security code of a registration payment, the
 * card of a checkout's payment and whether the entity authenticates are known only then, so
 * createPayment runs these for every initial, registration and checkout payment, before
 * anything is written.
 */
export function checkProcessing(v: Pick<InitialPaymentRequest, 'standingInstruction' | 'transactionDueDate'>, facts: ProcessingFacts): CodedParamError[] {
  const errors = checkStandingInstruction(v.standingInstruction, facts);
  if (v.transactionDueDate !== undefined && facts.method !== 'DD') {
    errors.push(paramError('transactionDueDate', v.transactionDueDate, 'is the due date of a direct debit: send it with bankAccount data only'));
  }
  return errors;
}

