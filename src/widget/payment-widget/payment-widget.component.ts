// <payment-widget checkout-id="…" brands="VISA MASTER DIRECTDEBIT_SEPA" action="…" locale="de">
// Loads the checkout's form data, offers its methods (saved cards, card, SEPA, virtual accounts),
// owns the one live region, and turns each payment answer into events and navigation.
//
// Events (bubbling, composed): pw-ready, pw-brand {brand}, pw-submit {method, brand} (cancelable),
// pw-result {status, code, body, method} (cancelable: cancel to stay on the page instead of
// following redirect.url), pw-error {code, message, status?}.
//
// A pending answer whose redirect has parameters (3-D Secure, transfer, wallet) is POSTed to
// redirect.url: a card's in a frame of the challenge window's size inside the widget, others (and
// all when the shop asks or its page is itself framed) at the top level. docs/threeds-protocol.md
import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { Announcer } from '../../core/announcer.ts';
import { challengeSize, challengeWindowFor, type ChallengeWindow } from '../../core/browser.ts';
import { randomHex } from '../../core/keys.ts';
import { httpUrl, resultUrl } from '../../core/urls.ts';
import { brandName, methodOf, type Method } from '../../core/methods.ts';
import { formatAmount } from '../../core/format.ts';
import type { PaymentAnswer } from '../../core/http.ts';
import { dirOf, fmt, resolveLocale, stringsFor, type Locale, type MessageKey, type Strings } from '../../core/i18n.ts';
import { isSafeCssValue, type StyleTokens } from '../../core/messages.ts';
import { isPending, isSuccess, resultMessageKey } from '../../core/results.ts';
import { formFrom, loadForm } from '../internal/api.ts';
import type { CheckoutForm, WidgetContext } from '../internal/context.ts';
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

