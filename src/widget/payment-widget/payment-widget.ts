// Registers <payment-widget> and the method forms it renders; import
// payment-widget.component.ts for the class alone.
import '../bank-account/bank-account-form.ts';
import '../card/card-form.ts';
import '../registrations/registrations-list.ts';
import '../virtual-account/virtual-account-form.ts';
import '../wallets/wallet-buttons.ts';
import { PaymentWidget } from './payment-widget.component.ts';

export { PaymentWidget };
if (!customElements.get('payment-widget')) customElements.define('payment-widget', PaymentWidget);

declare global {
  interface HTMLElementTagNameMap {
    'payment-widget': PaymentWidget;
  }
}
