// Formatting shared by the page and the frames. Pure functions, no dependencies.

/** Arabic-Indic, Extended Arabic-Indic and fullwidth digits as ASCII: card fields keep Western digits. */
export function westernDigits(value: string): string {
  return value.replace(/[\u0660-\u0669\u06f0-\u06f9\uff10-\uff19]/g, (d) => {
    const code = d.charCodeAt(0);
    return String(code - (code >= 0xff10 ? 0xff10 : code >= 0x06f0 ? 0x06f0 : 0x0660));
  });
}

/** Only the digits of what was typed or pasted (after mapping other digit scripts). */
export const digitsOf = (value: string): string => westernDigits(value).replace(/\D/g, '');

/** "4200000000000000" with gaps [4, 8, 12] → "4200 0000 0000 0000". */
export function groupDigits(digits: string, gaps: readonly number[]): string {
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && gaps.includes(i)) out += ' ';
    out += digits[i];
  }
  return out;
}

/** Where the caret goes after reformatting: after the same number of digits as before. */
export function caretAfterDigits(formatted: string, digitCount: number): number {
  if (digitCount <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i++) {
    if (/\d/.test(formatted[i]!) && ++seen === digitCount) return i + 1;
  }
  return formatted.length;
}

/** Typing "0534" shows "05/34" (and "052034" "05/2034"): the slash comes by itself. */
export function formatExpiryInput(value: string): string {
  // "1/30": a one-digit month the shopper closed with a separator is month 01, not the "13" of its
  // digits ("0/" is no month: it stays "0", not "00").
  const western = westernDigits(value);
  const oneDigitMonth = /^\s*([1-9])\s*[/\-. ]/.exec(western);
  let digits = oneDigitMonth ? `0${oneDigitMonth[1]}${digitsOf(western.slice(oneDigitMonth[0].length))}` : digitsOf(western);
  // A first digit of 2 to 9 can only be a month of its own: "4" is April, "04"; "534" pasted or
  // composed at once (an IME commits its text whole) is 05/34, as typed key by key.
  digits = (/^[2-9]/.test(digits) ? `0${digits}` : digits).slice(0, 6);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

/** Month "01"–"12" and a four-digit year from "MM/YY", "MM/YYYY", "MM-YY" or "MMYY", else null. */
export function parseExpiry(value: string): { month: string; year: string } | null {
  const match = /^\s*(\d{1,2})\s*[/\-.]?\s*(\d{2}|\d{4})\s*$/.exec(westernDigits(value));
  if (!match) return null;
  const month = Number(match[1]);
  if (month < 1 || month > 12) return null;
  const year = match[2]!.length === 2 ? `20${match[2]}` : match[2]!;
  return { month: String(month).padStart(2, '0'), year };
}

/**
 * An amount string from the gateway ("92.00") in the shopper's locale, never through a float:
 * Intl.NumberFormat formats the decimal string exactly. Western digits throughout. The currency's
 * usual fraction digits (Intl's: ¥100, KWD 1.000, €100.50), unless they would drop or round a digit
 * of the amount charged (Intl gives HUF, IDR, COP … none, ISO 4217 and the gateway two): then the
 * amount's own, so HUF 100.50 shows "HUF 100.50" (not "HUF 101") and HUF 100.00 "HUF 100".
 */
export function formatAmount(amount: string, currency: string, locale: string): string {
  try {
    const tag = `${locale}-u-nu-latn`;
    const usual = new Intl.NumberFormat(tag, { style: 'currency', currency });
    const fraction = amount.split('.')[1] ?? '';
    const digits = /[1-9]/.test(fraction.slice(usual.resolvedOptions().maximumFractionDigits)) ? fraction.length : undefined;
    const formatter = digits === undefined ? usual : new Intl.NumberFormat(tag, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
    return formatter.format(amount as `${number}`);
  } catch {
    return `${amount} ${currency}`;
  }
}

/**
 * A holder's name as typed or pasted, as the gateway takes it: runs of any white space (a tab, a
 * no-break space from a copied name, a line break) are one space, none at the ends.
 */
export const holderText = (value: string): string => value.replace(/\s+/g, ' ').trim();
