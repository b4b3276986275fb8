// Customer (customer.*), in the spec's order, with browser.* (the 3-D Secure 2 browser data the
// payment form collects) and app.*. The rules that span fields are in checkCustomer.
import { z } from 'zod';
import { an, bool, chars, date, digits, oneOf } from './common.ts';
import { paramError, type CodedParamError } from './errors.ts';
import { email as contactEmail } from './contact.ts';

/** Phone and mobile: an optional leading +, then digits, spaces, dots, parentheses, slashes, hyphens. */
const phone = an(25).regex(/^\+?[0-9 .()/-]+$/, 'must be an optional + followed by digits, spaces, dots, parentheses, slashes or hyphens');

const email = contactEmail();

/** JavaScript's getTimezoneOffset(): minutes, positive when local time is behind UTC, from UTC+14 (-840) to UTC-12 (720). */
export const TIMEZONE_MIN = -840;
export const TIMEZONE_MAX = 720;
const timezone = an(5).refine((v) => {
  if (!/^[+-]?\d{1,4}$/.test(v)) return false;
  const minutes = Number(v);
  return minutes >= TIMEZONE_MIN && minutes <= TIMEZONE_MAX;
}, `must be the minutes between UTC and local time, positive when local time is behind UTC (JavaScript's getTimezoneOffset()), from ${TIMEZONE_MIN} to ${TIMEZONE_MAX}`);

/** IETF BCP 47, at most 8 characters: de, en-US, pt-BR, zh-Hant. */
const languageTag = an(8).regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,5})?$/, 'must be a language tag (IETF BCP 47) such as en-US');

/** Screen size in pixels: 1 to 6 digits. */
const pixels = digits(6);

/** The browser of the shopper, as 3-D Secure 2 needs it (the payment form's frame collects it). */
export const browser = z.strictObject({
  acceptHeader: an(2048),
  language: languageTag,
  screenHeight: pixels,
  screenWidth: pixels,
  timezone,
  userAgent: an(2048),
  javaEnabled: bool,
  screenColorDepth: digits(2),
  // N1 in the spec; the payment form sends the two-digit form of the same codes (01 to 05).
  challengeWindow: z.string().regex(/^0?[1-5]$/, 'must be a challenge window size code from 01 to 05'),
  deviceId: an(32),
}).partial();
export type Browser = z.infer<typeof browser>;

export const customer = z.strictObject({
  merchantCustomerId: an(255).optional(),
  givenName: an(50).optional(),
  middleName: an(50, 2).optional(),
  surname: an(50).optional(),
  sex: oneOf(['M', 'F']).optional(),
  birthDate: date.optional(),
  phone: phone.optional(),
  mobile: phone.optional(),
  workPhone: an(25).optional(),
  email: email.optional(),
  companyName: an(60).optional(),
  identificationDocType: oneOf(['IDCARD', 'PASSPORT', 'TAXSTATEMENT']).optional(),
  identificationDocId: an(64, 8).optional(),
  ip: an(255).optional(),
  merchantReference: an(255).optional(),
  salutation: oneOf(['MR', 'MRS', 'MS', 'MX']).optional(),
  language: chars(/^[A-Z]{2}$/, 'two uppercase letters', 2, 2).optional(),
  category: oneOf(['INDIVIDUAL', 'COMPANY']).optional(),
  status: oneOf(['NEW', 'EXISTING']).optional(),
  browserFingerprint: z.strictObject({ id: an(255).optional(), value: an(4096).optional() }).optional(),
  browser: browser.optional(),
  app: z.strictObject({ deviceId: an(40).optional() }).optional(),
});
export type Customer = z.infer<typeof customer>;

/** Groups that describe the shopper's device, not the shopper: they do not call for a name. */
const DEVICE_GROUPS = new Set(['browser', 'app']);

/**
 * givenName and surname are required when any other customer parameter is sent, except the
 * device groups browser.* and app.* (the payment form sends browser.* for every card payment, and
 * knows no names); identificationDocType and identificationDocId go together.
 */
export function checkCustomer(c: Customer | undefined): CodedParamError[] {
  if (!c) return [];
  const errors: CodedParamError[] = [];
  const sent = Object.keys(c).filter((key) => c[key as keyof Customer] !== undefined && !DEVICE_GROUPS.has(key));
  for (const [name, code] of [['givenName', '100.700.200'], ['surname', '100.700.100']] as const) {
    if (c[name] !== undefined) continue;
    const trigger = sent.find((key) => key !== name);
    if (trigger) errors.push(paramError(`customer.${name}`, undefined, `is required when other customer parameters are sent, such as customer.${trigger}`, code));
  }
  if (c.identificationDocType !== undefined && c.identificationDocId === undefined) {
    errors.push(paramError('customer.identificationDocId', undefined, 'is required with customer.identificationDocType', '100.700.801'));
  }
  if (c.identificationDocId !== undefined && c.identificationDocType === undefined) {
    errors.push(paramError('customer.identificationDocType', undefined, 'is required with customer.identificationDocId', '100.700.800'));
  }
  return errors;
}
