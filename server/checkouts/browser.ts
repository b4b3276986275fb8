// What a checkout's payment request shows of the shopper's browser by itself. That request comes
// from the shopper's own browser (the widget's page or its frame), so its Accept and User-Agent
// headers are that browser's, and a page's script cannot read the Accept header at all. Only the
// checkout-scoped payment uses this: a merchant's server-to-server request shows its own server.
import { browser, type Browser } from '../schema/customer.ts';

/** customer.browser.* the request's headers state. */
export type SeenBrowser = Pick<Browser, 'acceptHeader' | 'userAgent'>;

/** The spec's limit of acceptHeader and userAgent. */
const MAX = 2048;

/** The Accept and User-Agent headers as customer.browser.* values; an empty or absent header gives nothing. */
export function seenBrowser(headers: { accept?: string; userAgent?: string }): SeenBrowser {
  const seen: SeenBrowser = {};
  if (headers.accept) seen.acceptHeader = headers.accept.slice(0, MAX);
  if (headers.userAgent) seen.userAgent = headers.userAgent.slice(0, MAX);
  return seen;
}

/**
 * The request with the seen facts filling only the browser fields nobody sent (the page's and the
 * checkout's own values win), in the spec's order, as a page's would be echoed.
 */
export function withSeenBrowser<R extends { customer?: { browser?: Browser } }>(request: R, seen: SeenBrowser): R {
  const merged: Record<string, string | undefined> = { ...seen, ...request.customer?.browser };
  const ordered = Object.fromEntries(Object.keys(browser.shape).flatMap((name) => (merged[name] === undefined ? [] : [[name, merged[name]]])));
  if (!Object.keys(ordered).length) return request;
  return { ...request, customer: { ...request.customer, browser: ordered } };
}
