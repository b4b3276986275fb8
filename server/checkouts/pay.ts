// Paying a checkout from the payment form. Amount, currency, type and the merchant's fields come
// from the checkout; the page gives only the account (or one of the checkout's registrations)
// and SHOPPER_ parameters. A successful payment marks the checkout paid in the same commit; a
// declined one leaves it open for another attempt, up to CHECKOUT_DECLINES_LIMIT declines, the
// last of which ends it as expired (store/checkouts.ts).
import { accountData, createPayment, maskedAccount, type InitialPayment, type RedirectStep } from '../payments/create.ts';
import type { AlsoWrite, Context, Deps, Invalid } from '../payments/deps.ts';
import { accountOfRegistration, newRegistration, overrideHolderOf, pickAccount } from '../registrations/registrations.ts';
import { billingFields, type Billing } from '../schema/billing.ts';
import { canRegister, type PageBilling, type PagePayment } from '../schema/checkout.ts';
import { failure, paramError } from '../schema/errors.ts';
import { cvvError, type AccountCheck, type InitialPaymentRequest } from '../schema/requests.ts';
import type { Entity } from '../config.ts';
import { planAuthentication } from '../threeds/policy.ts';
import { supersede } from '../threeds/steps.ts';
import { withSeenBrowser, type SeenBrowser } from './browser.ts';
import { checkoutById, stateOf, type Checkout, type Stated, type StoredRequest } from './checkouts.ts';
import { endHold, holdOpenCheckout } from '../store/checkouts.ts';
import { findRegistration } from '../store/registrations.ts';
import { findPayment, type PaymentRecord } from '../store/payments.ts';
import { groups, isSuccess } from '../results.ts';

/** One payment attempt of a checkout, successful or declined. */
export interface Attempt {
  kind: 'attempt';
  checkout: Checkout;
  payment: PaymentRecord;
  /** A pending payment: where the shopper must go now. */
  redirect?: RedirectStep;
}

const invalid = (...errors: Parameters<typeof paramError>[]): Invalid => ({ kind: 'invalid', failure: failure(errors.map((e) => paramError(...e))) });

/** The checkout's billing address with the page's values filling only the fields it lacks, in the spec's order. */
function billingWith(own: Billing | undefined, page: PageBilling | undefined): Billing | undefined {
  if (!page) return own;
  const merged: Record<string, string | undefined> = { ...page, ...own };
  return Object.fromEntries(Object.keys(billingFields).flatMap((name) => (merged[name] === undefined ? [] : [[name, merged[name]]])));
}

/** The payment the page asks for, built on the checkout's request. */
async function paymentFor(deps: Deps, checkout: Checkout, page: PagePayment): Promise<InitialPayment | Invalid> {
  const { registrations, overridePaymentType, createRegistration: _createRegistration, customParameters, paymentType, customer, ...merchantFields } = checkout.request;
  // The merchant's parameters cannot be overwritten from the page; the page can only add SHOPPER_ ones.
  const parameters = { ...page.customParameters, ...customParameters };
  const typeFor = (brand: string) => overridePaymentType?.[brand] ?? paymentType;
  // The shopper's browser data comes from the page (it is that browser); the rest of customer.* from the merchant.
  const browser = { ...customer?.browser, ...page.customer?.browser };
  const shopper = customer || page.customer?.browser ? { ...customer, ...(Object.keys(browser).length ? { browser } : {}) } : undefined;
  const billing = billingWith(merchantFields.billing, page.billing);
  const base = {
    ...merchantFields,
    ...(billing ? { billing } : {}),
    ...(shopper ? { customer: shopper } : {}),
    ...(Object.keys(parameters).length ? { customParameters: parameters } : {}),
  };

  if (page.kind === 'registration') {
    const listed = (registrations ?? []).some((r) => r.id === page.registrationId);
    const registration = listed ? await findRegistration(deps.store.db, checkout.entityId, page.registrationId) : undefined;
    if (!registration) return invalid(['registrationId', page.registrationId, 'is not one of the registrations of this checkout', '100.150.200']);
    if (registration.status !== 'active') return invalid(['registrationId', page.registrationId, 'names a deleted registration', '100.150.202']);
    const cvv = page.card?.cvv;
    const cvvWrong = cvvError(registration.paymentBrand, cvv);
    if (cvvWrong) return { kind: 'invalid', failure: failure([cvvWrong]) };
    const account: AccountCheck = { method: registration.method as AccountCheck['method'], brand: registration.paymentBrand };
    const request: InitialPaymentRequest = { ...base, paymentType: typeFor(account.brand), paymentBrand: account.brand };
    const accountData = accountOfRegistration(deps, registration, cvv);
    const maskedAccount = pickAccount(registration.details);
    const cardHolder = page.card?.holder;
    const bankHolder = page.bankAccount?.holder;
    if (cardHolder !== undefined || bankHolder !== undefined) {
      if (checkout.request.overrideHolder !== 'true') {
        return invalid([cardHolder !== undefined ? 'card.holder' : 'bankAccount.holder', (cardHolder ?? bankHolder)!, 'is taken for a saved account only on a checkout prepared with overrideHolder=true', '200.300.404']);
      }
      const override = overrideHolderOf(maskedAccount, cardHolder, bankHolder);
      if (override.kind === 'invalid') return override;
      if (override.group) {
        // For this payment only: the registration keeps its empty holder.
        maskedAccount[override.group] = { ...(maskedAccount[override.group] as Record<string, unknown>), holder: override.holder };
        accountData.holder = override.holder;
      }
    }
    return { request, account, accountData, maskedAccount, registration: { use: registration }, checkoutId: checkout.id };
  }

  const { account, card, bankAccount, virtualAccount, applePay, googlePay, samsungPay } = page;
  const request: InitialPaymentRequest = { ...base, paymentType: typeFor(account.brand), paymentBrand: account.brand, card, bankAccount, virtualAccount, applePay, googlePay, samsungPay };
  // Stored when the merchant's checkout asks for it, or the shopper ticked "Save for future payments"
  // (the page can add the request, never withdraw the merchant's). A virtual account, an online
  // transfer or a wallet's token cannot be registered: with the checkout's request, their payments simply create none.
  const register = (checkout.request.createRegistration === 'true' || page.createRegistration === 'true') && canRegister(account);
  return {
    request,
    account,
    accountData: accountData(request, account),
    maskedAccount: maskedAccount(request),
    registration: register ? { create: newRegistration(request, account) } : undefined,
    checkoutId: checkout.id,
  };
}

