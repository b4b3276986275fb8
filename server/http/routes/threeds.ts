// 3-D Secure and provider redirects (docs/threeds-protocol.md).
// The merchant's endpoints (token):
//   POST /v1/threeDSecure · GET /v1/threeDSecure/{id}
// The shopper's pages (the step id and its token are the credential; no cookies):
//   POST /v1/threeds/{id}/authenticate    token → the authentication page (runs the method URL)
//   POST /v1/threeds/{id}/method          the simulated ACS's method URL (hidden frame)
//   POST /v1/threeds/{id}/method/notify   the gateway's method notification: data-threeds-method="done"
//   POST /v1/threeds/{id}/continue        token, threeDSCompInd → the challenge request, or 303 to complete
//   POST /v1/threeds/{id}/challenge       creq, threeDSSessionData [, action] → the simulated ACS's challenge page; its answer
//   POST /v1/threeds/{id}/cancel          token → ends the authentication as cancelled (the widget's Cancel); 303 to complete
//   GET  /v1/threeds/{id}/complete        the completion page: data-result-url, which threeds.js opens at the top level
//   GET  /v1/threeds/{id}/result          the gateway's result page (no shopperResultUrl)
//   POST /v1/providers/{id}/pay           token [, action] → the simulated provider's page; its answer
//   GET  /v1/providers/{id}/complete      303 to the result URL
//   GET  /v1/providers/{id}/result        the gateway's result page
//   GET  /v1/frames/threeds.js · GET /v1/frames/pages.css
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { newNdc } from '../../ids.ts';
import { fromMinor } from '../../money.ts';
import { isPending, isSuccess, type ResultCode } from '../../results.ts';
import { parseAuthentication } from '../../schema/authentication.ts';
import { authenticate, readAuthentication, type Authentication } from '../../threeds/standalone.ts';
import { CHALLENGE_ACTIONS, methodSignals, VERSION, type ChallengeAction, type MethodCompletion } from '../../threeds/directory.ts';
import {
  answerChallenge,
  answerProvider,
  cancelAuthentication,
  continueAfterMethod,
  current,
  PROVIDER_ACTIONS,
  resultOfStep,
  stepById,
  tokenMatches,
  type ProviderAction,
  type Step,
} from '../../threeds/steps.ts';
import type { Context, Invalid, Refusal } from '../../payments/deps.ts';
import { resultOf } from '../../payments/response.ts';
import { errorBody, meta, TRY_LATER_HEADERS, tryLaterBody, type Reply } from '../envelope.ts';
import { failureReply, redirectOf, withRedirect } from '../outcomes.ts';
import type { ParamError } from '../params.ts';
import { bodyOf, handle, type Gateway } from '../pipeline.ts';
import { failureReason, pageAmount, pageLocale, resultHeading, type PageLocale } from '../pageTexts.ts';
import { ACS_PAGE_CSP, escapeHtml, htmlPage, originOf, PAGES_CSS, providerCsp, RESULT_PAGE_CSP, sendPage, THREEDS_PAGE_CSP } from '../pages.ts';
import { cacheControlFor, NOT_BUILT, notBuiltFile, optionalAsset, type Asset } from '../widgetAssets.ts';
import { resultUrlWith } from '../../schema/asynchronous.ts';
import { resultUrl } from './checkouts.ts';
import { methods, parseBody } from './common.ts';
import { sendStatic } from '../staticAnswer.ts';

const THREEDS_SCRIPT = '/v1/frames/threeds.js';
/** How often a page waiting for the payment to be decided asks again (its data-wait). */
const WAIT_MS = 2000;

/** base64url of a JSON message (threeDSMethodData, creq), as EMV 3-D Secure encodes them. */
const encoded = (message: Record<string, string>) => Buffer.from(JSON.stringify(message)).toString('base64url');

