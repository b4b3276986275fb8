// Bank account (bankAccount.*) for direct debit, SEPA and bank transfer, in the spec's order.
import { z } from 'zod';
import { an, date, lettersDigits } from './common.ts';

export const bankAccount = z.strictObject({
  holder: an(128, 4),
  bankName: an(255).optional(),
  number: lettersDigits(64, 3).optional(),
  iban: z.string().regex(/^[A-Z]{2}\d{2}[A-Za-z0-9]{11,27}$/, 'must be 2 letters, 2 digits and 11 to 27 letters or digits').optional(),
  bankCode: lettersDigits(12).optional(),
  bic: z.string().regex(/^([A-Za-z0-9]{8}|[A-Za-z0-9]{11})$/, 'must be 8 or 11 letters or digits').optional(),
  country: z.string().regex(/^[A-Za-z]{2}$/, 'must be two letters (ISO 3166-1)').optional(),
  mandate: z.strictObject({ dateOfSignature: date.optional(), id: an(35).optional() }).optional(),
});

export type BankAccount = z.infer<typeof bankAccount>;
