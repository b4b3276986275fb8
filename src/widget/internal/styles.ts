// Styles every method form shares: fields, labels, errors, the pay button. Only --pw-* tokens
// (src/widget/theme.ts); inputs never below 16 px (no zoom on phones), usable at 320 px wide.
// Sizes are max(<px>, <rem>): never below the design on a page that shrinks its root font size.
// A row's columns are at most 100% wide: 8rem is more than a narrow screen at a large font size.
import { css } from 'lit';

export const formStyles = css`
  :host {
    display: block;
    color: var(--pw-color-text);
    font-family: var(--pw-font-family);
  }
  /* A field hidden by the form (the saved list's security code while an account is chosen). */
  [hidden] {
    display: none !important;
  }
  form,
  fieldset {
    display: grid;
    gap: var(--pw-spacing);
    min-width: 0;
    margin: 0;
    padding: 0;
    border: 0;
  }
  [part='field'] {
    display: grid;
    /* Beside a taller field in a row (the security code with its hint), label and input stay at the top. */
    align-content: start;
    gap: max(6px, 0.375rem);
    min-width: 0;
  }
  .row {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(min(100%, max(128px, 8rem)), 1fr));
    gap: var(--pw-spacing);
  }
  /* Side by side, fields share their rows (label, box, what follows): a label that wraps in one
     (a long word at a phone's width) does not push its box below the other's. */
  .row > [part='field'] {
    grid-row: span 3;
    grid-template-rows: subgrid;
  }
  .after {
    display: grid;
    gap: max(6px, 0.375rem);
  }
  [part='label'],
  legend {
    font-size: max(15px, 0.9375rem);
    font-weight: 600;
  }
  [part='brand'] {
    float: inline-end;
    font-weight: 400;
  }
  input:not([type='checkbox'], [type='radio']),
  select,
  [part='frame'] {
    box-sizing: border-box;
    width: 100%;
    height: var(--pw-input-height);
    margin: 0;
    border: 0;
  }
  input:not([type='checkbox'], [type='radio']),
  select {
    padding: var(--pw-input-padding);
    font: inherit;
    font-size: max(16px, var(--pw-font-size));
    color: inherit;
    background: var(--pw-color-surface);
    border: var(--pw-border-width) solid var(--pw-color-border);
    border-radius: var(--pw-radius);
  }
  :focus-visible {
    outline: 2px solid var(--pw-color-focus);
    outline-offset: 2px;
  }
  /* [part='input'] too: the input rule above is more specific than an attribute alone. */
  [aria-invalid='true'],
  [part='input'][aria-invalid='true'] {
    border-color: var(--pw-color-error);
  }
  [part='error'],
  [part='hint'] {
    margin: 0;
    font-size: max(14px, 0.875rem);
    color: var(--pw-color-muted);
  }
  [part='error'],
  [part='alert'] {
    color: var(--pw-color-error);
  }
  [part='error']:empty,
  [part='alert']:empty {
    display: none;
  }
  .choice {
    display: flex;
    gap: max(8px, 0.5rem);
    font-weight: 400;
  }
  .choice input {
    /* Full size beside a text of several lines: a flex item would shrink. */
    flex: none;
    width: max(20px, 1.25rem);
    height: max(20px, 1.25rem);
    margin: max(2px, 0.125rem) 0 0;
    accent-color: var(--pw-color-primary);
  }
  [part='alert'] {
    margin: 0;
    padding: max(12px, 0.75rem);
    border: var(--pw-border-width) solid;
    border-radius: var(--pw-radius);
  }
  button {
    min-height: max(44px, 2.75rem);
    padding: max(8px, 0.5rem) max(16px, 1rem);
    font: inherit;
    font-size: max(16px, var(--pw-font-size));
    font-weight: 600;
    color: var(--pw-color-on-primary);
    background: var(--pw-color-primary);
    /* Transparent, not none: forced colors (high contrast) paint no background but draw this edge. */
    border: 1px solid transparent;
    border-radius: var(--pw-radius);
  }
  [aria-disabled='true'] {
    opacity: 0.7;
  }
`;
