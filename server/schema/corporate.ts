// Corporate (corporate.*), in the spec's order; all optional.
import { z } from 'zod';
import { an, digits, oneOf } from './common.ts';

export const corporate = z.strictObject({
  name: an(30).optional(),
  description: an(160).optional(),
  street: an(100).optional(),
  address: an(100).optional(),
  city: an(80).optional(),
  state: an(50).optional(),
  postCode: an(16).optional(),
  suite: an(30).optional(),
  postboxNumber: an(15).optional(),
  purchase: oneOf(['Y', 'N']).optional(),
  phone: digits(25).optional(),
  fax: digits(25).optional(),
  vatId: an(255).optional(),
});
export type Corporate = z.infer<typeof corporate>;
