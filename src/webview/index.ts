// Entry of dist/webview.js, loaded by the webview payment page GET /v1/checkouts/{id}/page: registers
// the service worker /v1/sw.js with workbox-window, so that a second load of the page renders
// with the network off (sw.ts), and asks it to keep this page, which loaded before it ran.
import { Workbox } from 'workbox-window';

export const WORKER = '/v1/sw.js';

/** Registers the worker; resolves once it kept the page (false when the browser has no service workers). */
export async function registerWorker(): Promise<boolean> {
  if (!('serviceWorker' in navigator)) return false;
  // The page requires Trusted Types for script URLs: this policy lets through the worker's URL only.
  const policy = window.trustedTypes?.createPolicy('pw-webview', {
    createScriptURL: (url) => {
      if (url !== WORKER) throw new TypeError(`pw-webview: ${url} is not the webview's service worker`);
      return url;
    },
  });
  const workbox = new Workbox(policy ? policy.createScriptURL(WORKER) : WORKER, { scope: '/v1/' });
  await workbox.register();
  await workbox.messageSW({ type: 'CACHE_URLS', payload: { urlsToCache: [location.href] } });
  return true;
}

registerWorker().catch((error: unknown) => {
  // Without the worker the page still works online; only the offline reload is lost.
  if (import.meta.env.DEV) console.warn('webview: the service worker could not be registered', error);
});
