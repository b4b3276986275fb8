// GET /reports/v1/reconciliations/aggregations and …/aggregations/{id}: the settlement reports.
// The records answer JSON, or the spec's CSV file when the Accept header prefers text/csv.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Context, Invalid } from '../../payments/deps.ts';
import { resultOf } from '../../payments/response.ts';
import { parseReportPeriod, parseReportSort } from '../../reports/params.ts';
import { aggregationJson, recordJson, recordsCsv, type Aggregation } from '../../reports/reconciliation.ts';
import { aggregationRecords, aggregations } from '../../reports/reports.ts';
import type { ReconciliationRecord } from '../../reports/settlement.ts';
import { errorBody, meta } from '../envelope.ts';
import { failureReply } from '../outcomes.ts';
import { handle, type Gateway } from '../pipeline.ts';
import { methods } from './common.ts';
import { parseQueryString } from './queryString.ts';

type Listed = { kind: 'aggregations'; aggregations: Aggregation[] };
type Detailed = { kind: 'records'; aggregation: Aggregation; records: ReconciliationRecord[] };
type Missing = { kind: 'missing'; id: string };

/** The quality (q) the Accept header gives a media type: the most specific matching range wins; no header accepts anything. */
function quality(accept: string | undefined, type: string): number {
  if (!accept) return type === 'application/json' ? 1 : 0;
  let best = -1;
  let specificity = -1;
  for (const part of accept.split(',')) {
    const [range, ...params] = part.trim().toLowerCase().split(';').map((s) => s.trim());
    const q = Number(params.find((p) => p.startsWith('q='))?.slice(2) ?? '1');
    const [major, minor] = (range ?? '').split('/');
    const [wantMajor, wantMinor] = type.split('/');
    const s = major === wantMajor && minor === wantMinor ? 2 : major === wantMajor && minor === '*' ? 1 : major === '*' && minor === '*' ? 0 : -1;
    if (s > specificity) {
      specificity = s;
      best = Number.isFinite(q) ? q : 0;
    }
  }
  return Math.max(best, 0);
}

/** CSV when the caller prefers text/csv to JSON; JSON on a tie. */
function wantsCsv(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  const csv = quality(accept, 'text/csv');
  return csv > 0 && csv > quality(accept, 'application/json');
}

export function reportRoutes(app: FastifyInstance, g: Gateway) {
  const envelope = (ctx: Context) => {
    const m = meta(g.buildNumber, g.deps.clock());
    return { result: resultOf('000.000.100'), buildNumber: m.buildNumber, timestamp: m.timestamp, ndc: ctx.ndc };
  };

  methods(app, g, '/reports/v1/reconciliations/aggregations', {
    GET: (request, reply) =>
      handle<Listed | Invalid>(g, request, reply, {
        operation: 'reads',
        async run(ctx) {
          const parsed = parseQueryString(g, request, parseReportPeriod);
          if (!parsed.ok) return parsed.invalid;
          return { kind: 'aggregations', aggregations: await aggregations(g.deps, ctx.entity, parsed.value) };
        },
        respond: (value, ctx) =>
          value.kind === 'aggregations' ? { status: 200, body: { aggregations: value.aggregations.map(aggregationJson), ...envelope(ctx) } } : failureReply(g, ctx, value),
      }),
  });

  methods(app, g, '/reports/v1/reconciliations/aggregations/:id', {
    GET: (request, reply) =>
      handle<Detailed | Invalid | Missing>(g, request, reply, {
        operation: 'reads',
        async run(ctx) {
          const parsed = parseQueryString(g, request, parseReportSort);
          if (!parsed.ok) return parsed.invalid;
          const id = (request.params as { id: string }).id;
          const found = await aggregationRecords(g.deps, ctx.entity, id, parsed.value.order);
          return found ? { kind: 'records', ...found } : { kind: 'missing', id };
        },
        respond: (value, ctx) => {
          if (value.kind === 'invalid') return failureReply(g, ctx, value);
          // An unknown id, another entity's, or a date and currency without records: as an unknown checkout, 200.300.404 naming id.
          if (value.kind === 'missing') {
            const m = meta(g.buildNumber, g.deps.clock());
            return { status: 404, body: errorBody('200.300.404', m, ctx.ndc, [{ name: 'id', value: value.id, message: 'id names no reconciliation aggregation of this entity' }]) };
          }
          if (wantsCsv(request)) {
            const { settlementDate, currency } = value.aggregation;
            const csv = recordsCsv(value.records);
            // The body is the file: the reply's serializer writes it instead of JSON.
            reply
              .type('text/csv; charset=utf-8')
              .header('content-disposition', `attachment; filename="reconciliation-${settlementDate}-${currency}.csv"`)
              .serializer(() => csv);
            return { status: 200, body: { csv: true } };
          }
          return { status: 200, body: { aggregation: aggregationJson(value.aggregation), records: value.records.map(recordJson), ...envelope(ctx) } };
        },
      }),
  });
}
