// Registrations (tokens): store an account, pay with it, delete it.
import { checkEntityAllows, createPayment, maskedAccount, sealedRegistration, type Created, type NewRegistration } from '../payments/create.ts';
import { refused, type AlsoWrite, type Context, type Deps, type Invalid, type Refusal } from '../payments/deps.ts';
import { resultOf, type Meta } from '../payments/response.ts';
import { successCode } from '../payments/resultCodes.ts';
import type { Entity } from '../config.ts';
import { ID } from '../ids.ts';
import { cvvError, expiryHasPassed, type AccountCheck, type InitialPaymentRequest, type RegistrationPaymentRequest, type RegistrationRequest } from '../schema/requests.ts';
import { failure, paramError } from '../schema/errors.ts';
import type { AccountData } from '../simulator/acquirer.ts';
import { deleteRegistration, findRegistration, insertRegistration, type RegistrationRecord } from '../store/registrations.ts';
import { enqueueEvents } from '../webhooks/outbox.ts';

export interface Registered {
  kind: 'registration';
  registration: RegistrationRecord;
  resultCode: string;
}

type Accounts = Pick<InitialPaymentRequest, 'card' | 'bankAccount' | 'virtualAccount' | 'tokenAccount'>;

/** What a registration keeps of an account: the masked form, and the number to be sealed. */
export function newRegistration(request: Accounts, account: AccountCheck): NewRegistration {
  return {
    method: account.method,
    paymentBrand: account.brand,
    details: maskedAccount(request),
    number: request.card?.number ?? request.tokenAccount?.number,
  };
}

export async function storeRegistration(
  deps: Deps,
  ctx: Context,
  request: RegistrationRequest & { account: AccountCheck },
  alsoWrite?: AlsoWrite<Registered>,
): Promise<Registered | Invalid> {
  const refusal = checkEntityAllows(ctx, 'DB', request.account);
  if (refusal && refusal.failure.code === '600.200.201') return refusal;
  const now = deps.clock().getTime();
  const registration = sealedRegistration(deps, ctx.entity.id, deps.newId(), newRegistration(request, request.account), now);
  registration.details = {
    ...registration.details,
    ...(request.customParameters ? { customParameters: request.customParameters } : {}),
    ...(request.recurringMigration ? { recurringMigration: request.recurringMigration } : {}),
  };
  const registered: Registered = { kind: 'registration', registration, resultCode: successCode(deps.env, request.testMode) };
  await deps.store.write(async (trx) => {
    await insertRegistration(trx, registration);
    await enqueueEvents(trx, deps, { type: 'REGISTRATION', action: 'CREATED', registration, resultCode: registered.resultCode, ndc: ctx.ndc });
    if (alsoWrite) await alsoWrite(trx, registered);
  });
  return registered;
}

/** The clear account of a registration, for the length of one acquirer call. */
export function accountOfRegistration(deps: Deps, r: RegistrationRecord, cvv: string | undefined): AccountData {
  const details = r.details as { card?: Record<string, string>; bankAccount?: Record<string, string>; virtualAccount?: Record<string, string>; tokenAccount?: Record<string, string> };
  const number = r.secret ? deps.vault.open(r.secret, `${r.entityId}:${r.id}`) : undefined;
  const method = r.method as AccountData['method'];
  if (details.card) return { method, brand: r.paymentBrand, number, cvv, expiryMonth: details.card.expiryMonth, expiryYear: details.card.expiryYear, holder: details.card.holder };
  if (details.tokenAccount) return { method, brand: r.paymentBrand, number, expiryMonth: details.tokenAccount.expiryMonth, expiryYear: details.tokenAccount.expiryYear };
  if (details.bankAccount) return { method, brand: r.paymentBrand, iban: details.bankAccount.iban ?? details.bankAccount.number, holder: details.bankAccount.holder };
  return { method, brand: r.paymentBrand, accountId: details.virtualAccount?.accountId };
}

