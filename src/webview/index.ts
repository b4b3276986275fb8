// Entry of dist/webview.js, loaded by the webview payment page GET /v1/checkouts/{id}/page: registers
// the service worker /v1/sw.js with workbox-window, so that a second load of the page renders
// with the network off (sw.ts), and asks it to keep this page, which loaded before it ran; and
// gives the page the widget's language (title, direction); and has the worker drop the page once
// a payment of it went on.
import { Workbox } from 'workbox-window';
import { isPending, isSuccess } from '../core/results.ts';
import { FORGET_PAGE } from './routes.ts';

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

/** What the page needs of its <payment-widget>: its texts and direction, once its locale is loaded. */
interface WidgetLanguage extends HTMLElement {
  readonly strings: { readonly method: string };
}

/**
 * The page speaks the widget's language: its title (an app's task switcher shows it), its
 * direction and its lang follow the widget's once the widget is ready or has said why it cannot
 * be. The lang changes only to another language (one without texts, or whose texts failed: the
 * widget speaks English), so that a region the page named (pt-PT) stays.
 */
export function followWidgetLanguage(doc: Document): void {
  const widget = doc.querySelector<WidgetLanguage>('payment-widget');
  if (!widget) return;
  const root = doc.documentElement;
  const follow = () => {
    doc.title = widget.strings.method;
    root.dir = widget.dir || 'ltr';
    if (widget.lang && widget.lang !== root.lang.split('-')[0]!.toLowerCase()) root.lang = widget.lang;
  };
  widget.addEventListener('pw-ready', follow);
  widget.addEventListener('pw-error', follow);
}

/**
 * Once a payment of the page went on (paid, or on to its challenge or provider), its worker drops
 * the copy it keeps: reopened offline, that payable form would offer to pay again. A refused
 * payment keeps it (the checkout takes another). The message goes at once to the worker in
 * control, so that a navigation right after cannot lose it (a page paid before any worker took
 * control, on its first load, waits for the one being installed).
 */
export function forgetPageOnPayment(doc: Document, worker: Pick<ServiceWorkerContainer, 'controller' | 'ready'> | undefined = navigator.serviceWorker): void {
  doc.querySelector('payment-widget')?.addEventListener('pw-result', (event) => {
    const { code } = (event as CustomEvent<{ code: string }>).detail;
    if (!worker || !(isSuccess(code) || isPending(code))) return;
    const message = { type: FORGET_PAGE, url: doc.location.href };
    // Not yet in control (a first load paid at once): the worker that will keep the page.
    if (worker.controller) worker.controller.postMessage(message);
    else void worker.ready.then((registration) => registration.active?.postMessage(message));
  });
}

followWidgetLanguage(document);
forgetPageOnPayment(document);

registerWorker().catch((error: unknown) => {
  // Without the worker the page still works online; only the offline reload is lost.
  if (import.meta.env.DEV) console.warn('webview: the service worker could not be registered', error);
});
