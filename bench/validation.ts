// The validation section: what reading and checking a request costs by itself, in process, for
// the plain and the full card debit (the bodies of the server section). The server section's
// full-to-plain ratio also holds storing, answering and echoing the groups; this one shows the
// share that is validation: form reading, nesting, the schema (accept.ts, zod only on doubt, and
// the rules across fields) and what the payment keeps of the request (echo.ts).
import { nest, parseForm } from '../server/http/params.ts';
import { echoedDetails } from '../server/schema/echo.ts';
import { parseInitialPayment } from '../server/schema/requests.ts';
import type { SectionReport } from './lib/report.ts';
import { fullBody, plainBody } from './server.ts';

const ROUNDS = 7;
const ITERATIONS = 2_000;

/** CPU µs per call: the median of ROUNDS rounds, after a warm-up. */
function cpuMicros(fn: () => unknown): number {
  for (let i = 0; i < ITERATIONS; i++) fn();
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.cpuUsage();
    for (let i = 0; i < ITERATIONS; i++) fn();
    const used = process.cpuUsage(start);
    rounds.push((used.user + used.system) / ITERATIONS);
  }
  return rounds.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
}

function stages(body: string) {
  const flat = parseForm(body).value;
  delete flat.entityId;
  const nested = nest(flat).value;
  const ctx = { env: 'test' as const, now: new Date() };
  const parsed = parseInitialPayment(nested, ctx);
  if (!parsed.ok) throw new Error(`the bench body is invalid: ${JSON.stringify(parsed.failure.parameterErrors)}`);
  const measured = {
    read: cpuMicros(() => parseForm(body)),
    nest: cpuMicros(() => nest(flat)),
    schema: cpuMicros(() => parseInitialPayment(nested, ctx)),
    echo: cpuMicros(() => echoedDetails(parsed.value)),
  };
  return { parameters: Object.keys(flat).length, bytes: body.length, ...measured, total: measured.read + measured.nest + measured.schema + measured.echo };
}

export async function validationSection(): Promise<SectionReport> {
  const plain = stages(plainBody);
  const full = stages(fullBody);
  const µs = (value: number) => value.toFixed(1);
  const row = (label: string, s: ReturnType<typeof stages>) => ({
    body: label,
    parameters: String(s.parameters),
    bytes: String(s.bytes),
    'read µs': µs(s.read),
    'nest µs': µs(s.nest),
    'schema µs': µs(s.schema),
    'echo µs': µs(s.echo),
    'total µs': µs(s.total),
    'µs per parameter': µs(s.total / s.parameters),
  });
  const columns = ['body', 'parameters', 'bytes', 'read µs', 'nest µs', 'schema µs', 'echo µs', 'total µs', 'µs per parameter'];
  return {
    name: 'validation',
    title: 'Validation: reading and checking a request, in process',
    table: { columns, numeric: columns.slice(1), rows: [row('card debit', plain), row('full card debit', full)] },
    checks: [],
    notes: [
      `CPU time per request, median of ${ROUNDS} rounds of ${ITERATIONS}: read = the form body into flat parameters (params.ts), nest = into groups, schema = accept.ts with zod on doubt plus the rules across fields (requests.ts), echo = what the payment keeps (echo.ts).`,
      `The full card debit's validation adds ${µs(full.total - plain.total)} µs to the plain one's ${µs(plain.total)} µs; the server section's CPU ms/req shows it beside the whole request.`,
    ],
    data: { plain, full },
  };
}
