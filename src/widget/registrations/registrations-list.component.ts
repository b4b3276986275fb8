// Saved cards and bank accounts of the checkout (one-click): pick one and pay. With
// registrations.requireCvv a card's security code is typed into a gateway frame, which then sends
// the payment itself; otherwise
// the page sends the registrationId with the browser data 3-D Secure needs, collected as the
// paying frame collects it (the gateway adds the Accept header, which no script can read). When the
// checkout lacks the billing address 3-D Secure 2 needs, the list asks for it with a card, as the card form does.
// On a checkout with overrideHolder=true, a saved account without a holder asks for one, for this payment only.
import { html, nothing, type PropertyValues } from 'lit';
import { billingParams, type BillingField } from '../../core/address.ts';
import { browserFields } from '../../core/browser.ts';
import { accountHolderValid } from '../../core/bank.ts';
import { holderProblem } from '../../core/expiry.ts';
import { holderText } from '../../core/format.ts';
import { brandName } from '../../core/methods.ts';
import type { MessageKey } from '../../core/i18n.ts';
import type { Field, FrameMessage } from '../../core/messages.ts';
import { payFromPage } from '../internal/api.ts';
import { savedTitle, type Registration } from '../internal/context.ts';
import { FrameController } from '../internal/frames.ts';
import { MethodForm } from '../internal/method-form.ts';
import { customFields } from '../options.ts';
import { styles } from './registrations-list.styles.ts';

export class RegistrationsList extends MethodForm<'cvv' | 'holder' | BillingField> {
  static override styles = styles;
  static override properties = { selected: { state: true } };

  /** Id of the chosen registration ('' = the first). */
  declare selected: string;
  readonly frames = new FrameController(this);

  constructor() {
    super();
    this.selected = '';
  }

  /** The checkout's saved cards of brands this page accepts. */
  get registrations(): Registration[] {
    return this.ctx.checkout.registrations.filter((r) => this.ctx.brands.includes(r.paymentBrand));
  }

