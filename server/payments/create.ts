// Initial payments (PA, DB, CD): authorize at the acquirer, then record the outcome in one commit.
import { toMinor } from '../money.ts';
import type { AccountData, AuthorizationRequest } from '../simulator/acquirer.ts';
import type { AccountCheck, InitialPaymentRequest } from '../schema/requests.ts';
import { paramError, failure } from '../schema/errors.ts';
import { insertRegistration, type RegistrationRecord } from '../store/registrations.ts';
import { insertPayment, type PaymentRecord } from '../store/payments.ts';
import type { AlsoWrite, Context, Deps, Invalid } from './deps.ts';
import { successCode } from './resultCodes.ts';

export interface Created {
  kind: 'payment';
  payment: PaymentRecord;
}

/** Payment types each method supports. */
const TYPES_BY_METHOD: Record<AccountCheck['method'], readonly string[]> = {
  CC: ['PA', 'DB', 'CD'],
  TA: ['PA', 'DB', 'CD'],
  DD: ['DB', 'CD'],
  VA: ['PA', 'DB'],
};

// Account groups are never echoed whole: they are replaced by their masked form.
const NOT_ECHOED = new Set([
  'amount', 'currency', 'paymentType', 'paymentBrand', 'card', 'bankAccount', 'virtualAccount', 'tokenAccount',
  'testMode', 'createRegistration', 'overrideHolder', 'account', 'sequence', 'numberOfCaptures', 'merchantTransactionId',
]);

export function echoedDetails(request: Record<string, unknown>): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request)) if (!NOT_ECHOED.has(key) && value !== undefined) details[key] = value;
  return details;
}

/** The account as responses show it: masked card and token numbers, never a security code. */
export function maskedAccount(request: Pick<InitialPaymentRequest, 'card' | 'bankAccount' | 'virtualAccount' | 'tokenAccount'>): Record<string, unknown> {
  if (request.card) {
    const { number, holder, expiryMonth, expiryYear } = request.card;
    return { card: { bin: number.slice(0, 6), last4Digits: number.slice(-4), ...(holder ? { holder } : {}), expiryMonth, expiryYear } };
  }
  if (request.bankAccount) return { bankAccount: request.bankAccount };
  if (request.virtualAccount) return { virtualAccount: request.virtualAccount };
  if (request.tokenAccount) {
    const { number, type, expiryMonth, expiryYear } = request.tokenAccount;
    return { tokenAccount: { type, last4Digits: number.slice(-4), ...(expiryMonth ? { expiryMonth } : {}), ...(expiryYear ? { expiryYear } : {}) } };
  }
  return {};
}

export function accountData(request: Pick<InitialPaymentRequest, 'card' | 'bankAccount' | 'virtualAccount' | 'tokenAccount'>, account: AccountCheck): AccountData {
  const { card, bankAccount, virtualAccount, tokenAccount } = request;
  if (card) return { method: 'CC', brand: account.brand, number: card.number, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear, cvv: card.cvv, holder: card.holder };
  if (tokenAccount) return { method: 'TA', brand: account.brand, number: tokenAccount.number, expiryMonth: tokenAccount.expiryMonth, expiryYear: tokenAccount.expiryYear };
  if (bankAccount) return { method: 'DD', brand: account.brand, iban: bankAccount.iban ?? bankAccount.number, holder: bankAccount.holder };
  return { method: 'VA', brand: account.brand, accountId: virtualAccount?.accountId };
}

/** Rules of the entity's configuration, checked before any acquirer call. */
export function checkEntityAllows(ctx: Context, paymentType: string, account: AccountCheck): Invalid | undefined {
  if (!ctx.entity.brands.includes(account.brand)) {
    return { kind: 'invalid', failure: failure([paramError('paymentBrand', account.brand, 'is not configured for this entity', '600.200.201')]) };
  }
  if (!TYPES_BY_METHOD[account.method].includes(paymentType)) {
    return { kind: 'invalid', failure: failure([paramError('paymentType', paymentType, `is not available for ${account.brand}`, '600.200.310')]) };
  }
  return undefined;
}

/** A registration to store with a successful payment; `number` is sealed before it is written. */
export interface NewRegistration {
  method: string;
  paymentBrand: string;
  details: Record<string, unknown>;
  number?: string;
}

export interface InitialPayment {
  request: InitialPaymentRequest;
  account: AccountCheck;
  /** Clear account data for the acquirer: from the request, or decrypted from a registration. */
  accountData: AccountData;
  /** What the response shows of the account. */
  maskedAccount: Record<string, unknown>;
  /** A registration this payment uses, or creates when createRegistration=true. */
  registration?: { use: RegistrationRecord } | { create: NewRegistration };
}

export function sealedRegistration(deps: Deps, entityId: string, id: string, r: NewRegistration, now: number): RegistrationRecord {
  return {
    id,
    entityId,
    method: r.method,
    paymentBrand: r.paymentBrand,
    status: 'active',
    details: r.details,
    secret: r.number === undefined ? null : deps.vault.seal(r.number, `${entityId}:${id}`),
    createdAt: now,
    updatedAt: now,
  };
}

export async function createPayment(deps: Deps, ctx: Context, payment: InitialPayment, alsoWrite?: AlsoWrite<Created>): Promise<Created | Invalid> {
  const { request, account } = payment;
  const refusal = checkEntityAllows(ctx, request.paymentType, account);
  if (refusal) return refusal;

  const amountMinor = toMinor(request.amount)!;
  const id = deps.newId();
  const authorization: AuthorizationRequest = {
    paymentId: id,
    paymentType: request.paymentType,
    amountMinor,
    currency: request.currency,
    account: payment.accountData,
    billing: request.billing,
    riskCheck: request.risk !== undefined,
    testMode: request.testMode,
  };
  const outcome = request.paymentType === 'CD' ? await deps.acquirer.credit(authorization) : await deps.acquirer.authorize(authorization);
  const now = deps.clock().getTime();

  let registrationId: string | null = null;
  let newRegistration: RegistrationRecord | undefined;
  if (payment.registration && 'use' in payment.registration) registrationId = payment.registration.use.id;
  else if (payment.registration && outcome.approved) {
    registrationId = deps.newId();
    newRegistration = sealedRegistration(deps, ctx.entity.id, registrationId, payment.registration.create, now);
  }

  const record: PaymentRecord = {
    id,
    entityId: ctx.entity.id,
    paymentType: request.paymentType,
    method: account.method,
    paymentBrand: account.brand,
    amountMinor,
    currency: request.currency,
    status: outcome.approved ? 'success' : 'rejected',
    resultCode: outcome.approved ? successCode(deps.env, request.testMode) : outcome.declineCode ?? '800.100.100',
    referencedId: null,
    registrationId,
    sequence: request.sequence ?? null,
    numberOfCaptures: request.numberOfCaptures ? Number(request.numberOfCaptures) : null,
    merchantTransactionId: request.merchantTransactionId ?? null,
    ndc: ctx.ndc,
    details: { ...payment.maskedAccount, ...echoedDetails(request) },
    acquirer: {
      avsResponse: outcome.avsResponse,
      cvvResponse: outcome.cvvResponse,
      riskScore: outcome.riskScore,
      connectorDetails: outcome.connectorDetails,
    },
    testMode: request.testMode ?? null,
    createdAt: now,
    updatedAt: now,
  };
  const created: Created = { kind: 'payment', payment: record };
  await deps.store.write(async (trx) => {
    if (newRegistration) await insertRegistration(trx, newRegistration);
    await insertPayment(trx, record);
    if (alsoWrite) await alsoWrite(trx, created);
  });
  return created;
}
