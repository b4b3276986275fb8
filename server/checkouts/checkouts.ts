// Checkouts: the merchant prepares a payment (amount, currency, type, result URL, one-click
// registrations), the shopper's browser pays it through the widget. A checkout lives 30 minutes
// from its creation; each of its states answers with its own code:
//   open (nothing paid yet)  000.200.000      expired    100.396.103
//   paid                     the payment's    cancelled  100.396.101
import { hostname } from 'node:os';
import type { AlsoWrite, Context, Deps, Invalid, Refusal } from '../payments/deps.ts';
import { refused } from '../payments/deps.ts';
import type { CheckoutRequest, CheckoutUpdate } from '../schema/checkout.ts';
import { withoutSecrets } from '../schema/echo.ts';
import { failure, paramError, type CodedParamError } from '../schema/errors.ts';
import type { StoredAmounts } from '../schema/amounts.ts';
import { checkAmount, checkCommonGroups } from '../schema/requests.ts';
import { cancelOpenCheckout, checkoutRow, findCheckout, findEntityCheckout, insertCheckout, updateOpenCheckout, type CheckoutRecord } from '../store/checkouts.ts';
import { findPayment, type PaymentRecord } from '../store/payments.ts';
import { currentPayment } from '../threeds/steps.ts';
import { findRegistration, type RegistrationRecord } from '../store/registrations.ts';

export const CHECKOUT_LIFETIME_MS = 30 * 60 * 1000;

/**
 * A checkout is deleted this long after it ended (expired, or paid or cancelled), and so is every
 * redirect step (3-D Secure, a provider's page, a standalone authentication) after its end: a shop
 * may read a checkout when a notification of its payment (ndc = the checkout id) reaches it, which
 * is up to 30 days after it was made (the webhooks' last try); a day more for that read. The
 * payments stay, readable by their ids.
 */
export const KEEP_ENDED_MS = 31 * 24 * 60 * 60 * 1000;

/** What a checkout keeps of the merchant's request (integrity is an instruction for the answer only). */
export type StoredRequest = Omit<CheckoutRequest, 'integrity'>;
export type Checkout = CheckoutRecord<StoredRequest>;

/** 32 lowercase hex, a dot, a node name of 1 to 15 characters: 34 to 48 in all. */
export const CHECKOUT_ID = /^[0-9a-f]{32}\.[a-z0-9-]{1,15}$/;

/** The host name as a node name: lowercase letters, digits and hyphens, at most 15 of them. */
export function nodeNameOf(host: string): string {
  return host.toLowerCase().replace(/[^a-z0-9-]/g, '').slice(0, 15) || 'node';
}

const NODE_NAME = nodeNameOf(hostname());

export function newCheckoutId(newId: () => string, node = NODE_NAME): string {
  return `${newId()}.${node}`;
}

/**
 * open and expired may name the checkout's last attempt: an asynchronous payment (3-D Secure,
 * transfer, wallet) that ended unsuccessfully after its redirect, whose outcome the merchant reads.
 */
export type State =
  | { name: 'open'; attempt?: PaymentRecord }
  | { name: 'expired'; attempt?: PaymentRecord }
  | { name: 'cancelled' }
  | { name: 'paid'; payment: PaymentRecord };

/** The code each state answers with. */
export function stateCode(state: State): string {
  switch (state.name) {
    case 'open':
      return '000.200.000';
    case 'expired':
      return '100.396.103';
    case 'cancelled':
      return '100.396.101';
    case 'paid':
      return state.payment.resultCode;
  }
}

/**
 * A checkout whose payment is under way is still open to its readers, also past its 30 minutes
 * while a redirect step of its payment is pending (the step ends it); expiry applies to unpaid
 * checkouts only. A pending payment whose step's time is up is abandoned first (lazy check).
 */
export async function stateOf(deps: Deps, loaded: Checkout): Promise<State> {
  let checkout = loaded;
  if (checkout.status === 'processing' && checkout.paymentId) {
    const payment = await findPayment(deps.store.db, checkout.entityId, checkout.paymentId);
    if (payment?.status === 'pending') {
      if ((await currentPayment(deps, payment)).status === 'pending') return { name: 'open' };
      checkout = (await findCheckout<StoredRequest>(deps.store.db, checkout.id)) ?? checkout;
    }
  }
  const payment = checkout.paymentId ? await findPayment(deps.store.db, checkout.entityId, checkout.paymentId) : undefined;
  if (checkout.status === 'paid' && payment) return { name: 'paid', payment };
  if (checkout.status === 'cancelled') return { name: 'cancelled' };
  const attempt = checkout.status === 'open' && payment && payment.status !== 'pending' ? { attempt: payment } : {};
  if (deps.clock().getTime() >= checkout.expiresAt) return { name: 'expired', ...attempt };
  return { name: 'open', ...attempt };
}

/** A created, updated or cancelled checkout (000.200.100, 000.200.101, 000.200.102). */
export interface CheckoutDone {
  kind: 'checkout';
  checkout: Checkout;
  code: '000.200.100' | '000.200.101' | '000.200.102';
  /** integrity=true was sent: the answer carries the integrity of the widget script. */
  integrity?: boolean;
}

