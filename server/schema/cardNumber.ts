// What makes a string a card number, wherever it turns up: the account groups check it, and
// answers mask it even under a name that is not a card's (a mistyped parameter, an account number).

/** The Luhn check digit of a string of ASCII digits. */
export function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = number.charCodeAt(number.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** 12-19 digits, spaces and hyphens between them ignored, with a valid check digit. */
export function looksLikeCardNumber(value: string): boolean {
  const digits = value.replace(/[\s-]/g, '');
  return /^\d{12,19}$/.test(digits) && luhn(digits);
}
