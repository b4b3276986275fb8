// Asynchronous payment parameters, and where the shopper may be sent at the end.
import { absoluteUrl } from './common.ts';
import { paramError, type CodedParamError } from './errors.ts';
import { FORBIDDEN_SCHEMES, schemeOf } from './merchant.ts';

export const asynchronousFields = {
  shopperResultUrl: absoluteUrl(2048, 6).optional(),
  // The spec's deprecated field: taken and echoed, nothing is sent there; webhooks replace it.
  notificationUrl: absoluteUrl(2048, 6)
    .meta({ deprecated: true, description: 'Deprecated (the spec: webhooks replace it): an absolute URL, taken and echoed, but nothing is sent to it. Register a webhook (POST /v1/webhooks) for status updates.' })
    .optional(),
};

/** The longest redirect.url: the spec's AN2048. */
export const REDIRECT_URL_MAX = 2048;

/** shopperResultUrl with `id` and the `resourcePath` to read the outcome at (checkout, payment or authentication). */
export function resultUrlWith(shopperResultUrl: string, id: string, resourcePath: string): string {
  const url = new URL(shopperResultUrl);
  const added = `id=${encodeURIComponent(id)}&resourcePath=${encodeURIComponent(resourcePath)}`;
  url.search = url.search.length > 1 ? `${url.search}&${added}` : added;
  return url.href;
}

/**
 * The shopper is sent to shopperResultUrl at the end (top-level navigation, or a redirect): http
 * or https, or the custom scheme of the merchant's app when merchant.app.schemeUrl names it;
 * never javascript:, data:, vbscript:, file: (nor blob:, about:, filesystem:). Any length the spec
 * allows (2048): a checkout's redirect.url that would outgrow it is the gateway's hop instead.
 */
export function checkShopperResultUrl(shopperResultUrl: string | undefined, appSchemeUrl: string | undefined): CodedParamError[] {
  if (shopperResultUrl === undefined) return [];
  const scheme = schemeOf(shopperResultUrl);
  if (scheme === 'http:' || scheme === 'https:') return [];
  const appScheme = appSchemeUrl === undefined ? undefined : schemeOf(appSchemeUrl);
  if (scheme !== undefined && !FORBIDDEN_SCHEMES.has(scheme) && scheme === appScheme) return [];
  const customScheme = scheme !== undefined && !FORBIDDEN_SCHEMES.has(scheme);
  const message =
    appScheme && !FORBIDDEN_SCHEMES.has(appScheme)
      ? `must be an http or https URL, or use the app's scheme ${appScheme} of merchant.app.schemeUrl`
      : customScheme && appScheme === undefined
        ? `must be an http or https URL; an app's own scheme (${scheme}) is taken when merchant.app.schemeUrl names it`
        : 'must be an http or https URL';
  return [paramError('shopperResultUrl', shopperResultUrl, message)];
}
