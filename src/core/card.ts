// Card number and security code checks of the frames, on card-validator (braintree). Deep
// imports keep the unused validators out of the bundle; holder and expiry are in expiry.ts.
import { cardNumber } from 'card-validator/dist/card-number.js';
import { cvv as cvvCheck } from 'card-validator/dist/cvv.js';
import { CARD_BRANDS } from './brands.ts';

export interface CardInfo {
  /** The gateway's brand (VISA, MASTER, …) once the number names exactly one. */
  brand?: string;
  /** Positions after which a space is shown (4 8 12 16 for most cards, 4 10 for AMEX). */
  gaps: number[];
  maxLength: number;
  cvvLength: 3 | 4;
  /** Luhn and length are right for the brand. */
  valid: boolean;
  /** More digits could still make it valid. */
  potentiallyValid: boolean;
  /** Valid and at the brand's longest length: nothing more to type. */
  complete: boolean;
}

/** What the digits typed so far say about the card; the server applies the same rules. */
export function cardInfo(digits: string): CardInfo {
  // The gateway checks the Luhn digit of every brand, UnionPay included.
  const check = cardNumber(digits, { luhnValidateUnionPay: true });
  const card = check.card;
  const brand = card ? CARD_BRANDS[card.type] : undefined;
  const maxLength = card ? Math.max(...card.lengths) : 19;
  const valid = check.isValid && brand !== undefined;
  return {
    ...(brand !== undefined && { brand }),
    // A gap after 16 too: a 19-digit number shows 4-4-4-4-3 as printed, not a last group of 7
    // (card-validator's gaps stop at 12). AMEX never reaches it; Diners' 19 digits show 4-6-6-3.
    gaps: [...(card?.gaps ?? [4, 8, 12]), 16],
    maxLength,
    cvvLength: card?.code.size === 4 ? 4 : 3,
    valid,
    potentiallyValid: check.isPotentiallyValid,
    complete: valid && digits.length >= maxLength,
  };
}

/** A security code of the brand's length; any 3 or 4 digits while the brand is unknown. */
export function cvvValid(value: string, length?: 3 | 4): boolean {
  return /^\d+$/.test(value) && cvvCheck(value, length ?? [3, 4]).isValid;
}
