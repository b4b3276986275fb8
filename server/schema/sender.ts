// Sender (sender.*) of a funds transfer, in the spec's order; all optional.
import { z } from 'zod';
import { an, chars, date, oneOf } from './common.ts';
import { alpha3, lettersDigitsSpaces, phoneFromDigit } from './contact.ts';

export const sender = z.strictObject({
  name: lettersDigitsSpaces(100).optional(),
  givenName: lettersDigitsSpaces(50).optional(),
  middleName: lettersDigitsSpaces(50).optional(),
  surname: lettersDigitsSpaces(50).optional(),
  birthDate: date.optional(),
  phone: phoneFromDigit(25, 7).optional(),
  accountNumber: an(32).optional(),
  street: an(100).optional(),
  city: lettersDigitsSpaces(50).optional(),
  state: lettersDigitsSpaces(50).optional(),
  country: alpha3.optional(),
  postcode: an(30).optional(),
  accountNumberType: oneOf(['OTHER', 'RTN_AND_BANK_ACCOUNT', 'IBAN', 'IBAN_AND_BIC', 'CARD_ACCOUNT']).optional(),
  // 01 credit, 02 debit, 03 prepaid, 04 cash, 05 and 06 accounts not linked to the card's scheme,
  // 07 deposit account, 08 mobile money account, 09 other.
  sourceOfFunds: oneOf(['01', '02', '03', '04', '05', '06', '07', '08', '09']).optional(),
  entityType: an(50).optional(),
  nationality: chars(/^[\p{L}\p{M} ]*$/u, 'letters and spaces', 50).optional(),
  occupation: an(50).optional(),
  birthCountry: alpha3.optional(),
  identificationType: an(50).optional(),
  identificationValue: an(50).optional(),
  identificationCountry: alpha3.optional(),
});
export type Sender = z.infer<typeof sender>;
