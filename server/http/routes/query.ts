// GET /v1/query/{id}, GET /v1/query: the transaction query. Answers
// { payments: [payment response …], result, buildNumber, timestamp, ndc }.
import type { FastifyInstance } from 'fastify';
import { refused, type Context, type Invalid, type Refusal } from '../../payments/deps.ts';
import { paymentResponse, resultOf } from '../../payments/response.ts';
import { parseQuery, parseQueryOne } from '../../reports/params.ts';
import { queryPayment, queryPayments } from '../../reports/query.ts';
import type { PaymentRecord } from '../../store/payments.ts';
import { meta } from '../envelope.ts';
import { failureReply } from '../outcomes.ts';
import { handle, type Gateway } from '../pipeline.ts';
import { methods } from './common.ts';
import { parseQueryString } from './queryString.ts';

type Found = { kind: 'found'; payments: PaymentRecord[] };

export function queryRoutes(app: FastifyInstance, g: Gateway) {
  // Finding nothing is still a successful search (000.000.100) with an empty list; only an unknown id is a 404.
  const respond = (value: Found | Invalid | Refusal, ctx: Context) => {
    if (value.kind !== 'found') return failureReply(g, ctx, value);
    const m = meta(g.buildNumber, g.deps.clock());
    return {
      status: 200,
      body: { payments: value.payments.map((p) => paymentResponse(p, ctx.entity, m)), result: resultOf('000.000.100'), buildNumber: m.buildNumber, timestamp: m.timestamp, ndc: ctx.ndc },
    };
  };

  methods(app, g, '/v1/query', {
    GET: (request, reply) =>
      handle<Found | Invalid>(g, request, reply, {
        operation: 'reads',
        respond,
        async run(ctx) {
          const parsed = parseQueryString(g, request, parseQuery);
          if (!parsed.ok) return parsed.invalid;
          return { kind: 'found', payments: await queryPayments(g.deps, ctx, parsed.value) };
        },
      }),
  });

  methods(app, g, '/v1/query/:id', {
    GET: (request, reply) =>
      handle<Found | Invalid | Refusal>(g, request, reply, {
        operation: 'reads',
        respond,
        async run(ctx) {
          const parsed = parseQueryString(g, request, parseQueryOne);
          if (!parsed.ok) return parsed.invalid;
          const payments = await queryPayment(g.deps, ctx, (request.params as { id: string }).id, parsed.value.includeLinked);
          return payments ? { kind: 'found', payments } : refused('700.400.580', true);
        },
      }),
  });
}
