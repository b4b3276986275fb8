import { css } from 'lit';
import { formStyles } from '../internal/styles.ts';

// The wallets' own look (black, as their brand guidelines ask), above the other methods. The host
// is display: contents, so its parts are the widget's grid items: no gap without wallet buttons.
export const styles = [
  formStyles,
  css`
    [part='wallets'] {
      display: grid;
      gap: max(8px, 0.5rem);
    }
    [part='wallet'] {
      color: #fff;
      background: #000;
    }
    :host {
      display: contents;
    }
  `,
];
