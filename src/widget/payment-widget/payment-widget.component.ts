// <payment-widget checkout-id="…" brands="VISA MASTER DIRECTDEBIT_SEPA" action="…" locale="de">
// Loads the checkout's form data, offers its methods (wallet buttons, saved cards, card, SEPA, virtual accounts),
// owns the one live region, and turns each payment answer into events and navigation.
//
// Events (bubbling, composed): pw-ready, pw-brand {brand}, pw-submit {method, brand} (cancelable),
// pw-result {status, code, body, method} (cancelable: cancel to stay on the page instead of
// following redirect.url), pw-error {code, message, status?}.
//
// A pending answer whose redirect has parameters (3-D Secure, transfer, wallet) is POSTed to
// redirect.url: a card's in a frame of the challenge window's size inside the widget, others (and
// all when the shop asks or its page is itself framed) at the top level; a card's in the frame after
// all when a sandbox forbids the top level. docs/threeds-protocol.md
import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import { Announcer } from '../../core/announcer.ts';
import { challengeSize, challengeWindowFor, type ChallengeWindow } from '../../core/browser.ts';
import { randomHex } from '../../core/keys.ts';
import { httpUrl, resultUrl } from '../../core/urls.ts';
import { brandName, methodOf, type Method } from '../../core/methods.ts';
import { formatAmount } from '../../core/format.ts';
import { CHECKOUT_ID, type PaymentAnswer } from '../../core/http.ts';
import { dirOf, fmt, formattingLocale, resolveLocale, stringsFor, type Locale, type MessageKey, type Strings } from '../../core/i18n.ts';
import { isSafeCssValue, type StyleTokens } from '../../core/messages.ts';
import { isPending, isSuccess, resultMessageKey } from '../../core/results.ts';
import { formFrom, loadForm } from '../internal/api.ts';
import { isChallengeStep, mayNavigateTop } from '../internal/top-level.ts';
import { loadTexts } from '../internal/locales.ts';
import { savedTitle, type CheckoutForm, type WidgetContext } from '../internal/context.ts';
import type { WidgetOptions } from '../options.ts';
import { EXPORT_PARTS, FRAME_TOKENS } from '../theme.ts';
import { styles } from './payment-widget.styles.ts';

export interface MethodOption {
  /** "saved", "card", "bank" or "virtual:PAYPAL". */
  id: string;
  method: Method;
  brand?: string;
  label: string;
}

/** What the pending context holds while the form data loads (the hidden card form shows none of it). */
const LOADING: CheckoutForm = { amount: '', currency: '', brands: [], registrations: [], billing: [], createRegistration: false, overrideHolder: false };
const CARD_WHILE_LOADING: MethodOption = { id: 'card', method: 'card', label: '' };

export class PaymentWidget extends LitElement {
  static override styles = styles;
  static override properties = {
    checkoutId: { attribute: 'checkout-id' },
    brands: {},
    action: {},
    locale: {},
    gateway: {},
    options: { attribute: false },
    checkout: { state: true },
    loading: { state: true },
    loadError: { state: true },
    selected: { state: true },
    challenge: { state: true },
    cancelling: { state: true },
    paid: { state: true },
    expiry: { state: true },
    paying: { state: true },
  };

  /** The gateway origin when the element has no `gateway` attribute (set from the script's src). */
  static defaultGateway = '';

  declare checkoutId: string;
  /** Space-separated brands the shop offers on this page (narrows the checkout's brands). */
  declare brands: string;
  /** shopperResultUrl: where to go when a successful answer has no redirect.url. */
  declare action: string;
  declare locale: string;
  declare gateway: string;
  declare options: WidgetOptions;
  declare checkout: CheckoutForm | undefined;
  declare loading: boolean;
  declare loadError: string;
  declare selected: string;
  /** The challenge window of the 3-D Secure frame shown instead of the form ('' when none). */
  declare challenge: string;
  /** The shopper pressed Cancel under the challenge; the gateway is ending it. */
  declare cancelling: boolean;
  /** Paid, and the shop kept the page (pw-result cancelled): the form is done. */
  declare paid: boolean;
  /** The notice of the checkout's end (#tick): its last 2 minutes, then its end; '' before. */
  declare expiry: '' | 'expiring' | 'rSession';
  /**
   * A payment is on its way to the gateway (ctx.processing), or went on: the checkout's end waits,
   * and the method cannot be changed (its form, which waits for the answer, would go with it).
   */
  declare paying: boolean;

