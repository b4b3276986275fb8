// The built widget, served by the gateway (docs/widget-protocol.md):
//   GET /v1/paymentWidgets.js?checkoutId=   the shop page's script
//   GET /v1/frames/secure-frame.js          the frame pages' script
//   GET /v1/frames/card?field=&channel=&origin=&locale=[&checkoutId=]   the card-number and security-code frame page
//   GET /v1/locales/{locale}.json           a locale's texts (every one but English), which the widget fetches
// Scripts and locale files are the exact bytes whose sha384 the manifest holds, cached for a year
// (their URLs change with their content), with CORS for crossorigin="anonymous" and fetch's integrity.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CHECKOUT_ID } from '../../checkouts/checkouts.ts';
import { newNdc } from '../../ids.ts';
import { errorBody, meta } from '../envelope.ts';
import type { ParamError } from '../params.ts';
import type { Gateway } from '../pipeline.ts';
import { escapeHtml } from '../pages.ts';
import { cacheControlFor, localeFileVersion, NOT_BUILT, notBuiltFile, optionalAsset, type Asset, type OptionalFile, type WidgetFile } from '../widgetAssets.ts';
import { methods, publicFilePreflight } from './common.ts';
import { sendStatic } from '../staticAnswer.ts';

/**
 * The frame page's own policy: its one script from the gateway (with SRI), requests to the
 * gateway only, styles from constructable stylesheets (which style-src 'self' does not block),
 * nothing else; any shop may embed it; DOM sinks take Trusted Types only.
 */
export const FRAME_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "connect-src 'self'",
  "style-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  'frame-ancestors *',
  "require-trusted-types-for 'script'",
].join('; ');

export const FIELDS = ['number', 'cvv'] as const;
const FIELD_TITLES: Record<(typeof FIELDS)[number], string> = { number: 'Card number', cvv: 'Security code' };
export const CHANNEL = /^[A-Za-z0-9_-]{16,64}$/;
export const LOCALE = /^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8}){0,3}$/;

export { escapeHtml };

/** An http(s) origin exactly as browsers write it (scheme, host, port only; lowercase; no default port). */
function isOrigin(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
}

