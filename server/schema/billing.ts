// Billing address (billing.*), in the spec's order.
import { z } from 'zod';
import { an, chars } from './common.ts';

export const billing = z
  .strictObject({
    street1: an(100).optional(),
    street2: an(100).optional(),
    houseNumber1: an(100).optional(),
    houseNumber2: an(100).optional(),
    city: an(80).optional(),
    state: chars(/^[A-Za-z0-9.]*$/, 'letters, digits and dots', 50).optional(),
    postcode: chars(/^[A-Za-z0-9]*$/, 'letters and digits', 16).optional(),
    country: z.string().regex(/^[A-Z]{2}$/, 'must be two uppercase letters (ISO 3166-1)').optional(),
    normalized: an(255).optional(),
    validationStatus: an(255).optional(),
  })
  .superRefine((b, ctx) => {
    const street = `${b.street1 ?? ''}${b.street2 ?? ''}`;
    if (street !== '' && /^\d+$/.test(street.replace(/\s/g, ''))) {
      ctx.addIssue({ code: 'custom', path: ['street1'], message: 'street1 plus street2 must not be digits only', params: { code: '100.800.102' } });
    }
    if (b.houseNumber2 !== undefined && b.houseNumber1 === undefined) {
      ctx.addIssue({ code: 'custom', path: ['houseNumber2'], message: 'requires houseNumber1' });
    }
  });
