// SEPA bank account checks of the page. The gateway checks with ibantools (server/schema/requests.ts);
// the page has its own table of the SEPA countries only (ibantools' table of every country cost
// 3.4 KiB gzip of the page's 25 KiB budget). test/unit/bank.test.ts holds this table against
// ibantools' for every SEPA country. National check digits inside the BBAN are left to the gateway.
import { holderText, westernDigits } from './format.ts';

/**
 * Each SEPA country's BBAN as in the IBAN registry: country code, then blocks of a count and a kind
 * (n digits, a letters, c letters or digits). The IBAN is the country, 2 check digits and the BBAN.
 */
const SEPA_BBAN =
  'AD8n12c AT16n BE12n BG4a6n8c CH5n12c CY8n16c CZ20n DE18n DK14n EE16n ES20n FI14n FR10n11c2n GB4a14n GI4a15c GR7n16c HR17n HU24n IE4c14n IS22n IT1a10n12c LI5n12c LT16n LU3n13c LV4a13c MC10n11c2n MT4a5n18c NL4a10n NO11n PL24n PT21n RO4a16c SE20n SI15n SK20n SM1a10n12c VA18n';

const KINDS: Record<string, string> = { n: '\\d', a: '[A-Z]', c: '[A-Z\\d]' };

/** The BBAN pattern of each SEPA country. */
export const SEPA_FORMATS: ReadonlyMap<string, RegExp> = new Map(
  SEPA_BBAN.split(' ').map((entry) => [entry.slice(0, 2), new RegExp(`^${entry.slice(2).replace(/(\d+)([nac])/g, (_, count: string, kind: string) => `${KINDS[kind]}{${count}}`)}$`)]),
);

/** "de89 3704 0044 0532 0130 00" → "DE89370400440532013000" (what the gateway is sent). */
// NFKC: an IME left on full-width types ＤＥ８９ for DE89.
export const compactIban = (value: string): string => westernDigits(value.normalize('NFKC')).replace(/[\s-]+/g, '').toUpperCase();

/** ISO 13616 check digits: the IBAN with its first four characters moved to the end, as a number, mod 97 is 1. */
function checksumValid(iban: string): boolean {
  let rest = 0;
  for (const c of iban.slice(4) + iban.slice(0, 4)) rest = Number(`${rest}${parseInt(c, 36)}`) % 97;
  return rest === 1;
}

/** Whether the IBAN is not one of a SEPA country with the right length, BBAN format and check digits. */
export function ibanProblem(value: string): boolean {
  const iban = compactIban(value);
  return !(SEPA_FORMATS.get(iban.slice(0, 2))?.test(iban.slice(4)) && /^\d\d$/.test(iban.slice(2, 4)) && checksumValid(iban));
}

/** Groups of four as printed on statements, for display while typing. */
export const displayIban = (value: string): string => compactIban(value).replace(/(.{4})(?!$)/g, '$1 ');

export const compactBic = (value: string): string => value.normalize('NFKC').replace(/\s+/g, '').toUpperCase();

/** BIC is optional for SEPA (the IBAN identifies the bank); when given it must have the BIC's form. */
export const bicValid = (value: string): boolean => /^([A-Z]{6}[A-Z\d]{2}([A-Z\d]{3})?)?$/.test(compactBic(value));

/** A bank account's holder as the gateway takes it (bankAccount.holder, AN128 of at least 4): a name, so a letter at least. */
export const accountHolderValid = (value: string): boolean => {
  const holder = holderText(value);
  // In characters, as the gateway counts (not UTF-16 units: 𠮷 is one).
  const length = [...holder].length;
  return length >= 4 && length <= 128 && /\p{L}/u.test(holder);
};
