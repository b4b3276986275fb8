// What a bench section hands back, and how run.ts prints it: one table per section plus the
// targets it checks. Sections add whatever else they measured under `data` for results.json.

export interface Check {
  name: string;
  /** The target as written in the issue, e.g. "≥ 25% of ceiling, p99 ≤ 50 ms". */
  target: string;
  measured: string;
  /** undefined when the check could not be made (target skipped or invalid run). */
  pass: boolean | undefined;
  note?: string;
}

export interface Table {
  columns: string[];
  /** Right-align these columns (numbers). */
  numeric?: string[];
  rows: Array<Record<string, string>>;
}

export interface SectionReport {
  name: string;
  title: string;
  table: Table;
  checks: Check[];
  notes: string[];
  data: unknown;
}

export function formatTable(table: Table): string {
  const widths = table.columns.map((column) => Math.max(column.length, ...table.rows.map((row) => (row[column] ?? '').length)));
  const numeric = new Set(table.numeric ?? []);
  const cell = (column: string, text: string, i: number) => (numeric.has(column) ? text.padStart(widths[i]!) : text.padEnd(widths[i]!));
  const line = (values: (column: string, i: number) => string) => `| ${table.columns.map(values).join(' | ')} |`;
  return [
    line((column, i) => cell(column, column, i)),
    `|${widths.map((w, i) => (numeric.has(table.columns[i]!) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`,
    ...table.rows.map((row) => line((column, i) => cell(column, row[column] ?? '', i))),
  ].join('\n');
}

export function formatChecks(checks: Check[]): string {
  if (checks.length === 0) return '';
  const mark = (pass: boolean | undefined) => (pass === undefined ? 'n/a ' : pass ? 'PASS' : 'FAIL');
  return checks.map((c) => `  ${mark(c.pass)}  ${c.name}: target ${c.target}; measured ${c.measured}${c.note ? ` (${c.note})` : ''}`).join('\n');
}

export function formatSection(report: SectionReport): string {
  const parts = [`== ${report.title} ==`, '', formatTable(report.table)];
  if (report.checks.length) parts.push('', 'Targets:', formatChecks(report.checks));
  if (report.notes.length) parts.push('', ...report.notes.map((note) => `  - ${note}`));
  return parts.join('\n');
}
