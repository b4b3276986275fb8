// Merchant shipping address (merchant.shipping.*): every shipping field except shipping.customer.*,
// all optional, with the same street rules.
import { z } from 'zod';
import { streetRules } from './contact.ts';
import { shippingFields } from './shipping.ts';

export const merchantShipping = z.strictObject(shippingFields).superRefine(streetRules);
export type MerchantShipping = z.infer<typeof merchantShipping>;
