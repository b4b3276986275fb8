// Field types of the spec's notation (A, N, AN, dates, amounts), as zod schemas over strings.
import isoCountries from 'i18n-iso-countries';
import { z } from 'zod';
import { isCurrency, isReferenceCurrency } from '../currencies.ts';
import type { ResultCode } from '../results.ts';

/** AN: any characters, with a length range. */
export const an = (max: number, min = 1) =>
  // A value over its length is refused there: no pattern after it reads a long value.
  z.string().min(min, `must be at least ${min} characters`).max(max, { error: `must be at most ${max} characters`, abort: true });

/**
 * AN kept as it is in a column of the store (merchantTransactionId, also searched for): without
 * U+0000, which PostgreSQL's text cannot hold (a payment that SQLite took would be a 500 there).
 */
export const storedAn = (max: number, min = 1) => an(max, min).regex(/^[^\u0000]*$/, 'must not contain the character U+0000 (NUL)');

/**
 * A value of `pattern`, refused with `message` and the result code `code`. A refinement, since the
 * issue of a regex check carries no code; the pattern goes into its JSON Schema as it is.
 */
export const codedPattern = (pattern: RegExp, message: string, code: ResultCode) =>
  z.string().refine((v) => pattern.test(v), { message, params: { code } }).meta({ pattern: pattern.source });

/** Characters of a given class, with a length range. */
export const chars = (pattern: RegExp, what: string, max: number, min = 1) =>
  an(max, min).regex(pattern, `must contain ${what} only`);

export const lettersDigits = (max: number, min = 1) => chars(/^[A-Za-z0-9]*$/, 'letters and digits', max, min);
export const digits = (max: number, min = 1) => chars(/^[0-9]*$/, 'digits', max, min);

