// Helpers of the component tests: a fake gateway (fetch stubbed, frames never load, locale files
// from the test server), the checkout's form data, messages "from" a frame, and queries through
// shadow roots.
import { fixture, html, waitUntil } from '@open-wc/testing';
import type { FrameMessage } from '../../src/core/messages.ts';
import '../../src/widget/payment-widget/payment-widget.ts';
import type { PaymentWidget } from '../../src/widget/payment-widget/payment-widget.component.ts';
import type { WidgetOptions } from '../../src/widget/options.ts';

/** A gateway origin nobody answers on (Chromium refuses the port at once): frames never load. */
export const GATEWAY = 'http://127.0.0.1:9';
export const CHECKOUT_ID = '0123456789abcdef0123456789abcdef.test01';

export const REGISTRATIONS = [
  { id: 'aa'.repeat(16), paymentBrand: 'VISA', card: { last4Digits: '0000', expiryMonth: '05', expiryYear: '2034', holder: 'Jane Jones' } },
  { id: 'bb'.repeat(16), paymentBrand: 'AMEX', card: { last4Digits: '0005', expiryMonth: '11', expiryYear: '2031', holder: 'Jane Jones' } },
];

export function formData(overrides: Record<string, unknown> = {}) {
  return {
    result: { code: '000.200.000', description: 'transaction pending' },
    id: CHECKOUT_ID,
    amount: '92.00',
    currency: 'EUR',
    paymentType: 'DB',
    brands: ['VISA', 'MASTER', 'AMEX', 'DIRECTDEBIT_SEPA', 'PAYPAL', 'GOOGLEPAY'],
    registrations: [],
    expiresAt: '2026-11-22 01:00:00+0000',
    ...overrides,
  };
}

export interface FetchCall {
  url: string;
  init: RequestInit;
}

export type Responder = (call: FetchCall) => Response | Promise<Response>;

export const json = (body: unknown, status = 200): Response => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const originalFetch = window.fetch.bind(window);
const LOCALE_FILE = /\/v1\/locales\/[A-Za-z-]+\.json(\?|$)/;

/**
 * The fake gateway's locale files: the test server's (web-test-runner.config.mjs) at the same
 * path, or at `path` (such as /__locales/tampered/de.json), fetched for real with the widget's
 * integrity, so that Chromium checks it.
 */
export const localeFile =
  (path?: string): Responder =>
  (call) => {
    const url = new URL(call.url);
    return originalFetch(new URL(path ?? url.pathname + url.search, location.origin), call.init);
  };

/**
 * Replaces window.fetch; answers the form request with `form`, a locale file's with `locales`
 * (by default the test server's), and other requests with `respond`.
 */
export function stubFetch(form: unknown = formData(), respond?: Responder, locales: Responder = localeFile()) {
  const original = window.fetch;
  const calls: FetchCall[] = [];
  window.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const call = { url: String(input), init };
    calls.push(call);
    if (call.url.endsWith('/form')) return json(form);
    if (LOCALE_FILE.test(call.url)) return locales(call);
    if (!respond) throw new TypeError('Failed to fetch');
    return respond(call);
  }) as typeof fetch;
  return { calls, restore: () => (window.fetch = original) };
}

/** A <payment-widget> with the fake gateway, its form data loaded and rendered. */
export async function widget(attributes: { brands?: string; locale?: string; action?: string; options?: WidgetOptions } = {}): Promise<PaymentWidget> {
  const el = await fixture<PaymentWidget>(html`<payment-widget
    checkout-id=${CHECKOUT_ID}
    gateway=${GATEWAY}
    brands=${attributes.brands ?? 'VISA MASTER AMEX DIRECTDEBIT_SEPA PAYPAL'}
    locale=${attributes.locale ?? 'en'}
    action=${attributes.action ?? ''}
    .options=${attributes.options ?? {}}
  ></payment-widget>`);
  await waitUntil(() => el.checkout !== undefined || el.loadError !== '', 'the form data did not load');
  await settle(el);
  return el;
}

/** Waits until the element and every Lit element in its shadow tree finished updating. */
export async function settle(el: Element): Promise<void> {
  for (let round = 0; round < 3; round++) {
    const pending = [el, ...all(el, '*')].filter((e): e is Element & { updateComplete: Promise<unknown> } => 'updateComplete' in e);
    await Promise.all(pending.map((e) => e.updateComplete));
  }
}

/** Every element matching `selector` in `root` and all shadow roots below it. */
export function all<T extends Element = HTMLElement>(root: Element | ShadowRoot | Document, selector: string): T[] {
  const found: T[] = [];
  const visit = (node: Element | ShadowRoot | Document): void => {
    found.push(...node.querySelectorAll<T>(selector));
    for (const child of node.querySelectorAll('*')) if (child.shadowRoot) visit(child.shadowRoot);
  };
  visit(root instanceof Element && root.shadowRoot ? root.shadowRoot : root);
  if (root instanceof Element && root.shadowRoot && root.matches(selector)) found.unshift(root as unknown as T);
  return found;
}

export function one<T extends Element = HTMLElement>(root: Element | ShadowRoot | Document, selector: string): T {
  const found = all<T>(root, selector)[0];
  if (!found) throw new Error(`nothing matches ${selector}`);
  return found;
}

/** A message event as if a frame had posted it. */
export function fromFrame(frame: HTMLIFrameElement, data: Partial<FrameMessage> | Record<string, unknown>, origin = GATEWAY, source: MessageEventSource | null = frame.contentWindow): void {
  window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
}

/** The text an element's aria-describedby points at (same shadow root). */
export function description(input: Element): string {
  const root = input.getRootNode() as ShadowRoot;
  return (input.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .map((id) => root.getElementById(id)?.textContent?.trim() ?? '')
    .join(' ')
    .trim();
}

/** Types into an input the way a user does (value, then an input event). */
export function type(input: HTMLInputElement, value: string): void {
  input.value = value;
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText' }));
}

export function blur(input: HTMLElement): void {
  input.dispatchEvent(new FocusEvent('blur'));
}
