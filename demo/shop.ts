// The demo shop: what a merchant builds around the gateway. Its server creates a checkout with
// the merchant's token, its page embeds the script tag with the integrity hash under a strict
// Content-Security-Policy, its result page reads the outcome server-side. The playground lists
// the simulator's test data and runs server-to-server payments and a subscription (a schedule).
//
// Query options of the shop page (the playground links them): amount=, flow= (the simulator's
// 3-D Secure path, customParameters[3DS2_flow]), topLevel=1 (the challenge at the top level,
// read by assets/options.js), registration= (a registration id of the entity: the form offers
// that saved card), billing=ask (the checkout carries no billing address: the form asks the
// shopper for what 3-D Secure 2 needs), save=ask (wpwlOptions.registrations.askToSave: the forms ask
// the shopper whether to save the card or account), wallets=1 (the page offers the wallets too: a button for each
// the browser can pay with, through the Payment Request API). /transfer pays by online transfer server-to-server (the shopper follows the
// gateway's redirect with a plain form), /app opens the gateway's webview page the way a shop's
// app would. /reference is the gateway's API reference, read from its OpenAPI document.
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CHECKOUT_ID } from '../server/checkouts/checkouts.ts';
import { isPending, isSuccess } from '../server/results.ts';
import { declineAmounts, testCards } from '../server/simulator/testCards.ts';
import { VALID_HOST, WALLET_CONNECT_SOURCES } from '../server/http/pages.ts';
import { layout, escape, resultPage, shopPage, playgroundPage, transferPage } from './pages.ts';
import { referencePage } from './reference.ts';
import { DemoReceiver, RECEIVER_PATH, webhooksPage } from './webhooks.ts';

export interface DemoShopOptions {
  /** Where the shop's server reaches the gateway. */
  gatewayUrl: () => string;
  /** The gateway origin the shopper's browser uses (script, frames). */
  publicGatewayUrl?: (request: FastifyRequest) => string;
  token: string;
  entityId: string;
  /** Brands the shop offers on its payment form. */
  brands?: string;
}

const ASSETS: Record<string, { type: string; body: Buffer }> = {
  'shop.css': { type: 'text/css; charset=utf-8', body: readFileSync(new URL('./assets/shop.css', import.meta.url)) },
  'options.js': { type: 'application/javascript; charset=utf-8', body: readFileSync(new URL('./assets/options.js', import.meta.url)) },
};

const AMOUNT = /^\d{1,10}\.\d{2}$/;
/** The simulator's 3-D Secure paths (docs/threeds-protocol.md). */
const FLOWS = new Set(['frictionless', 'attempt', 'challenge', 'error', 'notEnrolled', 'methodTimeout']);
/** The wallets the shop page offers with wallets=1 (those of the entity show, docs/widget-protocol.md). */
const WALLET_BRANDS = 'APPLEPAY GOOGLEPAY SAMSUNGPAY';
/** A registration id, as the shop page's registration= gives it. */
const REGISTRATION_ID = /^[0-9a-f]{32}$/;
/** A result the shop's server may read: its checkouts' payments and its server-to-server payments. */
const RESOURCE_PATH = /^\/v1\/(checkouts\/[0-9a-z.-]{32,48}|payments\/[0-9a-f]{32})(\/payment)?$/;
/** The app's own scheme, for the webview page's result (merchant.app.schemeUrl of the checkout). */
export const APP_SCHEME_URL = 'demoshop://';

/** The shopper's billing address: 3-D Secure 2 needs street, city, postcode and country. */
const BILLING = { 'billing.street1': 'Hauptstrasse 1', 'billing.city': 'Berlin', 'billing.postcode': '10115', 'billing.country': 'DE' };

/** The form fields of a POST, whether the host app parsed them or left the raw text. */
function formOf(body: unknown): URLSearchParams {
  if (typeof body === 'string') return new URLSearchParams(body);
  if (body && typeof body === 'object' && 'params' in body) return new URLSearchParams((body as { params: Record<string, string> }).params);
  return new URLSearchParams();
}