export function widgetRoutes(app: FastifyInstance, g: Gateway) {
  const badRequest = (reply: FastifyReply, status: number, errors: ParamError[]) =>
    reply.code(status).send(errorBody('200.300.404', meta(g.buildNumber, g.deps.clock()), newNdc(), errors));
  const notBuilt = (reply: FastifyReply, message = NOT_BUILT) =>
    reply
      .code(503)
      .header('access-control-allow-origin', '*')
      .header('cache-control', 'no-store')
      .send({ ...errorBody('999.999.999', meta(g.buildNumber, g.deps.clock()), newNdc()), message });

  /** A single text value of the query, or why it is not one. */
  const queryValue = (request: FastifyRequest, name: string): string | undefined | ParamError => {
    const value = (request.query as Record<string, unknown>)[name];
    if (value === undefined || typeof value === 'string') return value;
    return { name, value: '', message: `${name} was sent more than once` };
  };

  const script = (file: WidgetFile | OptionalFile, cacheControl?: string, extra: Record<string, string> = {}) => async (request: FastifyRequest, reply: FastifyReply) => {
    if (!g.assets.ready) return notBuilt(reply);
    const asset: Asset | undefined = file in g.assets.files ? g.assets.files[file as WidgetFile] : optionalAsset(g.assets, file as OptionalFile);
    if (!asset) return notBuilt(reply, notBuiltFile(file as OptionalFile));
    return send(request, reply, asset, 'application/javascript; charset=utf-8', cacheControl ?? cacheControlFor(request.query, asset.version), extra);
  };

  /**
   * A built file's bytes (304 when the browser holds them, compressed when it takes that), CORS *,
   * and CORP cross-origin: a shop page with Cross-Origin-Embedder-Policy may load it without CORS too.
   */
  const send = (request: FastifyRequest, reply: FastifyReply, asset: Asset, contentType: string, cacheControl: string, extra: Record<string, string> = {}) =>
    sendStatic(request, reply, asset, { 'content-type': contentType, 'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin', 'cache-control': cacheControl, ...extra });

  // Browsers ask every origin for /favicon.ico. The gateway's own pages (webview, 3-D Secure) have
  // no icon: an empty answer, cached for a day, instead of a 404 in every shopper's console.
  app.get('/favicon.ico', async (_request, reply) => reply.code(204).header('cache-control', 'public, max-age=86400').send());

  methods(app, g, '/v1/paymentWidgets.js', {
    GET: async (request, reply) => {
      // The script reads the checkout id from its own src; the gateway only checks its form.
      const checkoutId = queryValue(request, 'checkoutId');
      if (typeof checkoutId === 'object') return badRequest(reply, 400, [checkoutId]);
      if (checkoutId !== undefined && !CHECKOUT_ID.test(checkoutId)) {
        return badRequest(reply, 400, [{ name: 'checkoutId', value: checkoutId.slice(0, 64), message: 'checkoutId must be a checkout id: 32 lowercase hexadecimal characters, a dot and a node name' }]);
      }
      return script('paymentWidgets.js')(request, reply);
    },
    OPTIONS: publicFilePreflight,
  });

  methods(app, g, '/v1/frames/secure-frame.js', { GET: script('secure-frame.js') });

  // A locale's texts: the widget carries English only and fetches its shopper's locale from here.
  methods(app, g, '/v1/locales/:file', {
    GET: async (request, reply) => {
      if (!g.assets.ready) return notBuilt(reply);
      const { file } = request.params as { file: string };
      const locale = /^([a-z]{2,3}(?:-[A-Z][a-z]{3}|-[A-Z]{2})?)\.json$/.exec(file)?.[1];
      if (!locale || !g.assets.locales.has(locale)) {
        const files = [...g.assets.locales.keys()].map((name) => `${name}.json`).join(', ');
        return badRequest(reply, 404, [{ name: 'file', value: file.slice(0, 64), message: `file must be the texts of one of the widget's locales: ${files || 'this build has none'}` }]);
      }
      const asset = g.assets.locales.get(locale);
      if (!asset) return notBuilt(reply, `locales/${locale}.json is not built on this server: run npm run build, then restart the gateway`);
      return send(request, reply, asset, 'application/json; charset=utf-8', cacheControlFor(request.query, localeFileVersion(asset)));
    },
    OPTIONS: publicFilePreflight,
  });

  // The webview page's script, and its service worker: the worker's URL never changes, so it is
  // revalidated on every load; it may control all of /v1/ (the page, the widget, the frames).
  methods(app, g, '/v1/webview.js', { GET: script('webview.js') });
  methods(app, g, '/v1/sw.js', { GET: script('sw.js', 'no-cache', { 'service-worker-allowed': '/v1/' }) });

  methods(app, g, '/v1/frames/card', {
    GET: async (request, reply) => {
      const errors: ParamError[] = [];
      const read = (name: string, valid: (v: string) => boolean, rule: string, fallback?: string): string => {
        const value = queryValue(request, name);
        if (typeof value === 'object') errors.push(value);
        else if (value === undefined && fallback === undefined) errors.push({ name, value: '', message: `${name} is required: ${rule}` });
        else if (value !== undefined && !valid(value)) errors.push({ name, value: value.slice(0, 255), message: `${name} must be ${rule}` });
        else return value ?? fallback!;
        return '';
      };
      const field = read('field', (v) => (FIELDS as readonly string[]).includes(v), 'number or cvv') as (typeof FIELDS)[number];
      const channel = read('channel', (v) => CHANNEL.test(v), '16 to 64 letters, digits, hyphens or underscores');
      const origin = read('origin', isOrigin, 'the http or https origin of the page that holds the frame, such as https://shop.example');
      const locale = read('locale', (v) => LOCALE.test(v), 'a language tag such as de or pt-BR', 'en');
      // The number frame pays the checkout: the widget may name it here too.
      const checkoutId = read('checkoutId', (v) => CHECKOUT_ID.test(v), 'a checkout id: 32 lowercase hexadecimal characters, a dot and a node name', '');
      if (errors.length) return badRequest(reply, 400, errors);
      if (!g.assets.ready) return notBuilt(reply);

      const frame = g.assets.files['secure-frame.js'];
      const lang = locale.replace(/_/g, '-');
      // 3-D Secure 2 wants the Accept header of the shopper's browser: the frame sends back its own page's.
      const accept = request.headers.accept;
      const acceptData = accept ? ` data-accept="${escapeHtml(accept.slice(0, 2048))}"` : '';
      const html = `<!doctype html>
<html lang="${escapeHtml(lang)}"${acceptData} data-field="${escapeHtml(field)}" data-channel="${escapeHtml(channel)}" data-origin="${escapeHtml(origin)}" data-locale="${escapeHtml(locale)}"${checkoutId ? ` data-checkout-id="${escapeHtml(checkoutId)}"` : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(FIELD_TITLES[field])}</title>
<script src="/v1/frames/secure-frame.js?v=${frame.version}" integrity="${frame.integrity}" crossorigin="anonymous" defer></script>
</head>
<body></body>
</html>
`;
      return reply
        .code(200)
        .headers({
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': FRAME_CSP,
          'cache-control': 'no-store',
          'referrer-policy': 'no-referrer',
          // A page with Cross-Origin-Embedder-Policy (require-corp or credentialless) frames only
          // documents that send COEP and CORP: this one loads nothing but its same-origin script.
          'cross-origin-embedder-policy': 'require-corp',
          'cross-origin-resource-policy': 'cross-origin',
        })
        .send(html);
    },
  });
}
