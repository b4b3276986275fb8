// The gateway's own HTML pages around redirects (docs/threeds-protocol.md): each with its own
// strict Content-Security-Policy, no inline script or style (one stylesheet and, where the page
// must act, dist/threeds.js with SRI), data attributes on <html> telling the script what to do.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { localeFileVersion, type Asset } from './widgetAssets.ts';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** The gateway's origin as the caller reached it (redirect URLs must point back to it). */
/** A Host header the gateway may build URLs and page policies from: a name or an address, and a port. */
export const VALID_HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

const policy = (...directives: string[]) => directives.join('; ');

/**
 * The pages that act (authentication page, challenge request, method page, completion page):
 * their script with SRI, frames and form posts to the gateway (the simulated ACS is the gateway
 * itself), any page may frame them (the widget does), Trusted Types for DOM sinks.
 */
export const THREEDS_PAGE_CSP = policy(
  "default-src 'none'",
  "script-src 'self'",
  "connect-src 'self'",
  "style-src 'self'",
  "frame-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  'frame-ancestors *',
  "require-trusted-types-for 'script'",
);

/** The simulated issuer's challenge page: plain HTML, forms only, no script at all. */
export const ACS_PAGE_CSP = policy("default-src 'none'", "style-src 'self'", "form-action 'self'", "base-uri 'none'", 'frame-ancestors *');

/**
 * The simulated provider's page (wallet, bank): refuses to be framed, as real providers' pages
 * do; its form's answer redirects to the shop's result URL, so form-action allows that origin.
 */
export function providerCsp(resultUrl: string | undefined): string {
  return policy("default-src 'none'", "style-src 'self'", `form-action 'self'${resultUrl ? ` ${sourceOf(resultUrl)}` : ''}`, "base-uri 'none'", "frame-ancestors 'none'");
}

/** The gateway's own result page (server-to-server payments without a shopperResultUrl). */
export const RESULT_PAGE_CSP = policy("default-src 'none'", "style-src 'self'", "form-action 'none'", "base-uri 'none'", 'frame-ancestors *');

/**
 * The wallets' payment method identifiers (src/widget/wallets/wallets.ts) and where Google Pay's
 * leads: Chromium fetches them for a PaymentRequest and refuses to construct one whose identifier
 * the page's connect-src does not allow, so a page with a policy must list them for the buttons.
 */
export const WALLET_CONNECT_SOURCES = 'https://apple.com/apple-pay https://google.com/pay https://pay.google.com https://spay.samsung.com';

/** The webview payment page: the widget and its frames, the wallets, the service worker; nobody may frame it. */
export const WEBVIEW_CSP = policy(
  "default-src 'none'",
  "script-src 'self'",
  `connect-src 'self' ${WALLET_CONNECT_SOURCES}`,
  "style-src 'self'",
  "img-src 'self' data:",
  "frame-src 'self'",
  "worker-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
);

/** A CSP source for a URL: its origin (http, https), or its scheme alone (an app's custom scheme). */
export function sourceOf(url: string): string {
  const parsed = new URL(url);
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : parsed.protocol;
}

/**
 * The stylesheet of these pages: compact enough that the challenge fits 250×400 without scrollbars.
 * Text sizes are max(<px>, <rem>), as the widget's: the design at the browser's default font size,
 * larger for a shopper who set a larger one (px alone would ignore that setting).
 */
export const PAGES_CSS = `*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;font:max(14px,.875rem)/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#fff}
main{max-width:30rem;margin:0 auto;padding:12px}
h1{font-size:max(16px,1rem);line-height:1.3;margin:0 0 8px;overflow-wrap:anywhere}
p{margin:0 0 8px;overflow-wrap:anywhere}
.issuer{margin:0 0 4px;font-size:max(11px,.6875rem);letter-spacing:.06em;text-transform:uppercase;color:#57606a}
.amount{font-weight:600}
.hint{font-size:max(12px,.75rem);color:#57606a}
form{margin:0}
.actions{display:grid;gap:8px;margin-top:12px}
button,.button{display:block;width:100%;min-height:max(36px,2.25rem);padding:7px 12px;border:1px solid #8c959f;border-radius:6px;background:#f6f8fa;color:#1b1f24;font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer}
button.primary,.button.primary{background:#0b57d0;border-color:#0b57d0;color:#fff}
button:focus-visible,.button:focus-visible{outline:2px solid #0b57d0;outline-offset:2px}
.code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:max(12px,.75rem);color:#57606a}
/* viewport-fit=cover hands the app the screen's edges: the page keeps clear of the notch, bars and home indicator. */
.webview main{max-width:32rem;padding:max(16px,env(safe-area-inset-top)) max(12px,env(safe-area-inset-right)) max(16px,env(safe-area-inset-bottom)) max(12px,env(safe-area-inset-left))}
@media (min-width:480px){main{padding:24px}h1{font-size:max(20px,1.25rem)}}
`;

export interface PageOptions {
  title: string;
  /** Data attributes of <html> (names without data-), values HTML-escaped here. */
  data?: Record<string, string | undefined>;
  /** The script the page runs (dist/threeds.js), with its SRI. */
  script?: { path: string; asset: Asset };
  /** Extra <head> markup (trusted, built here). */
  head?: string;
  /** The body's markup (trusted, built here with escapeHtml for every value). */
  body: string;
  bodyClass?: string;
  lang?: string;
  dir?: 'ltr' | 'rtl';
}

export const scriptTag = (path: string, asset: Asset, defer = true) =>
  `<script src="${path}?v=${asset.version}" integrity="${asset.integrity}" crossorigin="anonymous"${defer ? ' defer' : ''}></script>`;

/**
 * A preload of the locale file the widget fetches: the URL exactly as the widget writes it (its
 * version is a piece of the integrity, src/widget/internal/locales.ts), the same mode and
 * integrity, so the browser hands the preloaded answer to the widget's fetch.
 */
export const localePreload = (locale: string, asset: Asset) =>
  `<link rel="preload" href="/v1/locales/${locale}.json?v=${encodeURIComponent(localeFileVersion(asset))}" as="fetch" integrity="${asset.integrity}" crossorigin="anonymous">`;

export function htmlPage(o: PageOptions): string {
  const data = Object.entries(o.data ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ` data-${name}="${escapeHtml(value!)}"`)
    .join('');
  return `<!doctype html>
<html lang="${escapeHtml(o.lang ?? 'en')}"${o.dir === 'rtl' ? ' dir="rtl"' : ''}${data}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(o.title)}</title>
<link rel="stylesheet" href="/v1/frames/pages.css">
${o.head ?? ''}${o.script ? `${scriptTag(o.script.path, o.script.asset)}\n` : ''}</head>
<body${o.bodyClass ? ` class="${o.bodyClass}"` : ''}>
${o.body}
</body>
</html>
`;
}

/** Send a page with its policy; never cached, never sniffed, no referrer. */
export function sendPage(reply: FastifyReply, html: string, csp: string, status = 200, extra: Record<string, string> = {}): FastifyReply {
  return reply
    .code(status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': csp,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      ...extra,
    })
    .send(html);
}
