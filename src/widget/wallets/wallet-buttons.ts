// Registers <pw-wallet-buttons>; import wallet-buttons.component.ts for the class alone.
import { WalletButtons } from './wallet-buttons.component.ts';

export { WalletButtons };
if (!customElements.get('pw-wallet-buttons')) customElements.define('pw-wallet-buttons', WalletButtons);

declare global {
  interface HTMLElementTagNameMap {
    'pw-wallet-buttons': WalletButtons;
  }
}
