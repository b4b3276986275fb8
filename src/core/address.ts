// The billing address the card form asks for when the checkout lacks what 3-D Secure 2 needs
// (GET /v1/checkouts/{id}/form lists the fields): its checks and its billing.* parameters.
import { westernDigits } from './format.ts';
import type { MessageKey } from './i18n.ts';

export const BILLING_FIELDS = ['street1', 'city', 'postcode', 'country'] as const;
export type BillingField = (typeof BILLING_FIELDS)[number];
export const isBillingField = (field: string): field is BillingField => (BILLING_FIELDS as readonly string[]).includes(field);

/**
 * Two-letter region codes the locale data names that are not assigned ISO 3166-1 alpha-2 codes
 * (reserved, exceptional, withdrawn): every other named code is one of the 249. The data names
 * them, so the bundle carries no list of countries, only this.
 */
const NOT_ISO = 'AC AN BU CP CQ CS DD DG DY EA EU EZ FX HV IC NH QO RH SU TA TP UK UN VD XA XB XK YD YU ZR ZZ';

/** [code, name] of every country, named and sorted in `locale`. */
export function countries(locale: string): [string, string][] {
  const names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
  const list: [string, string][] = [];
  for (let a = 65; a < 91; a++) {
    for (let b = 65; b < 91; b++) {
      const code = String.fromCharCode(a, b);
      const name = NOT_ISO.includes(code) ? undefined : names.of(code);
      if (name) list.push([code, name]);
    }
  }
  const collator = new Intl.Collator(locale);
  return list.sort((x, y) => collator.compare(x[1], y[1]));
}

/**
 * The gateway takes ASCII letters and digits only: spaces and dashes the shopper types are
 * dropped, and digits of other scripts (an Arabic keyboard's ١٠١١٥, a Japanese IME's full-width
 * １０１－００６５) are written as ASCII, as the card fields and the IBAN do. The IME in kana mode
 * types its dash key as the long vowel mark ー (１０１ー００６５): a dash too.
 */
const postcodeOf = (value: string) => westernDigits(value).replace(/[\s\-\u2010-\u2015\u2212\u30fc\uff0d]/g, '');

/** The field's error, if its value would be refused. */
export function addressProblem(field: BillingField, value: string): MessageKey | undefined {
  const v = value.trim();
  switch (field) {
    case 'street1':
      return v && v.length <= 100 ? undefined : 'eRequired';
    case 'city':
      return v && v.length <= 80 ? undefined : 'eRequired';
    case 'postcode':
      return !v ? 'eRequired' : /^[A-Za-z0-9]{1,16}$/.test(postcodeOf(v)) ? undefined : 'ePostcode';
    case 'country':
      return /^[A-Z]{2}$/.test(v) ? undefined : 'eRequired';
  }
}

/** billing.* parameters of the asked fields. */
export function billingParams(fields: readonly BillingField[], value: (field: BillingField) => string): Record<string, string> {
  return Object.fromEntries(fields.map((field) => [`billing.${field}`, field === 'postcode' ? postcodeOf(value(field)) : value(field).trim()]));
}
