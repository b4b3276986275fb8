// The standalone 3-D Secure authentication (POST /v1/threeDSecure): a card, the amount to
// authenticate, the shopper's browser and billing address, the authentication-message fields.
// It authenticates without paying, so the proof of an external server and disable make no sense here.
import { z } from 'zod';
import type { Nested } from '../http/params.ts';
import { asynchronousFields } from './asynchronous.ts';
import { basicFields, testMode } from './basic.ts';
import { billing } from './billing.ts';
import { card } from './card.ts';
import { customParameters } from './customParameters.ts';
import { customer } from './customer.ts';
import { paramError, type CodedParamError } from './errors.ts';
import { merchant } from './merchant.ts';
import { checkAmount, checkCard, checkCommonGroups, parseWith, type AccountCheck, type Parsed, type ValidationContext } from './requests.ts';
import { threeDSecure } from './threeDSecure.ts';

export const authenticationRequest = z.strictObject({
  amount: basicFields.amount,
  currency: basicFields.currency,
  paymentBrand: basicFields.paymentBrand,
  merchantTransactionId: basicFields.merchantTransactionId,
  card: card.optional(),
  customer: customer.optional(),
  billing: billing.optional(),
  merchant: merchant.optional(),
  threeDSecure: threeDSecure.optional(),
  customParameters: customParameters.optional(),
  shopperResultUrl: asynchronousFields.shopperResultUrl,
  testMode: testMode.optional(),
});
export type AuthenticationRequest = z.infer<typeof authenticationRequest>;

/** Fields of a payment's 3-D Secure group that a standalone authentication refuses. */
const NOT_HERE = ['eci', 'verificationId', 'authenticationStatus', 'dsTransactionId', 'acsTransactionId', 'challengeMandatedIndicator', 'authType', 'transactionStatusReason', 'version', 'disable'] as const;

/**
 * The amount's rules for what is authenticated: threeDSecure.amount in threeDSecure.currency when
 * sent, each falling back on the main one (threeds/standalone.ts), as well as the main amount.
 */
function checkAuthenticatedAmount(v: AuthenticationRequest): CodedParamError[] {
  const errors = checkAmount(v.amount, v.currency);
  const tds = v.threeDSecure;
  if (tds?.amount !== undefined) errors.push(...checkAmount(tds.amount, tds.currency ?? v.currency, 'threeDSecure.amount'));
  // The main amount authenticated in another currency: a fraction there is the amount's fault.
  else if (tds?.currency !== undefined && !errors.length) errors.push(...checkAmount(v.amount, tds.currency));
  return errors;
}

export function parseAuthentication(input: Nested, ctx: ValidationContext): Parsed<AuthenticationRequest & { account: AccountCheck }> {
  let account: AccountCheck | undefined;
  const parsed = parseWith(authenticationRequest, input, ctx, (v) => {
    // The common groups' rule for an external server's result fields is for payments; here those
    // fields are refused outright (NOT_HERE), once each.
    // threeDSecure.amount is what is authenticated here, checked as such by checkAuthenticatedAmount.
    const refusedHere = new Set([...NOT_HERE.map((field) => `threeDSecure.${field}`), 'threeDSecure.amount']);
    const errors: CodedParamError[] = [...checkAuthenticatedAmount(v), ...checkCommonGroups(v, ctx.now).filter((e) => !refusedHere.has(e.name))];
    if (!v.card) errors.push(paramError('card.number', undefined, 'is required: POST /v1/threeDSecure authenticates a card', '100.100.100'));
    else {
      const checked = checkCard(v.card, v.paymentBrand, ctx.now);
      errors.push(...checked.errors);
      if (checked.brand) account = { method: 'CC', brand: checked.brand };
    }
    for (const field of NOT_HERE) {
      const value = v.threeDSecure?.[field];
      if (value !== undefined) errors.push(paramError(`threeDSecure.${field}`, value, 'is not a parameter of a standalone authentication: it authenticates the shopper itself'));
    }
    return errors;
  });
  return parsed.ok ? { ok: true, value: { ...parsed.value, account: account! } } : parsed;
}
