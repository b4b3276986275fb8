/// <reference lib="webworker" />
// dist/sw.js, served as /v1/sw.js: the webview page's service worker (scope /v1/). Hand-written
// rather than workbox-precaching: it needs network-first answers (a cached script must never
// shadow a newer one whose integrity the fresh page pins), a frame page rebuilt from a template,
// and an allowlist that keeps every API response out of the cache (routes.ts).
import { ASSETS, frameFromTemplate, frameTemplateUrl, routeOf, type Route } from './routes.ts';

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

/** workbox-window's CACHE_URLS message: the webview page asks to keep itself (it loaded before the worker ran). */
self.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown; payload?: { urlsToCache?: unknown } } | null;
  if (data?.type !== 'CACHE_URLS' || !Array.isArray(data.payload?.urlsToCache)) return;
  const urls = data.payload.urlsToCache.filter((value): value is string => {
    if (typeof value !== 'string' || !URL.canParse(value)) return false;
    const url = new URL(value);
    return url.origin === self.location.origin && routeOf(url.pathname) === 'page';
  });
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await Promise.all(urls.map((url) => cache.add(url).catch(() => undefined)));
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
    if (route === 'page' && response.ok) await cache.put(request.url, response.clone());
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
