// The card form: holder and expiry on the page, card number and security code in gateway-origin
// frames. The page never sees the digits: the number frame pays, the security code reaches it
// over a same-origin BroadcastChannel, and this form only learns empty/valid/complete/brand.
import { html, nothing, type PropertyValues } from 'lit';
import { billingParams, type BillingField } from '../../core/address.ts';
import { brandName } from '../../core/methods.ts';
import { checkExpiry, holderProblem } from '../../core/expiry.ts';
import { formatExpiryInput, holderText } from '../../core/format.ts';
import type { MessageKey } from '../../core/i18n.ts';
import type { Field, FrameMessage } from '../../core/messages.ts';
import { FrameController } from '../internal/frames.ts';
import { MethodForm } from '../internal/method-form.ts';
import { customFields } from '../options.ts';
import { styles } from './card-form.styles.ts';

type CardField = 'holder' | 'expiry' | Field | BillingField;

/** How long after its document loaded a card frame may take to say ready. */
const FRAME_READY_MS = 3000;
/** How long a card frame's page may take to arrive at all. */
export const FRAME_HANG_MS = 15_000;

export class CardForm extends MethodForm<CardField> {
  static override styles = styles;
  static override properties = { brand: { state: true } };

  /** The brand the number frame detected. */
  declare brand: string | undefined;
  readonly frames = new FrameController(this);
  #submitted = false;

  protected get memoryKey(): string {
    return 'card';
  }

