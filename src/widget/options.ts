// What a shop can configure: the element's `options` property, and for the classic form
// `window.wpwlOptions` (the same keys plus locale and the callbacks).

export interface WidgetOptions {
  /** Show the security code field of the card form (default true). */
  requireCvv?: boolean;
  /** Explain where the security code is printed (default false). */
  showCVVHint?: boolean;
  /** Show the brand detected from the card number (default true). */
  brandDetection?: boolean;
  /**
   * Saved cards: ask for their security code (frame), hide the other forms while they are offered;
   * askToSave: a "Save for future payments" checkbox in the card and SEPA forms (unticked), whose
   * payment then stores the account as a registration (not shown when the checkout stores it anyway).
   */
  registrations?: { requireCvv?: boolean; hideInitialPaymentForms?: boolean; askToSave?: boolean };
  /** Replacement texts by key of src/core/locales/en.ts (cardNumber → `number`, …). */
  labels?: Record<string, string>;
  /** "card": the form in a bordered box; "plain" (default): no box. Colours etc.: --pw-* tokens (docs/theming.md). */
  style?: 'card' | 'plain';
  /** Show the 3-D Secure challenge at the top level instead of a frame in the widget (default false). */
  threeDSecureAtTopLevel?: boolean;
  /** Sent with the payment; names must start with SHOPPER_. */
  customParameters?: Record<string, string>;
}

export interface WidgetError {
  code: string;
  message: string;
  status?: number;
}

export interface WpwlOptions extends WidgetOptions {
  locale?: string;
  onReady?: () => void;
  /** Return false to cancel the card submission. */
  onBeforeSubmitCard?: (event: Event) => boolean | void;
  onError?: (error: WidgetError) => void;
}

export const KNOWN_OPTIONS: ReadonlySet<string> = new Set([
  'locale',
  'style',
  'labels',
  'requireCvv',
  'showCVVHint',
  'brandDetection',
  'registrations',
  'customParameters',
  'threeDSecureAtTopLevel',
  'onReady',
  'onBeforeSubmitCard',
  'onError',
]);

const SHOPPER = /^SHOPPER_[A-Za-z0-9_.]{1,56}$/;

/** customParameters as form fields; names that are not SHOPPER_… are left out (and said so in development builds). */
export function customFields(parameters: Record<string, string> | undefined): Record<string, string> {
  const fields: Record<string, string> = {};
  const left: string[] = [];
  for (const [name, value] of Object.entries(parameters ?? {})) {
    if (SHOPPER.test(name) && typeof value === 'string' && value.length <= 2048) fields[`customParameters[${name}]`] = value;
    else left.push(name);
  }
  // Misuse is said in development builds (STYLE.md); the production build leaves it to the docs.
  if (import.meta.env.DEV && left.length) console.warn(`<payment-widget>: customParameters ${left.join(', ')} left out: a shopper's browser sends only SHOPPER_ names (up to 64 letters, digits, _ and .) with values up to 2048 characters; send the others with the checkout.`);
  return fields;
}
