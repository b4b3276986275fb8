// The checkout: what the merchant prepares (POST /v1/checkouts, and its update) and what the
// payment form sends (POST /v1/checkouts/{id}/payment). Groups come from their spec modules;
// amount, currency and type of a checkout payment come from the checkout, never from the page.
import { z } from 'zod';
import type { Nested } from '../http/params.ts';
import { bankAccount } from './bankAccount.ts';
import { basicFields } from './basic.ts';
import { billingFields } from './billing.ts';
import { card } from './card.ts';
import { bool, codedPattern } from './common.ts';
import { customParameters } from './customParameters.ts';
import { paramError, type CodedParamError } from './errors.ts';
import { registrationFields } from './registration.ts';
import { browser } from './customer.ts';
import { checkAccount, checkAmount, checkCommonGroups, checkPastDates, commonGroups, parseWith, type AccountCheck, type Parsed, type ValidationContext } from './requests.ts';
import { virtualAccount } from './virtualAccount.ts';
import { applePay, googlePay, samsungPay, WALLET_BRANDS, WALLETS } from './wallets.ts';
import { ID } from '../ids.ts';

/** Registrations a checkout may offer for one-click payment: registrations[0] to registrations[9]. */
export const MAX_REGISTRATIONS = 10;
/** Names of customParameters the payment form may send. */
export const SHOPPER_PREFIX = 'SHOPPER_';

const BRAND = /^[A-Za-z0-9_]{1,32}$/;

const registrationId = codedPattern(ID, 'must be 32 lowercase hexadecimal characters', '100.150.101');


const checkoutType = z.enum(['PA', 'DB'], { error: 'must be PA or DB for a checkout' });

// Every basic payment field except paymentBrand: the shopper picks the brand on the form.
const { paymentBrand: _paymentBrand, ...groups } = commonGroups;

export const checkoutRequest = z.strictObject({
  ...groups,
  paymentType: checkoutType,
  overridePaymentType: z
    .record(z.string().regex(BRAND), z.enum(['PA', 'DB'], { error: 'must be PA or DB' }), {
      error: (issue) => (issue.code === 'invalid_key' ? 'has a brand that is not 1 to 32 letters, digits or underscores' : undefined),
    })
    .optional(),
  createRegistration: registrationFields.createRegistration,
  // A holder the shopper types for a saved account without one, for that payment only (the spec's overrideHolder).
  overrideHolder: registrationFields.overrideHolder,
  registrations: z
    .array(z.strictObject({ id: registrationId }))
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((r, i) => {
        if (i >= MAX_REGISTRATIONS) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `is beyond registrations[${MAX_REGISTRATIONS - 1}]: a checkout offers at most ${MAX_REGISTRATIONS} registrations` });
        else if (seen.has(r.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: 'is listed twice' });
        seen.add(r.id);
      });
    })
    // For the document (its index pattern, registrations[0] to [9]); the rule above names the index.
    .meta({ maxItems: MAX_REGISTRATIONS })
    .optional(),
  integrity: bool.optional(),
});
export type CheckoutRequest = z.infer<typeof checkoutRequest>;

/** An update sends only what changes; a group sent replaces that group whole. overridePaymentType is the spec's "only when creating a checkout". */
export const checkoutUpdate = checkoutRequest.omit({ overridePaymentType: true }).partial();
export type CheckoutUpdate = z.infer<typeof checkoutUpdate>;

export function parseCheckout(input: Nested, ctx: ValidationContext): Parsed<CheckoutRequest> {
  return parseWith(checkoutRequest, input, ctx, (v) => [...checkAmount(v.amount, v.currency), ...checkCommonGroups(v, ctx.now)]);
}

/** The rules that span groups are checked on the checkout as updated (checkouts.ts), not on the update alone. */
export function parseCheckoutUpdate(input: Nested, ctx: ValidationContext): Parsed<CheckoutUpdate> {
  return parseWith(checkoutUpdate, input, ctx, (v) => checkAmount(v.amount, v.currency));
}

/** The page sends the shopper's browser data (3-D Secure 2), nothing else of customer.*. */
const pageCustomer = z.strictObject({ browser: browser.optional() });

/** The page sends the billing address 3-D Secure 2 needs when the checkout lacks it (the form data lists which). */
const pageBilling = z.strictObject({ street1: billingFields.street1, city: billingFields.city, postcode: billingFields.postcode, country: billingFields.country });
export type PageBilling = z.infer<typeof pageBilling>;

/**
 * A wallet from the shopper's browser comes in its encrypted form only (the Payment Request's
 * token, applePay.cardNetwork and cardType beside Apple's): decrypted card data with <wallet>.source
 * is the merchant's server's to send (POST /v1/payments).
 */
