// POST /v1/registrations, POST /v1/registrations/{id}/payments, DELETE /v1/registrations/{id}
import type { FastifyInstance } from 'fastify';
import type { Created } from '../../payments/create.ts';
import type { Context, Invalid, Refusal } from '../../payments/deps.ts';
import { payWithRegistration, registrationResponse, removeRegistration, storeRegistration, type Registered } from '../../registrations/registrations.ts';
import { parseRegistration, parseRegistrationPayment } from '../../schema/requests.ts';
import { meta } from '../envelope.ts';
import { failureReply, paymentReply, redirectOf } from '../outcomes.ts';
import { originOf } from '../pages.ts';
import { handle, type Gateway } from '../pipeline.ts';
import { methods, parseBody } from './common.ts';

export function registrationRoutes(app: FastifyInstance, g: Gateway) {
  const registrationReply = (value: Registered | Invalid | Refusal, ctx: Context) =>
    value.kind === 'registration'
      ? { status: 200, body: registrationResponse(value, ctx.entity, meta(g.buildNumber, g.deps.clock()), ctx.ndc) }
      : failureReply(g, ctx, value);

  methods(app, g, '/v1/registrations', {
    POST: (request, reply) =>
      handle<Registered | Invalid | Refusal>(g, request, reply, {
        operation: 'registrations',
        respond: registrationReply,
        async run(ctx, params, alsoWrite) {
          const parsed = parseBody(g, params, parseRegistration);
          if (!parsed.ok) return parsed.invalid;
          return storeRegistration(g.deps, ctx, parsed.value, alsoWrite as never);
        },
      }),
  });

  methods(app, g, '/v1/registrations/:id', {
    DELETE: (request, reply) =>
      handle<Registered | Invalid | Refusal>(g, request, reply, {
        operation: 'registrations',
        respond: registrationReply,
        run: (ctx, _params, alsoWrite) => removeRegistration(g.deps, ctx, (request.params as { id: string }).id, alsoWrite as never),
      }),
  });

  methods(app, g, '/v1/registrations/:id/payments', {
    POST: (request, reply) =>
      handle<Created | Invalid | Refusal>(g, request, reply, {
        operation: 'payments',
        respond: (value, ctx) =>
          value.kind === 'payment' ? paymentReply(g, ctx, value.payment, value.redirect ? redirectOf(originOf(request), value.redirect) : undefined) : failureReply(g, ctx, value),
        async run(ctx, params, alsoWrite) {
          const parsed = parseBody(g, params, parseRegistrationPayment);
          if (!parsed.ok) return parsed.invalid;
          return payWithRegistration(g.deps, ctx, (request.params as { id: string }).id, parsed.value, alsoWrite as never);
        },
      }),
  });
}
