// URLs the browser code navigates to. A result URL may be an app's custom scheme (the webview
// page: the gateway allows it only when it is the scheme of merchant.app.schemeUrl), never a
// scheme that runs code or reads local files; gateway and form addresses are http(s) only.

/** Schemes a navigation may never have. */
const FORBIDDEN = /^(javascript|data|vbscript|file|blob|about|filesystem):$/;

/** `value` resolved against `base` when its scheme passes `allowed`, else undefined. */
function urlOf(value: string, base: string, allowed: (protocol: string) => boolean): string | undefined {
  try {
    const url = new URL(value, base);
    return allowed(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** An http or https URL. */
export const httpUrl = (value: string, base: string): string | undefined => urlOf(value, base, (p) => /^https?:$/.test(p));

/** A URL the shopper may be sent to at the end: http(s) or an app's scheme, never javascript:, data:, file: … */
export const resultUrl = (value: string, base: string): string | undefined => urlOf(value, base, (p) => !FORBIDDEN.test(p));
