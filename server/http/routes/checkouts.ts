// Checkouts (docs/widget-protocol.md). The merchant's endpoints take the token like every other:
//   POST /v1/checkouts · POST /v1/checkouts/{id} · DELETE /v1/checkouts/{id}
//   GET /v1/checkouts/{id}/payment · GET /v1/checkouts/{id}/registration
// The widget's checkout-scoped endpoints take no token (the checkout id is the credential), answer
// CORS to any origin and reveal only what the form needs:
//   GET /v1/checkouts/{id}/form · POST /v1/checkouts/{id}/payment
//   POST /v1/checkouts/{id}/applePaySession (Apple Pay's merchant validation)
import { REDIRECT_URL_MAX, resultUrlWith } from '../../schema/asynchronous.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  cancelCheckout,
  checkoutById,
  createCheckout,
  formOf,
  formRegistration,
  readCheckout,
  readCheckoutRegistration,
  stateCode,
  updateCheckout,
  type Checkout,
  type CheckoutDone,
  type CheckoutRegistration,
  type FormData,
  type Stated,
} from '../../checkouts/checkouts.ts';
import { seenBrowser } from '../../checkouts/browser.ts';
import { payCheckout, type Attempt } from '../../checkouts/pay.ts';
import { merchantSession, walletForm, type MerchantSession } from '../../checkouts/wallets.ts';
import { billingToAsk } from '../../threeds/policy.ts';
import { responseTimestamp } from '../../clock.ts';
import { newNdc } from '../../ids.ts';
import { fromMinor, toMinor } from '../../money.ts';
import type { Context, Invalid, Refusal } from '../../payments/deps.ts';
import { paymentResponse, resultOf } from '../../payments/response.ts';
import { registrationResponse } from '../../registrations/registrations.ts';
import { isPending, isSuccess } from '../../results.ts';
import { successCode } from '../../payments/resultCodes.ts';
import { parseCheckout, parseCheckoutUpdate, parseMerchantSession, parsePagePayment } from '../../schema/checkout.ts';
import type { PaymentRecord } from '../../store/payments.ts';
import { errorBody, meta, TRY_LATER_HEADERS, tryLaterBody, type Reply } from '../envelope.ts';
import { failureReply, redirectOf, type Redirect } from '../outcomes.ts';
import { escapeHtml, localePreload, originOf, scriptTag, sendPage, WEBVIEW_CSP } from '../pages.ts';
import { handle, handleAs, type Caller, type Gateway } from '../pipeline.ts';
import { localeTexts, NOT_BUILT, optionalAsset } from '../widgetAssets.ts';
import { dirOf, resolveLocale, stringsFor } from '../../../src/core/i18n.ts';
import { methods, parseBody } from './common.ts';
import { localeOf } from '../../../src/core/locale-list.ts';

/** integrity=true while the widget is not built: no integrity can be given. */
interface Unavailable {
  kind: 'unavailable';
}

type Change = CheckoutDone | Stated | Invalid | Refusal | Unavailable;

/** Headers of every checkout-scoped answer: any shop's page may call, no cookie is ever used. */
export const CHECKOUT_CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Idempotent-Replayed',
};

const PREFLIGHT = {
  'access-control-allow-methods': 'GET, POST',
  'access-control-allow-headers': 'Content-Type, Idempotency-Key',
  'access-control-max-age': '600',
};

const WIDGET_CALL = /^\/v1\/checkouts\/[^/?]+\/(form|payment|applePaySession)(\?|$)/;

/** The widget's calls from shoppers' browsers: reading the form, paying, and their preflights (not the merchant's GET of the payment). */
function isWidgetCall(method: string, url: string): boolean {
  const match = WIDGET_CALL.exec(url);
  if (!match) return false;
  return method === 'OPTIONS' || (match[1] === 'form' ? method === 'GET' || method === 'HEAD' : method === 'POST');
}

/** shopperResultUrl with the checkout id and the resource path to read the outcome at; its own query and fragment stay. */
export function resultUrl(shopperResultUrl: string, checkoutId: string): string {
  return resultUrlWith(shopperResultUrl, checkoutId, `/v1/checkouts/${checkoutId}/payment`);
}