export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` });

export const bool = oneOf(['true', 'false']);

// The form of a day as a pattern (years from 0100, months 01-12, days 01-31), which the OpenAPI
// document shows; the refinement after it adds the length of each month.
const DAY = '(?!00)\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])';
const DATE = new RegExp(`^${DAY}$`);
const DATE_TIME = new RegExp(`^${DAY} ([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d$`);

/** yyyy-MM-dd and a real calendar day. */
export const date = z
  .string()
  .regex(DATE, { error: 'must be a date yyyy-MM-dd', abort: true })
  .refine(isCalendarDate, 'must be a date yyyy-MM-dd');

/** yyyy-MM-dd HH:mm:ss, a real moment. */
export const dateTime = z
  .string()
  .regex(DATE_TIME, { error: 'must be a timestamp yyyy-MM-dd HH:mm:ss', abort: true })
  .refine((v) => isCalendarDate(v.slice(0, 10)), 'must be a timestamp yyyy-MM-dd HH:mm:ss');

/**
 * Two-digit numbers from `from` to `to` (01 to 08: 0[1-8]) as a regular expression without anchors,
 * so that a range is a pattern JSON Schema shows rather than a refinement it cannot see.
 */
export function twoDigitRange(from: number, to: number): string {
  const digit = (low: number, high: number) => (low === high ? String(low) : `[${low}-${high}]`);
  const [firstTen, lastTen] = [Math.floor(from / 10), Math.floor(to / 10)];
  if (firstTen === lastTen) return `${firstTen}${digit(from % 10, to % 10)}`;
  // Whole tens in one class: the first and last ten join them when they are whole too.
  const wholeFrom = from % 10 === 0 ? firstTen : firstTen + 1;
  const wholeTo = to % 10 === 9 ? lastTen : lastTen - 1;
  const parts: string[] = [];
  if (wholeFrom > firstTen || wholeFrom > wholeTo) parts.push(`${firstTen}${digit(from % 10, 9)}`);
  if (wholeFrom <= wholeTo) parts.push(`${digit(wholeFrom, wholeTo)}[0-9]`);
  if (wholeTo < lastTen) parts.push(`${lastTen}${digit(0, to % 10)}`);
  return parts.join('|');
}

export function isCalendarDate(value: string): boolean {
  // By hand rather than through Date: this runs for every date of every request, and a Date costs 25 times as much.
  if (value.length !== 10 || value.charCodeAt(4) !== 45 /* - */ || value.charCodeAt(7) !== 45) return false;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  // Years before 0100 are refused: no date a payment carries lies there.
  if (year < 100 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

/** The number written by `length` ASCII digits from `start`, or -1. */
function digitsAt(value: string, start: number, length: number): number {
  let n = 0;
  for (let i = start; i < start + length; i++) {
    const c = value.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** N10.N2 of the main amount: up to 10 integer digits, the two decimals may be left out. */
export const mainAmount = z.string().regex(/^\d{1,10}(\.\d{2})?$/, 'must be a decimal amount with up to 10 digits and two decimals, such as 92.00');

/** N10.N2 of every other amount: exactly two decimals. */
export const amount = (integerDigits = 10) =>
  z.string().regex(new RegExp(`^\\d{1,${integerDigits}}\\.\\d{2}$`), `must be an amount with up to ${integerDigits} digits and exactly two decimals, such as 10.00`);

const currencyCode = z.string().regex(/^[A-Z]{3}$/, 'must be three uppercase letters (ISO 4217)');

/** ISO 4217, three uppercase letters, a currency of List One (server/currencies.ts). */
export const currency = currencyCode.refine(isCurrency, 'is not an ISO 4217 currency');

/** A referencing payment's currency: also one withdrawn since payments were made in it (its payment's). */
export const referenceCurrency = currencyCode.refine(isReferenceCurrency, 'is not an ISO 4217 currency');

// ISO 3166-1 as assigned (and XK, which card schemes use), from i18n-iso-countries.
const assigned = {
  alpha2: new Set(Object.keys(isoCountries.getAlpha2Codes())),
  alpha3: new Set(Object.keys(isoCountries.getAlpha3Codes())),
  numeric: new Set(Object.keys(isoCountries.getNumericCodes())),
};
type CountryForm = keyof typeof assigned;

/** A country code of the spec's `pattern` (`what` says it) that ISO 3166-1 assigns in one of `forms`; letters are judged upper case. */
export const countryCode = (pattern: RegExp, what: string, forms: CountryForm[]) =>
  z
    .string()
    .regex(pattern, { error: what, abort: true })
    .refine((v) => forms.some((form) => assigned[form].has(v.toUpperCase())), `is not an ISO 3166-1 ${forms.map((f) => f.replace(/^alpha/, 'alpha-')).join(' or ')} country code`);

/** ISO 3166-1 alpha-2. */
export const country = countryCode(/^[A-Z]{2}$/, 'must be a two-letter ISO 3166-1 country code', ['alpha2']);

/** Names of keyed groups (customParameters, merchant.data, risk.parameters): 3-64 letters, digits, dots, underscores. */
export const keyedMap = (valueMax = 2048) =>
  z.record(
    z.string().regex(/^[A-Za-z0-9._]{3,64}$/),
    an(valueMax, 0),
    { error: (issue) => (issue.code === 'invalid_key' ? 'has a name that is not 3 to 64 letters, digits, dots or underscores' : undefined) },
  );

export const absoluteUrl = (max: number, min: number) => an(max, min).refine(isAbsoluteUrl, 'must be an absolute URL');

/**
 * The plain web address (http or https, a domain name, a port, any path) that nearly every URL
 * parameter is: absolute without parsing, which costs a microsecond per URL. Anything else is
 * left to the URL parser. A last label that starts with a letter keeps IPv4 forms (which the parser
 * may refuse) out of this path.
 */
const PLAIN_WEB_URL = /^https?:\/\/(?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*(?::(\d{1,5}))?(?:[/?#][\x21-\x7e]*)?$/i;

export function isAbsoluteUrl(value: string): boolean {
  const plain = PLAIN_WEB_URL.exec(value);
  if (plain) return plain[1] === undefined || Number(plain[1]) <= 65_535;
  try {
    const url = new URL(value);
    return url.protocol.length > 1 && !!url.host;
  } catch {
    return false;
  }
}
