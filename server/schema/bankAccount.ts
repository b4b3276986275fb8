// Bank account (bankAccount.*) for direct debit, SEPA and bank transfer, in the spec's order.
import { z } from 'zod';
import { an, chars, countryCode, date, lettersDigits } from './common.ts';

export const bankAccount = z.strictObject({
  holder: an(128, 4),
  bankName: an(255).optional(),
  number: lettersDigits(64, 3).optional(),
  iban: z.string().regex(/^[A-Z]{2}\d{2}[A-Za-z0-9]{11,27}$/, 'must be 2 letters, 2 digits and 11 to 27 letters or digits').optional(),
  bankCode: lettersDigits(12).optional(),
  bic: z.string().regex(/^([A-Za-z0-9]{8}|[A-Za-z0-9]{11})$/, 'must be 8 or 11 letters or digits').optional(),
  country: countryCode(/^[A-Za-z]{2}$/, 'must be two letters (ISO 3166-1)', ['alpha2']).optional(),
  // The spec's row named "{base_url}" (AN256 letters and hyphens) is the mandate's id (decisions.md);
  // digits are taken too, as every real mandate id has them.
  mandate: z.strictObject({ id: chars(/^[A-Za-z0-9-]*$/, 'letters, digits and hyphens', 256).optional(), dateOfSignature: date.optional() }).optional(),
});

/** transactionDueDate: the due date of a direct debit (bank accounts only, checked once the account is known). */
export const transactionDueDate = date;

export type BankAccount = z.infer<typeof bankAccount>;
