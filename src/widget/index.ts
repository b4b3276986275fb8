// Entry of dist/paymentWidgets.js, the shop-page script:
//   <script src="{gateway}/v1/paymentWidgets.js?checkoutId={id}" integrity="sha384-…" crossorigin="anonymous"></script>
//   <form action="{shopperResultUrl}" class="paymentWidgets" data-brands="VISA MASTER DIRECTDEBIT_SEPA"></form>
// It defines <payment-widget> (usable on its own) and mounts one into every form.paymentWidgets,
// configured by window.wpwlOptions. window.wpwl.unload() / mount() let single-page apps take the
// widgets down (frames, listeners and all) and put them back without a reload.
import { KNOWN_OPTIONS, type WidgetError, type WpwlOptions } from './options.ts';
import { ownScriptUrl } from './internal/script.ts';
import { PaymentWidget } from './payment-widget/payment-widget.ts';

export interface Wpwl {
  /** Mounts a widget into every form.paymentWidgets (unloading any mounted before). */
  mount(): void;
  /** Removes every mounted widget, its frames and its listeners. */
  unload(): void;
}

declare global {
  interface Window {
    wpwlOptions?: WpwlOptions;
    wpwl?: Wpwl;
  }
}

// Read while the script runs: currentScript is null afterwards.
const scriptUrl = ownScriptUrl();
if (scriptUrl) PaymentWidget.defaultGateway = scriptUrl.origin;
const scriptCheckoutId = scriptUrl?.searchParams.get('checkoutId') ?? '';

const mounted: { element: PaymentWidget; listeners: AbortController }[] = [];

function mount(): void {
  unload();
  const wpwl: WpwlOptions = window.wpwlOptions ?? {};
  const forms = document.querySelectorAll<HTMLFormElement>('form.paymentWidgets');
  if (import.meta.env.DEV) {
    for (const key of Object.keys(wpwl)) if (!KNOWN_OPTIONS.has(key)) console.warn(`wpwlOptions.${key} is not an option of this widget and is ignored.`);
    if (!forms.length) console.warn('paymentWidgets.js: no <form class="paymentWidgets"> on the page.');
  }
  const { locale, onReady, onBeforeSubmitCard, onError, ...rest } = wpwl;
  for (const form of forms) {
    const element = document.createElement('payment-widget');
    const checkoutId = form.dataset.checkoutId ?? scriptCheckoutId;
    // Without either, a form can only fail: said as a form that cannot load, never an empty box.
    const problem = !PaymentWidget.defaultGateway
      ? 'paymentWidgets.js: cannot tell the gateway it was loaded from (no <script> whose src is …/paymentWidgets.js).'
      : !checkoutId
        ? 'paymentWidgets.js: no checkout id. Load the script as /v1/paymentWidgets.js?checkoutId={id}, or set data-checkout-id on the form.'
        : '';
    if (!problem) element.checkoutId = checkoutId;
    element.brands = form.dataset.brands ?? '';
    element.action = form.getAttribute('action') ?? '';
    element.locale = locale ?? '';
    element.options = rest;
    const listeners = new AbortController();
    const { signal } = listeners;
    // A callback that throws is reported by the browser and changes nothing (an event listener).
    element.addEventListener('pw-ready', () => onReady?.(), { signal });
    element.addEventListener(
      'pw-submit',
      (event) => {
        if ((event as CustomEvent<{ method: string }>).detail.method === 'card' && onBeforeSubmitCard?.(event) === false) event.preventDefault();
      },
      { signal },
    );
    element.addEventListener('pw-error', (event) => onError?.((event as CustomEvent<WidgetError>).detail), { signal });
    form.append(element);
    mounted.push({ element, listeners });
    // Once rendered, in its locale's texts (its first update starts loading them).
    if (problem) void element.updateComplete.then(() => element.cannotLoad(problem));
  }
}

function unload(): void {
  document.removeEventListener('DOMContentLoaded', mount);
  for (const { element, listeners } of mounted.splice(0)) {
    listeners.abort();
    element.remove();
  }
}

// Loaded again (a single-page app adding the script on each route), this copy takes over: the
// widgets of the one before go, so that a form never holds two.
window.wpwl?.unload();
window.wpwl = { mount, unload };

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mount, { once: true });
else mount();
