// Shipping address (shipping.*), in the spec's order, with shipping.customer.* at the end.
import { z } from 'zod';
import { amount, an, chars, countryCode, date, oneOf } from './common.ts';
import { email, phoneFromDigit, streetRules } from './contact.ts';
import { shippingCustomer } from './shippingCustomer.ts';

export const shippingMethods = [
  'CARRIER_DESIGNATED_BY_CUSTOMER',
  'ELECTRONIC_DELIVERY',
  'EXPEDITED',
  'GROUND',
  'INTERNATIONAL',
  'LOWEST_COST',
  'MILITARY',
  'NEXT_DAY_OVERNIGHT',
  'OTHER',
  'POINT_PICKUP',
  'PUDO',
  'SAME_DAY_SERVICE',
  'STORE_PICKUP',
  'THREE_DAY_SERVICE',
  'TWO_DAY_SERVICE',
] as const;

/** The shipping table without shipping.customer.*: merchant.shipping.* carries exactly these. */
export const shippingFields = {
  street1: an(100).optional(),
  street2: an(100).optional(),
  houseNumber1: an(100).optional(),
  houseNumber2: an(100).optional(),
  // "letters only", read as a city's name is written: letters of any script, spaces, hyphens,
  // apostrophes and dots (New York, Saint-Étienne, St. John's).
  city: chars(/^[\p{L}\p{M} .'-]*$/u, 'letters, spaces, hyphens, apostrophes and dots', 80).optional(),
  state: chars(/^[A-Za-z0-9.]*$/, 'letters, digits and dots', 50).optional(),
  postcode: chars(/^[A-Za-z0-9]*$/, 'letters and digits', 16).optional(),
  country: countryCode(/^[A-Za-z]{2}$/, 'must be two letters (ISO 3166-1)', ['alpha2']).optional(),
  method: oneOf(shippingMethods).optional(),
  // N13 with two decimals: 13 characters, up to 10 integer digits, the dot and two decimals.
  cost: amount(10).optional(),
  comment: an(160).optional(),
  expectedDate: date.optional(),
  logisticsProvider: an(255).optional(),
  trackingNumber: an(255).optional(),
  returnTrackingNumber: an(255).optional(),
  normalized: an(255).optional(),
  validationStatus: an(255).optional(),
  warehouse: an(100).optional(),
  preference: oneOf(['GET_FROM_FILE', 'NO_SHIPPING', 'SET_PROVIDED_ADDRESS']).optional(),
  middleName: an(255).optional(),
  companyName: an(60).optional(),
  phone: phoneFromDigit(25, 5).optional(),
  mobile: phoneFromDigit(25, 5).optional(),
  workPhone: an(25).optional(),
  email: email().optional(),
  type: oneOf(['RETURN', 'SHIPMENT']).optional(),
};

export const shipping = z
  .strictObject({
    ...shippingFields,
    customer: shippingCustomer.optional(),
  })
  .superRefine(streetRules);
export type Shipping = z.infer<typeof shipping>;
