// What every method form shares: field values and their errors (aria-invalid, aria-describedby
// pointing at the error text), the announced summary on a failed submit, and the payment round
// trip with its Idempotency-Key (kept after a network failure, so the retry cannot charge twice),
// and the billing address 3-D Secure 2 needs, for the card form and the saved-card list alike.
import { html, LitElement, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { addressProblem, countries, isBillingField, type BillingField } from '../../core/address.ts';
import type { Method } from '../../core/methods.ts';
import { keyUsedForOtherFields, type PaymentAnswer } from '../../core/http.ts';
import type { MessageKey } from '../../core/i18n.ts';
import { newIdempotencyKey } from '../../core/keys.ts';
import type { WidgetContext } from './context.ts';
import { formStyles } from './styles.ts';

export interface InputOptions {
  autocomplete: string;
  inputmode?: string;
  dir?: string;
  placeholder?: string;
  optional?: boolean;
}

/** ctx.typed's entry for the "Save for future payments" tick (no field is named so). */
const SAVE = ' save';

export abstract class MethodForm<F extends string> extends LitElement {
  static override styles = [formStyles];
  static override properties: PropertyDeclarations = {
    ctx: { attribute: false },
    values: { state: true },
    errors: { state: true },
    busy: { state: true },
    alert: { state: true },
  };

  declare ctx: WidgetContext;
  declare values: Partial<Record<F, string>>;
  declare errors: Partial<Record<F, MessageKey>>;
  declare busy: boolean;
  /** The gateway's answer in words, when a payment attempt failed. */
  declare alert: string;
  #retryKey: string | undefined;
  /** The pay button is held down (see #leave). */
  #pressing = false;
  /** Countries named in the widget's locale, listed once per locale. */
  #countries: { locale: string; list: [string, string][] } | undefined;
  /** The shopper ticked "Save for future payments". */
  #save = false;
  /** What was typed before is shown again (once, when the form first gets its context). */
  #restored = false;

  constructor() {
    super();
    this.values = {};
    this.errors = {};
    this.busy = false;
    this.alert = '';
  }

  /** Which form this is, for ctx.typed: "card", "saved", "bank:DIRECTDEBIT_SEPA", "virtual:PAYPAL". */
  protected abstract get memoryKey(): string;

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    if (this.#restored || !this.ctx) return;
    this.#restored = true;
    const { [SAVE]: save, ...typed } = this.ctx.typed.get(this.memoryKey) ?? {};
    this.values = { ...this.values, ...typed } as Partial<Record<F, string>>;
    this.#save = save === 'yes';
  }

  /** What was typed and ticked, for a form made again (ctx.typed). */
  #remember(): void {
    this.ctx.typed.set(this.memoryKey, { ...(this.values as Record<string, string>), [SAVE]: this.#save ? 'yes' : '' });
  }

  /** The field's error, if its value is wrong (billing address fields are checked by check()). */
  protected abstract problem(field: Exclude<F, BillingField>): MessageKey | undefined;

  value(field: F): string {
    return this.values[field] ?? '';
  }

  protected setValue(field: F, value: string): void {
    this.values = { ...this.values, [field]: value };
    this.#remember();
    if (this.errors[field]) this.check(field);
  }

  /** Updates the field's error; true when it has none. Billing address fields are checked here, for every form. */
  protected check(field: F): boolean {
    const key = isBillingField(field) ? addressProblem(field, this.value(field)) : this.problem(field as Exclude<F, BillingField>);
    if (key !== this.errors[field]) {
      const errors = { ...this.errors };
      if (key) errors[field] = key;
      else delete errors[field];
      this.errors = errors;
    }
    return !key;
  }

  protected focusField(field: F): void {
    this.shadowRoot?.querySelector<HTMLElement>(`#${field}`)?.focus();
  }

  /**
   * Checks every field; on failure announces the first error and moves focus to it. An expired
   * checkout takes no payment: its message is said again, and no field checked.
   */
  protected validate(fields: F[]): boolean {
    if (this.ctx.expired) {
      this.ctx.announce(this.ctx.strings.rSession);
      return false;
    }
    const invalid = fields.filter((field) => !this.check(field));
    const first = invalid[0];
    if (first === undefined) return true;
    this.ctx.announce(this.ctx.strings[this.errors[first]!]);
    this.focusField(first);
    return false;
  }

  protected errorText(field: F): string {
    const key = this.errors[field];
    return key ? this.ctx.strings[key] : '';
  }

  /** Hook for formatting while typing. */
  protected onInput(field: F, event: Event): void {
    this.setValue(field, (event.target as HTMLInputElement).value);
  }

  /** Errors show when the shopper leaves a field they typed in. */
  protected onBlur(field: F): void {
    if (this.value(field).trim() || this.errors[field]) this.check(field);
  }

  /**
   * A field left by pressing the pay button shows no error yet: the submit checks every field, and
   * an error line appearing between pointer-down and pointer-up would push the button from under
   * the pointer, so the click would miss it.
   */
  #leave(field: F): void {
    if (!this.#pressing) this.onBlur(field);
  }

  #press(): void {
    this.#pressing = true;
    const release = () => (this.#pressing = false);
    addEventListener('pointerup', release, { once: true, capture: true });
    addEventListener('pointercancel', release, { once: true, capture: true });
  }

  /** A labelled text input with its error line. */
  protected input(field: F, label: string, options: InputOptions) {
    return html`<div part="field">
      <label part="label" for=${field}>${label}</label>
      <input
        part="input"
        id=${field}
        name=${field}
        autocomplete=${options.autocomplete}
        inputmode=${options.inputmode ?? 'text'}
        dir=${options.dir ?? 'auto'}
        placeholder=${options.placeholder ?? ''}
        spellcheck="false"
        aria-required=${options.optional ? 'false' : 'true'}
        aria-invalid=${!!this.errors[field]}
        aria-describedby="${field}-error"
        .value=${this.value(field)}
        @input=${(event: Event) => this.onInput(field, event)}
        @compositionend=${(event: Event) => this.onInput(field, event)}
        @blur=${() => this.#leave(field)}
      />
      ${this.errorLine(field)}
    </div>`;
  }

  /** A labelled list to choose from (an empty first choice: nothing is picked for the shopper), with its error line. */
  protected select(field: F, label: string, autocomplete: string, choices: [string, string][]) {
    return html`<div part="field">
      <label part="label" for=${field}>${label}</label>
      <select
        part="input"
        id=${field}
        name=${field}
        autocomplete=${autocomplete}
        aria-required="true"
        aria-invalid=${!!this.errors[field]}
        aria-describedby="${field}-error"
        @change=${(event: Event) => this.setValue(field, (event.target as HTMLSelectElement).value)}
        @blur=${() => this.#leave(field)}
      >
        <option value=""></option>
        ${choices.map(([value, text]) => html`<option value=${value} ?selected=${value === this.value(field)}>${text}</option>`)}
      </select>
      ${this.errorLine(field)}
    </div>`;
  }

  /**
   * The billing address 3-D Secure 2 needs, when the checkout lacks it: only the fields the form
   * data lists (validate them with `ctx.checkout.billing`, send them with address.ts billingParams).
   */
  protected billing(this: MethodForm<F | BillingField>) {
    const { checkout, strings: s, locale } = this.ctx;
    if (!checkout.billing.length) return nothing;
    const field = (name: BillingField) => {
      if (!checkout.billing.includes(name)) return nothing;
      if (name === 'country') {
        if (this.#countries?.locale !== locale) this.#countries = { locale, list: countries(locale) };
        return this.select('country', s.country, 'country', this.#countries.list);
      }
      return name === 'street1'
        ? this.input('street1', s.street, { autocomplete: 'address-line1' })
        : name === 'city'
          ? this.input('city', s.city, { autocomplete: 'address-level2' })
          : this.input('postcode', s.postcode, { autocomplete: 'postal-code' });
    };
    return html`<fieldset part="billing">
      <legend>${s.billing}</legend>
      ${field('street1')}
      <div class="row">${field('postcode')} ${field('city')}</div>
      ${field('country')}
    </fieldset>`;
  }

  /** Whether the shopper is asked to save the account: the shop asks (registrations.askToSave), the checkout does not store it anyway. */
  get #asksToSave(): boolean {
    return !!this.ctx.options.registrations?.askToSave && !this.ctx.checkout.createRegistration;
  }

  /** The "Save for future payments" checkbox, unticked: saving needs the shopper's own choice. */
  protected saveChoice() {
    if (!this.#asksToSave) return nothing;
    return html`<div part="field save">
      <label class="choice" part="label">
        <input
          part="checkbox"
          type="checkbox"
          id="save"
          .checked=${this.#save}
          @change=${(event: Event) => {
            this.#save = (event.target as HTMLInputElement).checked;
            this.#remember();
          }}
        />
        <span>${this.ctx.strings.save}</span>
      </label>
    </div>`;
  }

  /** createRegistration=true with the payment when the shopper ticked the checkbox. */
  protected saveFields(): Record<string, string> {
    return this.#asksToSave && this.#save ? { createRegistration: 'true' } : {};
  }

  protected errorLine(field: F) {
    return html`<p part="error" id="${field}-error">${this.errorText(field)}</p>`;
  }

  /** The failed attempt's message and the pay button. */
  protected footer() {
    const { strings, payLabel } = this.ctx;
    return html`<p part="alert">${this.alert}</p>
      <button part="button" type="submit" aria-disabled=${this.busy || this.ctx.expired} @pointerdown=${() => this.#press()}>${this.busy ? strings.processing : payLabel}</button>`;
  }

  /** Enter pressed in one of the form's frames: submitted as Enter in a page field would. */
  protected submitFromFrame(): void {
    this.renderRoot.querySelector<HTMLFormElement>('form[part="form"]')?.requestSubmit();
  }

  /** pw-submit, then one payment attempt; a failure leaves its message in the form. */
  protected async pay(method: Method, brand: string | undefined, send: (idempotencyKey: string) => Promise<PaymentAnswer>): Promise<void> {
    const { ctx } = this;
    if (this.busy || !ctx.beforeSubmit(method, brand)) return;
    this.busy = true;
    this.alert = '';
    ctx.processing();
    const lostKey = this.#retryKey;
    let key = lostKey ?? newIdempotencyKey();
    let answer = await send(key);
    // The shopper edited a field after the lost answer, or the window changed size (browser data):
    // the same key with other fields is refused. The checkout itself knows whether the lost attempt
    // paid (the answer then leads on to the result) or not (this one pays): asked with a fresh key.
    if (lostKey && keyUsedForOtherFields(answer) && this.isConnected) answer = await send((key = newIdempotencyKey()));
    if (!this.isConnected) return;
    this.#retryKey = answer.status === 0 ? key : undefined;
    const outcome = ctx.result(answer, method);
    // After a success the page navigates away; the button stays busy so nobody pays twice.
    if (!outcome.ok) {
      this.busy = false;
      this.alert = outcome.message;
    }
  }
}
