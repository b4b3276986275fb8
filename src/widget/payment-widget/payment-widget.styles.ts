import { css } from 'lit';
import { formStyles } from '../internal/styles.ts';
import { themeDefaults } from '../theme.ts';

// .root's overflow-wrap is anywhere, not break-word: a long word (Rechnungsadresse at a large font
// size on a narrow screen) then also lets its box narrow, so it wraps instead of widening the page.
// .busy is the status while the form data loads: a spinner, which speaks no language, with
// "Loading…" beside it once the texts of the locale asked for are there (not English on a German page).
export const styles = [
  themeDefaults,
  formStyles,
  css`
    :host {
      line-height: 1.5;
    }
    :host([hidden]) {
      display: none;
    }
    /* The card form rendered while the form data loads (its frames load meanwhile), and the card
       form and saved list kept while another method is current. */
    pw-card-form[hidden],
    pw-registrations[hidden] {
      display: none;
    }
    .root {
      display: grid;
      gap: var(--pw-spacing);
      /* Set here as well as on :host: a page's reset (* { all: unset }) wins over :host. */
      color: var(--pw-color-text);
      font-family: var(--pw-font-family);
      font-size: max(16px, 1rem);
      line-height: 1.5;
      /* The text properties a shop page passes down (body { text-align: center; white-space: nowrap … })
         stop here: the form looks the same on every page. direction stays: the widget sets dir. */
      font-style: normal;
      font-weight: 400;
      font-variant: normal;
      text-align: start;
      text-indent: 0;
      text-transform: none;
      text-shadow: none;
      letter-spacing: normal;
      word-spacing: normal;
      white-space: normal;
      word-break: normal;
      overflow-wrap: anywhere;
      hyphens: manual;
    }
    .root.card {
      padding: var(--pw-spacing);
      border: var(--pw-border-width) solid var(--pw-color-border);
      border-radius: var(--pw-radius);
    }
    [part='methods'] {
      gap: max(8px, 0.5rem);
    }
    [part='challenge'] {
      display: block;
      max-width: 100%;
      margin: 0 auto;
      border: 0;
    }
    /* A way out under the challenge: quieter than a pay button. */
    [part='cancel'] {
      justify-self: center;
      color: var(--pw-color-primary);
      background: transparent;
      border: var(--pw-border-width) solid var(--pw-color-border);
    }
    [part='status'] {
      margin: 0;
    }
    .busy::before {
      content: '';
      display: inline-block;
      width: 1em;
      height: 1em;
      margin-inline-end: 0.5em;
      vertical-align: -0.125em;
      border: 2px solid;
      border-top-color: transparent;
      border-radius: 50%;
      animation: pw-spin 1s linear infinite;
    }
    @keyframes pw-spin {
      to {
        transform: rotate(1turn);
      }
    }
    /* A shopper who asked for less motion sees the ring still; the status says it loads. */
    @media (prefers-reduced-motion: reduce) {
      .busy::before {
        animation: none;
      }
    }
    /* Never shown: resolves the frames' size tokens as a frame's input uses them (frameTokens). */
    .probe {
      font-size: max(16px, var(--pw-font-size));
      padding: var(--pw-input-padding);
      border: var(--pw-border-width) solid;
      border-radius: var(--pw-radius);
      /* The used colour scheme (colorScheme); light where light-dark() is unknown. */
      color: #000;
      color: light-dark(#000, #fff);
    }
    .vh {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip-path: inset(50%);
      white-space: nowrap;
    }
  `,
];
