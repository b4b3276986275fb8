// A semicolon-separated file (RFC 4180 with ';' as separator): a header line, then one line per
// row, CRLF line ends. A value holding the separator, a double quote, CR or LF is quoted, its
// double quotes doubled; every other value is written as it is. Text a spreadsheet would run
// as a formula (= + - @, a tab or CR first: a shopper's account holder, a merchant's reference)
// is written after an apostrophe, as OWASP advises; numbers (-12.50) stay numbers.
export const SEPARATOR = ';';
const NEEDS_QUOTES = /[;"\r\n]/;
const FORMULA = /^[=+\-@\t\r]/;
const NUMBER = /^[+-]?\d+(\.\d+)?$/;

export function csvValue(value: string): string {
  const text = FORMULA.test(value) && !NUMBER.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (values: readonly string[]) => values.map(csvValue).join(SEPARATOR);
  return [header, ...rows].map(line).join('\r\n') + '\r\n';
}