/** 32 lowercase hex, a dot, a node name. */
const CHECKOUT_ID = /^[0-9a-f]{32}\.[A-Za-z0-9_-]{1,15}$/;

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

  readonly announcer = new Announcer(this);
  #abort: AbortController | undefined;
  #readyFired = false;
  #locale: Locale = 'en';
  #strings: Strings = stringsFor('en');
  /** The challenge window last sent to the paying frame. */
  #window: ChallengeWindow = '5';
  readonly #frameName = `pw-${randomHex(8)}`;

  constructor() {
    super();
    this.checkoutId = this.brands = this.action = this.locale = this.gateway = this.loadError = this.selected = this.challenge = '';
    this.options = {};
    this.loading = false;
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
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('locale') || changed.has('options')) {
      this.#locale = resolveLocale(this.locale || document.documentElement.lang || navigator.language);
      this.#strings = stringsFor(this.#locale, this.options.labels);
      this.lang = this.#locale;
      this.dir = dirOf(this.#locale);
    }
    if (changed.has('checkoutId') || changed.has('gateway')) void this.#load();
  }

  async #load(): Promise<void> {
    this.#abort?.abort();
    this.checkout = undefined;
    this.loadError = this.challenge = '';
    this.#readyFired = false;
    const id = this.checkoutId;
    if (!this.isConnected) return;
    if (!id) {
      if (import.meta.env.DEV) console.warn('<payment-widget>: no checkout-id. Create a checkout on your server (POST /v1/checkouts) and pass its id.');
      return;
    }
    if (!CHECKOUT_ID.test(id)) {
      if (import.meta.env.DEV) console.warn(`<payment-widget>: "${id}" is not a checkout id (32 hex characters, a dot, a node name).`);
      return this.#fail('', 'eLoad');
    }
    const abort = (this.#abort = new AbortController());
    this.loading = true;
    try {
      // A page may hold the form data (the webview page does, so that it renders offline).
      const answer = this.dataset.form ? formFrom(JSON.parse(this.dataset.form)) : await loadForm(this.gatewayOrigin, id, abort.signal);
      if (abort.signal.aborted) return;
      if (!answer.ok) {
        // An expired or cancelled checkout says so; anything else is "could not be loaded".
        const key = resultMessageKey(answer.code);
        return this.#fail(answer.code, key === 'rSession' || key === 'rCancelled' ? key : 'eLoad');
      }
      this.checkout = answer.form;
      if (import.meta.env.DEV) {
        for (const brand of this.#pageBrands()) {
          if (!answer.form.brands.includes(brand)) console.warn(`<payment-widget>: brand ${brand} is not enabled for this checkout's entity and is not offered.`);
          else if (!methodOf(brand)) console.warn(`<payment-widget>: brand ${brand} has no form in this widget yet.`);
        }
      }
    } catch {
      if (!abort.signal.aborted) this.#fail('', 'rNetwork');
    } finally {
      if (this.#abort === abort) this.loading = false;
    }
  }

  #fail(code: string, key: MessageKey): void {
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
    const saved = this.checkout?.registrations.some((r) => brands.includes(r.paymentBrand));
    if (saved) options.push({ id: 'saved', method: 'saved', label: s.mSaved });
    if (saved && this.options.registrations?.hideInitialPaymentForms) return options;
    if (brands.some((b) => methodOf(b) === 'card')) options.push({ id: 'card', method: 'card', label: s.mCard });
    const bank = brands.find((b) => methodOf(b) === 'bank');
    if (bank) options.push({ id: 'bank', method: 'bank', brand: bank, label: s.mBank });
    for (const brand of brands) if (methodOf(brand) === 'virtual') options.push({ id: `virtual:${brand}`, method: 'virtual', brand, label: brandName(brand) });
    return options;
  }

  #emit(name: string, detail: unknown, cancelable = false): boolean {
    return this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable }));
  }

  #context(checkout: CheckoutForm): WidgetContext {
    const locale = this.#locale;
    return {
      gateway: this.gatewayOrigin,
      checkoutId: this.checkoutId,
      checkout,
      brands: this.allowedBrands(),
      locale,
      strings: this.#strings,
      options: this.options,
      payLabel: fmt(this.#strings.payAmount, formatAmount(checkout.amount, checkout.currency, locale)),
      announce: (text) => this.announcer.announce(text),
      ready: () => {
        if (!this.#readyFired) this.#emit('pw-ready', { checkoutId: this.checkoutId });
        this.#readyFired = true;
      },
      brand: (brand) => this.#emit('pw-brand', { brand }),
      beforeSubmit: (method, brand) => this.#emit('pw-submit', { method, brand }, true),
      result: (answer, method) => this.#onResult(answer, method),
      frameTokens: () => this.frameTokens(),
      challengeWindow: (width) => (this.#window = this.options.threeDSecureAtTopLevel || top !== self ? '5' : challengeWindowFor(width, innerHeight)),
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
    if (body && (isSuccess(code) || isPending(code)) && (!parameters || postTo)) {
      if (proceed && postTo) void this.#post(postTo, parameters!, method === 'card' || method === 'saved' ? this.#window : '5');
      else {
        const url = redirect?.url ? resultUrl(redirect.url, location.href) : this.#actionUrl();
        if (proceed && url) location.assign(url);
      }
      return { ok: true, message: '' };
    }
    const message = this.#strings[parameters && !postTo ? 'rSystem' : resultMessageKey(code)];
    this.announcer.announce(message);
    this.#emit('pw-error', { code, message, status });
    return { ok: false, message };
  }

  /**
   * POSTs the redirect's parameters (DOM only: Trusted Types) to the frame of `challengeWindow`'s
   * size in the widget, or to the top level for the full page (5).
   */
  async #post(action: string, parameters: unknown[], challengeWindow: string): Promise<void> {
    const form = document.createElement('form');
    form.method = 'post';
    form.action = action;
    form.target = '_top';
    for (const p of parameters as { name: unknown; value: unknown }[]) {
      if (typeof p?.name !== 'string' || typeof p.value !== 'string') continue;
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = p.name;
      input.value = p.value;
      form.append(input);
    }
    const framed = !!challengeSize(challengeWindow);
    if (framed) {
      this.challenge = challengeWindow;
      await this.updateComplete;
      form.target = this.#frameName;
    }
    this.renderRoot.append(form);
    form.submit();
    form.remove();
    if (framed) this.renderRoot.querySelector<HTMLElement>('[part=challenge]')?.focus();
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

  /** The --pw-* values in effect on the element, for the frames (which cannot inherit them). */
  frameTokens(): StyleTokens {
    const computed = getComputedStyle(this);
    const tokens: StyleTokens = {};
    for (const name of FRAME_TOKENS) {
      const value = computed.getPropertyValue(name).trim();
      if (value && isSafeCssValue(value)) tokens[name] = value;
    }
    return tokens;
  }

  override render() {
    return html`<div part="root" class="root ${this.options.style ?? ''}">
      <div class="vh" role="status" aria-live="polite" aria-atomic="true">${this.announcer.message}</div>
      ${this.loading ? html`<p part="status">${this.#strings.loading}</p>` : nothing}
      ${this.loadError ? html`<p part="alert">${this.loadError}</p>` : nothing}
      ${this.challenge ? this.#renderChallenge(this.challenge) : this.checkout ? this.#renderMethods(this.checkout) : nothing}
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
    ></iframe>`;
  }

  #renderMethods(checkout: CheckoutForm) {
    const methods = this.methods();
    const current = methods.find((m) => m.id === this.selected) ?? methods[0];
    if (!current) return html`<p part="alert">${this.#strings.rConfig}</p>`;
    const ctx = this.#context(checkout);
    const form =
      current.method === 'saved'
        ? html`<pw-registrations exportparts=${EXPORT_PARTS} .ctx=${ctx}></pw-registrations>`
        : current.method === 'card'
          ? html`<pw-card-form exportparts=${EXPORT_PARTS} .ctx=${ctx}></pw-card-form>`
          : current.method === 'bank'
            ? html`<pw-bank-account-form exportparts=${EXPORT_PARTS} .ctx=${ctx} .brand=${current.brand!}></pw-bank-account-form>`
            : html`<pw-virtual-account-form exportparts=${EXPORT_PARTS} .ctx=${ctx} .brand=${current.brand!}></pw-virtual-account-form>`;
    return html`${methods.length > 1
      ? html`<fieldset part="methods">
          <legend>${this.#strings.method}</legend>
          ${methods.map(
            (m) => html`<label part="method" class="choice">
              <input type="radio" name="method" .value=${m.id} .checked=${m === current} @change=${() => (this.selected = m.id)} />
              <span>${m.label}</span>
            </label>`,
          )}
        </fieldset>`
      : nothing}
    ${form}`;
  }
}
