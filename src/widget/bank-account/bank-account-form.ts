// Registers <pw-bank-account-form>; import bank-account-form.component.ts for the class alone.
import { BankAccountForm } from './bank-account-form.component.ts';

export { BankAccountForm };
if (!customElements.get('pw-bank-account-form')) customElements.define('pw-bank-account-form', BankAccountForm);

declare global {
  interface HTMLElementTagNameMap {
    'pw-bank-account-form': BankAccountForm;
  }
}