  readonly announcer = new Announcer(this);
  #abort: AbortController | undefined;
  #readyFired = false;
  #unavailableFired = false;
  #framesFailedFired = false;
  readonly #typed = new Map<string, Readonly<Record<string, string>>>();
  /** The locale in use: the one asked for once its texts are loaded; English before, and if they fail. */
  #locale: Locale = 'en';
  /** Its texts (undefined: English). */
  #texts: readonly string[] | undefined;
  #strings: Strings = stringsFor();
  /** The locale asked for and the gateway serving its texts; #textsLoaded settles when they are loaded or failed. */
  #wanted = '';
  /** The locale asked for (the frames' URLs carry it: WidgetContext.frameLocale). */
  #asked: Locale = 'en';
  /** The locale tag the page asked for, region and all (amounts are formatted with it). */
  #requested = '';
  #textsLoaded: Promise<void> = Promise.resolve();
  /** The challenge window last sent to the paying frame, and the width of the form it was chosen for. */
  #window: ChallengeWindow = '5';
  #width = 0;
  readonly #frameName = `pw-${randomHex(8)}`;
  /** Where the challenge shown is cancelled, with its token. */
  #cancel: { action: string; parameters: unknown[] } | undefined;
  /** The challenge runs in the widget because the page may not navigate the top level: its end is followed from here. */
  #followChallenge = false;
  /** The challenge was just posted: its first page gets the focus once loaded. */
  #focusChallenge = false;
  /** When the checkout expires (CheckoutForm.expires), and the timer of its next notice. */
  #expires = NaN;
  #expiryTimer: ReturnType<typeof setTimeout> | undefined;


  constructor() {
    super();
    this.checkoutId = this.brands = this.action = this.locale = this.gateway = this.loadError = this.selected = this.challenge = '';
    this.options = {};
    this.cancelling = this.paid = this.paying = false;
    this.loading = false;
    this.expiry = '';
  }

  /** The texts in use: the resolved locale with options.labels applied. */
  get strings(): Strings {
    return this.#strings;
  }

