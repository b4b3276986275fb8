// Validation failures as values: every failing parameter named as it was sent, with the most
// specific catalogue code for the failure (account, amount, contact, or generic 200.300.404).
import type { z } from 'zod';
import { flatName, type Nested, type ParamError } from '../http/params.ts';
import type { ResultCode } from '../results.ts';
import { looksLikeCardNumber } from './cardNumber.ts';

export interface CodedParamError extends ParamError {
  code: ResultCode;
}

export interface ValidationFailure {
  code: ResultCode;
  parameterErrors: ParamError[];
}

/**
 * [pattern of the flat name, code when missing, code when invalid], the first match wins. Names
 * are matched wherever the field sits (customer.email and shipping.customer.email alike), so a
 * field of a new group gets the code of its kind: account data 100.100.x and 100.200.x, amounts
 * and currencies 100.550.x, contact data 100.700.x and 100.900.x, addresses 100.800.x; everything
 * else is 200.300.404.
 */
const CODES: Array<[RegExp, ResultCode, ResultCode]> = [
  // Account data.
  [/^card\.number$/, '100.100.100', '100.100.101'],
  [/^card\.expiryMonth$/, '100.100.200', '100.100.201'],
  [/^card\.expiryYear$/, '100.100.300', '100.100.301'],
  [/^card\.holder$/, '100.100.400', '100.100.402'],
  [/^card\.cvv$/, '100.100.601', '100.100.601'],
  [/^bankAccount\.holder$/, '100.100.400', '100.100.401'],
  [/^bankAccount\.(number|iban|bankName)$/, '100.100.100', '100.100.101'],
  [/^bankAccount\.(bic|bankCode)$/, '100.200.103', '100.200.103'],
  [/^bankAccount\.country$/, '100.200.100', '100.200.100'],
  [/^(virtualAccount|tokenAccount)\./, '100.100.100', '100.100.101'],
  [/^(applePay|googlePay|samsungPay)\.paymentToken$/, '100.100.100', '100.100.101'],
  [/^paymentBrand$/, '100.100.500', '100.100.501'],
  [/^paymentType$/, '200.300.404', '600.200.300'],
  // Amounts and currencies: the main amount, and every other amount of any group.
  [/^amount$/, '100.550.300', '100.550.303'],
  [/^currency$/, '100.550.400', '100.550.401'],
  [/(^|\.)([A-Za-z]*Amount|amount|cost|price|originalPrice)$|^forex\.tax$|^cart\.items\[\d+\]\.shipping$/, '100.550.300', '100.550.303'],
  [/\.currency$/, '100.550.400', '100.550.401'],
  // Contact data of people and companies.
  [/(^|\.)surname$/, '100.700.100', '100.700.101'],
  [/(^|\.)givenName$/, '100.700.200', '100.700.201'],
  [/(^|\.)salutation$/, '100.700.300', '100.700.300'],
  [/(^|\.)companyName$/, '100.700.500', '100.700.500'],
  [/(^|\.)identificationDocType$/, '100.700.800', '100.700.800'],
  [/(^|\.)identificationDocId$/, '100.700.801', '100.700.801'],
  [/(^|\.)email$/, '100.900.100', '100.900.101'],
  [/(^|\.)(phone|workPhone|customerContactPhone)$/, '100.900.200', '100.900.200'],
  [/(^|\.)mobile$/, '100.900.301', '100.900.300'],
  [/(^|\.)ip$/, '100.900.400', '100.900.401'],
  [/(^|\.)birthDate$/, '100.900.450', '100.900.450'],
  // Addresses: billing, shipping, the merchant's, corporate, sender, recipient, item recipients.
  [/(^|\.)(street[12]?|houseNumber[12]|address)$/, '100.800.100', '100.800.101'],
  [/(^|\.)(postcode|postCode)$/, '100.800.200', '100.800.202'],
  [/(^|\.)city$/, '100.800.300', '100.800.302'],
  [/(^|\.)state$/, '100.800.400', '100.800.400'],
  [/(^|\.)country$/, '100.800.500', '100.800.501'],
  [/^testMode$/, '600.200.701', '200.300.404'],
];

/** Values never sent back, not even inside an error: account numbers, security codes, PINs, tokens, encrypted terminal data. */
const SECRET = /(^|\.)(number|cvv|cryptogram|dtvc|pin|paymentToken|data|ksn|accountNumber|iccDataRequest|iccDataResponse)$/;
/** A part of a name that reads like a secret's (card[cvv], card.cvc, securityCode, apiToken, secret; pinBlock but not shipping). */
const SECRET_PART = /^number$|cvv|cvc|csc|securi|passw|secret|token|crypt/i;
const PIN_PART = /^pin|Pin|PIN/;
/** Secrets whose last four characters may be shown (as on a receipt). */
const LAST_FOUR = /^(card|tokenAccount)\.number$|(^|\.)accountNumber$/;
/** Digits that may be a card number inside a longer value (an id, a path, a name), in groups or not (4200 0000 …, 4200-0000-…). */
const DIGIT_RUN = /(?<!\d)\d(?:[ .-]?\d){11,18}(?!\d)/g;

/** Every digit but the last four masked; separators stay (4200 0000 0000 0000 → **** **** **** 0000). */
const maskDigits = (run: string) => {
  let left = run.replace(/\D/g, '').length - 4;
  return run.replace(/\d/g, (digit) => (left-- > 0 ? '*' : digit));
};
const lastFour = (value: string) => (value.length > 4 ? '*'.repeat(value.length - 4) + value.slice(-4) : '*'.repeat(value.length));

