// Domain outcomes as HTTP replies: payments answer 200 when successful or pending and 400 when
// declined; validation errors 400 with every bad parameter; a missing referenced resource 404.
import type { RedirectStep } from '../payments/create.ts';
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

export function paymentReply(g: Gateway, ctx: Context, payment: PaymentRecord, redirect?: Redirect): Reply {
  const ok = isSuccess(payment.resultCode) || isPending(payment.resultCode);
  const body = paymentResponse(payment, ctx.entity, meta(g.buildNumber, g.deps.clock()));
  return { status: ok ? 200 : 400, body: redirect ? withRedirect(body, redirect) : body };
}

/** redirect.url and redirect.parameters[n] of a pending answer: the shopper's browser POSTs the parameters to the URL. */
export interface Redirect {
  url: string;
  parameters: Array<{ name: string; value: string }>;
}

/** Where a redirect step starts: the 3-D Secure authentication page, or the provider's page. */
export function redirectOf(origin: string, step: RedirectStep): Redirect {
  const path = step.kind === 'threeds' ? `/v1/threeds/${step.id}/authenticate` : `/v1/providers/${step.id}/pay`;
  return { url: `${origin}${path}`, parameters: [{ name: 'token', value: step.token }] };
}

/** The redirect goes right after the result, where merchants look for it. */
export function withRedirect(body: Record<string, unknown>, redirect: Redirect): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    out[key] = value;
    if (key === 'result') out.redirect = redirect;
  }
  if (!('redirect' in out)) out.redirect = redirect;
  return out;
}
