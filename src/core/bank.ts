// SEPA bank account checks on ibantools: the same checks the gateway runs (server/schema/requests.ts).
import { isSEPACountry, isValidBIC, isValidIBAN } from 'ibantools';
import { westernDigits } from './format.ts';

/** "de89 3704 0044 0532 0130 00" → "DE89370400440532013000" (what the gateway is sent). */
export const compactIban = (value: string): string => westernDigits(value).replace(/[\s-]+/g, '').toUpperCase();

/** Whether the IBAN is valid (country, length, BBAN format, check digits) and of a SEPA country. */
export function ibanProblem(value: string): boolean {
  const iban = compactIban(value);
  return !isValidIBAN(iban) || !isSEPACountry(iban.slice(0, 2));
}

/** Groups of four as printed on statements, for display while typing. */
export const displayIban = (value: string): string => compactIban(value).replace(/(.{4})(?!$)/g, '$1 ');

/** BIC is optional for SEPA (the IBAN identifies the bank); when given it must be valid. */
export function bicValid(value: string): boolean {
  const bic = value.replace(/\s+/g, '').toUpperCase();
  return bic === '' || isValidBIC(bic);
}

export const compactBic = (value: string): string => value.replace(/\s+/g, '').toUpperCase();