const pageApplePay = applePay.pick({ paymentToken: true, cardNetwork: true, cardType: true }).required({ paymentToken: true });
const pageGooglePay = googlePay.pick({ paymentToken: true }).required();
const pageSamsungPay = samsungPay.pick({ paymentToken: true }).required();

// What the payment form sends: an account, or one of the checkout's registrations.
export const pageAccountPayment = z.strictObject({
  paymentBrand: basicFields.paymentBrand,
  card: card.optional(),
  bankAccount: bankAccount.optional(),
  virtualAccount: virtualAccount.optional(),
  applePay: pageApplePay.optional(),
  googlePay: pageGooglePay.optional(),
  samsungPay: pageSamsungPay.optional(),
  customer: pageCustomer.optional(),
  billing: pageBilling.optional(),
  // The shopper ticked "Save for future payments" (wpwlOptions.registrations.askToSave).
  createRegistration: registrationFields.createRegistration,
  customParameters: customParameters.optional(),
});

export const pageRegistrationPayment = z.strictObject({
  registrationId,
  // holder: for a registration without one, on a checkout prepared with overrideHolder=true.
  card: z.strictObject({ cvv: card.shape.cvv, holder: card.shape.holder.optional() }).optional(),
  bankAccount: z.strictObject({ holder: bankAccount.shape.holder.optional() }).optional(),
  customer: pageCustomer.optional(),
  billing: pageBilling.optional(),
  customParameters: customParameters.optional(),
});

export type PageAccountPayment = z.infer<typeof pageAccountPayment> & { kind: 'account'; account: AccountCheck };
export type PageRegistrationPayment = z.infer<typeof pageRegistrationPayment> & { kind: 'registration' };
export type PagePayment = PageAccountPayment | PageRegistrationPayment;

/** Parameters a shopper may add: their names must start with SHOPPER_. */
function shopperParameters(params: Record<string, string> | undefined): CodedParamError[] {
  return Object.entries(params ?? {})
    .filter(([name]) => !name.startsWith(SHOPPER_PREFIX))
    .map(([name, value]) => paramError(`customParameters[${name}]`, value, `must have a name starting with ${SHOPPER_PREFIX} when sent from the payment form`));
}

/** A wallet's brand with no wallet group: its token is what is missing (not a card number). */
function walletTokenMissing(v: z.infer<typeof pageAccountPayment>): CodedParamError[] {
  const wallet = WALLETS.find((name) => WALLET_BRANDS[name] === v.paymentBrand);
  if (!wallet || WALLETS.some((name) => v[name] !== undefined) || v.card || v.bankAccount || v.virtualAccount) return [];
  return [paramError(`${wallet}.paymentToken`, undefined, `is required to pay with ${v.paymentBrand} from the payment form`, '100.100.100')];
}

/** Accounts a registration can keep: a card or a bank account, not a virtual account, an online transfer or a wallet's token. */
export const canRegister = (account: AccountCheck): boolean => account.method !== 'VA' && account.method !== 'OT' && account.method !== 'WA';

/** The shopper can save a card or a bank account only (the widget offers it for nothing else). */
function unsavable(createRegistration: string | undefined, account: AccountCheck | undefined): CodedParamError[] {
  if (createRegistration !== 'true' || !account || canRegister(account)) return [];
  return [paramError('createRegistration', 'true', `cannot store a ${account.brand} payment: only a card or a bank account can be saved for future payments`)];
}

export function parsePagePayment(input: Nested, ctx: ValidationContext): Parsed<PagePayment> {
  if (input.registrationId !== undefined) {
    const parsed = parseWith(pageRegistrationPayment, input, ctx, (v) => shopperParameters(v.customParameters));
    return parsed.ok ? { ok: true, value: { ...parsed.value, kind: 'registration' } } : parsed;
  }
  let account: AccountCheck | undefined;
  const parsed = parseWith(pageAccountPayment, input, ctx, (v) => {
    const missing = walletTokenMissing(v);
    if (missing.length) return missing;
    const checked = checkAccount(v, ctx.now);
    account = checked.account;
    // The shopper's form may carry a mandate too: signed before its debit, as a merchant's must be.
    return [...checked.errors, ...checkPastDates(v, ctx.now), ...unsavable(v.createRegistration, checked.account), ...shopperParameters(v.customParameters)];
  });
  return parsed.ok ? { ok: true, value: { ...parsed.value, kind: 'account', account: account! } } : parsed;
}

/** Apple Pay's merchant validation from the payment form: the merchantvalidation event's validationURL. */
export const merchantSessionRequest = z.strictObject({ validationUrl: z.string().max(2048).optional() });

export const parseMerchantSession = (input: Nested, ctx: ValidationContext): Parsed<z.infer<typeof merchantSessionRequest>> => parseWith(merchantSessionRequest, input, ctx, () => []);