  /** The security code frame is there: asked for (registrations.requireCvv) and a card is listed; kept while an account is chosen, so what was typed stays. */
  get #cvvFrame(): boolean {
    return this.ctx.options.registrations?.requireCvv === true && this.registrations.some((r) => r.card);
  }

  /** The security code is asked for the chosen registration: a card. */
  get #withCvv(): boolean {
    return this.#cvvFrame && !!this.#chosen?.card;
  }

  /** The chosen account has no holder and the checkout takes one from the shopper (overrideHolder=true). */
  get #asksHolder(): boolean {
    const chosen = this.#chosen;
    return this.ctx.checkout.overrideHolder && !!chosen && !(chosen.card ?? chosen.bankAccount).holder;
  }

  get #chosen(): Registration | undefined {
    return this.registrations.find((r) => r.id === this.selected) ?? this.registrations[0];
  }

  protected get memoryKey(): string {
    return 'saved';
  }

  override firstUpdated(): void {
    if (!this.#cvvFrame) this.ctx.ready();
  }

  override render() {
    const { ctx } = this;
    const s = ctx.strings;
    const chosen = this.#chosen;
    return html`<form part="form" novalidate @submit=${this.#onSubmit}>
      <fieldset>
        <legend>${savedTitle(this.registrations, s)}</legend>
        ${this.registrations.map(
          (r) => html`<label class="choice" part="saved-card">
            <input type="radio" name="registration" .value=${r.id} .checked=${r === chosen} @change=${() => (this.selected = r.id)} />
            <span
              >${r.card
                ? `${brandName(r.paymentBrand)} •••• ${r.card.last4Digits} · ${r.card.expiryMonth}/${r.card.expiryYear.slice(-2)}`
                : `${s.mBank} •••• ${r.bankAccount.last4Digits}${r.bankAccount.holder ? ` · ${r.bankAccount.holder}` : ''}`}</span
            >
          </label>`,
        )}
      </fieldset>
      ${this.#cvvFrame
        ? html`<div part="field" ?hidden=${!chosen?.card}>
            <span part="label" @click=${() => this.focusField('cvv')}>${s.cvv}</span>
            <iframe
              part="frame"
              data-field="cvv"
              title=${s.cvv}
              aria-describedby="cvv-error"
              src=${this.frames.url(ctx.gateway, 'cvv', ctx.frameLocale, ctx.checkoutId)}
              allow="payment"
              referrerpolicy="origin"
            ></iframe>
            ${this.errorLine('cvv')}
          </div>`
        : nothing}
      ${this.#asksHolder ? this.input('holder', chosen?.card ? s.holder : s.accHolder, { autocomplete: chosen?.card ? 'cc-name' : 'name' }) : nothing}
      ${chosen?.card ? this.billing() : nothing} ${this.footer()}
    </form>`;
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    // Hidden while another method is current: its zero width must not choose the challenge window.
    if (this.hidden || !this.#cvvFrame) return;
    this.#configure();
  }

  #configure(): void {
    const s = this.ctx.strings;
    const key = this.errors.cvv;
    this.frames.configure('cvv', {
      locale: this.ctx.locale,
      label: s.cvv,
      placeholder: this.#chosen?.paymentBrand === 'AMEX' ? '1234' : '123',
      style: this.ctx.frameTokens(),
      colorScheme: this.ctx.colorScheme(),
      challengeWindow: this.ctx.challengeWindow(this.clientWidth),
      invalid: !!key,
      ...(key && { ariaDescribedBy: s[key] }),
    });
  }

  onFrameMessage(_field: Field, message: FrameMessage): void {
    if (message.type === 'ready') {
      this.requestUpdate();
      this.ctx.ready();
    } else if (message.type === 'enter') {
      this.submitFromFrame();
    } else if (message.type === 'state' && ((message.focused === false && !message.empty) || (this.errors.cvv && message.valid))) {
      this.check('cvv');
    }
  }

  protected override problem(field: 'cvv' | 'holder'): MessageKey | undefined {
    if (field === 'holder' && this.#chosen?.bankAccount) return accountHolderValid(this.value('holder')) ? undefined : 'eAccHolder';
    if (field === 'holder') return holderProblem(this.value('holder'));
    return this.frames.cvvProblem();
  }

  protected override focusField(field: 'cvv' | 'holder' | BillingField): void {
    if (field === 'cvv') this.frames.post('cvv', { type: 'focus', channel: this.frames.channel });
    else super.focusField(field);
  }

  async #onSubmit(event: Event): Promise<void> {
    event.preventDefault();
    const registration = this.#chosen;
    const { ctx } = this;
    // The billing address is for a card's 3-D Secure; a bank account needs none.
    const billing = registration?.card ? ctx.checkout.billing : [];
    const holder = this.#asksHolder;
    if (this.busy || !registration || !this.validate([...(this.#withCvv ? (['cvv'] as const) : []), ...(holder ? (['holder'] as const) : []), ...billing])) return;
    const fields = {
      registrationId: registration.id,
      ...(holder && { [registration.card ? 'card.holder' : 'bankAccount.holder']: holderText(this.value('holder')) }),
      ...billingParams(billing, (field) => this.value(field)),
      ...customFields(ctx.options.customParameters),
    };
    // The cvv frame adds its own browser data; here the page is the shopper's browser.
    const browser = () => browserFields({ navigator, screen, now: new Date() }, '', ctx.challengeWindow(this.clientWidth));
    // The cvv frame's challenge window as measured now (a resize renders nothing): the one the widget shows.
    if (this.#withCvv) this.#configure();
    await this.pay('saved', registration.paymentBrand, (key) =>
      this.#withCvv ? this.frames.submit('cvv', key, fields) : payFromPage(ctx.gateway, ctx.checkoutId, { ...fields, ...browser() }, key),
    );
  }
}