/** The 3-D Secure server's transaction id: the step id in the form of a UUID. */
const serverTransactionId = (id: string) => `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;

/** Where the shopper goes at the end: shopperResultUrl with id and resourcePath, or the gateway's own result page. */
export function resultUrlOf(origin: string, step: Step): string {
  const url = step.data.shopperResultUrl;
  if (!url) return `${origin}/v1/${step.kind === 'provider' ? 'providers' : 'threeds'}/${step.id}/result`;
  if (step.checkoutId) return resultUrl(url, step.checkoutId);
  if (step.kind === 'standalone' || !step.paymentId) return resultUrlWith(url, step.id, `/v1/threeDSecure/${step.id}`);
  return resultUrlWith(url, step.paymentId, `/v1/payments/${step.paymentId}`);
}

/** The merchant's answer for a standalone authentication. */
function authenticationBody(g: Gateway, step: Step, redirect?: ReturnType<typeof redirectOf>): Record<string, unknown> {
  const m = meta(g.buildNumber, g.deps.clock());
  const d = step.data;
  const body = {
    id: step.id,
    paymentBrand: step.paymentBrand,
    amount: d.amount,
    currency: d.currency,
    result: resultOf(step.resultCode ?? '000.200.000'),
    ...d.details,
    threeDSecure: d.threeDSecure,
    buildNumber: m.buildNumber,
    timestamp: m.timestamp,
    ndc: d.ndc ?? newNdc(),
  };
  return redirect ? withRedirect(body, redirect) : body;
}

export function threedsRoutes(app: FastifyInstance, g: Gateway) {
  const m = () => meta(g.buildNumber, g.deps.clock());
  const jsonError = (reply: FastifyReply, status: number, code: ResultCode, errors: ParamError[] = [], extra: Record<string, string> = {}) =>
    reply.code(status).header('cache-control', 'no-store').send({ ...errorBody(code, m(), newNdc(), errors), ...extra });
  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;
  const field = (request: FastifyRequest, name: string): string | undefined => bodyOf(request).params[name];

  /** The script the acting pages run; 503 (what to build) when the build has none. */
  const threedsScript = (reply: FastifyReply): Asset | FastifyReply => {
    const asset = optionalAsset(g.assets, 'threeds.js');
    if (asset) return asset;
    return jsonError(reply, 503, '999.999.999', [], { message: g.assets.ready ? notBuiltFile('threeds.js') : NOT_BUILT });
  };

  /**
   * The step a page names, of the right family, throttled as the widget's calls are; with
   * `credential`, the token must match. Otherwise it answers (400, 404, 403, 429) by itself and
   * gives undefined: an async function cannot give the reply back, which is a thenable.
   */
  const stepOf = async (request: FastifyRequest, reply: FastifyReply, family: 'threeds' | 'provider', credential?: string): Promise<Step | undefined> => {
    const refuse = (status: number, code: ResultCode, errors: ParamError[] = []): undefined => void jsonError(reply, status, code, errors);
    // A body that could not be read as sent (a parameter twice, …) is refused, naming it.
    const unreadable = bodyOf(request).errors;
    if (unreadable.length) return refuse(400, '200.300.404', unreadable.map((e) => ({ ...e, value: e.value.slice(0, 64) })));
    const step = await stepById(g.deps, idOf(request));
    const ours = step && (family === 'provider' ? step.kind === 'provider' : step.kind !== 'provider');
    if (!step || !ours) return refuse(404, '200.300.404', [{ name: 'id', value: idOf(request).slice(0, 64), message: `id names no ${family === 'provider' ? 'provider approval' : 'authentication'}` }]);
    const entity = g.merchants.entity(step.entityId);
    if (entity && !(await g.throttle.allow(`step:${step.id}`, 'widget', entity.throttle.perSecond))) {
      return void reply.code(429).headers(TRY_LATER_HEADERS).send(tryLaterBody(m(), newNdc(), g.deps.newId()));
    }
    if (credential !== undefined) {
      const token = field(request, credential);
      if (!tokenMatches(step, token)) {
        return refuse(403, '800.900.300', [{ name: credential, value: '', message: `${credential} ${token === undefined ? 'is required' : 'does not match this authentication'}` }]);
      }
    }
    return step;
  };
  const isReply = (value: unknown): value is FastifyReply => typeof value === 'object' && value !== null && 'sent' in value && 'code' in value;

  const completeUrl = (step: Step) => `/v1/${step.kind === 'provider' ? 'providers' : 'threeds'}/${step.id}/complete`;
  const toComplete = (reply: FastifyReply, step: Step) => reply.code(303).header('location', completeUrl(step)).header('cache-control', 'no-store').send();

  /** The language of the shopper's page (server/http/pageTexts.ts). */
  const localeOf = (request: FastifyRequest, step: Step): PageLocale => pageLocale(step.data.languages ?? [], request.headers['accept-language']);

  /**
   * A page while the payment is being decided. threeds.js asks for it again every 2 s and loads
   * it once the answer is another: a page reloading itself went back to its top every 2 s, and a
   * screen reader read it again from there (WCAG 2.2.1, F41). Without script it reloads itself.
   */
  const inProgress = (reply: FastifyReply, { lang, dir, texts }: PageLocale) => {
    const script = optionalAsset(g.assets, 'threeds.js');
    const refresh = '<meta http-equiv="refresh" content="2">';
    const html = htmlPage({
      title: texts.checking,
      lang,
      dir,
      head: script ? `<noscript>${refresh}</noscript>\n` : `${refresh}\n`,
      ...(script ? { data: { wait: String(WAIT_MS) }, script: { path: THREEDS_SCRIPT, asset: script } } : {}),
      body: `<main>\n<h1>${escapeHtml(texts.checking)}</h1>\n<p role="status">${escapeHtml(texts.wait)}</p>\n</main>`,
    });
    return sendPage(reply, html, script ? THREEDS_PAGE_CSP : RESULT_PAGE_CSP, 409);
  };

  /** The challenge request: threeds.js POSTs creq to the ACS's challenge URL in this window. */
  const challengeRequest = (reply: FastifyReply, step: Step, token: string, script: Asset, { lang, dir, texts }: PageLocale) => {
    const ids = step.data.ids;
    const creq = encoded({
      threeDSServerTransID: serverTransactionId(step.id),
      acsTransID: ids?.acsTransactionId ?? '',
      messageType: 'CReq',
      messageVersion: VERSION,
      challengeWindowSize: (step.data.challengeWindow ?? '5').padStart(2, '0'),
    });
    const html = htmlPage({
      title: '3-D Secure',
      lang,
      dir,
      data: { 'post-url': `/v1/threeds/${step.id}/challenge`, 'post-fields': JSON.stringify({ creq, threeDSSessionData: token }) },
      script: { path: THREEDS_SCRIPT, asset: script },
      body: `<main>\n<p role="status">${escapeHtml(texts.opening)}</p>\n</main>`,
    });
    return sendPage(reply, html, THREEDS_PAGE_CSP);
  };

  // The shopper's browser POSTs redirect.parameters here (form, at the top level or in a frame).
  methods(app, g, '/v1/threeds/:id/authenticate', {
    POST: async (request, reply) => {
      const found = await stepOf(request, reply, 'threeds', 'token');
      if (!found) return reply;
      const script = threedsScript(reply);
      if (isReply(script)) return script;
      const step = await current(g.deps, found);
      const token = field(request, 'token')!;
      const locale = localeOf(request, step);
      if (step.status === 'challenge') return challengeRequest(reply, step, token, script, locale);
      if (step.status !== 'method') return toComplete(reply, step);
      const methodData = encoded({
        threeDSServerTransID: serverTransactionId(step.id),
        threeDSMethodNotificationURL: `${originOf(request)}/v1/threeds/${step.id}/method/notify`,
      });
      const html = htmlPage({
        title: '3-D Secure',
        lang: locale.lang,
        dir: locale.dir,
        data: { 'continue-url': `/v1/threeds/${step.id}/continue`, token, 'method-url': `/v1/threeds/${step.id}/method`, 'method-data': methodData },
        script: { path: THREEDS_SCRIPT, asset: script },
        body: `<main>\n<p role="status">${escapeHtml(locale.texts.withBank)}</p>\n</main>`,
      });
      return sendPage(reply, html, THREEDS_PAGE_CSP);
    },
  });

  // The simulated ACS's method URL, in a hidden frame: it notifies the gateway when done, except
  // for the method-timeout card, whose page never does (the authentication page waits 10 s).
  methods(app, g, '/v1/threeds/:id/method', {
    POST: async (request, reply) => {
      const step = await stepOf(request, reply, 'threeds');
      if (!step) return reply;
      const methodData = field(request, 'threeDSMethodData') ?? '';
      if (!methodSignals(step.path)) {
        return sendPage(reply, htmlPage({ title: 'Issuer method', data: { 'threeds-acs': 'method' }, body: '<main></main>' }), THREEDS_PAGE_CSP);
      }
      const script = threedsScript(reply);
      if (isReply(script)) return script;
      const html = htmlPage({
        title: 'Issuer method',
        data: { 'threeds-acs': 'method', 'post-url': `/v1/threeds/${step.id}/method/notify`, 'post-fields': JSON.stringify({ threeDSMethodData: methodData }) },
        script: { path: THREEDS_SCRIPT, asset: script },
        body: '<main></main>',
      });
      return sendPage(reply, html, THREEDS_PAGE_CSP);
    },
  });

  methods(app, g, '/v1/threeds/:id/method/notify', {
    POST: async (request, reply) => {
      const step = await stepOf(request, reply, 'threeds');
      if (!step) return reply;
      return sendPage(reply, htmlPage({ title: 'Issuer method', data: { 'threeds-method': 'done' }, body: '<main></main>' }), THREEDS_PAGE_CSP);
    },
  });

  // The authentication page tells how the method went: the challenge follows, or the end.
  methods(app, g, '/v1/threeds/:id/continue', {
    POST: async (request, reply) => {
      const step = await stepOf(request, reply, 'threeds', 'token');
      if (!step) return reply;
      const completion = field(request, 'threeDSCompInd');
      if (completion !== 'Y' && completion !== 'N' && completion !== 'U') {
        return jsonError(reply, 400, '200.300.404', [{ name: 'threeDSCompInd', value: (completion ?? '').slice(0, 8), message: 'threeDSCompInd must be Y, N or U' }]);
      }
      const next = await continueAfterMethod(g.deps, step, completion as MethodCompletion);
      if (next.kind !== 'challenge') return toComplete(reply, next.step);
      const script = threedsScript(reply);
      if (isReply(script)) return script;
      return challengeRequest(reply, next.step, field(request, 'token')!, script, localeOf(request, next.step));
    },
  });

  // The simulated issuer's challenge: approve, fail or cancel (plain forms: no script at all).
  methods(app, g, '/v1/threeds/:id/challenge', {
    POST: async (request, reply) => {
      const found = await stepOf(request, reply, 'threeds', 'threeDSSessionData');
      if (!found) return reply;
      const action = field(request, 'action');
      if (action !== undefined) {
        if (!(CHALLENGE_ACTIONS as readonly string[]).includes(action)) {
          return jsonError(reply, 400, '200.300.404', [{ name: 'action', value: action.slice(0, 16), message: `action must be one of ${CHALLENGE_ACTIONS.join(', ')}` }]);
        }
        return toComplete(reply, await answerChallenge(g.deps, found, action as ChallengeAction));
      }
      const step = await current(g.deps, found);
      if (step.status === 'completing' || step.status === 'done') return toComplete(reply, step);
      if (step.status !== 'challenge') return jsonError(reply, 409, '000.200.000', [{ name: 'id', value: step.id, message: 'the authentication has not reached its challenge yet' }]);
      const { amount, currency, account, merchantName } = step.data;
      const last4 = (account.card as { last4Digits?: string } | undefined)?.last4Digits;
      const body = `<main>
