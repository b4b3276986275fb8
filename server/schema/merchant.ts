// Merchant (merchant.*), in the spec's order: statement and payment-facilitator data, the app's
// custom URL scheme (app.schemeUrl) that a checkout's shopperResultUrl may use, and the merchant's
// billing and shipping addresses (merchant.billing.*, merchant.shipping.*).
import { z } from 'zod';
import { an, country, countryCode, digits, keyedMap } from './common.ts';
import { merchantBilling } from './merchantBilling.ts';
import { merchantShipping } from './merchantShipping.ts';

/** Schemes a result URL may never have, whatever the app says: they run code or read local files. */
export const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:', 'filesystem:']);

/** The scheme of a URL, lowercase with its colon ("myapp:"), or undefined when it has none. */
export function schemeOf(url: string): string | undefined {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url);
  return match ? `${match[1]!.toLowerCase()}:` : undefined;
}

const coordinates = an(20).regex(/^-?\d{1,3}(\.\d+)?,-?\d{1,3}(\.\d+)?$/, 'must be latitude,longitude such as 52.52,13.405');

const schemeUrl = an(255).refine((v) => {
  const scheme = schemeOf(v);
  return scheme !== undefined && !FORBIDDEN_SCHEMES.has(scheme);
}, 'must be a URL of the app\'s own scheme, such as myshop://');

export const merchant = z.strictObject({
  name: an(100).optional(),
  mcc: an(4).optional(),
  street: an(100).optional(),
  city: an(100).optional(),
  state: an(50).optional(),
  countryCode: countryCode(/^[0-9]{3}$/, 'must be three digits (ISO 3166-1 numeric)', ['numeric']).optional(),
  country: country.optional(),
  postcode: an(16).optional(),
  geographicCoordinates: coordinates.optional(),
  serviceLocationCity: an(100).optional(),
  serviceLocationState: an(50).optional(),
  serviceLocationCountryCode: an(3).optional(),
  serviceLocationPostCode: an(16).optional(),
  serviceLocationGeographicCoordinates: coordinates.optional(),
  additionalContact: an(255).optional(),
  phone: an(25).optional(),
  customerContactPhone: an(25).optional(),
  websiteId: an(255).optional(),
  url: an(255).optional(),
  partnerIdCode: an(60).optional(),
  isoId: an(255).optional(),
  payFacId: an(255).optional(),
  payFacName: an(255).optional(),
  marketplaceId: an(255).optional(),
  submerchantId: an(100).optional(),
  taxId: an(60).optional(),
  data: keyedMap(2048).optional(),
  foreignRetailIndicator: an(25).optional(),
  legalName: an(100).optional(),
  app: z.strictObject({ schemeUrl: schemeUrl.optional() }).optional(),
  billing: merchantBilling.optional(),
  shipping: merchantShipping.optional(),
});
export type Merchant = z.infer<typeof merchant>;
