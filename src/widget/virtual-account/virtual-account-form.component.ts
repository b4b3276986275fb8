// A virtual account (PayPal, Alipay, …): the shopper's account id at that provider, sent by the
// page itself as virtualAccount.accountId with the brand.
import { html } from 'lit';
import { brandName } from '../../core/methods.ts';
import type { MessageKey } from '../../core/i18n.ts';
import { payFromPage } from '../internal/api.ts';
import { MethodForm } from '../internal/method-form.ts';
import { customFields } from '../options.ts';
import { styles } from './virtual-account-form.styles.ts';

export class VirtualAccountForm extends MethodForm<'account'> {
  static override styles = styles;
  static override properties = { brand: {} };

  declare brand: string;

  constructor() {
    super();
    this.brand = '';
  }

  protected get memoryKey(): string {
    return `virtual:${this.brand}`;
  }

  override firstUpdated(): void {
    this.ctx.ready();
  }

  override render() {
    return html`<form part="form" novalidate @submit=${this.#onSubmit}>
      ${this.input('account', `${brandName(this.brand)}: ${this.ctx.strings.accountId}`, { autocomplete: 'username' })} ${this.footer()}
    </form>`;
  }

  protected override problem(): MessageKey | undefined {
    const id = this.value('account').trim();
    return id && id.length <= 100 ? undefined : 'eAccount';
  }

  async #onSubmit(event: Event): Promise<void> {
    event.preventDefault();
    if (this.busy || !this.validate(['account'])) return;
    const { ctx } = this;
    const fields = { paymentBrand: this.brand, 'virtualAccount.accountId': this.value('account').trim(), ...customFields(ctx.options.customParameters) };
    await this.pay('virtual', this.brand, (key) => payFromPage(ctx.gateway, ctx.checkoutId, fields, key));
  }
}
