// The theme: every design token a shop may set, with its default (documented in docs/theming.md).
// Set them on the element (`payment-widget { --pw-color-primary: #5b2a86 }`, which wins over
// these :host defaults) or through wpwlOptions.style. The card frames cannot inherit them: they
// receive FRAME_TOKENS' computed values in their configure message.
//
// Sizes are max(<px>, <rem>): they grow with the shopper's font setting, and a page that shrinks
// its root (html { font-size: 10px }, the 62.5% trick) cannot shrink the form below its design.
import { css } from 'lit';

export const themeDefaults = css`
  :host {
    --pw-color-text: #1b1f24;
    --pw-color-muted: #5f6670;
    --pw-color-surface: #fff;
    --pw-color-border: #767d87;
    --pw-color-primary: #0b57d0;
    --pw-color-on-primary: #fff;
    --pw-color-focus: #0b57d0;
    --pw-color-error: #b3261e;
    --pw-radius: 6px;
    --pw-border-width: 1px;
    --pw-spacing: max(16px, 1rem);
    --pw-font-family: system-ui, sans-serif;
    --pw-font-size: max(16px, 1rem);
    --pw-input-height: max(44px, 2.75rem);
    --pw-input-padding: 0 max(12px, 0.75rem);
  }
`;

/** The tokens the secure frames style their input with. */
export const FRAME_TOKENS = [
  '--pw-color-text',
  '--pw-color-muted',
  '--pw-color-surface',
  '--pw-color-border',
  '--pw-color-focus',
  '--pw-color-error',
  '--pw-radius',
  '--pw-border-width',
  '--pw-font-family',
  '--pw-font-size',
  '--pw-input-padding',
] as const;

/** The ::part names of the method forms, exported through <payment-widget> (docs/theming.md). */
export const EXPORT_PARTS = 'form,field,label,input,frame,brand,hint,error,checkbox,saved-card,billing,save,alert,button';
