// Registers <pw-virtual-account-form>; import virtual-account-form.component.ts for the class alone.
import { VirtualAccountForm } from './virtual-account-form.component.ts';

export { VirtualAccountForm };
if (!customElements.get('pw-virtual-account-form')) customElements.define('pw-virtual-account-form', VirtualAccountForm);

declare global {
  interface HTMLElementTagNameMap {
    'pw-virtual-account-form': VirtualAccountForm;
  }
}