/**
 * The redirect.url of a paid checkout: shopperResultUrl with id and resourcePath, or, when that
 * outgrows redirect.url's 2048 characters (a shopperResultUrl may have 2048 itself), the gateway's
 * short hop that sends the shopper on to it (GET /v1/checkouts/{id}/result).
 */
function shopperRedirectUrl(origin: string, shopperResultUrl: string, checkoutId: string): string {
  const url = resultUrl(shopperResultUrl, checkoutId);
  return url.length <= REDIRECT_URL_MAX ? url : `${origin}/v1/checkouts/${encodeURIComponent(checkoutId)}/result`;
}

export function checkoutRoutes(app: FastifyInstance, g: Gateway) {
  // Preflight of the widget's calls (the Idempotency-Key header makes its POST non-simple).
  const preflight = async (_request: FastifyRequest, reply: FastifyReply) => reply.code(204).headers(PREFLIGHT).send();
  const envelope = (ndc: string) => {
    const m = meta(g.buildNumber, g.deps.clock());
    return { buildNumber: m.buildNumber, timestamp: m.timestamp, ndc };
  };
  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

  const unknown = (id: string, ndc: string): Reply => ({
    status: 404,
    body: errorBody('200.300.404', meta(g.buildNumber, g.deps.clock()), ndc, [{ name: 'id', value: id, message: 'id names no checkout' }]),
  });
  const failure = (ctx: Context, id: string, outcome: Invalid | Refusal): Reply =>
    outcome.kind === 'refused' && outcome.notFound ? unknown(id, ctx.ndc) : failureReply(g, ctx, outcome);

  /** A checkout's state as an answer: its code, its id (ndc: the checkout id). */
  const stateBody = (s: Stated) => ({ result: resultOf(stateCode(s.state)), id: s.checkout.id, ...envelope(s.checkout.id) });
  /** A change refused by the checkout's state: 400 with the state's code; 409 while a payment is under way. */
  const refusedByState = (s: Stated): Reply => ({ status: s.busy ? 409 : 400, body: stateBody(s) });
  const unavailable = (ndc: string): Reply => ({ status: 503, body: { ...errorBody('999.999.999', meta(g.buildNumber, g.deps.clock()), ndc), message: NOT_BUILT } });

  const changeReply = (value: Change, ctx: Context, id: string): Reply => {
    switch (value.kind) {
      case 'checkout': {
        const assets = g.assets;
        const integrity = value.integrity && assets.ready ? { integrity: assets.files['paymentWidgets.js'].integrity } : {};
        return { status: 200, body: { result: resultOf(value.code), id: value.checkout.id, ...integrity, ...envelope(value.checkout.id) } };
      }
      case 'state': {
        // A paid checkout's code is a success code: as the refusal of a change it would read as one.
        if (value.state.name !== 'paid') return refusedByState(value);
        const { payment } = value.state;
        return {
          status: 400,
          body: errorBody('200.300.404', meta(g.buildNumber, g.deps.clock()), value.checkout.id, [
            { name: 'id', value: value.checkout.id, message: `id names a paid checkout (payment ${payment.id}, ${payment.resultCode}): it can no longer be changed or cancelled; refund or reverse its payment instead` },
          ]),
        };
      }
      case 'unavailable':
        return unavailable(ctx.ndc);
      default:
        return failure(ctx, id, value);
    }
  };

  methods(app, g, '/v1/checkouts', {
    POST: (request, reply) =>
      handle<Change>(g, request, reply, {
        operation: 'checkouts',
        respond: (value, ctx) => changeReply(value, ctx, ''),
        async run(ctx, params, alsoWrite) {
          const parsed = parseBody(g, params, parseCheckout);
          if (!parsed.ok) return parsed.invalid;
          if (parsed.value.integrity === 'true' && !g.assets.ready) return { kind: 'unavailable' };
          return createCheckout(g.deps, ctx, parsed.value, alsoWrite as never);
        },
      }),
  });

  methods(app, g, '/v1/checkouts/:id', {
    POST: (request, reply) =>
      handle<Change>(g, request, reply, {
        operation: 'checkouts',
        respond: (value, ctx) => changeReply(value, ctx, idOf(request)),
        async run(ctx, params, alsoWrite) {
          const parsed = parseBody(g, params, parseCheckoutUpdate);
          if (!parsed.ok) return parsed.invalid;
          if (parsed.value.integrity === 'true' && !g.assets.ready) return { kind: 'unavailable' };
          return updateCheckout(g.deps, ctx, idOf(request), parsed.value, alsoWrite as never);
        },
      }),
    DELETE: (request, reply) =>
      handle<Change>(g, request, reply, {
        operation: 'checkouts',
        respond: (value, ctx) => changeReply(value, ctx, idOf(request)),
        run: (ctx, _params, alsoWrite) => cancelCheckout(g.deps, ctx, idOf(request), alsoWrite as never),
      }),
  });

  // The merchant reads the outcome: the payment once paid, otherwise the state's code. Reading
  // succeeds whatever the state, as for GET /v1/payments/{id}.
  const readPaymentStep = (request: FastifyRequest) => ({
    operation: 'reads' as const,
    run: (ctx: Context) => readCheckout(g.deps, ctx, idOf(request)),
    respond: (value: Stated | Refusal, ctx: Context): Reply => {
      if (value.kind !== 'state') return failure(ctx, idOf(request), value);
      if (value.state.name === 'paid') return { status: 200, body: paymentResponse(value.state.payment, ctx.entity, meta(g.buildNumber, g.deps.clock())) };
      // An asynchronous attempt that ended unsuccessfully after its redirect: its outcome is the answer.
      if ((value.state.name === 'open' || value.state.name === 'expired') && value.state.attempt) {
        return { status: 200, body: paymentResponse(value.state.attempt, ctx.entity, meta(g.buildNumber, g.deps.clock())) };
      }
      return { status: 200, body: stateBody(value) };
    },
  });

  // Every answer of the widget's calls carries CORS, also those no handler writes (a body that
  // could not be read, an error): otherwise the page could not even read why it failed.
  app.addHook('onRequest', async (request, reply) => {
    if (isWidgetCall(request.method, request.url)) reply.headers(CHECKOUT_CORS);
  });

  // The checkout-scoped steps: the caller is the checkout's entity, found from the id in the path.
  const asCheckout = (request: FastifyRequest, found: (checkout: Checkout) => void) => async (ndc: string): Promise<Caller | Reply> => {
    const checkout = await checkoutById(g.deps, idOf(request));
    const entity = checkout && g.merchants.entity(checkout.entityId);
    if (!checkout || !entity) return unknown(idOf(request), ndc);
    found(checkout);
    return { ctx: { entity, ndc: checkout.id }, keyScope: `checkout:${checkout.id}` };
  };

  /**
   * The answer to the page: no payment id, no account, nothing of the merchant's request. A
   * pending payment's redirect is its step (POST the parameters there); otherwise the result URL.
   */
  const attemptBody = (checkout: Checkout, payment: PaymentRecord, origin: string, redirect: boolean, step?: Redirect) => {
    const url = checkout.request.shopperResultUrl;
    return {
      result: resultOf(payment.resultCode),
      id: checkout.id,
      paymentBrand: payment.paymentBrand,
      ...(step ? { redirect: step } : redirect && url ? { redirect: { url: shopperRedirectUrl(origin, url, checkout.id) } } : {}),
      ...envelope(checkout.id),
    };
  };

  const payReply = (value: Attempt | Stated | Invalid, ctx: Context, id: string, origin: string): Reply => {
    if (value.kind === 'attempt') {
      const ok = isSuccess(value.payment.resultCode) || isPending(value.payment.resultCode);
      return { status: ok ? 200 : 400, body: attemptBody(value.checkout, value.payment, origin, ok, value.redirect ? redirectOf(origin, value.redirect) : undefined) };
    }
    // Already paid: 400 with the paid state, and where the shopper is to go, as the first answer had it.
    if (value.kind === 'state' && value.state.name === 'paid') return { status: 400, body: attemptBody(value.checkout, value.state.payment, origin, true) };
    if (value.kind === 'state') return refusedByState(value);
    return failure(ctx, id, value);
  };

  methods(app, g, '/v1/checkouts/:id/payment', {
    OPTIONS: preflight,
    GET: (request, reply) => handle(g, request, reply, readPaymentStep(request)),
    POST: (request, reply) => {
      let checkout: Checkout | undefined;
      return handleAs<Attempt | Stated | Invalid>(
        g,
        request,
        reply,
        asCheckout(request, (c) => (checkout = c)),
        {
          operation: 'widget',
          respond: (value, ctx) => payReply(value, ctx, idOf(request), originOf(request)),
          async run(ctx, params, alsoWrite) {
            const parsed = parseBody(g, params, parsePagePayment);
            if (!parsed.ok) return parsed.invalid;
            // This request is the shopper's browser's own: its headers are browser data 3-D Secure needs.
            const seen = seenBrowser({ accept: request.headers.accept, userAgent: request.headers['user-agent'] });
            return payCheckout(g.deps, ctx, checkout!, parsed.value, seen, alsoWrite as never);
          },
        },
      );
    },
  });

  // The registration the checkout's payment created: the registration response once paid, the
  // state's code before; a checkout paid without creating one answers 404 with 100.150.200.
  methods(app, g, '/v1/checkouts/:id/registration', {
    GET: (request, reply) =>
      handle<CheckoutRegistration | Stated | Refusal>(g, request, reply, {
        operation: 'reads',
        run: (ctx) => readCheckoutRegistration(g.deps, ctx, idOf(request)),
        respond: (value, ctx) => {
          if (value.kind === 'registration') {
            const { registration, payment, checkout } = value;
            const code = registration.status === 'active' ? payment.resultCode : '100.150.202';
            return { status: 200, body: registrationResponse({ kind: 'registration', registration, resultCode: code }, ctx.entity, meta(g.buildNumber, g.deps.clock()), checkout.id) };
          }
          if (value.kind !== 'state') return failure(ctx, idOf(request), value);
          if (value.state.name === 'paid') return { status: 404, body: { result: resultOf('100.150.200'), id: value.checkout.id, ...envelope(value.checkout.id) } };
          return { status: 200, body: stateBody(value) };
        },
      }),
  });

  const formReply = (value: FormData | Stated): Reply => {
    if (value.kind === 'state') return refusedByState(value);
    const { checkout, registrations } = value;
    const { amount, currency, paymentType } = checkout.request;
    const entity = g.merchants.entity(checkout.entityId);
    const wallet = entity && walletForm(g.deps, entity);
    return {
      status: 200,
      body: {
        result: resultOf('000.200.000'),
        id: checkout.id,
        amount: fromMinor(toMinor(amount)!),
        currency,
        paymentType,
        brands: entity?.brands ?? [],
        registrations: registrations.map(formRegistration),
        // What the wallets' Payment Request needs, when the entity offers a wallet.
        ...(wallet ? { wallet } : {}),
        // The page asks the shopper for what 3-D Secure 2 needs and the merchant did not send.
        billing: entity ? billingToAsk(entity, checkout.request) : [],
        // The checkout stores the account anyway: the form asks no shopper whether to save it.
        createRegistration: checkout.request.createRegistration === 'true',
        // The page asks for the holder of a saved account that has none (overrideHolder=true).
        overrideHolder: checkout.request.overrideHolder === 'true',
        expiresAt: responseTimestamp(new Date(checkout.expiresAt)),
        ...envelope(checkout.id),
      },
    };
  };

  // The hop of a redirect.url too long for the shopperResultUrl itself (shopperRedirectUrl): the
  // checkout id is the credential, as for the widget's calls; the merchant's URL is all it reveals.
  methods(app, g, '/v1/checkouts/:id/result', {
    GET: async (request, reply) => {
      const id = idOf(request);
      const checkout = await checkoutById(g.deps, id);
      const url = checkout?.request.shopperResultUrl;
      if (!checkout || !url) {
        const message = checkout ? 'id names a checkout without shopperResultUrl: there is no result URL to send the shopper to' : 'id names no checkout';
        const missing = errorBody('200.300.404', meta(g.buildNumber, g.deps.clock()), newNdc(), [{ name: 'id', value: id.slice(0, 64), message }]);
        return reply.code(404).header('cache-control', 'no-store').send(missing);
      }
      return reply.code(303).header('cache-control', 'no-store').header('location', resultUrl(url, checkout.id)).send();
    },
  });

  // The webview payment page: a standalone page (gateway origin, no token) holding the widget with
  // the form data inline, so that a second load renders offline from the service worker's cache.
  methods(app, g, '/v1/checkouts/:id/page', {
    GET: async (request, reply) => {
      const ndc = newNdc();
      const checkout = await checkoutById(g.deps, idOf(request));
      const entity = checkout && g.merchants.entity(checkout.entityId);
      const json = (r: Reply) => reply.code(r.status).header('cache-control', 'no-store').send(r.body);
      if (!checkout || !entity) return json(unknown(idOf(request), ndc));
      if (!(await g.throttle.allow(`checkout:${checkout.id}`, 'widget', entity.throttle.perSecond))) {
        reply.headers(TRY_LATER_HEADERS);
        return json({ status: 429, body: tryLaterBody(meta(g.buildNumber, g.deps.clock()), ndc, g.deps.newId()) });
      }
      if (!g.assets.ready) return json(unavailable(ndc));
      const action = checkout.request.shopperResultUrl;
      if (!action) {
        return json({
          status: 400,
          body: errorBody('200.300.404', meta(g.buildNumber, g.deps.clock()), checkout.id, [
            { name: 'shopperResultUrl', value: '', message: 'shopperResultUrl is required for the webview page: the checkout has none to send the shopper (and the app) to at the end' },
          ]),
        });
      }
      const form = formReply(await formOf(g.deps, checkout));
      const widget = g.assets.files['paymentWidgets.js'];
      const webview = optionalAsset(g.assets, 'webview.js');
      const locale = checkout.request.locale && /^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8}){0,3}$/.test(checkout.request.locale) ? checkout.request.locale.replace(/_/g, '-') : 'en';
      // The widget takes its locale from this page's lang: its texts start loading with the page.
      const language = localeOf(locale);
      const texts = language && g.assets.locales.get(language);
      // Titled and directed from the first paint as webview.js does once the widget is ready: in
      // the widget's language (the locale file's texts, English without one), not English under a lang of another.
      const strings = stringsFor(texts ? localeTexts(texts) : undefined);
      const rtl = language !== undefined && texts !== undefined && dirOf(resolveLocale(language)) === 'rtl';
      const html = `<!doctype html>
<html lang="${escapeHtml(locale)}"${rtl ? ' dir="rtl"' : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>${escapeHtml(strings.method)}</title>
<link rel="stylesheet" href="/v1/frames/pages.css">
${texts ? `${localePreload(language, texts)}\n` : ''}${scriptTag('/v1/paymentWidgets.js', widget)}
${webview ? `${scriptTag('/v1/webview.js', webview)}\n` : ''}</head>
<body class="webview">
<main>
<payment-widget checkout-id="${escapeHtml(checkout.id)}" action="${escapeHtml(action)}" data-form="${escapeHtml(JSON.stringify(form.body))}"></payment-widget>
</main>
</body>
</html>
`;
      return sendPage(reply, html, WEBVIEW_CSP);
    },
  });

  methods(app, g, '/v1/checkouts/:id/form', {
    OPTIONS: preflight,
    GET: (request, reply) => {
      let checkout: Checkout | undefined;
      return handleAs<FormData | Stated>(g, request, reply, asCheckout(request, (c) => (checkout = c)), {
        operation: 'widget',
        run: () => formOf(g.deps, checkout!),
        respond: formReply,
      });
    },
  });

  // Apple Pay's merchant validation: the session Safari's payment sheet needs before it opens.
  methods(app, g, '/v1/checkouts/:id/applePaySession', {
    OPTIONS: preflight,
    POST: (request, reply) => {
      let checkout: Checkout | undefined;
      return handleAs<MerchantSession | Stated | Invalid | Refusal>(g, request, reply, asCheckout(request, (c) => (checkout = c)), {
        operation: 'widget',
        async run(ctx, params) {
          const parsed = parseBody(g, params, parseMerchantSession);
          if (!parsed.ok) return parsed.invalid;
          return merchantSession(g.deps, ctx.entity, checkout!, { validationUrl: parsed.value.validationUrl, origin: request.headers.origin });
        },
        respond: (value, ctx) => {
          if (value.kind === 'merchantSession') return { status: 200, body: { result: resultOf(successCode(g.deps.env, null)), id: checkout!.id, merchantSession: value.session, ...envelope(checkout!.id) } };
          if (value.kind === 'state') return refusedByState(value);
          return failure(ctx, idOf(request), value);
        },
      });
    },
  });

}