  get gatewayOrigin(): string {
    return new URL(httpUrl(this.gateway || PaymentWidget.defaultGateway, location.href) ?? location.href).origin;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Connected again after an unmount: load afresh (the frames are new too).
    if (this.hasUpdated) void this.#load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#abort?.abort();
    clearTimeout(this.#expiryTimer);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('locale') || changed.has('gateway')) this.#loadTexts();
    if (changed.has('locale') || changed.has('gateway') || changed.has('options')) this.#useTexts();
    if (changed.has('checkoutId') || changed.has('gateway')) void this.#load();
  }

  protected override updated(changed: PropertyValues<this>): void {
    // The form data offers none of the page's brands, and no wallet may yet show one: looked at
    // when the form data or the brands change, not on every render.
    if (!changed.has('checkout') && !changed.has('brands')) return;
    if (this.checkout && !this.methods().length && !this.allowedBrands().some((b) => methodOf(b) === 'wallet')) this.#unavailable();
  }

  /** "Payment method not available.": said, and told the shop (pw-error), once per checkout. */
  #unavailable(): void {
    if (this.#unavailableFired) return;
    this.#unavailableFired = true;
    const message = this.#strings.rConfig;
    this.announcer.announce(message);
    this.#emit('pw-error', { code: '', message });
  }

  /** Fetches the asked locale's texts at once, alongside the form data, which waits for them (docs/widget-protocol.md). */
  #loadTexts(): void {
    const requested = this.locale || document.documentElement.lang || navigator.language;
    const locale = resolveLocale(requested);
    this.#requested = requested;
    const wanted = `${locale} ${this.gatewayOrigin}`;
    if (wanted === this.#wanted) return;
    this.#wanted = wanted;
    this.#asked = locale;
    this.#locale = 'en';
    this.#texts = undefined;
    this.#textsLoaded =
      locale === 'en'
        ? Promise.resolve()
        : loadTexts(this.gatewayOrigin, locale).then((texts) => {
            if (this.#wanted !== wanted || !texts) return;
            this.#locale = locale;
            this.#texts = texts;
            this.#useTexts();
            this.requestUpdate();
          });
  }

  #useTexts(): void {
    this.#strings = stringsFor(this.#texts, this.options.labels);
    this.lang = this.#locale;
    this.dir = dirOf(this.#locale);
  }

  /** `attempt`: how many loads in a row could not reach the gateway; a retry keeps saying so until it does. */
  async #load(attempt = 0): Promise<void> {
    this.#abort?.abort();
    this.checkout = undefined;
    if (!attempt) this.loadError = '';
    this.challenge = '';
    this.cancelling = this.paid = this.paying = false;
    this.expiry = '';
    this.#expires = NaN;
    clearTimeout(this.#expiryTimer);
    this.#cancel = undefined;
    this.#readyFired = this.#unavailableFired = this.#framesFailedFired = false;
    this.#typed.clear();
    const id = this.checkoutId;
    if (!this.isConnected) return;
    const abort = (this.#abort = new AbortController());
    if (!id) {
      if (import.meta.env.DEV) console.warn('<payment-widget>: no checkout-id. Create a checkout on your server (POST /v1/checkouts) and pass its id.');
      return;
    }
    if (!CHECKOUT_ID.test(id)) {
      if (import.meta.env.DEV) console.warn(`<payment-widget>: "${id}" is not a checkout id (32 hex characters, a dot, a node name).`);
      return this.#fail('', 'eLoad', abort.signal);
    }
    // A page of an opaque origin (a sandbox without allow-same-origin) can exchange no message with
    // the card frames, which the gateway's frame-ancestors refuse there anyway: the form only says so.
    if (self.origin === 'null') {
      console.error('<payment-widget>: this page has an opaque origin (framed in a sandbox without allow-same-origin); the payment form cannot work here.');
      return this.#fail('', 'eLoad', abort.signal);
    }
    this.loading = !attempt;
    // A page's first Intl formatter costs tens of milliseconds (the browser sets up its locale
    // data); made while the form data is on its way, the pay label that needs one is quick.
    if (!this.dataset.form) setTimeout(() => formatAmount('0', 'EUR', formattingLocale(this.#requested, this.#asked)));
    try {
      // A page may hold the form data (the webview page does, so that it renders offline).
      const answer = this.dataset.form ? formFrom(JSON.parse(this.dataset.form)) : await loadForm(this.gatewayOrigin, id, abort.signal);
      await this.#textsLoaded;
      if (abort.signal.aborted) return;
      if (!answer.ok) {
        // A paid, expired or cancelled checkout says so; anything else is "could not be loaded".
        const key = isSuccess(answer.code) ? 'rPaid' : resultMessageKey(answer.code);
        return this.#fail(answer.code, key === 'rPaid' || key === 'rSession' || key === 'rCancelled' ? key : 'eLoad', abort.signal);
      }
      this.checkout = answer.form;
      // "No connection" of a failed load is over: the live region must not keep saying it.
      if (this.loadError) this.announcer.clear();
      this.loadError = '';
      this.#expires = answer.form.expires ?? NaN;
      this.#tick();
      // A page that was hidden (a phone put away) may have kept the timer from firing on time.
      document.addEventListener('visibilitychange', () => this.#tick(), { signal: abort.signal });
      if (import.meta.env.DEV) {
        for (const brand of this.#pageBrands()) {
          if (!answer.form.brands.includes(brand)) console.warn(`<payment-widget>: brand ${brand} is not enabled for this checkout's entity and is not offered.`);
          else if (!methodOf(brand)) console.warn(`<payment-widget>: brand ${brand} has no form in this widget yet.`);
        }
      }
    } catch {
      if (abort.signal.aborted) return;
      // Said and told the shop once; the retries that follow are silent. A retry that began before
      // the texts came (and so before it was said) says it.
      if (!this.loadError) void this.#fail('', 'rNetwork', abort.signal);
      this.#retryLoad(attempt + 1, abort.signal);
    } finally {
      if (this.#abort === abort) this.loading = false;
    }
  }

  /**
   * The gateway could not be reached (offline, a lost answer): the form data is fetched again as
   * soon as the browser is back online, and every so often (2 s, doubling up to 30 s) until it
   * comes, or another load or an unmount ends it.
   */
  #retryLoad(attempt: number, signal: AbortSignal): void {
    const again = () => {
      stop();
      if (!signal.aborted) void this.#load(attempt);
    };
    const timer = setTimeout(again, Math.min(30_000, 1_000 * 2 ** attempt));
    const stop = () => {
      clearTimeout(timer);
      removeEventListener('online', again);
    };
    addEventListener('online', again);
    signal.addEventListener('abort', stop, { once: true });
  }

  /**
   * The checkout's end, which cannot be put off (its id is the shopper's credential for 30 minutes:
   * docs/decisions.md, WCAG 2.2.1's essential exception): 2 minutes before it, and at once when
   * less is left, "expires in less than 2 minutes" is shown above the form and said; at its end
   * "Session expired. Reload the page.", and Pay is disabled. Not while a payment is on its way
   * (the gateway held the checkout before its end: the answer decides), nor once one went on
   * (paid, or at its 3-D Secure or provider step, which the gateway keeps past the 30 minutes);
   * after a failed attempt it catches up. The timer ends with the load (another load, an unmount).
   */
  #tick(): void {
    clearTimeout(this.#expiryTimer);
    const left = this.#expires - Date.now();
    if (Number.isNaN(left) || this.paying || !this.isConnected) return;
    const expiry = left > 120_000 ? '' : left > 0 ? 'expiring' : 'rSession';
    if (expiry && expiry !== this.expiry) {
      this.announcer.announce(this.#strings[expiry]);
      // The end as a pw-error: a single-page shop can make a new checkout at once.
      if (expiry === 'rSession') this.#emit('pw-error', { code: '100.396.103', message: this.#strings.rSession });
    }
    this.expiry = expiry;
    // At most 10 minutes at a time: a timer's delay beyond 2^31 ms would fire at once.
    if (left > 0) this.#expiryTimer = setTimeout(() => this.#tick(), Math.min(left > 120_000 ? left - 120_000 : left, 600_000));
  }

  /** The page cannot tell the widget its gateway or checkout (the classic mount): said like a form that cannot load, and why in the console. */
  cannotLoad(reason: string): void {
    console.error(reason);
    this.#abort?.abort();
    void this.#fail('', 'eLoad', (this.#abort = new AbortController()).signal);
  }

  /** Says why the form cannot be shown, in the locale's texts once they are settled, unless another load began since. */
  async #fail(code: string, key: MessageKey, signal: AbortSignal): Promise<void> {
    await this.#textsLoaded;
    if (signal.aborted) return;
    const message = this.#strings[key];
    this.loadError = message;
    this.announcer.announce(message);
    this.#emit('pw-error', { code, message });
  }

  #pageBrands(): string[] {
    return this.brands.toUpperCase().split(/[\s,]+/).filter(Boolean);
  }

  /** The checkout's brands, narrowed to the shop's list when it gave one. */
  allowedBrands(): string[] {
    const page = this.#pageBrands();
    const brands = this.checkout?.brands ?? [];
    return page.length ? brands.filter((b) => page.includes(b)) : brands;
  }

  /** The choices the form offers, in order: saved cards, card, SEPA, each virtual account. */
  methods(): MethodOption[] {
    const s = this.#strings;
    const brands = this.allowedBrands();
    const options: MethodOption[] = [];
    const saved = this.checkout?.registrations.filter((r) => brands.includes(r.paymentBrand)) ?? [];
    if (saved.length) options.push({ id: 'saved', method: 'saved', label: savedTitle(saved, s) });
    if (saved.length && this.options.registrations?.hideInitialPaymentForms) return options;
    if (brands.some((b) => methodOf(b) === 'card')) options.push({ id: 'card', method: 'card', label: s.mCard });
    const bank = brands.find((b) => methodOf(b) === 'bank');
    if (bank) options.push({ id: 'bank', method: 'bank', brand: bank, label: s.mBank });
    for (const brand of brands) if (methodOf(brand) === 'virtual') options.push({ id: `virtual:${brand}`, method: 'virtual', brand, label: brandName(brand) });
    return options;
  }

  #emit(name: string, detail: unknown, cancelable = false): boolean {
    return this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable }));
  }

  /**
   * The amount in the page's locale. Left-to-right texts drop the direction marks a right-to-left
   * language's format carries (a Pashto or Yiddish page, in a browser whose locale data has them,
   * gets the English texts): in an English sentence they moved its spaces and currency about,
   * "Pay  12.34₪" for "Pay 12.34 ₪".
   */
  #amount(checkout: CheckoutForm, locale: Locale): string {
    const amount = formatAmount(checkout.amount, checkout.currency, formattingLocale(this.#requested, locale));
    return dirOf(locale) === 'rtl' ? amount : amount.replace(/[\u200e\u200f\u061c]/g, '');
  }

  /** The forms' context; without `checkout` the pending one of the card form rendered while the form data loads. */
  #context(checkout?: CheckoutForm): WidgetContext {
    const locale = this.#locale;
    return {
      gateway: this.gatewayOrigin,
      checkoutId: this.checkoutId,
      checkout: checkout ?? LOADING,
      brands: checkout ? this.allowedBrands() : this.#pageBrands(),
      locale,
      frameLocale: this.#asked,
      pending: !checkout,
      strings: this.#strings,
      options: this.options,
      payLabel: checkout ? fmt(this.#strings.payAmount, this.#amount(checkout, locale)) : '',
      expired: this.expiry === 'rSession',
      announce: (text) => this.announcer.announce(text),
      processing: () => {
        this.paying = true;
        clearTimeout(this.#expiryTimer);
        this.announcer.announce(this.#strings.processing);
      },
      ready: () => {
        if (!checkout) return;
        if (!this.#readyFired) this.#emit('pw-ready', { checkoutId: this.checkoutId });
        this.#readyFired = true;
      },
      unavailable: () => this.#unavailable(),
      // The shop's monitoring learns of a broken form (its CSP or COEP refusing the frames) as of any form that did not load.
      framesFailed: (message) => {
        if (!this.#framesFailedFired) this.#emit('pw-error', { code: '', message });
        this.#framesFailedFired = true;
      },
      brand: (brand) => this.#emit('pw-brand', { brand }),
      beforeSubmit: (method, brand) => this.#emit('pw-submit', { method, brand }, true),
      result: (answer, method) => this.#onResult(answer, method),
      frameTokens: () => this.frameTokens(),
      colorScheme: () => this.colorScheme(),
      typed: this.#typed,
      // A cross-origin isolated page (COOP and COEP) cannot frame the issuer's pages, which send no COEP.
      challengeWindow: (width) =>
        ((this.#width = width), (this.#window = this.options.threeDSecureAtTopLevel || top !== self || crossOriginIsolated ? '5' : challengeWindowFor(width, innerHeight))),
    };
  }

  /** Success or pending: follow the gateway's redirect (top level). Otherwise: say why. */
  #onResult(answer: PaymentAnswer, method: Method): { ok: boolean; message: string } {
    const { status, body } = answer;
    const code = body?.result.code ?? '';
    const proceed = this.#emit('pw-result', { status, code, body, method }, true);
    const redirect = body?.redirect;
    const parameters = Array.isArray(redirect?.parameters) ? redirect.parameters : undefined;
    // A redirect to POST to must go to the gateway's http(s) page; anything else is the gateway's fault.
    const postTo = parameters && httpUrl(redirect!.url ?? '', location.href);
    const goesOn = !!body && (isSuccess(code) || isPending(code)) && (!parameters || !!postTo);
    const card = method === 'card' || method === 'saved';
    let challengeWindow: ChallengeWindow = card ? this.#window : '5';
    let blocked = false;
    this.#followChallenge = false;
    // Bound for the top level, on a page framed in a sandbox that forbids it: a card's challenge
    // runs in the widget's frame instead; other redirects (providers refuse frames) cannot go on.
    if (goesOn && proceed && postTo && !challengeSize(challengeWindow) && !mayNavigateTop()) {
      // The paying form's width: the element's own is 0 when a shop makes it inline.
      challengeWindow = card ? challengeWindowFor(this.#width, Infinity) : '5';
      blocked = !challengeSize(challengeWindow);
      this.#followChallenge = !blocked;
      console.error(`<payment-widget>: this page is framed without allow-top-navigation; ${blocked ? 'the payment cannot go on to its provider' : 'the 3-D Secure challenge runs in the widget'}.`);
    }
    if (goesOn && !blocked) {
      if (proceed && postTo) void this.#post(postTo, parameters!, challengeWindow);
      else {
        const url = redirect?.url ? resultUrl(redirect.url, location.href) : this.#actionUrl();
        if (proceed && url) location.assign(url);
      }
      // The shop stays on the page (a single-page app shows its own confirmation): the form ends,
      // saying so, rather than wait on "Processing…" for a navigation that will not come.
      if (!proceed && isSuccess(code)) {
        this.paid = true;
        this.announcer.announce(this.#strings.rPaid);
      }
      return { ok: true, message: '' };
    }
    const message = this.#strings[blocked ? 'rConfig' : parameters && !postTo ? 'rSystem' : resultMessageKey(code)];
    this.announcer.announce(message);
    this.#emit('pw-error', { code, message, status });
    // The form is the shopper's again: the checkout's end is followed again, and may have come
    // meanwhile. A payment that went on keeps paying: its end is no longer the form's to say.
    this.paying = false;
    this.#tick();
    return { ok: false, message };
  }

  /**
   * POSTs the redirect's parameters (DOM only: Trusted Types) to the frame of `challengeWindow`'s
   * size in the widget, or to the top level for the full page (5).
   */
  async #post(action: string, parameters: unknown[], challengeWindow: string): Promise<void> {
    const framed = !!challengeSize(challengeWindow);
    if (!framed) return this.#submit(action, parameters, '_top');
    // The gateway's authentication page is /v1/threeds/{id}/authenticate; its cancel is beside it.
    this.#cancel = { action: new URL('cancel', action).href, parameters };
    this.challenge = challengeWindow;
    await this.updateComplete;
    this.#submit(action, parameters, this.#frameName);
    // Focusing the frame now focuses its about:blank; a cross-site page replacing it gets no focus
    // (Tab would go to Cancel): the loaded page is focused again in #challengeLoaded.
    this.#focusChallenge = true;
    this.renderRoot.querySelector<HTMLElement>('[part=challenge]')?.focus();
  }

  /** POSTs name-value parameters (DOM only: Trusted Types) to `action` in the window named `target`. */
  #submit(action: string, parameters: unknown[], target: string): void {
    const form = document.createElement('form');
    form.method = 'post';
    form.action = action;
    form.target = target;
    for (const p of parameters as { name: unknown; value: unknown }[]) {
      if (typeof p?.name !== 'string' || typeof p.value !== 'string') continue;
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = p.name;
      input.value = p.value;
      form.append(input);
    }
    this.renderRoot.append(form);
    form.submit();
    form.remove();
  }

  /**
   * The shopper leaves the challenge: the gateway ends the authentication as cancelled and its
   * completion page, in the frame, goes on to the result as the issuer's own Cancel does. The
   * way out too when the issuer's page hangs, or Back left the frame on an error page. Pressed
   * once until the frame loads again: a cancel that failed (offline) may be pressed again.
   */
  #cancelChallenge(): void {
    if (!this.#cancel || this.cancelling) return;
    this.cancelling = true;
    this.#submit(this.#cancel.action, this.#cancel.parameters, this.#frameName);
  }

  /** The action (shopperResultUrl) with id and resourcePath, as the gateway builds redirect.url. */
  #actionUrl(): string | undefined {
    const action = httpUrl(this.action, location.href);
    if (!this.action || !action) return undefined;
    const url = new URL(action);
    url.searchParams.set('id', this.checkoutId);
    url.searchParams.set('resourcePath', `/v1/checkouts/${this.checkoutId}/payment`);
    return url.href;
  }

  /**
   * The --pw-* values in effect on the element, for the frames (which cannot inherit them). Every
   * size goes as this page resolves it (px, from the probe): a frame's rem is its own document's,
   * not the shop page's.
   */
  frameTokens(): StyleTokens {
    const computed = getComputedStyle(this);
    const tokens: StyleTokens = {};
    for (const name of FRAME_TOKENS) {
      const value = computed.getPropertyValue(name).trim();
      if (value && isSafeCssValue(value)) tokens[name] = value;
    }
    const probe = this.renderRoot.querySelector('.probe');
    if (probe) {
      const used = getComputedStyle(probe);
      tokens['--pw-font-size'] = used.fontSize;
      tokens['--pw-input-padding'] = used.padding;
      tokens['--pw-border-width'] = used.borderTopWidth;
      tokens['--pw-radius'] = used.borderRadius;
    }
    return tokens;
  }

  /** The colour scheme the element uses (the page's color-scheme and the shopper's preference), for the frames' root. */
  colorScheme(): 'light' | 'dark' {
    const probe = this.renderRoot.querySelector('.probe');
    return probe && getComputedStyle(probe).color === 'rgb(255, 255, 255)' ? 'dark' : 'light';
  }

  override render() {
    return html`<div part="root" class="root ${this.options.style ?? ''}">
      <div class="vh" role="status" aria-live="polite" aria-atomic="true">${this.announcer.message}</div>
      <i class="probe" hidden></i>
      ${this.loading ? html`<p part="status" class="busy">${this.#locale === this.#asked || this.options.labels?.loading ? this.#strings.loading : nothing}</p>` : nothing}
      ${this.loadError ? html`<p part="alert">${this.loadError}</p>` : nothing}
      ${this.expiry && !this.paid && !this.challenge ? html`<p part="alert">${this.#strings[this.expiry]}</p>` : nothing}
      ${this.paid
        ? html`<p part="status">${this.#strings.rPaid}</p>`
        : this.challenge
          ? this.#renderChallenge(this.challenge)
          : this.checkout
            ? this.#renderMethods(this.checkout)
            : this.loading && this.#mayOfferCard()
              ? this.#renderMethods()
              : nothing}
    </div>`;
  }

  /** The frame the challenge runs in: its window's size (never wider than the widget); it may send the top-level page on. */
  #renderChallenge(challengeWindow: string) {
    const [width, height] = challengeSize(challengeWindow)!;
    return html`<iframe
      part="challenge"
      name=${this.#frameName}
      title="3-D Secure"
      width=${width}
      height=${height}
      sandbox="allow-scripts allow-same-origin allow-forms allow-top-navigation"
      @load=${(event: Event) => this.#challengeLoaded(event.target as HTMLIFrameElement)}
    ></iframe>
    <button part="cancel" type="button" aria-disabled=${this.cancelling} @click=${() => this.#cancelChallenge()}>${this.#strings.cancel}</button>`;
  }

  /**
   * The challenge frame loaded a page. On a page framed in a sandbox without allow-top-navigation
   * the gateway's last page cannot send the top level to the result, so it goes there itself, in
   * this frame: this page's own result page is then followed here, as the page (a page of another
   * origin cannot be read, and stays in the frame). The gateway's step pages are readable too when
   * the page is the gateway's own (the webview page): those are never followed.
   */
  #challengeLoaded(frame: HTMLIFrameElement): void {
    this.cancelling = false;
    if (this.#focusChallenge) frame.contentWindow?.focus();
    this.#focusChallenge = false;
    if (!this.#followChallenge) return; // the gateway's last page sends the top level on itself
    let href = '';
    try {
      href = frame.contentWindow?.location.href ?? '';
    } catch {
      return; // the gateway's or the issuer's page
    }
    if (href.startsWith(`${location.origin}/`) && !isChallengeStep(href, this.gatewayOrigin)) location.assign(href);
  }

  /**
   * Whether the card form may be the one shown: the page offers a card brand, or lists none. Only
   * the form data can tell (the checkout's brands, saved cards offered first).
   */
  #mayOfferCard(): boolean {
    const page = this.#pageBrands();
    return !page.length || page.some((b) => methodOf(b) === 'card');
  }

  /**
   * The methods of the form data. Without it (still loading), the card form alone, hidden and
   * inert: its frames load while the form data and the texts do. The card form keeps its place in
   * the template whichever method is current, so Lit keeps that element, frames and typed values:
   * shown when the card is the current method, hidden and inert while another is (saved cards
   * first: a new card is then one click away, its frames already loaded), and gone, frames and
   * all, when the form data offers no card. The saved list keeps its place the same way (its
   * security code frame). docs/widget-protocol.md
   */
  #renderMethods(checkout?: CheckoutForm) {
    const methods = checkout ? this.methods() : [CARD_WHILE_LOADING];
    const current = methods.find((m) => m.id === this.selected) ?? methods[0];
    const ctx = this.#context(checkout);
    // The wallets the browser can pay with: buttons above the other methods (widget/wallets/).
    const wallets = checkout && this.allowedBrands().some((b) => methodOf(b) === 'wallet') && html`<pw-wallet-buttons exportparts="wallets,wallet,alert" .ctx=${ctx} ?alone=${!current}></pw-wallet-buttons>`;
    if (!current) return wallets || html`<p part="alert">${this.#strings.rConfig}</p>`;
    const cardHidden = !checkout || current.method !== 'card';
    // Keyed by the checkout: another checkout (a single-page shop) gets a new form, nothing typed for the last.
    const card =
      methods.some((m) => m.method === 'card') &&
      keyed(this.checkoutId, html`<pw-card-form exportparts=${EXPORT_PARTS} .ctx=${ctx} ?hidden=${cardHidden} ?inert=${cardHidden}></pw-card-form>`);
    // The saved list keeps its place too: its security code frame, and what was typed in it, stay.
    const savedHidden = current.method !== 'saved';
    const saved = methods.some((m) => m.method === 'saved') && html`<pw-registrations exportparts=${EXPORT_PARTS} .ctx=${ctx} ?hidden=${savedHidden} ?inert=${savedHidden}></pw-registrations>`;
    const form =
      current.method === 'bank'
          ? html`<pw-bank-account-form exportparts=${EXPORT_PARTS} .ctx=${ctx} .brand=${current.brand!}></pw-bank-account-form>`
          : current.method === 'virtual'
            ? html`<pw-virtual-account-form exportparts=${EXPORT_PARTS} .ctx=${ctx} .brand=${current.brand!}></pw-virtual-account-form>`
            : nothing;
    return html`${wallets || nothing}${methods.length > 1
      ? html`<fieldset part="methods" ?disabled=${this.paying}>
          <legend>${this.#strings.method}</legend>
          ${methods.map(
            (m) => html`<label part="method" class="choice">
              <input
                type="radio"
                name="method"
                .value=${m.id}
                .checked=${m === current}
                @change=${() => {
                  this.selected = m.id;
                  this.announcer.clear();
                }}
              />
              <span>${m.label}</span>
            </label>`,
          )}
        </fieldset>`
      : nothing}
    ${saved || nothing}${card || nothing}${form}`;
  }
}
