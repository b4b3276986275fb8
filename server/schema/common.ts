// Field types of the spec's notation (A, N, AN, dates, amounts), as zod schemas over strings.
import { z } from 'zod';

const currencies = new Set(Intl.supportedValuesOf('currency'));

/** AN: any characters, with a length range. */
export const an = (max: number, min = 1) =>
  z.string().min(min, `must be at least ${min} characters`).max(max, `must be at most ${max} characters`);

/** Characters of a given class, with a length range. */
export const chars = (pattern: RegExp, what: string, max: number, min = 1) =>
  an(max, min).regex(pattern, `must contain ${what} only`);

export const lettersDigits = (max: number, min = 1) => chars(/^[A-Za-z0-9]*$/, 'letters and digits', max, min);
export const digits = (max: number, min = 1) => chars(/^[0-9]*$/, 'digits', max, min);

export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` });

export const bool = oneOf(['true', 'false']);

/** yyyy-MM-dd and a real calendar day. */
export const date = z.string().refine(isCalendarDate, 'must be a date yyyy-MM-dd');

/** yyyy-MM-dd HH:mm:ss, a real moment. */
export const dateTime = z
  .string()
  .refine(
    (v) => /^\d{4}-\d{2}-\d{2} ([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/.test(v) && isCalendarDate(v.slice(0, 10)),
    'must be a timestamp yyyy-MM-dd HH:mm:ss',
  );

export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

/** N10.N2 of the main amount: up to 10 integer digits, the two decimals may be left out. */
export const mainAmount = z.string().regex(/^\d{1,10}(\.\d{2})?$/, 'must be a decimal amount with up to 10 digits and two decimals, such as 92.00');

/** N10.N2 of every other amount: exactly two decimals. */
export const amount = (integerDigits = 10) =>
  z.string().regex(new RegExp(`^\\d{1,${integerDigits}}\\.\\d{2}$`), `must be an amount with up to ${integerDigits} digits and exactly two decimals, such as 10.00`);

/** ISO 4217, three uppercase letters. */
export const currency = z
  .string()
  .regex(/^[A-Z]{3}$/, 'must be three uppercase letters (ISO 4217)')
  .refine((v) => currencies.has(v), 'is not an ISO 4217 currency');

/** ISO 3166-1 alpha-2. */
export const country = z.string().regex(/^[A-Z]{2}$/, 'must be a two-letter ISO 3166-1 country code');

/** Names of keyed groups (customParameters, merchant.data, risk.parameters): 3-64 letters, digits, dots, underscores. */
export const keyedMap = (valueMax = 2048) =>
  z.record(
    z.string().regex(/^[A-Za-z0-9._]{3,64}$/),
    an(valueMax, 0),
    { error: (issue) => (issue.code === 'invalid_key' ? 'has a name that is not 3 to 64 letters, digits, dots or underscores' : undefined) },
  );

export const absoluteUrl = (max: number, min: number) =>
  an(max, min).refine((v) => {
    try {
      const url = new URL(v);
      return url.protocol.length > 1 && !!url.host;
    } catch {
      return false;
    }
  }, 'must be an absolute URL');
