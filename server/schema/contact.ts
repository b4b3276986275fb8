// Field types that several groups share: the spec's phone variants, e-mail, names, and the street
// rules of billing.* that shipping.*, merchant.billing.* and merchant.shipping.* repeat.
import type { z } from 'zod';
import { an, chars, countryCode } from './common.ts';

const PHONE_CHARS = 'digits, spaces, dots, parentheses, slashes or hyphens';

/** As customer.phone: an optional leading +, then digits and separators (merchant.billing.mobile). */
export const phone = (max = 25, min = 1) => an(max, min).regex(/^\+?[0-9 .()/-]+$/, `must be an optional + followed by ${PHONE_CHARS}`);

/** A leading + or digit, then digits and separators (shipping.phone and mobile, sender.phone). */
export const phoneFromDigit = (max: number, min: number) =>
  an(max, min).regex(/^[+0-9][0-9 .()/-]*$/, `must start with + or a digit, followed by ${PHONE_CHARS}`);

/**
 * Something, an @, a domain with a dot inside it; the mail server decides the rest. The domain
 * is read up to its first dot after its first character, so the check is linear in the length
 * (/[^\s@]+\.[^\s@]+$/ tried every dot: a 240 KB value took 16 s).
 */
export const EMAIL = /^[^\s@]+@[^\s@][^\s@.]*\.[^\s@]+$/;
export const email = (max = 128, min = 6) => an(max, min).regex(EMAIL, 'must be an e-mail address such as jane@example.com');

/** "letters digits spaces" of names and places: letters of any script (José, Łódź). */
export const lettersDigitsSpaces = (max: number, min = 1) => chars(/^[\p{L}\p{M}0-9 ]*$/u, 'letters, digits and spaces', max, min);

/** ISO 3166-1 alpha-3 (sender.country, recipient.country), three uppercase letters. */
export const alpha3 = countryCode(/^[A-Z]{3}$/, 'must be three uppercase letters (ISO 3166-1 alpha-3)', ['alpha3']);

interface Streets {
  street1?: string | undefined;
  street2?: string | undefined;
  houseNumber1?: string | undefined;
  houseNumber2?: string | undefined;
}

/** billing's rules: street1 plus street2 not digits only (100.800.102); houseNumber2 requires houseNumber1. */
export function streetRules(a: Streets, ctx: z.RefinementCtx): void {
  const street = `${a.street1 ?? ''}${a.street2 ?? ''}`.replace(/\s/g, '');
  if (street !== '' && /^\d+$/.test(street)) {
    const [named, other] = a.street1 !== undefined ? ['street1', 'street2'] : ['street2', 'street1'];
    ctx.addIssue({ code: 'custom', path: [named], message: `together with ${other} must not be digits only: send the street name too`, params: { code: '100.800.102' } });
  }
  if (a.houseNumber2 !== undefined && a.houseNumber1 === undefined) {
    ctx.addIssue({ code: 'custom', path: ['houseNumber2'], message: 'requires houseNumber1' });
  }
}
