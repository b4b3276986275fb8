// Registers <pw-registrations>; import registrations-list.component.ts for the class alone.
import { RegistrationsList } from './registrations-list.component.ts';

export { RegistrationsList };
if (!customElements.get('pw-registrations')) customElements.define('pw-registrations', RegistrationsList);

declare global {
  interface HTMLElementTagNameMap {
    'pw-registrations': RegistrationsList;
  }
}
