// A semicolon-separated file (RFC 4180 with ';' as separator): a header line, then one line per
// row, CRLF line ends. A value holding the separator, a double quote, CR or LF is quoted, its
// double quotes doubled; every other value is written as it is. Text a spreadsheet would run
// as a formula (= + - @, a tab or CR first: a shopper's account holder, a merchant's reference)
// is written after an apostrophe, as OWASP advises; numbers (-12.50) stay numbers. So is such
// text after a comma, a tab or a line break inside a value: a spreadsheet whose list separator is
// the comma (Excel in most locales) reads this file split on commas, where ';' is no separator and
// a quote in mid-cell is text, so "Jane,=cmd|' /C calc'!A0," (a shopper's bank account holder)
// would start a cell of its own with the formula.
export const SEPARATOR = ';';
const NEEDS_QUOTES = /[;"\r\n]/;
const FORMULA = /^[=+\-@\t\r]/;
const NUMBER = /^[+-]?\d+(\.\d+)?$/;
/** A cell another reader starts inside a value: after a comma, a tab or a line break. */
const INNER_CELL = /([,\t\r\n])([^,\t\r\n]*)/g;
/** Such a cell that a spreadsheet would run: a formula character after spaces or quotes. */
const INNER_FORMULA = /^[\s"]*[=+\-@]/;

function neutralized(value: string): string {
  const text = FORMULA.test(value) && !NUMBER.test(value) ? `'${value}` : value;
  return text.replace(INNER_CELL, (all, separator: string, cell: string) => (INNER_FORMULA.test(cell) && !NUMBER.test(cell.trim()) ? `${separator}'${cell}` : all));
}

export function csvValue(value: string): string {
  const text = neutralized(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (values: readonly string[]) => values.map(csvValue).join(SEPARATOR);
  return [header, ...rows].map(line).join('\r\n') + '\r\n';
}
