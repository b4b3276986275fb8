// A semicolon-separated file (RFC 4180 with ';' as separator): a header line, then one line per
// row, CRLF line ends. A value holding the separator, a double quote, CR or LF is quoted, its
// double quotes doubled; every other value is written as it is.
export const SEPARATOR = ';';
const NEEDS_QUOTES = /[;"\r\n]/;

export function csvValue(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function toCsv(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (values: readonly string[]) => values.map(csvValue).join(SEPARATOR);
  return [header, ...rows].map(line).join('\r\n') + '\r\n';
}
