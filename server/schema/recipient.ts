// Recipient (recipient.*) of a funds transfer, in the spec's order; all optional.
import { z } from 'zod';
import { an, chars, date, oneOf } from './common.ts';
import { alpha3, lettersDigitsSpaces } from './contact.ts';

export const recipient = z.strictObject({
  givenName: lettersDigitsSpaces(48).optional(),
  middleName: lettersDigitsSpaces(48).optional(),
  surname: lettersDigitsSpaces(48).optional(),
  birthDate: date.optional(),
  // "7-25 after the first character" within AN25: + or a digit, then 7 to 24 digits or separators.
  phone: an(25, 8).regex(/^[+0-9][0-9 .()/-]{7,24}$/, 'must start with + or a digit, followed by 7 to 24 digits, spaces, dots, parentheses, slashes or hyphens').optional(),
  accountNumber: an(32).optional(),
  street: an(100).optional(),
  city: an(50).optional(),
  state: an(50).optional(),
  country: alpha3.optional(),
  postcode: an(30).optional(),
  // BAN_AND_BIC as the spec writes it (the sender's list has IBAN_AND_BIC): enums are exact.
  accountNumberType: oneOf(['OTHER', 'RTN_AND_BANK_ACCOUNT', 'IBAN', 'EMAIL', 'PHONE_NUMBER', 'BAN_AND_BIC', 'WALLET_ID', 'SOCIAL_NETWORK_ID']).optional(),
  // A50: letters, and the spaces of names such as "New Zealander" (as sender.nationality).
  nationality: chars(/^[\p{L}\p{M} ]*$/u, 'letters and spaces', 50).optional(),
  identificationType: an(50).optional(),
  identificationValue: an(50).optional(),
  identificationCountry: alpha3.optional(),
  birthCountry: alpha3.optional(),
  entityType: an(50).optional(),
  relationship: an(50).optional(),
  occupation: an(50).optional(),
});
export type Recipient = z.infer<typeof recipient>;
