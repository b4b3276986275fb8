// What the <payment-widget> hands each method form: the checkout, texts, options and the
// callbacks that turn a form's outcome into the widget's events, announcements and navigation.
import type { BillingField } from '../../core/address.ts';
import type { ChallengeWindow } from '../../core/browser.ts';
import type { Method } from '../../core/methods.ts';
import type { PaymentAnswer } from '../../core/http.ts';
import type { Locale, Strings } from '../../core/i18n.ts';
import type { StyleTokens } from '../../core/messages.ts';
import type { WidgetOptions } from '../options.ts';

/** A saved card, or a saved bank account (SEPA): masked as the form data lists it. */
export type Registration =
  | { id: string; paymentBrand: string; card: { last4Digits: string; expiryMonth: string; expiryYear: string; holder?: string }; bankAccount?: undefined }
  | { id: string; paymentBrand: string; bankAccount: { last4Digits: string; holder?: string }; card?: undefined };

/** The saved list's title, as method choice and legend: "Saved cards" when it holds cards only, else "Saved payment methods". */
export const savedTitle = (registrations: readonly Registration[], s: Strings): string => (registrations.every((r) => r.card) ? s.mSaved : s.mSavedAll);

/** GET /v1/checkouts/{id}/form, the part the widget uses. */
export interface CheckoutForm {
  /** Decimal string as the gateway sends it ("92.00"): never a float. */
  amount: string;
  currency: string;
  brands: string[];
  registrations: Registration[];
  /** billing.* fields the card form asks the shopper for (3-D Secure 2 needs them, the checkout lacks them). */
  billing: BillingField[];
  /** The checkout stores the account anyway (createRegistration=true): no shopper is asked whether to save it. */
  createRegistration: boolean;
  /** The checkout takes the holder of a saved account that has none (overrideHolder=true): the saved list asks for it. */
  overrideHolder: boolean;
  /** What the wallets' Payment Request needs, when the entity offers a wallet. */
  wallet?: WalletForm;
  /**
   * When the checkout expires, as Date.now() counts: the time the gateway gave it (expiresAt −
   * timestamp, both of the gateway's clock, so a shopper's clock that is off does not matter) from
   * the moment its answer was read; NaN when the answer lacks either.
   */
  expires?: number;
}

/** GET /v1/checkouts/{id}/form's wallet (server/checkouts/wallets.ts). */
export interface WalletForm {
  merchantName: string;
  country: string;
  gatewayMerchantId: string;
  gateway: string;
  appleMerchantId: string;
  samsungServiceId: string;
  environment: string;
}

export interface WidgetContext {
  /** The gateway's origin (frames, form data, payments). */
  gateway: string;
  checkoutId: string;
  checkout: CheckoutForm;
  /** Brands this page accepts: the checkout's, narrowed by the shop's brands list. */
  brands: readonly string[];
  locale: Locale;
  /**
   * The locale asked for, whose texts may still be loading: the frames' URLs carry it, so that a
   * frame made before the texts arrived is not loaded again once they do (configure tells the
   * frame `locale`, the one in use).
   */
  frameLocale: Locale;
  /**
   * The form data is still loading: the card form is rendered hidden and inert, only so that its
   * frames load in the meantime (docs/widget-protocol.md); it configures no frame and reports no
   * readiness until a context with the form data replaces this one.
   */
  pending: boolean;
  strings: Strings;
  options: WidgetOptions;
  /** "Pay 92,00 €" (or "Pay" when the amount cannot be shown). */
  payLabel: string;
  /** The checkout has expired (payment-widget: its end is said): Pay is disabled, a press says so again. */
  expired: boolean;
  announce(text: string): void;
  /** A payment is on its way to the gateway: "Processing…" said; the checkout's end waits for its answer (result). */
  processing(): void;
  /** The form can take input (its frames answered); the widget fires pw-ready once. */
  ready(): void;
  /** Nothing can be paid with here (no method of the page's brands, no wallet in this browser): pw-error once. */
  unavailable(): void;
  /** The card frames did not load (`message` said in the form): pw-error once, as a form that could not load. */
  framesFailed(message: string): void;
  /** The brand detected from the card number changed (pw-brand). */
  brand(brand: string | undefined): void;
  /** pw-submit (cancelable) and onBeforeSubmitCard: false when the shop cancelled. */
  beforeSubmit(method: Method, brand?: string): boolean;
  /** The gateway answered (or not): events, announcement, navigation. ok=false carries the message to show. */
  result(answer: PaymentAnswer, method: Method): { ok: boolean; message: string };
  /** The 3-D Secure challenge window for a form `width` pixels wide (configure of the paying frame). */
  challengeWindow(width: number): ChallengeWindow;
  /** Current --pw-* values for the frames. */
  frameTokens(): StyleTokens;
  /** The widget's used colour scheme, for the frames' root (configure). */
  colorScheme(): 'light' | 'dark';
  /**
   * What the shopper typed into each method's form (by MethodForm.memoryKey), kept while another
   * method is shown, so that a form made again shows it again; forgotten with the checkout.
   */
  typed: Map<string, Readonly<Record<string, string>>>;
}