<p class="issuer">Simulated issuer · 3-D Secure</p>
<h1>Confirm your payment</h1>
<p><span class="amount">${escapeHtml(amount)} ${escapeHtml(currency)}</span> to ${escapeHtml(merchantName)}</p>
${last4 ? `<p>${escapeHtml(step.paymentBrand)} card ending ${escapeHtml(last4)}</p>\n` : ''}<p class="hint">Test issuer: choose how the check ends.</p>
<form method="post" action="/v1/threeds/${step.id}/challenge">
<input type="hidden" name="threeDSSessionData" value="${escapeHtml(field(request, 'threeDSSessionData')!)}">
<div class="actions">
<button class="primary" type="submit" name="action" value="approve">Approve</button>
<button type="submit" name="action" value="fail">Fail the check</button>
<button type="submit" name="action" value="cancel">Cancel</button>
</div>
</form>
</main>`;
      return sendPage(reply, htmlPage({ title: 'Confirm your payment', data: { 'threeds-acs': 'challenge' }, body }), ACS_PAGE_CSP);
    },
  });

  // The shopper cancels from the page around the challenge (the widget's Cancel under its frame):
  // the gateway ends its own step, whatever the issuer's page shows meanwhile.
  methods(app, g, '/v1/threeds/:id/cancel', {
    POST: async (request, reply) => {
      const found = await stepOf(request, reply, 'threeds', 'token');
      if (!found) return reply;
      return toComplete(reply, await cancelAuthentication(g.deps, found));
    },
  });

  // The end of an authentication: threeds.js sends the top-level page to the result URL; the
  // link does the same without the script.
  methods(app, g, '/v1/threeds/:id/complete', {
    GET: async (request, reply) => {
      const found = await stepOf(request, reply, 'threeds');
      if (!found) return reply;
      const step = await current(g.deps, found);
      const { lang, dir, texts } = localeOf(request, step);
      if (step.status !== 'done') return inProgress(reply, { lang, dir, texts });
      const target = resultUrlOf(originOf(request), step);
      const script = optionalAsset(g.assets, 'threeds.js');
      const html = htmlPage({
        title: texts.finished,
        lang,
        dir,
        data: { 'result-url': target },
        ...(script ? { script: { path: THREEDS_SCRIPT, asset: script } } : {}),
        body: `<main>\n<p role="status">${escapeHtml(texts.finished)}</p>\n<p><a class="button primary" href="${escapeHtml(target)}" target="_top">${escapeHtml(texts.continue)}</a></p>\n</main>`,
      });
      return sendPage(reply, html, THREEDS_PAGE_CSP);
    },
  });

  /** The gateway's own result page: for payments and authentications with no shopperResultUrl. */
  const resultPage = async (request: FastifyRequest, reply: FastifyReply, family: 'threeds' | 'provider') => {
    const found = await stepOf(request, reply, family);
    if (!found) return reply;
    const step = await current(g.deps, found);
    const { lang, dir, texts } = localeOf(request, step);
    if (step.status !== 'done') return inProgress(reply, { lang, dir, texts });
    const { code, payment } = await resultOfStep(g.deps, step);
    const heading = resultHeading(texts, code, step.kind === 'standalone');
    const reason = failureReason(texts, code);
    const amount = payment ? fromMinor(payment.amountMinor) : step.data.amount;
    // The catalogue's description stays in English beside the code: it is for the merchant's support.
    const body = `<main>
