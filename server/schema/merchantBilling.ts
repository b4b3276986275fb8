// Merchant billing address (merchant.billing.*): every billing field (billing.ts), then the
// merchant's contact fields in the spec's order; all optional, with billing's street rules.
import { z } from 'zod';
import { an } from './common.ts';
import { billing } from './billing.ts';
import { email, phone, streetRules } from './contact.ts';

export const merchantBilling = z
  .strictObject({
    ...billing.shape,
    givenName: an(255).optional(),
    surname: an(255).optional(),
    middleName: an(255).optional(),
    companyName: an(60).optional(),
    phone: an(25).optional(),
    workPhone: an(25).optional(),
    mobile: phone(25, 5).optional(),
    email: email().optional(),
  })
  .superRefine(streetRules);
export type MerchantBilling = z.infer<typeof merchantBilling>;
