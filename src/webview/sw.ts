/// <reference lib="webworker" />
// dist/sw.js, served as /v1/sw.js: the webview page's service worker (scope /v1/). Hand-written
// rather than workbox-precaching: it needs network-first answers (a cached script must never
// shadow a newer one whose integrity the fresh page pins), a frame page rebuilt from a template,
// and an allowlist that keeps every API response out of the cache (routes.ts).
import { ASSETS, FORGET_PAGE, frameFromTemplate, frameTemplateUrl, routeOf, type Route } from './routes.ts';

declare const self: ServiceWorkerGlobalScope;
/** Hash of the precached files, written by the build: a new build is a new worker and a new cache. */
declare const __PW_REVISION__: string;

const PREFIX = 'pw-webview-';
const CACHE = `${PREFIX}${__PW_REVISION__}`;
const FRAME_TEMPLATE = frameTemplateUrl(self.location.origin);

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll([...ASSETS, FRAME_TEMPLATE]);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

/** A webview page of this origin, by its URL as sent (anything else: false). */
function isPage(value: unknown): value is string {
  if (typeof value !== 'string' || !URL.canParse(value)) return false;
  const url = new URL(value);
  return url.origin === self.location.origin && routeOf(url.pathname) === 'page';
}

/**
 * Pages whose payment went on while this worker ran: a copy fetched before that (a CACHE_URLS
 * still on its way) is not kept. A page loaded afterwards is kept as usual: it is the checkout's
 * state now, not a payable form.
 */
const paidPages = new Set<string>();

self.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown; url?: unknown; payload?: { urlsToCache?: unknown } } | null;
  // webview.js: a payment of this page went on (paid, or on to its challenge or provider). The
  // copy is a payable form: reopened offline it would offer to pay again.
  if (data?.type === FORGET_PAGE && isPage(data.url)) {
    const url = data.url;
    paidPages.add(url);
    event.waitUntil(caches.open(CACHE).then((cache) => cache.delete(url)));
    return;
  }
  // workbox-window's CACHE_URLS message: the webview page asks to keep itself (it loaded before the worker ran).
  if (data?.type !== 'CACHE_URLS' || !Array.isArray(data.payload?.urlsToCache)) return;
  const urls = data.payload.urlsToCache.filter(isPage);
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await Promise.all(
        urls.map(async (url) => {
          const response = await fetch(url).catch(() => undefined);
          if (response?.ok && !paidPages.has(url)) await cache.put(url, response);
        }),
      );
      event.ports[0]?.postMessage({ cached: urls.length });
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  const route = routeOf(url.pathname);
  if (route) event.respondWith(networkFirst(request, route));
});

async function networkFirst(request: Request, route: Route): Promise<Response> {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (route === 'page' && response.ok) {
      paidPages.delete(request.url);
      await cache.put(request.url, response.clone());
    }
    return response;
  } catch (error) {
    const cached = await fromCache(cache, request, route);
    if (cached) return cached;
    throw error;
  }
}

async function fromCache(cache: Cache, request: Request, route: Route): Promise<Response | undefined> {
  if (route === 'page') return cache.match(request.url);
  if (route === 'asset') return cache.match(new URL(request.url).pathname, { ignoreSearch: true });
  const template = await cache.match(FRAME_TEMPLATE);
  if (!template) return undefined;
  const body = frameFromTemplate(await template.text(), request.headers.get('accept') ?? '');
  return new Response(body, { status: 200, headers: template.headers });
}
