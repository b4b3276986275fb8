// Holder and expiry checks of the page's card form, with the rules the gateway applies
// (server/schema/card.ts, server/schema/requests.ts), and one it does not: no expiry more than
// 19 years ahead, which is a mistyped year rather than a card. card-validator's expiry module is not used
// here: it costs 0.9 KiB gzip of the 25 KiB page budget for the same two comparisons.
import { holderText, parseExpiry } from './format.ts';

/** Not MM/YY; in the past; further ahead than any card is issued for (a mistyped year, most likely). */
export type ExpiryProblem = 'format' | 'expired' | 'year';

/** The longest a card is issued for, in years ahead (card-validator's default as well). */
const MAX_YEARS_AHEAD = 19;

/** Month and four-digit year of a "MM/YY" (or "MM/YYYY") expiry, or what is wrong with it. */
export function checkExpiry(value: string, now = new Date()): { month: string; year: string } | { problem: ExpiryProblem } {
  const parsed = parseExpiry(value);
  if (!parsed) return { problem: 'format' };
  const months = Number(parsed.year) * 12 + Number(parsed.month) - 1;
  // The gateway's month, UTC (server/schema/requests.ts › hasExpired), not the shopper's: in the
  // first hours of a month east of UTC the card of the month before is still good there.
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  if (months < current) return { problem: 'expired' };
  return months > current + MAX_YEARS_AHEAD * 12 ? { problem: 'year' } : parsed;
}

/**
 * What the shopper is told of a holder the gateway would refuse (3 to 128 letters, spaces, dots,
 * apostrophes and hyphens, a letter among them): the least when it is a name, only short; else to
 * enter the name on the card.
 */
export function holderProblem(value: string): 'eMin3' | 'eHolder' | undefined {
  const holder = holderText(value);
  if (!/^[\p{L}\p{M} .'-]{1,128}$/u.test(holder) || !/\p{L}/u.test(holder)) return 'eHolder';
  // Counted in characters as the gateway counts them: 𠮷田 is 2, though 3 UTF-16 units.
  return [...holder].length < 3 ? 'eMin3' : undefined;
}