  get #withCvv(): boolean {
    return this.ctx.options.requireCvv !== false;
  }

  override render() {
    const { ctx } = this;
    const s = ctx.strings;
    const showBrand = ctx.options.brandDetection !== false && this.brand;
    return html`<form part="form" novalidate @submit=${this.#onSubmit}>
      <div part="field">
        <span part="label" @click=${() => this.focusField('number')}
          >${s.number}${showBrand ? html` <span part="brand">${brandName(this.brand!)}</span>` : nothing}</span
        >
        ${this.#frame('number', s.number)} ${this.errorLine('number')}
      </div>
      <div class="row">
        ${this.input('expiry', s.expiry, { autocomplete: 'cc-exp', inputmode: 'numeric', dir: 'ltr', placeholder: s.mmYY })}
        ${this.#withCvv
          ? html`<div part="field">
              <span part="label" @click=${() => this.focusField('cvv')}>${s.cvv}</span>
              ${this.#frame('cvv', s.cvv)}
              <div class="after">${ctx.options.showCVVHint ? html`<p part="hint">${s.cvvHint}</p>` : nothing} ${this.errorLine('cvv')}</div>
            </div>`
          : nothing}
      </div>
      ${this.input('holder', s.holder, { autocomplete: 'cc-name' })} ${this.billing()} ${this.saveChoice()} ${this.footer()}
    </form>`;
  }

  #frame(field: Field, title: string) {
    const { ctx } = this;
    return html`<iframe
      part="frame"
      data-field=${field}
      title=${title}
      aria-describedby="${field}-error"
      src=${this.frames.url(ctx.gateway, field, ctx.frameLocale, ctx.checkoutId)}
      allow="payment"
      referrerpolicy="origin"
      @load=${() => this.#frameLoaded(field)}
    ></iframe>`;
  }

  /**
   * A frame whose document loaded but never said ready is no card field: the network failed,
   * or the shop's policy refused the gateway's page. Said once, not as "Enter a valid card number".
   */
  #frameLoaded(field: Field): void {
    setTimeout(() => this.#sayIfNotReady([field]), FRAME_READY_MS);
  }

  /** A frame whose page never arrives (the request hangs) fires no load: it is given a while. */
  protected override firstUpdated(changed: PropertyValues<this>): void {
    super.firstUpdated(changed);
    setTimeout(() => this.#sayIfNotReady(['number', 'cvv']), FRAME_HANG_MS);
  }

  #sayIfNotReady(fields: Field[]): void {
    if (!this.isConnected || this.alert || fields.every((field) => !this.frames.frame(field) || this.frames.ready.has(field))) return;
    this.alert = this.ctx.strings.eLoad;
    if (!this.hidden) this.ctx.announce(this.alert);
    this.ctx.framesFailed(this.alert);
  }

  /** Loads again the frames that never said ready (the shopper's Pay is the retry). */
  #reloadFrames(): void {
    for (const field of ['number', 'cvv'] as const) {
      const frame = this.frames.frame(field);
      if (frame && !this.frames.ready.has(field)) frame.src = frame.src;
    }
  }

  get #framesReady(): boolean {
    return this.frames.ready.has('number') && (!this.#withCvv || this.frames.ready.has('cvv'));
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    const { ctx } = this;
    // Hidden while the form data loads, or while another method is current: the frames load,
    // nothing is configured yet (a frame shows its input once configured), and a hidden form's
    // zero width does not choose the challenge window of the form that pays.
    if (ctx.pending || this.hidden) return;
    // Frames that were ready before the form data: the form is ready now that it shows.
    if (changed.has('ctx') && this.#framesReady) ctx.ready();
    this.#configure();
  }

  /** Label, placeholder, error text, tokens and challenge window for each frame; sent only when they changed. */
  #configure(): void {
    const { ctx } = this;
    const s = ctx.strings;
    const style = ctx.frameTokens();
    const colorScheme = ctx.colorScheme();
    const challengeWindow = ctx.challengeWindow(this.clientWidth);
    // The brand the number shows is part of its name for assistive technology too.
    const numberLabel = ctx.options.brandDetection !== false && this.brand ? `${s.number}, ${brandName(this.brand)}` : s.number;
    for (const field of ['number', 'cvv'] as const) {
      const key = this.errors[field];
      const description = key ? s[key] : field === 'cvv' && ctx.options.showCVVHint ? s.cvvHint : '';
      this.frames.configure(field, {
        locale: ctx.locale,
        label: field === 'number' ? numberLabel : s.cvv,
        // Shaped as the brand's numbers are grouped (AMEX 4-6-5) and its code's length.
        placeholder: field === 'number' ? (this.brand === 'AMEX' ? '1234 123456 12345' : '1234 1234 1234 1234') : this.frames.states.number?.cvvLength === 4 ? '1234' : '123',
        style,
        colorScheme,
        challengeWindow,
        invalid: !!key,
        ...(description && { ariaDescribedBy: description }),
      });
    }
  }

  onFrameMessage(field: Field, message: FrameMessage): void {
    if (message.type === 'ready') {
      if (this.#framesReady && this.alert === this.ctx.strings.eLoad) this.alert = '';
      this.requestUpdate();
      if (this.#framesReady && !this.hidden) this.ctx.ready();
    } else if (message.type === 'state') {
      if (field === 'number' && message.brand !== this.brand) {
        this.brand = message.brand;
        this.ctx.brand(message.brand);
        // Said once as it appears, as the label shows it to sighted shoppers.
        if (message.brand && this.ctx.options.brandDetection !== false) this.ctx.announce(brandName(message.brand));
      }
      // Errors show when the shopper leaves a field (or after a submit attempt), and clear as
      // soon as the value is right.
      if ((message.focused === false && !message.empty) || (this.errors[field] && (message.valid || this.#submitted))) this.check(field);
    } else if (message.type === 'enter') {
      this.submitFromFrame();
    } else if (message.type === 'autofill') {
      const { fields } = message;
      const month = fields['card.expiryMonth'];
      const year = fields['card.expiryYear'];
      if (fields['card.holder']) this.values = { ...this.values, holder: fields['card.holder'] };
      if (month && year) this.values = { ...this.values, expiry: `${month}/${year.slice(-2)}` };
      for (const name of ['holder', 'expiry'] as const) if (this.value(name)) this.check(name);
    }
  }

  protected override onInput(field: CardField, event: Event): void {
    const input = event.target as HTMLInputElement;
    // Typed or pasted at the end, the slash comes by itself; an edit inside ("06" selected and
    // retyped, a Backspace after the month) stays as typed, with the caret where it was: reformatted,
    // the digits would shift across the slash and the caret jump to the end.
    // An IME's text is formatted once committed (compositionend): changed under a composition, the
    // IME writes its whole text again.
    if (field === 'expiry' && !(event as InputEvent).isComposing && input.selectionStart === input.value.length) input.value = formatExpiryInput(input.value);
    this.setValue(field, input.value);
  }

  protected override problem(field: Exclude<CardField, BillingField>): MessageKey | undefined {
    if (field === 'holder') return holderProblem(this.value('holder'));
    if (field === 'expiry') {
      if (!this.value('expiry').trim()) return 'eRequired';
      const expiry = checkExpiry(this.value('expiry'));
      return 'problem' in expiry ? ({ expired: 'eExpired', year: 'eYear', format: 'eExpiry' } as const)[expiry.problem] : undefined;
    }
    if (field === 'cvv') return this.frames.cvvProblem();
    const state = this.frames.states[field];
    if (!state?.valid) return 'eNumber';
    return state.brand && !this.ctx.brands.includes(state.brand) ? 'eBrand' : undefined;
  }

  protected override focusField(field: CardField): void {
    if (field === 'number' || field === 'cvv') this.frames.post(field, { type: 'focus', channel: this.frames.channel });
    else super.focusField(field);
  }

  async #onSubmit(event: Event): Promise<void> {
    event.preventDefault();
    if (!this.#framesReady) {
      this.alert = this.ctx.strings.eLoad;
      this.ctx.announce(this.alert);
      this.ctx.framesFailed(this.alert);
      this.#reloadFrames();
      return;
    }
    this.#submitted = true;
    const billing = this.ctx.checkout.billing;
    if (this.busy || !this.validate(['number', 'expiry', ...(this.#withCvv ? (['cvv'] as const) : []), 'holder', ...billing])) return;
    const expiry = checkExpiry(this.value('expiry'));
    if ('problem' in expiry) return;
    const brand = this.frames.states.number?.brand;
    const fields = {
      ...(brand && { paymentBrand: brand }),
      'card.holder': holderText(this.value('holder')),
      'card.expiryMonth': expiry.month,
      'card.expiryYear': expiry.year,
      ...billingParams(billing, (field) => this.value(field)),
      ...this.saveFields(),
      ...customFields(this.ctx.options.customParameters),
    };
    // The challenge window goes with the payment as measured now (a resize renders nothing), the
    // same the widget then shows: configure reaches the frame before the submit.
    this.#configure();
    await this.pay('card', brand, (key) => this.frames.submit('number', key, fields));
  }
}
