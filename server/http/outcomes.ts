// Domain outcomes as HTTP replies: payments answer 200 when successful or pending and 400 when
// declined; validation errors 400 with every bad parameter; a missing referenced resource 404.
import type { Invalid, Refusal } from '../payments/deps.ts';
import { paymentResponse } from '../payments/response.ts';
import { isPending, isSuccess } from '../results.ts';
import type { PaymentRecord } from '../store/payments.ts';
import type { Context } from '../payments/deps.ts';
import { errorBody, meta, type Reply } from './envelope.ts';
import type { Gateway } from './pipeline.ts';

export function failureReply(g: Gateway, ctx: Context, outcome: Invalid | Refusal): Reply {
  const m = meta(g.buildNumber, g.deps.clock());
  if (outcome.kind === 'invalid') return { status: 400, body: errorBody(outcome.failure.code, m, ctx.ndc, outcome.failure.parameterErrors) };
  return { status: outcome.notFound ? 404 : 400, body: errorBody(outcome.code, m, ctx.ndc) };
}

export function paymentReply(g: Gateway, ctx: Context, payment: PaymentRecord): Reply {
  const ok = isSuccess(payment.resultCode) || isPending(payment.resultCode);
  return { status: ok ? 200 : 400, body: paymentResponse(payment, ctx.entity, meta(g.buildNumber, g.deps.clock())) };
}
