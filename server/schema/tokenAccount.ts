// Token account (tokenAccount.*): a token of an external provider or a scheme, in the spec's order.
import { z } from 'zod';
import { an, digits, oneOf } from './common.ts';

export const tokenAccount = z.strictObject({
  number: digits(19, 12),
  type: oneOf(['EXTERNAL', 'NETWORK']),
  expiryMonth: z.string().regex(/^(0[1-9]|1[0-2])$/, 'must be two digits from 01 to 12').optional(),
  expiryYear: z.string().regex(/^\d{4}$/, 'must be four digits').optional(),
  cryptogram: an(32, 28).regex(/^[A-Za-z0-9+/=]*$/, 'must be base64').optional(),
  dtvc: digits(4, 3).optional(),
});

export type TokenAccount = z.infer<typeof tokenAccount>;