export function shopOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * Where the gateway, on this machine, reaches the shop's own server: its listening address,
 * never the Host a browser sent (which would let anyone move the shop's webhooks elsewhere).
 */
function ownUrl(app: FastifyInstance): string {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the shop is not listening on a TCP port');
  const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** The API reference pages kept, one per gateway origin the browsers use. */
const REFERENCE_PAGES = 4;

/** The page's policy: scripts and frames from the gateway only (and the shop's own result page, where a challenge framed by a sandbox ends), no inline code, Trusted Types. */
export function shopCsp(gateway: string, formTargets: string[] = []): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${gateway}`,
    `frame-src 'self' ${gateway}`,
    // The wallets' identifiers too: Chromium refuses a PaymentRequest whose identifier connect-src does not allow.
    `connect-src 'self' ${gateway} ${WALLET_CONNECT_SOURCES}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action 'self' ${[gateway, ...formTargets].join(' ')}`,
    "require-trusted-types-for 'script'",
  ].join('; ');
}

export async function demoShop(app: FastifyInstance, options: DemoShopOptions) {
  // The shop's pages put their origin (the Host) into their policy and URLs: host[:port] only.
  app.addHook('onRequest', async (request, reply) => {
    if (!VALID_HOST.test(request.host ?? '')) return reply.code(400).send({ error: 'Host must be a host name or address, with an optional port' });
  });
  const brands = options.brands ?? 'VISA MASTER AMEX DIRECTDEBIT_SEPA';
  const publicGateway = options.publicGatewayUrl ?? ((request: FastifyRequest) => shopOrigin(request));

  const gateway = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(options.gatewayUrl() + path, {
      ...init,
      headers: { authorization: `Bearer ${options.token}`, ...(init.body ? { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' } : {}) },
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  /** What every demo order sends: the demo entity, a EUR debit, a fresh merchantTransactionId. */
  const order = (prefix: string, amount = '92.00') => ({
    entityId: options.entityId,
    amount,
    currency: 'EUR',
    paymentType: 'DB',
    merchantTransactionId: `${prefix}-${Date.now()}`,
  });

  const html = (reply: FastifyReply, body: string, csp: string) =>
    reply.header('content-type', 'text/html; charset=utf-8').header('content-security-policy', csp).header('cache-control', 'no-store').send(body);

  // One checkout per order, as a real shop keeps one per cart: the first visit makes it and puts
  // it into the page's address, so Back and reload come to the same order (paid, its result;
  // being paid, says so) rather than to a new one the shopper could pay again.
  /** The widget script's integrity, as the gateway last gave it (one per build): a checkout waiting at 3-D Secure gives none. */
  let widgetIntegrity: string | undefined;
  app.get('/', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const amount = query.amount && AMOUNT.test(query.amount) ? query.amount : '92.00';
    const origin = shopOrigin(request);
    const gw = publicGateway(request);
    const { order: orderId, ...rest } = query;
    // The rest of the address (amount, flow, billing, …) is what the order is made of.
    const made = Object.entries(rest).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
    const newOrder = () => `/?${new URLSearchParams(made)}`.replace(/\?$/, '');
    if (orderId === undefined || !CHECKOUT_ID.test(orderId)) {
      const checkout = await gateway('/v1/checkouts', {
        method: 'POST',
        body: new URLSearchParams({
          ...order('demo', amount),
          shopperResultUrl: `${origin}/result`,
          ...(query.billing !== 'ask' && BILLING),
          ...(query.flow && FLOWS.has(query.flow) && { 'customParameters[3DS2_flow]': query.flow }),
          ...(query.registration && REGISTRATION_ID.test(query.registration) && { 'registrations[0].id': query.registration }),
        }),
      });
      if (checkout.status !== 200) {
        return html(reply.code(502), layout('Checkout unavailable', `<p>The gateway refused the checkout: ${escape(JSON.stringify(checkout.body.result))}</p>`), shopCsp(gw));
      }
      return reply.header('cache-control', 'no-store').redirect(`/?${new URLSearchParams([...made, ['order', checkout.body.id]])}`, 303);
    }
    const pageBrands = query.wallets === '1' ? `${WALLET_BRANDS} ${brands}` : brands;
    const page = (integrity: string) => html(reply, shopPage({ gateway: gw, checkoutId: orderId, integrity, amount, brands: pageBrands, action: `${origin}/result` }), shopCsp(gw));
    // The order's checkout, still open: asked again for the script's integrity (a change of nothing).
    const checkout = await gateway(`/v1/checkouts/${encodeURIComponent(orderId)}`, { method: 'POST', body: new URLSearchParams({ entityId: options.entityId, integrity: 'true' }) });
    if (checkout.status === 200) return page((widgetIntegrity = checkout.body.integrity));
    if (checkout.status !== 400 && checkout.status !== 404 && checkout.status !== 409) {
      return html(reply.code(502), layout('Checkout unavailable', `<p>The gateway could not be asked about this order: ${escape(JSON.stringify(checkout.body.result))}. Reload in a moment.</p>`), shopCsp(gw));
    }
    const payment = await gateway(`/v1/checkouts/${encodeURIComponent(orderId)}/payment?entityId=${options.entityId}`);
    const code = String(payment.body.result?.code ?? '');
    if (payment.status === 200 && isSuccess(code)) {
      return reply.header('cache-control', 'no-store').redirect(`/result?${new URLSearchParams({ id: orderId, resourcePath: `/v1/checkouts/${orderId}/payment` })}`, 303);
    }
    // Waiting at 3-D Secure or a provider (Back or reload from there): the form again, for the same
    // order, whose next attempt replaces the waiting one.
    if (payment.status === 200 && isPending(code) && widgetIntegrity) return page(widgetIntegrity);
    if (payment.status === 200 && isPending(code)) {
      const again = escape(`/?${new URLSearchParams([...made, ['order', orderId]])}`);
      return html(reply, layout('Payment under way', `<p>This order's payment is still being confirmed.</p><p><a href="${again}">Check again</a> · <a href="${escape(newOrder())}">New order</a></p>`), shopCsp(gw));
    }
    // Expired, cancelled, or no order of this shop: a new one.
    return reply.header('cache-control', 'no-store').redirect(newOrder(), 303);
  });

  app.get('/result', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const resourcePath = query.resourcePath ?? '';
    // Only a payment resource is read: the path comes from the shopper's address bar.
    if (!RESOURCE_PATH.test(resourcePath) || (resourcePath.startsWith('/v1/checkouts/') && !resourcePath.endsWith('/payment'))) {
      return html(reply.code(400), layout('Unknown payment', '<p>The result address is not one of ours.</p>'), shopCsp(publicGateway(request)));
    }
    const outcome = await gateway(`${resourcePath}?entityId=${options.entityId}`);
    return html(reply, resultPage(outcome.status, outcome.body), shopCsp(publicGateway(request)));
  });

  // Online transfer, server-to-server: the shop's server starts the payment, the shopper's browser
  // follows the gateway's redirect (a form POST, a button: the page has no script) to the bank.
  app.get('/transfer', async (request, reply) => html(reply, transferPage({}), shopCsp(publicGateway(request))));

  app.post('/transfer', async (request, reply) => {
    const form = formOf(request.body);
    const response = await gateway('/v1/payments', {
      method: 'POST',
      body: new URLSearchParams({
        ...order('demo-transfer'),
        paymentBrand: 'ONLINE_TRANSFER',
        'bankAccount.holder': form.get('holder') || 'Jane Jones',
        'bankAccount.country': form.get('country') || 'DE',
        shopperResultUrl: `${shopOrigin(request)}/result`,
      }),
    });
    const redirect = response.body.redirect as { url?: string; parameters?: { name: string; value: string }[] } | undefined;
    if (response.status !== 200 || !redirect?.url || !/^https?:\/\//.test(redirect.url)) return html(reply.code(502), transferPage({ response }), shopCsp(publicGateway(request)));
    // The bank's page (the gateway's simulated provider): the form goes there.
    return html(reply, transferPage({ redirect: { url: redirect.url, parameters: redirect.parameters ?? [] } }), shopCsp(publicGateway(request), [new URL(redirect.url).origin]));
  });

  // What a shop's app does: create a checkout whose result is the app's own scheme, open the
  // gateway's webview page for it.
  app.get('/app', async (request, reply) => {
    const checkout = await gateway('/v1/checkouts', {
      method: 'POST',
      body: new URLSearchParams({
        ...order('demo-app'),
        shopperResultUrl: `${APP_SCHEME_URL}result`,
        'merchant.app.schemeUrl': APP_SCHEME_URL,
        ...BILLING,
      }),
    });
    if (checkout.status !== 200) return reply.code(502).send(checkout.body);
    return reply.redirect(`${publicGateway(request)}/v1/checkouts/${encodeURIComponent(checkout.body.id)}/page`, 303);
  });

  // Webhooks: the playground registers the shop's receiver (on the shop's own origin) and lists what arrives.
  const receiver = new DemoReceiver();
  const listen = () => receiver.ensure(gateway, options.entityId, `${ownUrl(app)}${RECEIVER_PATH}`);
  // The gateway sends text/plain (hex); this plugin reads it as text whatever its host app does.
  if (!app.hasContentTypeParser('text/plain')) app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.post(RECEIVER_PATH, async (request, reply) => {
    const body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body ?? '');
    return reply.code(receiver.receive(request.headers, body) ? 204 : 400).send();
  });
  app.get('/playground/webhooks', async (request, reply) => {
    const problem = await listen().then(
      () => undefined,
      (error: Error) => error.message,
    );
    return html(reply, webhooksPage(receiver.arrivals, problem), shopCsp(publicGateway(request)));
  });

  app.get('/playground', async (request, reply) => {
    await listen().catch(() => undefined);
    return html(reply, playgroundPage({ cards: testCards, declineAmounts }), shopCsp(publicGateway(request)));
  });

  /** The playground's test card (form field card.number) as the gateway's card fields. */
  const cardOf = (form: URLSearchParams) => {
    const number = form.get('card.number') ?? '4200000000000000';
    const card = testCards.find((c) => c.number === number);
    return {
      paymentBrand: card?.brand ?? 'VISA',
      'card.number': number,
      'card.holder': 'Jane Jones',
      'card.expiryMonth': '12',
      'card.expiryYear': String(new Date().getUTCFullYear() + 3),
      'card.cvv': card?.brand === 'AMEX' ? '1234' : '123',
    };
  };

  /**
   * What a shop's server sends for 3-D Secure 2 with a server-to-server payment: the shopper's
   * browser as the shop's page saw it (here: this request's headers and a desktop screen), the
   * billing address and where the shopper comes back after a challenge.
   */
  const threeDSecureOf = (request: FastifyRequest) => ({
    'customer.browser.acceptHeader': String(request.headers.accept ?? 'text/html').slice(0, 2048),
    'customer.browser.userAgent': String(request.headers['user-agent'] ?? 'unknown').slice(0, 2048),
    'customer.browser.language': 'en',
    'customer.browser.screenHeight': '900',
    'customer.browser.screenWidth': '1440',
    'customer.browser.timezone': '0',
    'customer.browser.javaEnabled': 'false',
    'customer.browser.challengeWindow': '5',
    ...BILLING,
    shopperResultUrl: `${shopOrigin(request)}/playground`,
  });

  app.post('/playground/pay', async (request, reply) => {
    const form = formOf(request.body);
    const response = await gateway('/v1/payments', {
      method: 'POST',
      body: new URLSearchParams({
        entityId: options.entityId,
        amount: form.get('amount') ?? '92.00',
        currency: 'EUR',
        paymentType: form.get('paymentType') ?? 'DB',
        ...cardOf(form),
        ...threeDSecureOf(request),
      }),
    });
    return html(reply, playgroundPage({ cards: testCards, declineAmounts, response }), shopCsp(publicGateway(request)));
  });

  // A subscription: the card stored as a registration, then paid every minute for five minutes.
  app.post('/playground/subscribe', async (request, reply) => {
    const form = formOf(request.body);
    const page = (response: { status: number; body: unknown }) => html(reply, playgroundPage({ cards: testCards, declineAmounts, response }), shopCsp(publicGateway(request)));
    await listen().catch(() => undefined);
    const registration = await gateway('/v1/registrations', { method: 'POST', body: new URLSearchParams({ entityId: options.entityId, ...cardOf(form) }) });
    if (registration.status !== 200) return page(registration);
    const end = new Date(Date.now() + 5 * 60_000).toISOString().slice(0, 19).replace('T', ' ');
    const schedule = await gateway('/scheduling/v1/schedules', {
      method: 'POST',
      body: new URLSearchParams({
        ...order('demo-subscription', form.get('amount') ?? '9.99'),
        registrationId: String(registration.body.id),
        'job.expression': '0 * * * * ?',
        'job.endDate': end,
      }),
    });
    return page({ status: schedule.status, body: { registration: registration.body, schedule: schedule.body } });
  });

  // The API reference: the gateway's public OpenAPI document as a page, read like any client would
  // (kept with its ETag and asked again with If-None-Match), rendered once per document.
  let reference: { etag: string; doc: Record<string, unknown>; pages: Map<string, string> } | undefined;
  app.get('/reference', async (request, reply) => {
    const gw = publicGateway(request);
    try {
      const response = await fetch(`${options.gatewayUrl()}/v1/openapi.json`, { headers: reference ? { 'if-none-match': reference.etag } : {} });
      if (response.status === 200) reference = { etag: response.headers.get('etag') ?? '', doc: (await response.json()) as Record<string, unknown>, pages: new Map() };
      else if (response.status !== 304 || !reference) throw new Error(`the gateway answered HTTP ${response.status}`);
    } catch (error) {
      return html(reply.code(502), layout('API reference unavailable', `<p>The gateway's OpenAPI document could not be read: ${escape((error as Error).message)}</p>`), shopCsp(gw));
    }
    let page = reference.pages.get(gw);
    if (page === undefined) {
      // Each Host a browser sends is an origin: only the last few pages are kept.
      if (reference.pages.size >= REFERENCE_PAGES) reference.pages.delete(reference.pages.keys().next().value!);
      reference.pages.set(gw, (page = referencePage(reference.doc, `${gw}/v1/openapi.json`)));
    }
    return html(reply, page, shopCsp(gw));
  });

  app.get('/demo/:file', async (request, reply) => {
    const file = (request.params as { file: string }).file;
    const asset = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!asset) return reply.code(404).send({ error: 'not found' });
    return reply.header('content-type', asset.type).header('cache-control', 'public, max-age=300').send(asset.body);
  });
}
