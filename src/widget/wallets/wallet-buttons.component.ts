// <pw-wallet-buttons>: a button per wallet of the page's brands (Apple Pay, Google Pay, Samsung
// Pay) that the shopper's browser can pay with, through the W3C Payment Request API. A button
// shows only once canMakePayment() said yes; without the API, or when it throws, there is none
// and the rest of the form is untouched. The wallet's encrypted token goes to the checkout's
// payment endpoint like any other form's account (same Idempotency-Key handling); the sheet is
// completed with the gateway's outcome, then the widget finishes as for every method.
import { html, LitElement, nothing } from 'lit';
import { brandName } from '../../core/methods.ts';
import { fmt } from '../../core/i18n.ts';
import { newIdempotencyKey } from '../../core/keys.ts';
import { isPending, isSuccess, resultMessageKey } from '../../core/results.ts';
import { payFromPage } from '../internal/api.ts';
import type { WidgetContext } from '../internal/context.ts';
import { methodData, paymentDetails, tokenFields, WALLET_METHODS } from './wallets.ts';
import { styles } from './wallet-buttons.styles.ts';

export class WalletButtons extends LitElement {
  static override styles = styles;
  static override properties = {
    ctx: { attribute: false },
    alone: { type: Boolean },
    available: { state: true },
    busy: { state: true },
    alert: { state: true },
  };

  declare ctx: WidgetContext;
  /** No other method is offered: say so when no wallet is available either. */
  declare alone: boolean;
  /** The wallet brands the browser can pay with (undefined while asking). */
  declare available: string[] | undefined;
  declare busy: boolean;
  declare alert: string;
  /** The checkout and brands the availability was asked for. */
  #asked = '';

  constructor() {
    super();
    this.alone = this.busy = false;
    this.alert = '';
  }

  /** The page's wallet brands, in the order of WALLET_METHODS. */
  brands(): string[] {
    return this.ctx.checkout.wallet ? Object.keys(WALLET_METHODS).filter((b) => this.ctx.brands.includes(b)) : [];
  }

  /** The wallet's PaymentRequest; undefined when it could hand over none of the entity's card networks. */
  #request(brand: string): PaymentRequest | undefined {
    const { checkout, checkoutId } = this.ctx;
    const data = methodData(brand, checkout, checkoutId, checkout.wallet!);
    return data && new PaymentRequest([data], paymentDetails(checkout, checkout.wallet!));
  }

  protected override willUpdate(): void {
    const brands = this.brands();
    const asked = `${this.ctx.checkoutId} ${brands}`;
    if (asked === this.#asked) return;
    this.#asked = asked;
    this.available = undefined;
    // Each wallet on its own: one that throws (no such handler, a browser refusing the query) hides only its button.
    const can = (brand: string) =>
      Promise.resolve()
        .then(() => this.#request(brand)?.canMakePayment() ?? false)
        .catch(() => false);
    void Promise.all(brands.map((brand) => (window.PaymentRequest ? can(brand) : false))).then((answers) => {
      if (this.#asked !== asked) return;
      this.available = brands.filter((_, i) => answers[i] === true);
      if (this.alone) {
        if (this.available.length) this.ctx.ready();
        else this.ctx.unavailable();
      }
    });
  }

  override render() {
    const { strings: s } = this.ctx;
    if (!this.available) return nothing;
    if (!this.available.length) return this.alone ? html`<p part="alert">${s.rConfig}</p>` : nothing;
    return html`<div part="wallets">
        ${this.available.map(
          (brand) =>
            html`<button part="wallet" type="button" class=${brand} aria-disabled=${this.busy || this.ctx.expired} @click=${() => this.#pay(brand)}>${fmt(s.payWith, brandName(brand))}</button>`,
        )}
      </div>
      <p part="alert">${this.alert}</p>`;
  }

  /** The wallet's sheet (shown at once: it needs the click's user activation), then the payment and the sheet's outcome. */
  async #pay(brand: string): Promise<void> {
    const { ctx } = this;
    if (ctx.expired) return ctx.announce(ctx.strings.rSession);
    if (this.busy || !ctx.beforeSubmit('wallet', brand)) return;
    // The gateway's refusal of Apple Pay's merchant validation ('' when it did not answer).
    let refused: string | undefined;
    let response: PaymentResponse;
    try {
      const request = this.#request(brand)!;
      // Apple Pay: the gateway validates the merchant with Apple (POST /v1/checkouts/{id}/applePaySession).
      request.addEventListener('merchantvalidation', (event: any) =>
        event.complete(
          fetch(`${ctx.gateway}/v1/checkouts/${encodeURIComponent(ctx.checkoutId)}/applePaySession`, {
            method: 'POST',
            credentials: 'omit',
            body: new URLSearchParams({ validationUrl: event.validationURL }),
          })
            .then(async (r) => {
              const body = await r.json().catch(() => null);
              if (r.ok && body?.merchantSession) return body.merchantSession;
              refused = String(body?.result?.code ?? '');
              throw new Error(refused);
            })
            .catch((error) => {
              refused ??= '';
              throw error;
            }),
        ),
      );
      const shown = request.show();
      this.busy = true;
      this.alert = '';
      response = await shown;
    } catch (error) {
      // Closed by the shopper (AbortError): nothing to say. Merchant validation refused (or
      // unanswered), or the wallet refusing the request (a sheet already open, a provider's
      // configuration error): said as a payment's failure is (announced, pw-error and onError,
      // the message beside the buttons), and the focus back on the button.
      this.busy = false;
      if (refused !== undefined || (error as Error)?.name !== 'AbortError') {
        const message = ctx.strings[refused ? resultMessageKey(refused) : refused === '' ? 'rNetwork' : 'rConfig'];
        refused ??= '';
        ctx.announce(message);
        this.dispatchEvent(new CustomEvent('pw-error', { detail: { code: refused, message }, bubbles: true, composed: true }));
        await this.#failed(brand, message);
      }
      return;
    }
    ctx.processing();
    const fields = tokenFields(brand, response.details);
    // A wallet answering no token is a technical error (999.999.999), not the shopper's.
    const answer = fields ? await payFromPage(ctx.gateway, ctx.checkoutId, fields, newIdempotencyKey()) : { status: 0, body: { result: { code: '999.999.999' } } };
    const code = answer.body?.result.code ?? '';
    // Pending (a 3-D Secure or other redirect still to come, or another attempt under way) is no
    // success yet: 'unknown' lets the sheet close without claiming either.
    await response.complete(isSuccess(code) ? 'success' : isPending(code) ? 'unknown' : 'fail').catch(() => undefined);
    // After a success the page navigates away; the buttons stay busy so nobody pays twice.
    const outcome = ctx.result(answer, 'wallet');
    if (!outcome.ok) {
      this.busy = false;
      await this.#failed(brand, outcome.message);
    }
  }

  /** Says why beside the buttons and puts the focus back on the one pressed (the sheet had it). */
  async #failed(brand: string, message: string): Promise<void> {
    this.alert = message;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLButtonElement>(`button.${brand}`)?.focus();
  }
}
