// SEPA direct debit: account holder, IBAN, BIC (optional: the IBAN names the bank) and the
// mandate. Checked as the gateway does (core/bank.ts; national check digits are left to the
// gateway); the page sends it itself (no card data).
import { html } from 'lit';
import { accountHolderValid, bicValid, compactBic, compactIban, displayIban, ibanProblem } from '../../core/bank.ts';
import type { MessageKey } from '../../core/i18n.ts';
import { holderText } from '../../core/format.ts';
import { payFromPage } from '../internal/api.ts';
import { MethodForm } from '../internal/method-form.ts';
import { customFields } from '../options.ts';
import { styles } from './bank-account-form.styles.ts';

type BankField = 'holder' | 'iban' | 'bic' | 'mandate';

export class BankAccountForm extends MethodForm<BankField> {
  static override styles = styles;
  static override properties = { brand: {} };

  /** DIRECTDEBIT_SEPA (or another bank brand of the checkout). */
  declare brand: string;

  constructor() {
    super();
    this.brand = 'DIRECTDEBIT_SEPA';
  }

  protected get memoryKey(): string {
    return `bank:${this.brand}`;
  }

  override firstUpdated(): void {
    this.ctx.ready();
  }

  override render() {
    const s = this.ctx.strings;
    return html`<form part="form" novalidate @submit=${this.#onSubmit}>
      ${this.input('holder', s.accHolder, { autocomplete: 'name' })}
      ${this.input('iban', 'IBAN', { autocomplete: 'off', dir: 'ltr' })}
      ${this.input('bic', s.bic, { autocomplete: 'off', dir: 'ltr', optional: true })}
      <div part="field">
        <label class="choice" part="label">
          <input
            part="checkbox"
            type="checkbox"
            id="mandate"
            aria-required="true"
            aria-invalid=${!!this.errors.mandate}
            aria-describedby="mandate-error"
            .checked=${this.value('mandate') === 'yes'}
            @change=${(event: Event) => this.setValue('mandate', (event.target as HTMLInputElement).checked ? 'yes' : '')}
          />
          <span>${s.mandate}</span>
        </label>
        ${this.errorLine('mandate')}
      </div>
      ${this.saveChoice()} ${this.footer()}
    </form>`;
  }

  protected override onBlur(field: BankField): void {
    if (field === 'iban' && this.value('iban').trim()) this.values = { ...this.values, iban: displayIban(this.value('iban')) };
    super.onBlur(field);
  }

  protected override problem(field: BankField): MessageKey | undefined {
    const value = this.value(field);
    switch (field) {
      case 'holder':
        return accountHolderValid(value) ? undefined : 'eAccHolder';
      case 'iban':
        return ibanProblem(value) ? 'eIban' : undefined;
      case 'bic':
        return bicValid(value) ? undefined : 'eBic';
      case 'mandate':
        return value ? undefined : 'eMandate';
    }
  }

  async #onSubmit(event: Event): Promise<void> {
    event.preventDefault();
    if (this.busy || !this.validate(['holder', 'iban', 'bic', 'mandate'])) return;
    const { ctx } = this;
    const iban = compactIban(this.value('iban'));
    const bic = compactBic(this.value('bic'));
    const fields = {
      paymentBrand: this.brand,
      'bankAccount.holder': holderText(this.value('holder')),
      'bankAccount.iban': iban,
      ...(bic && { 'bankAccount.bic': bic }),
      'bankAccount.country': iban.slice(0, 2),
      ...this.saveFields(),
      ...customFields(ctx.options.customParameters),
    };
    await this.pay('bank', this.brand, (key) => payFromPage(ctx.gateway, ctx.checkoutId, fields, key));
  }
}
