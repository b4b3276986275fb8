// What the webview page's service worker may answer from its cache (docs/threeds-protocol.md,
// "Webview page and service worker"). Everything else, every API call above all, is never
// touched: it goes to the network only. Pure functions, shared by sw.ts and the unit tests.
import { CHECKOUT_ID } from '../core/http.ts';
import { LOCALES } from '../core/locale-list.ts';

/**
 * The files the worker precaches, by their plain paths (requests carry ?checkoutId= or ?v=): the
 * widget, the frame's script, the page's script and stylesheet, and every locale's texts (the
 * widget fetches its checkout's, which must be there offline too; all of them, since the worker
 * cannot know which locale the next checkout has: about 12 KiB gzip, once per build).
 */
export const ASSETS: readonly string[] = [
  '/v1/paymentWidgets.js',
  '/v1/frames/secure-frame.js',
  '/v1/webview.js',
  '/v1/frames/pages.css',
  ...LOCALES.filter((locale) => locale !== 'en').map((locale) => `/v1/locales/${locale}.json`),
];

/** The frame page fetched at install as the template of frame pages served offline. */
export const frameTemplateUrl = (origin: string): string => `/v1/frames/card?field=number&channel=${'0'.repeat(32)}&origin=${encodeURIComponent(origin)}`;

export type Route = 'page' | 'frame' | 'asset';

/** The page's message to its worker once a payment of it went on: { type: FORGET_PAGE, url }. */
export const FORGET_PAGE = 'PW_FORGET_PAGE';

const PAGE = new RegExp(`^/v1/checkouts/${CHECKOUT_ID.source.slice(1, -1)}/page$`);

/** How the worker answers a GET of this path (of its own origin), or undefined: the network only. */
export function routeOf(pathname: string): Route | undefined {
  if (PAGE.test(pathname)) return 'page';
  if (pathname === '/v1/frames/card') return 'frame';
  return ASSETS.includes(pathname) ? 'asset' : undefined;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * A frame page for offline use from the cached template: its <html> attributes (the template's
 * field, channel, origin…) give way to data-accept of this request, so the frame script reads its
 * settings from its own URL.
 */
export function frameFromTemplate(template: string, accept: string): string {
  const attribute = accept ? ` data-accept="${accept.slice(0, 2048).replace(/[&<>"']/g, (c) => ESCAPES[c]!)}"` : '';
  return template.replace(/<html\b[^>]*>/i, `<html${attribute}>`);
}
