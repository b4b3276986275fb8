// When a payment is authenticated, and what it must then carry (docs/threeds-protocol.md,
// "When authentication applies").
import type { Entity } from '../config.ts';
import { paramError, type CodedParamError } from '../schema/errors.ts';
import type { Customer } from '../schema/customer.ts';
import { hasExternalProof, type Flow, type ThreeDSecure } from '../schema/threeDSecure.ts';
import type { AccountCheck } from '../schema/requests.ts';
import { pathOf } from './directory.ts';

/** customer.browser.* fields 3-D Secure 2 needs, in the spec's order. */
export const BROWSER_FIELDS = ['acceptHeader', 'language', 'screenHeight', 'screenWidth', 'timezone', 'userAgent', 'javaEnabled'] as const;
/** billing.* fields 3-D Secure 2 needs. */
export const BILLING_FIELDS = ['street1', 'city', 'postcode', 'country'] as const;

/** Every 3-D Secure 2 field missing from the request, each named (400, 200.300.404). */
/**
 * What 3-D Secure 2 needs that the request lacks: the shopper's browser, the billing address,
 * and shopperResultUrl when no checkout brings the shopper back (`lacksResultUrl`).
 */
export function missingForAuthentication(customer: Customer | undefined, billing: Partial<Record<(typeof BILLING_FIELDS)[number], string>> | undefined, lacksResultUrl: boolean): CodedParamError[] {
  const errors: CodedParamError[] = [];
  for (const field of BROWSER_FIELDS) {
    if (customer?.browser?.[field] === undefined) errors.push(paramError(`customer.browser.${field}`, undefined, 'is required for 3-D Secure 2', '200.300.404'));
  }
  for (const field of BILLING_FIELDS) {
    if (billing?.[field] === undefined) errors.push(paramError(`billing.${field}`, undefined, 'is required for 3-D Secure 2', '200.300.404'));
  }
  if (lacksResultUrl) errors.push(paramError('shopperResultUrl', undefined, "is required for 3-D Secure 2: the shopper comes back there from the issuer's page", '200.300.404'));
  return errors;
}

/**
 * none: no authentication (not a card PA or DB, the entity does not authenticate, disable=true,
 * or the directory server does not know the card); external: an external server authenticated
 * (eci, verificationId or dsTransactionId sent), its values go to the acquirer unchanged;
 * authenticate: the simulated directory server takes this path.
 */
export type Plan = { kind: 'none' } | { kind: 'external' } | { kind: 'authenticate'; path: Flow };

export interface PlanInput {
  paymentType: string;
  threeDSecure?: ThreeDSecure;
  customParameters?: Record<string, string>;
  /** A terminal's payment: the card is present, no browser to authenticate in. */
  pos?: unknown;
  transactionCategory?: string;
  standingInstruction?: { mode?: string };
}

export function planAuthentication(entity: Entity, request: PlanInput, account: AccountCheck, cardNumber: string | undefined): Plan {
  if (account.method !== 'CC' || (request.paymentType !== 'PA' && request.paymentType !== 'DB')) return { kind: 'none' };
  if (hasExternalProof(request.threeDSecure)) return { kind: 'external' };
  if (!authenticatesCards(entity, request)) return { kind: 'none' };
  const path = pathOf(cardNumber, request.customParameters);
  return path === 'none' ? { kind: 'none' } : { kind: 'authenticate', path };
}

/** transactionCategory of payments without the shopper's browser: mail and telephone orders, terminals (pos, mpos). */
const NO_BROWSER_CATEGORIES = new Set(['MO', 'TO', 'MOTO', 'PO', 'PM']);

/** Whether the gateway authenticates the request's card payments, whatever the card. */
function authenticatesCards(entity: Entity, request: PlanInput): boolean {
  if (hasExternalProof(request.threeDSecure)) return false;
  // Card present at a terminal, an order taken by mail or telephone, or a repeated card-on-file
  // payment the merchant starts without the shopper (REPEATED carries no shopper authentication):
  // no shopper's browser to authenticate in, and none of them is in 3-D Secure's scope.
  if (request.pos !== undefined || NO_BROWSER_CATEGORIES.has(request.transactionCategory ?? '') || request.standingInstruction?.mode === 'REPEATED') return false;
  return entity.threeDSecure && request.threeDSecure?.disable !== 'true';
}

/**
 * The billing.* fields a checkout's card payment would be refused without and the checkout does
 * not carry: its payment page asks the shopper for them (GET /v1/checkouts/{id}/form).
 */
export function billingToAsk(entity: Entity, request: PlanInput & { billing?: Partial<Record<(typeof BILLING_FIELDS)[number], string>> }): (typeof BILLING_FIELDS)[number][] {
  return authenticatesCards(entity, request) ? BILLING_FIELDS.filter((field) => request.billing?.[field] === undefined) : [];
}