<h1>${escapeHtml(heading)}</h1>
<p><bdi class="amount">${escapeHtml(pageAmount(amount, step.data.currency, lang))}</bdi> · <bdi>${escapeHtml(step.data.merchantName)}</bdi></p>
${reason ? `<p>${escapeHtml(reason)}</p>\n` : ''}<p class="code" lang="en" dir="ltr">${escapeHtml(code)} · ${escapeHtml(resultOf(code).description ?? '')}</p>
</main>`;
    return sendPage(reply, htmlPage({ title: heading, lang, dir, data: { 'result-code': code }, body }), RESULT_PAGE_CSP);
  };
  methods(app, g, '/v1/threeds/:id/result', { GET: (request, reply) => resultPage(request, reply, 'threeds') });
  methods(app, g, '/v1/providers/:id/result', { GET: (request, reply) => resultPage(request, reply, 'provider') });

  // The simulated provider (wallet or bank): approve or cancel; it refuses to be framed.
  methods(app, g, '/v1/providers/:id/pay', {
    POST: async (request, reply) => {
      const found = await stepOf(request, reply, 'provider', 'token');
      if (!found) return reply;
      const action = field(request, 'action');
      if (action !== undefined) {
        if (!(PROVIDER_ACTIONS as readonly string[]).includes(action)) {
          return jsonError(reply, 400, '200.300.404', [{ name: 'action', value: action.slice(0, 16), message: `action must be one of ${PROVIDER_ACTIONS.join(', ')}` }]);
        }
        return toComplete(reply, await answerProvider(g.deps, found, action as ProviderAction));
      }
      const step = await current(g.deps, found);
      if (step.status !== 'provider') return toComplete(reply, step);
      const { amount, currency, account, merchantName } = step.data;
      const transfer = account.bankAccount as { holder?: string; country?: string } | undefined;
      const wallet = account.virtualAccount as { accountId?: string } | undefined;
      const provider = transfer ? 'Simulated online banking' : `Simulated ${step.paymentBrand}`;
      const who = wallet?.accountId ? `Account ${escapeHtml(wallet.accountId)}` : transfer ? `Bank account of ${escapeHtml(transfer.holder ?? '')}${transfer.country ? ` (${escapeHtml(transfer.country)})` : ''}` : '';
      const body = `<main>