/**
 * A name that is no secret of the spec but reads like one: a malformed or misspelt name
 * (card[cvv], card.cvv[x], card.cvc, securityCode). Its first part is a group's name
 * (tokenAccount), so only the parts after it count, unless it is the only one.
 */
function looksSecret(name: string): boolean {
  if (name.startsWith('bankAccount')) return false;
  const parts = name.split(/[.[\]]+/).filter(Boolean);
  return (parts.length > 1 ? parts.slice(1) : parts).some((part) => SECRET_PART.test(part) || PIN_PART.test(part));
}

/**
 * Card numbers, security codes and similar secrets never travel back, even inside an error; nor
 * does a card number under another name (card.numbr, an unknown parameter, inside an id or a
 * path): it shows its last four. Masking a masked value changes nothing.
 */
export function maskValue(name: string, value: string): string {
  if (SECRET.test(name) && !name.startsWith('bankAccount.')) return LAST_FOUR.test(name) ? lastFour(value) : '*'.repeat(value.length);
  if (looksSecret(name)) return '*'.repeat(value.length);
  if (looksLikeCardNumber(value)) return lastFour(value);
  return maskCardNumbers(value);
}

/** Card numbers inside any text (a parameter's name, a message naming it) with only their last four digits shown. */
export const maskCardNumbers = (text: string): string => text.replace(DIGIT_RUN, (run) => (looksLikeCardNumber(run.replace(/\D/g, '')) ? maskDigits(run) : run));

export function codeFor(name: string, missing: boolean): ResultCode {
  for (const [pattern, ifMissing, ifInvalid] of CODES) if (pattern.test(name)) return missing ? ifMissing : ifInvalid;
  return '200.300.404';
}

export function paramError(name: string, value: string | undefined, message: string, code?: ResultCode): CodedParamError {
  return {
    name,
    value: value === undefined ? '' : maskValue(name, value),
    message: `${name} ${message}`,
    code: code ?? codeFor(name, value === undefined),
  };
}

function valueAt(root: Nested, path: readonly PropertyKey[]): unknown {
  let node: unknown = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key as string];
  }
  return node;
}

/** The flat names of every parameter a request sent. */
export function sentNames(input: Nested): Set<string> {
  return new Set(leaves(input, []).map(([path]) => flatName(path)));
}

/** Every string under a value, with its path: an unknown group is reported parameter by parameter. */
function leaves(value: unknown, path: PropertyKey[]): Array<[PropertyKey[], string]> {
  if (typeof value === 'string') return [[path, value]];
  if (value === null || typeof value !== 'object') return [[path, '']];
  return Object.entries(value).flatMap(([key, child]) => leaves(child, [...path, Array.isArray(value) ? Number(key) : key]));
}

/** zod issues as named parameter errors; unknown keys are named one by one. */
export function fromZod(error: z.ZodError, input: Nested): CodedParamError[] {
  const out: CodedParamError[] = [];
  const named = new Set<string>();
  // Lists with gaps (cart.items[3] without cart.items[0] to [2]) are named once, at their first gap.
  const gapped = new Set<string>();
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        for (const [path, value] of leaves(valueAt(input, [...issue.path, key]), [...issue.path, key])) {
          const name = flatName(path);
          out.push(paramError(name, value, 'is not a parameter of this request', '200.300.404'));
        }
      }
      continue;
    }
    const raw = valueAt(input, issue.path);
    const last = issue.path[issue.path.length - 1];
    if (raw === undefined && typeof last === 'number') {
      const list = flatName(issue.path.slice(0, -1));
      if (gapped.has(list)) continue;
      gapped.add(list);
      out.push(paramError(flatName(issue.path), undefined, `is missing: the items of ${list} are numbered from 0 without gaps`, '200.300.404'));
      continue;
    }
    const name = flatName(issue.path);
    // One message per parameter: the first check it failed.
    if (named.has(name)) continue;
    named.add(name);
    const code = (issue as { params?: { code?: ResultCode } }).params?.code;
    if (raw === undefined) {
      // A rule's own message says why the parameter is needed ("is required with …").
      out.push(paramError(name, undefined, issue.code === 'custom' ? issue.message : 'is required', code));
    } else if (typeof raw !== 'string') {
      out.push(paramError(name, '', 'must be a single value, not a group', code));
    } else if (issue.code === 'invalid_type' && (issue.expected === 'object' || issue.expected === 'array' || issue.expected === 'record')) {
      // card=x where card.number=… is meant.
      const example = issue.expected === 'array' ? `${name}[0]…` : `${name}.…`;
      out.push(paramError(name, raw, `is a group of parameters, not a value: send ${example}`, '200.300.404'));
    } else {
      out.push(paramError(name, raw, issue.message, code));
    }
  }
  return out;
}

/**
 * One failure for the whole request. Any code of the catalogue is more specific than the generic
 * 200.300.404 (invalid or missing parameter); among several specific ones the first wins, in the
 * order the parameters are checked (the spec's order of groups: amounts before the account, the
 * account before contact data and addresses), so one request always answers the same code.
 */
export function failure(errors: CodedParamError[]): ValidationFailure {
  const specific = errors.find((e) => e.code !== '200.300.404');
  return {
    code: specific?.code ?? '200.300.404',
    parameterErrors: errors.map(({ name, value, message }) => ({ name, value, message })),
  };
}