/**
 * A payment 3-D Secure will authenticate takes the browser facts its HTTP request showed where
 * neither page nor checkout sent them; any other keeps no device data it was not sent.
 */
function withSeen(entity: Entity, payment: InitialPayment, seen: SeenBrowser): InitialPayment {
  const plan = planAuthentication(entity, payment.request, payment.account, payment.accountData.number);
  return plan.kind === 'authenticate' ? { ...payment, request: withSeenBrowser(payment.request, seen) } : payment;
}

/**
 * Pay an open checkout. `ctx.ndc` is the checkout id, so the payment's ndc is too. `seen` is what
 * the shopper's browser's own request stated (its Accept and User-Agent headers). The checkout
 * is held as "processing" while the acquirer answers, so that two attempts at once (two tabs,
 * two keys) can never both charge; a crash in between leaves it held for 5 minutes (the hold's
 * lease, store/checkouts.ts), after which another attempt or a cancel may take it.
 */
export async function payCheckout(deps: Deps, ctx: Context, loaded: Checkout, page: PagePayment, seen: SeenBrowser, alsoWrite?: AlsoWrite<Attempt>): Promise<Attempt | Stated | Invalid> {
  const state = await stateOf(deps, loaded);
  if (state.name !== 'open') return { kind: 'state', checkout: loaded, state };

  // The hold answers the checkout as held: the payment is built from what no one can change any more.
  const hold = () => deps.store.write((trx) => holdOpenCheckout<StoredRequest>(trx, loaded.id, deps.clock().getTime()));
  let held = await hold();
  if (!held && loaded.status === 'processing' && loaded.paymentId) {
    // An earlier attempt waits at its redirect, which the shopper left: this attempt replaces it.
    const waiting = await findPayment(deps.store.db, loaded.entityId, loaded.paymentId);
    if (waiting) await supersede(deps, waiting);
    held = await hold();
  }
  if (!held) {
    const current = (await checkoutById(deps, loaded.id)) ?? loaded;
    return { kind: 'state', checkout: current, state: await stateOf(deps, current), busy: current.status === 'processing' };
  }
  const checkout: Checkout = held;
  const heldAt = held.updatedAt;
  const release = () => deps.store.write((trx) => endHold(trx, checkout.id, heldAt, { open: true }, deps.clock().getTime()));

  let attempt: Attempt | undefined;
  try {
    const built = await paymentFor(deps, checkout, page);
    if ('kind' in built) {
      await release();
      return built;
    }
    const payment = withSeen(ctx.entity, built, seen);
    const created = await createPayment(deps, ctx, payment, async (trx, value) => {
      const p = value.payment;
      const paid = isSuccess(p.resultCode);
      // The checkout's registration is the one its payment created, not one it was paid with.
      const registrationId = payment.registration && 'create' in payment.registration ? p.registrationId : null;
      // A pending payment (a redirect step) keeps the checkout held; its step settles it at the end.
      // No answer from the acquirer (a communication error) says nothing of the card and counts no
      // decline: an outage must not end the shopper's checkout.
      const end = p.status === 'pending' ? { pending: p.id } : paid ? { paid: true as const, paymentId: p.id, registrationId } : groups.communicationError.test(p.resultCode) ? { open: true as const } : { declined: true as const };
      await endHold(trx, checkout.id, heldAt, end, p.updatedAt);
      attempt = {
        kind: 'attempt',
        checkout: paid
          ? { ...checkout, status: 'paid', paymentId: p.id, registrationId, updatedAt: p.updatedAt }
          : p.status === 'pending'
            ? { ...checkout, paymentId: p.id, updatedAt: p.updatedAt }
            : checkout,
        payment: p,
        ...(value.redirect ? { redirect: value.redirect } : {}),
      };
      if (alsoWrite) await alsoWrite(trx, attempt);
    });
    if (created.kind === 'invalid') {
      await release();
      return created;
    }
    return attempt!;
  } catch (error) {
    await release().catch(() => undefined);
    throw error;
  }
}