<p class="issuer">${escapeHtml(provider)}</p>
<h1>Approve the payment</h1>
<p><span class="amount">${escapeHtml(amount)} ${escapeHtml(currency)}</span> to ${escapeHtml(merchantName)}</p>
${who ? `<p>${who}</p>\n` : ''}<p class="hint">Test provider: approve or cancel.</p>
<form method="post" action="/v1/providers/${step.id}/pay">
<input type="hidden" name="token" value="${escapeHtml(field(request, 'token')!)}">
<div class="actions">
<button class="primary" type="submit" name="action" value="approve">Approve</button>
<button type="submit" name="action" value="cancel">Cancel</button>
</div>
</form>
</main>`;
      const html = htmlPage({ title: 'Approve the payment', data: { provider: step.paymentBrand }, body });
      return sendPage(reply, html, providerCsp(step.data.shopperResultUrl ? resultUrlOf(originOf(request), step) : undefined), 200, { 'x-frame-options': 'DENY' });
    },
  });

  // The provider's page is always at the top level: the end is a plain redirect to the result.
  methods(app, g, '/v1/providers/:id/complete', {
    GET: async (request, reply) => {
      const found = await stepOf(request, reply, 'provider');
      if (!found) return reply;
      const step = await current(g.deps, found);
      if (step.status !== 'done') return inProgress(reply, localeOf(request, step));
      return reply.code(303).header('location', resultUrlOf(originOf(request), step)).header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').send();
    },
  });

  methods(app, g, '/v1/frames/threeds.js', {
    GET: async (request, reply) => {
      const asset = threedsScript(reply);
      if (isReply(asset)) return asset;
      return sendStatic(request, reply, asset, { 'content-type': 'application/javascript; charset=utf-8', 'access-control-allow-origin': '*', 'cache-control': cacheControlFor(request.query, asset.version) });
    },
  });

  methods(app, g, '/v1/frames/pages.css', {
    GET: async (_request, reply) =>
      reply.code(200).headers({ 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=3600' }).send(PAGES_CSS),
  });

  // Standalone authentication: the merchant's token, like a payment.
  type Standalone = Authentication | Invalid | Refusal;
  const standaloneReply = (request: FastifyRequest) => (value: Standalone, ctx: Context): Reply => {
    if (value.kind !== 'authentication') return failureReply(g, ctx, value);
    const code = value.step.resultCode ?? '000.200.000';
    const ok = isSuccess(code) || isPending(code);
    return { status: ok ? 200 : 400, body: authenticationBody(g, value.step, value.redirect ? redirectOf(originOf(request), value.redirect) : undefined) };
  };

  methods(app, g, '/v1/threeDSecure', {
    POST: (request, reply) =>
      handle<Standalone>(g, request, reply, {
        operation: 'payments',
        respond: standaloneReply(request),
        async run(ctx, params, alsoWrite) {
          const parsed = parseBody(g, params, parseAuthentication);
          if (!parsed.ok) return parsed.invalid;
          return authenticate(g.deps, ctx, parsed.value, alsoWrite as never);
        },
      }),
  });

  methods(app, g, '/v1/threeDSecure/:id', {
    GET: (request, reply) =>
      handle<Authentication | Refusal>(g, request, reply, {
        operation: 'reads',
        run: (ctx) => readAuthentication(g.deps, ctx, idOf(request)),
        // Reading succeeds whatever the authentication's own result was.
        respond: (value, ctx) => (value.kind === 'authentication' ? { status: 200, body: authenticationBody(g, value.step) } : failureReply(g, ctx, value)),
      }),
  });
}
