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
  /* The colours follow the page's declared color-scheme (inherited by the element); a browser
     without light-dark() keeps the light ones above. */
  @supports (color: light-dark(#000, #fff)) {
    :host {
      --pw-color-text: light-dark(#1b1f24, #e6e8eb);
      --pw-color-muted: light-dark(#5f6670, #a9b0ba);
      --pw-color-surface: light-dark(#fff, #1b1f24);
      --pw-color-border: light-dark(#767d87, #8b939d);
      --pw-color-primary: light-dark(#0b57d0, #7cacf8);
      --pw-color-on-primary: light-dark(#fff, #0b1d3a);
      --pw-color-focus: light-dark(#0b57d0, #7cacf8);
      --pw-color-error: light-dark(#b3261e, #f2b8b5);
    }
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