/** A checkout in some state: what the merchant reads, or why a change was refused. */
export interface Stated {
  kind: 'state';
  checkout: Checkout;
  state: State;
  /** A payment of this checkout is under way right now (it is reported as open). */
  busy?: boolean;
}

/** An unknown checkout, or another entity's. */
export const unknownCheckout: Refusal = refused('200.300.404', true);

/** A checkout of the entity; an id of another form names none. */
function findOwn(deps: Deps, entityId: string, id: string): Promise<Checkout | undefined> {
  return CHECKOUT_ID.test(id) ? findEntityCheckout<StoredRequest>(deps.store.db, entityId, id) : Promise.resolve(undefined);
}

/** Registrations listed by a checkout must be active registrations of its entity. */
async function checkRegistrations(deps: Deps, entityId: string, registrations: StoredRequest['registrations']): Promise<Invalid | undefined> {
  const errors: CodedParamError[] = [];
  for (const [i, { id }] of (registrations ?? []).entries()) {
    const registration = await findRegistration(deps.store.db, entityId, id);
    if (!registration) errors.push(paramError(`registrations[${i}].id`, id, 'names no registration of this entity', '100.150.200'));
    else if (registration.status !== 'active') errors.push(paramError(`registrations[${i}].id`, id, 'names a deleted registration', '100.150.202'));
  }
  return errors.length ? { kind: 'invalid', failure: failure(errors) } : undefined;
}

/**
 * overridePaymentType keys the brands the shopper may pay with: one the entity does not take
 * (a typo, visa for VISA) would never apply, and the shopper would be debited instead of authorized.
 */
function checkOverrides(brands: readonly string[], overrides: CheckoutRequest['overridePaymentType']): Invalid | undefined {
  const errors = Object.keys(overrides ?? {})
    .filter((brand) => !brands.includes(brand))
    .map((brand) => paramError(`overridePaymentType[${brand}]`, overrides![brand], `names a brand this entity does not take (it takes ${brands.join(', ')})`, '100.100.501'));
  return errors.length ? { kind: 'invalid', failure: failure(errors) } : undefined;
}

export async function createCheckout(deps: Deps, ctx: Context, request: CheckoutRequest, alsoWrite?: AlsoWrite<CheckoutDone>): Promise<CheckoutDone | Invalid> {
  const invalid = checkOverrides(ctx.entity.brands, request.overridePaymentType) ?? (await checkRegistrations(deps, ctx.entity.id, request.registrations));
  if (invalid) return invalid;
  // Secrets of the merchant's groups (giftCard.pin, a card number as sender.accountNumber …) are never stored.
  const { integrity: _integrity, ...sent } = request;
  const stored = withoutSecrets(sent);
  const now = deps.clock().getTime();
  const checkout: Checkout = {
    id: newCheckoutId(deps.newId),
    entityId: ctx.entity.id,
    status: 'open',
    request: stored,
    paymentId: null,
    registrationId: null,
    createdAt: now,
    updatedAt: now,
    expiresAt: now + CHECKOUT_LIFETIME_MS,
  };
  const done: CheckoutDone = { kind: 'checkout', checkout, code: '000.200.100', integrity: request.integrity === 'true' };
  // Only a new row without an idempotency record: it joins other new rows (store.insert).
  if (!alsoWrite) await deps.store.insert([checkoutRow(checkout)]);
  else {
    await deps.store.write(async (trx) => {
      await insertCheckout(trx, checkout);
      await alsoWrite(trx, done);
    });
  }
  return done;
}

/** Why an open checkout could not be changed just now: its state as it is after the race. */
async function refusedState(deps: Deps, entityId: string, id: string): Promise<Stated | Refusal> {
  const checkout = await findOwn(deps, entityId, id);
  if (!checkout) return unknownCheckout;
  return { kind: 'state', checkout, state: await stateOf(deps, checkout), busy: checkout.status === 'processing' };
}

/** Change an open checkout: the groups sent replace the stored ones; its lifetime stays as it was. */
export async function updateCheckout(deps: Deps, ctx: Context, id: string, update: CheckoutUpdate, alsoWrite?: AlsoWrite<CheckoutDone>): Promise<CheckoutDone | Stated | Invalid | Refusal> {
  const checkout = await findOwn(deps, ctx.entity.id, id);
  if (!checkout) return unknownCheckout;
  if (update.registrations) {
    const invalid = await checkRegistrations(deps, ctx.entity.id, update.registrations);
    if (invalid) return invalid;
  }
  const { integrity: _integrity, ...sent } = update;
  const changes = withoutSecrets(sent);
  const now = deps.clock().getTime();
  const updated: Checkout = { ...checkout, request: { ...checkout.request, ...changes }, updatedAt: now };
  // The rules between groups hold for the checkout as updated (a new shopperResultUrl and the stored app scheme, …);
  // an amount sent below a stored shipping.cost or taxAmount is refused naming amount, not what was stored.
  const stored: StoredAmounts = new Set([
    ...(update.amount === undefined ? (['amount'] as const) : []),
    ...(update.taxAmount === undefined ? (['taxAmount'] as const) : []),
    ...(update.shipping === undefined ? (['shipping.cost'] as const) : []),
  ]);
  const spanning = [...checkAmount(updated.request.amount, updated.request.currency), ...checkCommonGroups(updated.request, deps.clock(), stored)];
  if (spanning.length) return { kind: 'invalid', failure: failure(spanning) };
  const done: CheckoutDone = { kind: 'checkout', checkout: updated, code: '000.200.101', integrity: update.integrity === 'true' };
  const changed = await deps.store.write(async (trx) => {
    if (!(await updateOpenCheckout(trx, id, updated.request, now))) return false;
    if (alsoWrite) await alsoWrite(trx, done);
    return true;
  });
  return changed ? done : refusedState(deps, ctx.entity.id, id);
}