export async function payWithRegistration(
  deps: Deps,
  ctx: Context,
  registrationId: string,
  request: RegistrationPaymentRequest,
  alsoWrite?: AlsoWrite<Created>,
): Promise<Created | Invalid | Refusal> {
  // An id of the path no registration can have is not looked up (PostgreSQL refuses a U+0000 in it).
  const registration = ID.test(registrationId) ? await findRegistration(deps.store.db, ctx.entity.id, registrationId) : undefined;
  if (!registration) return refused('100.150.200', true);
  if (registration.status !== 'active') return refused('100.150.202');
  const account: AccountCheck = { method: registration.method as AccountCheck['method'], brand: registration.paymentBrand };
  const { card, bankAccount, overrideHolder, ...rest } = request;
  // A brand sent along must be the registration's: another one is refused as on a new card, never dropped.
  if (rest.paymentBrand !== undefined && rest.paymentBrand !== registration.paymentBrand) {
    return { kind: 'invalid', failure: failure([paramError('paymentBrand', rest.paymentBrand, `does not match the registration, which is ${registration.paymentBrand}`, '100.100.700')]) };
  }
  const cvvWrong = cvvError(registration.paymentBrand, card?.cvv);
  if (cvvWrong) return { kind: 'invalid', failure: failure([cvvWrong]) };
  const masked = pickAccount(registration.details as Record<string, unknown>);
  // A stored card or token expires like any other: it is refused as the same one sent in full would be.
  const stored = (masked.card ?? masked.tokenAccount) as { expiryMonth?: string; expiryYear?: string } | undefined;
  if (stored && expiryHasPassed(stored, deps.clock())) return refused('100.100.303');
  const data = accountOfRegistration(deps, registration, card?.cvv);
  if (overrideHolder === 'true') {
    const override = overrideHolderOf(masked, card?.holder, bankAccount?.holder);
    if (override.kind === 'invalid') return override;
    if (override.group) {
      // For this payment only: the registration keeps its empty holder.
      masked[override.group] = { ...(masked[override.group] as Record<string, unknown>), holder: override.holder };
      data.holder = override.holder;
    }
  }
  return createPayment(
    deps,
    ctx,
    {
      request: { ...rest },
      account,
      accountData: data,
      maskedAccount: masked,
      registration: { use: registration },
    },
    alsoWrite,
  );
}

/**
 * overrideHolder=true: card.holder (of a card registration) or bankAccount.holder (of a bank
 * account registration) replaces the registration's holder when it has none; a registration
 * with a holder keeps it. A holder of the other kind of account is refused.
 */
export function overrideHolderOf(masked: Record<string, unknown>, cardHolder: string | undefined, bankHolder: string | undefined): { kind: 'override'; group?: 'card' | 'bankAccount'; holder?: string } | Invalid {
  const errors = [
    ...(cardHolder !== undefined && !masked.card ? [paramError('card.holder', cardHolder, 'does not fit this registration, which is not a card', '200.300.404')] : []),
    ...(bankHolder !== undefined && !masked.bankAccount ? [paramError('bankAccount.holder', bankHolder, 'does not fit this registration, which is not a bank account', '200.300.404')] : []),
  ];
  if (errors.length) return { kind: 'invalid', failure: failure(errors) };
  const group = cardHolder !== undefined ? 'card' : bankHolder !== undefined ? 'bankAccount' : undefined;
  const current = group && (masked[group] as { holder?: string }).holder;
  if (!group || current) return { kind: 'override' };
  return { kind: 'override', group, holder: group === 'card' ? cardHolder : bankHolder };
}

export async function removeRegistration(deps: Deps, ctx: Context, id: string, alsoWrite?: AlsoWrite<Registered>): Promise<Registered | Refusal> {
  return deps.store.write(async (trx) => {
    const registration = ID.test(id) ? await findRegistration(trx, ctx.entity.id, id) : undefined;
    if (!registration) return refused('100.150.200', true);
    // Deleted by a parallel request since it was read (PostgreSQL reads without a lock).
    if (registration.status !== 'active' || !(await deleteRegistration(trx, ctx.entity.id, id, deps.clock().getTime()))) return refused('100.150.202');
    const removed: Registered = { kind: 'registration', registration: { ...registration, status: 'deleted', secret: null }, resultCode: successCode(deps.env, null) };
    await enqueueEvents(trx, deps, { type: 'REGISTRATION', action: 'DELETED', registration: removed.registration, resultCode: removed.resultCode, ndc: ctx.ndc });
    if (alsoWrite) await alsoWrite(trx, removed);
    return removed;
  });
}

/** The account group of a registration's masked details, as a payment response shows it. */
export function pickAccount(details: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['card', 'bankAccount', 'virtualAccount', 'tokenAccount']) if (details[key] !== undefined) out[key] = details[key];
  return out;
}

export function registrationResponse(r: Registered, _entity: Entity, meta: Meta, ndc: string): Record<string, unknown> {
  return {
    id: r.registration.id,
    paymentBrand: r.registration.paymentBrand,
    result: resultOf(r.resultCode),
    ...r.registration.details,
    buildNumber: meta.buildNumber,
    timestamp: meta.timestamp,
    ndc,
  };
}
