// POST /v1/payments, POST /v1/payments/{id}, GET /v1/payments/{id}
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createPayment, maskedAccount, accountData, type Created } from '../../payments/create.ts';
import { CHECKOUT_ID } from '../../checkouts/checkouts.ts';
import { ID } from '../../ids.ts';
import { refused, type Invalid, type Refusal } from '../../payments/deps.ts';
import { failure, paramError } from '../../schema/errors.ts';
import type { PaymentRecord } from '../../store/payments.ts';
import { readPayment } from '../../payments/read.ts';
import { referencePayment, type Referenced } from '../../payments/reference.ts';
import { newRegistration } from '../../registrations/registrations.ts';
import { parseInitialPayment, parseReferencing } from '../../schema/requests.ts';
import { failureReply, paymentReply, redirectOf } from '../outcomes.ts';
import { originOf } from '../pages.ts';
import { handle, type Gateway } from '../pipeline.ts';
import { methods, parseBody } from './common.ts';

type Outcome = Created | Referenced | Invalid | Refusal;
type Found = { kind: 'found'; payment: PaymentRecord };

/**
 * An id that cannot be a payment's: 400 naming it (the path pattern of the document), and a
 * checkout's id (the result page's ?id=, the likeliest mix-up) says where its payment is read.
 */
function badPaymentId(id: string): Invalid | undefined {
  if (ID.test(id)) return undefined;
  const message = CHECKOUT_ID.test(id)
    ? `is a checkout's id: read its payment at GET /v1/checkouts/${id}/payment, whose id is the payment's`
    : 'must be a payment id: 32 lowercase hexadecimal characters';
  return { kind: 'invalid', failure: failure([paramError('id', id.slice(0, 64), message)]) };
}

export function paymentRoutes(app: FastifyInstance, g: Gateway) {
  const responder = (request: FastifyRequest) => (value: Outcome, ctx: Parameters<typeof paymentReply>[1]) =>
    value.kind === 'payment'
      ? paymentReply(g, ctx, value.payment, 'redirect' in value && value.redirect ? redirectOf(originOf(request), value.redirect) : undefined)
      : failureReply(g, ctx, value);

  methods(app, g, '/v1/payments', {
    POST: (request, reply) =>
      handle<Outcome>(g, request, reply, {
        operation: 'payments',
        respond: responder(request),
        async run(ctx, params, alsoWrite) {
          const parsed = parseBody(g, params, parseInitialPayment);
          if (!parsed.ok) return parsed.invalid;
          const { account, ...request } = parsed.value;
          return createPayment(
            g.deps,
            ctx,
            {
              request,
              account,
              accountData: accountData(request, account),
              maskedAccount: maskedAccount(request),
              registration: request.createRegistration === 'true' ? { create: newRegistration(request, account) } : undefined,
            },
            alsoWrite as never,
          );
        },
      }),
  });

  methods(app, g, '/v1/payments/:id', {
    POST: (request, reply) =>
      handle<Outcome>(g, request, reply, {
        operation: 'references',
        respond: responder(request),
        async run(ctx, params, alsoWrite) {
          const { id } = request.params as { id: string };
          const badId = badPaymentId(id);
          if (badId) return badId;
          const parsed = parseBody(g, params, parseReferencing);
          if (!parsed.ok) return parsed.invalid;
          return referencePayment(g.deps, ctx, id, parsed.value, alsoWrite as never);
        },
      }),
    GET: (request, reply) =>
      handle<Found | Refusal | Invalid>(g, request, reply, {
        operation: 'reads',
        async run(ctx) {
          const { id } = request.params as { id: string };
          const badId = badPaymentId(id);
          if (badId) return badId;
          const payment = await readPayment(g.deps, ctx, id);
          return payment ? { kind: 'found', payment } : refused('700.400.580', true);
        },
        // Reading succeeds whatever the payment's own result was.
        respond: (value, ctx) => (value.kind === 'found' ? { status: 200, body: paymentReply(g, ctx, value.payment).body } : failureReply(g, ctx, value)),
      }),
  });
}
