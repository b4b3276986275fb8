// Billing address (billing.*), in the spec's order, with the street rules every address shares
// (contact.ts: street1 plus street2 not digits only, houseNumber2 requires houseNumber1).
import { z } from 'zod';
import { an, chars, countryCode } from './common.ts';
import { streetRules } from './contact.ts';

/** The fields, for groups that take some of them (the payment page sends the 3-D Secure 2 ones). */
export const billingFields = {
  street1: an(100).optional(),
  street2: an(100).optional(),
  houseNumber1: an(100).optional(),
  houseNumber2: an(100).optional(),
  city: an(80).optional(),
  state: chars(/^[A-Za-z0-9.]*$/, 'letters, digits and dots', 50).optional(),
  postcode: chars(/^[A-Za-z0-9]*$/, 'letters and digits', 16).optional(),
  country: countryCode(/^[A-Z]{2}$/, 'must be two uppercase letters (ISO 3166-1)', ['alpha2']).optional(),
  normalized: an(255).optional(),
  validationStatus: an(255).optional(),
};

export const billing = z.strictObject(billingFields).superRefine(streetRules);
export type Billing = z.infer<typeof billing>;
