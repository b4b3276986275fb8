// Card account (card.*), in the spec's order.
import { z } from 'zod';
import { digits, oneOf } from './common.ts';

export const card = z.strictObject({
  holder: z
    .string()
    .min(3, 'must be at least 3 characters')
    .max(128, 'must be at most 128 characters')
    .regex(/^[\p{L}\p{M} .'-]+$/u, 'must contain letters, spaces, dots, apostrophes and hyphens only')
    // A128 is a name: spaces, dots or hyphens alone ("   ", "...") name no one.
    .regex(/\p{L}/u, 'must contain a letter')
    .optional(),
  number: digits(32, 8),
  expiryMonth: z.string().regex(/^(0[1-9]|1[0-2])$/, 'must be two digits from 01 to 12'),
  expiryYear: z.string().regex(/^(19|20)\d{2}$/, 'must be four digits starting with 19 or 20'),
  cvv: digits(4, 3).optional(),
  numberType: oneOf(['PAN', 'DPAN']).optional(),
});

export type Card = z.infer<typeof card>;