/** Cancel an open checkout; it can never be paid afterwards. */
export async function cancelCheckout(deps: Deps, ctx: Context, id: string, alsoWrite?: AlsoWrite<CheckoutDone>): Promise<CheckoutDone | Stated | Refusal> {
  const checkout = await findOwn(deps, ctx.entity.id, id);
  if (!checkout) return unknownCheckout;
  const now = deps.clock().getTime();
  const done: CheckoutDone = { kind: 'checkout', checkout: { ...checkout, status: 'cancelled', updatedAt: now }, code: '000.200.102' };
  const cancelled = await deps.store.write(async (trx) => {
    if (!(await cancelOpenCheckout(trx, id, now))) return false;
    if (alsoWrite) await alsoWrite(trx, done);
    return true;
  });
  return cancelled ? done : refusedState(deps, ctx.entity.id, id);
}

/** The merchant's view of a checkout: its state, with the payment once paid. */
export async function readCheckout(deps: Deps, ctx: Context, id: string): Promise<Stated | Refusal> {
  const checkout = await findOwn(deps, ctx.entity.id, id);
  if (!checkout) return unknownCheckout;
  return { kind: 'state', checkout, state: await stateOf(deps, checkout) };
}

/** The registration a paid checkout's payment created. */
export interface CheckoutRegistration {
  kind: 'registration';
  checkout: Checkout;
  registration: RegistrationRecord;
  payment: PaymentRecord;
}

/** The merchant's view of a checkout's registration: it once paid with createRegistration, otherwise the state. */
export async function readCheckoutRegistration(deps: Deps, ctx: Context, id: string): Promise<CheckoutRegistration | Stated | Refusal> {
  const read = await readCheckout(deps, ctx, id);
  if (read.kind !== 'state' || read.state.name !== 'paid' || !read.checkout.registrationId) return read;
  const registration = await findRegistration(deps.store.db, read.checkout.entityId, read.checkout.registrationId);
  return registration ? { kind: 'registration', checkout: read.checkout, registration, payment: read.state.payment } : read;
}

/** What the payment form is given: an open checkout and its still-active registrations. */
export interface FormData {
  kind: 'form';
  checkout: Checkout;
  registrations: RegistrationRecord[];
}

export async function formOf(deps: Deps, checkout: Checkout): Promise<FormData | Stated> {
  const state = await stateOf(deps, checkout);
  if (state.name !== 'open') return { kind: 'state', checkout, state };
  const registrations: RegistrationRecord[] = [];
  for (const { id } of checkout.request.registrations ?? []) {
    const registration = await findRegistration(deps.store.db, checkout.entityId, id);
    if (registration?.status === 'active') registrations.push(registration);
  }
  return { kind: 'form', checkout, registrations };
}

/**
 * A registration as the form may show it: brand, last four digits, expiry and holder; of a bank
 * account the holder and the last four characters; of a virtual account nothing but the brand.
 */
export function formRegistration(r: RegistrationRecord): Record<string, unknown> {
  const details = r.details as { card?: Record<string, string>; tokenAccount?: Record<string, string>; bankAccount?: Record<string, string> };
  const base = { id: r.id, paymentBrand: r.paymentBrand };
  const pick = (from: Record<string, string>, names: string[]) => Object.fromEntries(names.filter((n) => from[n] !== undefined).map((n) => [n, from[n]]));
  if (details.card) return { ...base, card: pick(details.card, ['last4Digits', 'expiryMonth', 'expiryYear', 'holder']) };
  if (details.tokenAccount) return { ...base, card: pick(details.tokenAccount, ['last4Digits', 'expiryMonth', 'expiryYear']) };
  if (details.bankAccount) {
    const account = details.bankAccount.iban ?? details.bankAccount.number ?? '';
    return { ...base, bankAccount: { ...pick(details.bankAccount, ['holder']), last4Digits: account.slice(-4) } };
  }
  return base;
}

/** A checkout by its id alone: for the checkout-scoped endpoints, where the id is the credential. */
export function checkoutById(deps: Deps, id: string): Promise<Checkout | undefined> {
  return CHECKOUT_ID.test(id) ? findCheckout<StoredRequest>(deps.store.db, id) : Promise.resolve(undefined);
}
