// Registers <pw-card-form>; import card-form.component.ts for the class alone.
import { CardForm } from './card-form.component.ts';

export { CardForm };
if (!customElements.get('pw-card-form')) customElements.define('pw-card-form', CardForm);

declare global {
  interface HTMLElementTagNameMap {
    'pw-card-form': CardForm;
  }
}
