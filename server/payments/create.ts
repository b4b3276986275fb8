// Initial payments (PA, DB, CD): authenticate when 3-D Secure applies, authorize at the acquirer,
// then record the outcome in one commit (or the pending payment and its redirect step).
import { requestTimestamp } from '../clock.ts';
import { fromMinor, toMinor } from '../money.ts';
import type { ResultCode } from '../results.ts';
import type { AccountData, AcquirerOutcome, AuthorizationRequest } from '../simulator/acquirer.ts';
import { PROVIDER_BRANDS } from '../simulator/simulator.ts';
import { echoedDetails } from '../schema/echo.ts';
import { brandOfNumber, checkProcessing, type AccountCheck, type InitialPaymentRequest } from '../schema/requests.ts';
import { paramError, failure } from '../schema/errors.ts';
import { hasExternalProof, type Flow } from '../schema/threeDSecure.ts';
import { walletOf } from '../schema/wallets.ts';
import { sealedRegistration, type NewRegistration } from '../registrations/sealed.ts';
import { registrationRow, type RegistrationRecord } from '../store/registrations.ts';
import { findPayment, insertPayment, lockPayment, paymentRow, referencesOf, settlePendingPayment, type PaymentRecord } from '../store/payments.ts';
import { findStepOfPayment, stepRow } from '../store/threeds.ts';
import { linkKeyToPayment } from '../store/idempotency.ts';
import { insertRows } from '../store/db.ts';
import { firstAnswer, newAuthenticationIds, threeDSecureFields, type AuthenticationIds, type Exemptions } from '../threeds/directory.ts';
import { missingForAuthentication, planAuthentication, type Plan } from '../threeds/policy.ts';
import { newToken, pageLanguages, PENDING_LIFETIME_MS, sealAccount, type Step, type StepData } from '../threeds/steps.ts';
import type { AlsoWrite, Context, Deps, Invalid } from './deps.ts';
import { withInitialTransactionId } from './cardOnFile.ts';
import { isIncrement } from './rules.ts';
import { successCode } from './resultCodes.ts';
import { authorizeOrDecline, reverseUnrecorded, type Authorization } from './unanswered.ts';
import { createdEvents, enqueueEvents } from '../webhooks/outbox.ts';

export interface Created {
  kind: 'payment';
  payment: PaymentRecord;
  /** A pending payment: where the shopper must go now. */
  redirect?: RedirectStep;
}

/** Payment types each method supports. */
const TYPES_BY_METHOD: Record<AccountCheck['method'], readonly string[]> = {
  CC: ['PA', 'DB', 'CD'],
  TA: ['PA', 'DB', 'CD'],
  DD: ['DB', 'CD'],
  VA: ['PA', 'DB'],
  OT: ['DB'],
  WA: ['PA', 'DB'],
};

// What a payment keeps and answers of its request, secrets masked: one place, schema/echo.ts.
export { echoedDetails, maskedAccount } from '../schema/echo.ts';

export function accountData(
  request: Pick<InitialPaymentRequest, 'card' | 'bankAccount' | 'virtualAccount' | 'tokenAccount'> & Partial<Pick<InitialPaymentRequest, 'applePay' | 'googlePay' | 'samsungPay'>>,
  account: AccountCheck,
): AccountData {
  const { card, bankAccount, virtualAccount, tokenAccount } = request;
  if (account.method === 'WA') return { method: 'WA', brand: account.brand, walletToken: walletOf(request)?.paymentToken };
  if (card) return { method: 'CC', brand: account.brand, number: card.number, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear, cvv: card.cvv, holder: card.holder };
  if (tokenAccount) return { method: 'TA', brand: account.brand, number: tokenAccount.number, expiryMonth: tokenAccount.expiryMonth, expiryYear: tokenAccount.expiryYear };
  if (bankAccount) return { method: account.method, brand: account.brand, iban: bankAccount.iban ?? bankAccount.number, holder: bankAccount.holder };
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

export { sealedRegistration, type NewRegistration } from '../registrations/sealed.ts';

/** A bank transfer: the shopper sends the money to the merchant's account, which the answer names. */
export const BANK_TRANSFER = 'BANKTRANSFER';

/**
 * What the gateway adds to a payment's details besides the request: the card's BIN data from the
 * connector (card.issuer, type, level, regulatedFlag) and the brand detected from the number
 * (brandResult), and the merchant's account for a bank transfer debit (merchant.bankAccount).
 * Kept with the payment, so GET answers what the payment answered even after the BIN data or
 * the entity's setting changed.
 */
async function withGatewayFacts(deps: Deps, ctx: Context, payment: InitialPayment, details: Record<string, unknown>): Promise<Record<string, unknown>> {
  const out = { ...details };
  const { accountData: account } = payment;
  if (account.method === 'CC' && account.number !== undefined && out.card !== undefined) {
    // BIN data is an extra: a connector failing to give it does not fail the payment.
    const facts = await deps.acquirer.cardFacts?.(account.number).catch(() => undefined);
    if (facts) out.card = { ...(out.card as Record<string, unknown>), ...facts };
    const detected = brandOfNumber(account.number);
    if (detected) out.brandResult = detected;
  }
  if (payment.account.brand === BANK_TRANSFER && payment.request.paymentType === 'DB' && ctx.entity.bankAccount) {
    out.merchant = { ...(out.merchant as Record<string, unknown> | undefined), bankAccount: { ...ctx.entity.bankAccount } };
  }
  return out;
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
  /** The checkout this payment pays (its step settles the checkout at the end). */
  checkoutId?: string;
}

/** Where the shopper must go before the payment can end: a 3-D Secure authentication, or a provider's page. */
export interface RedirectStep {
  kind: 'threeds' | 'provider';
  /** The step's id (authId of the redirect URL). */
  id: string;
  /** The redirect's one parameter (token): the shopper's credential for the step, never stored. */
  token: string;
}

/** What the payment does before (or instead of) asking the acquirer. */
type Before =
  | { kind: 'authorize'; threeDSecure?: Record<string, string> }
  | { kind: 'refused'; code: ResultCode; threeDSecure: Record<string, string> }
  | { kind: 'authenticate'; path: Flow; ids: AuthenticationIds; exemptions: Exemptions };

/**
 * An asynchronous payment sends the shopper away (the spec: shopperResultUrl "receives the
 * shopper after an asynchronous payment"); a checkout's widget brings its shopper back itself.
 */
const needsResultUrl = (payment: InitialPayment) => payment.checkoutId === undefined && payment.request.shopperResultUrl === undefined;

/** Decide authentication: none, external proof passed through, refused at once, authenticated at once, or a step. */
function authenticationOf(payment: InitialPayment, plan: Plan): Before | Invalid {
  const { request, account } = payment;
  const requested = request.threeDSecure as Record<string, string> | undefined;
  if (plan.kind !== 'authenticate') return { kind: 'authorize', threeDSecure: requested };
  const missing = missingForAuthentication(request.customer, request.billing, needsResultUrl(payment));
  if (missing.length) return { kind: 'invalid', failure: failure(missing) };
  const exemptions: Exemptions = { challengeIndicator: request.threeDSecure?.challengeIndicator, exemptionFlag: request.threeDSecure?.exemptionFlag };
  const ids = newAuthenticationIds();
  const first = firstAnswer(plan.path, exemptions);
  const fields = (outcome: Parameters<typeof threeDSecureFields>[0]) => ({ ...requested, ...threeDSecureFields(outcome, account.brand, ids, exemptions) });
  if (first.kind === 'refused') return { kind: 'refused', code: first.code, threeDSecure: fields(first) };
  if (first.kind === 'authenticated') return { kind: 'authorize', threeDSecure: fields({ ...first, challenged: false }) };
  return { kind: 'authenticate', path: plan.path, ids, exemptions };
}

/**
 * REAUTHORIZATION and INCREMENTAL_AUTH name their authorization by referenceUuid (the spec: it
 * is validated and the new PA linked to it). Its id, null without referenceUuid, or what is
 * wrong; checked here without a lock so that a wrong one costs no write, and again under the
 * lock by reserveOnAuthorization.
 */
async function referencedAuthorization(deps: Deps, ctx: Context, request: InitialPaymentRequest): Promise<string | null | Invalid> {
  const id = request.referenceUuid;
  if (id === undefined) return null;
  const practice = request.standingInstruction?.industryPractice;
  if (practice !== 'REAUTHORIZATION' && practice !== 'INCREMENTAL_AUTH') return invalid('referenceUuid', id, 'is sent with standingInstruction.industryPractice REAUTHORIZATION or INCREMENTAL_AUTH only');
  if (request.paymentType !== 'PA') return invalid('paymentType', request.paymentType, `must be PA for ${practice}: it authorizes again, or more, on the authorization referenceUuid names`);
  const original = await findPayment(deps.store.db, ctx.entity.id, id);
  return refusedAuthorization(request, original, original ? await referencesOf(deps.store.db, id) : []) ?? id;
}

const invalid = (name: string, value: string | undefined, message: string): Invalid => ({ kind: 'invalid', failure: failure([paramError(name, value, message)]) });

/** Why `original` cannot take this reauthorization or increment, or undefined when it can. */
function refusedAuthorization(request: InitialPaymentRequest, original: PaymentRecord | undefined, references: PaymentRecord[]): Invalid | undefined {
  const id = request.referenceUuid!;
  const increment = request.standingInstruction?.industryPractice === 'INCREMENTAL_AUTH';
  if (!original || original.paymentType !== 'PA') return invalid('referenceUuid', id, 'names no authorization (PA) of this entity');
  // An increment is captured and reversed with its PA, so it cannot be incremented by itself.
  if (isIncrement(original)) return invalid('referenceUuid', id, `names an incremental authorization: name the authorization it adds to, ${original.referencedId}`);
  if (original.status !== 'success') return invalid('referenceUuid', id, 'names an authorization that did not succeed');
  if (references.some((p) => p.paymentType === 'RV')) return invalid('referenceUuid', id, 'names an authorization that was reversed');
  if (increment && references.some((p) => p.paymentType === 'CP' && p.sequence === 'FINAL')) return invalid('referenceUuid', id, 'names an authorization whose final capture was made: nothing more can be captured');
  if (original.currency !== request.currency) return invalid('currency', request.currency, `must be ${original.currency}, the currency of the authorization referenceUuid names`);
  return undefined;
}

/**
 * Reserves a payment that names an authorization as pending, under that authorization's lock, so
 * that a reversal or a final capture racing it sees it (a reversal waits for its outcome) and it
 * sees them: an increment approved after its PA was reversed would hold money nothing releases.
 */
async function reserveOnAuthorization(deps: Deps, ctx: Context, request: InitialPaymentRequest, reservation: PaymentRecord): Promise<Invalid | undefined> {
  return deps.store.write(async (trx) => {
    const original = await lockPayment(trx, deps.store.dialect, ctx.entity.id, reservation.referencedId!);
    const refusal = refusedAuthorization(request, original, original ? await referencesOf(trx, original.id) : []);
    if (refusal) return refusal;
    await insertPayment(trx, reservation);
    // A retry of this request that takes its key over after a stop resumes this payment (reservedBefore).
    const claim = ctx.idempotency;
    if (claim) await linkKeyToPayment(trx, ctx.entity.id, claim.key, claim.claimedAt, reservation.id);
    return undefined;
  });
}

/**
 * The payment a request that stopped after its reservation had reserved on its authorization,
 * when this retry of it took its Idempotency-Key over (the key's record names it): that payment
 * is this request's, never a second one. A PA reserved on the authorization it names, of no
 * redirect step; undefined otherwise.
 */
async function reservedBefore(deps: Deps, ctx: Context, request: InitialPaymentRequest): Promise<PaymentRecord | undefined> {
  const reserved = ctx.idempotency?.reserved;
  if (!reserved || request.referenceUuid === undefined) return undefined;
  const earlier = await findPayment(deps.store.db, ctx.entity.id, reserved);
  if (!earlier || earlier.paymentType !== 'PA' || earlier.referencedId !== request.referenceUuid) return undefined;
  return earlier;
}

/**
 * risk.orderTimestamp is "set by the system by default" (the spec): a payment that asks for a risk
 * check without it is checked, kept and answered with the time its request came, yyyy-MM-dd
 * HH:mm:ss UTC (the system's time, as every timestamp of the gateway).
 */
function withOrderTimestamp(payment: InitialPayment, now: Date): InitialPayment {
  const { risk } = payment.request;
  if (risk === undefined || risk.orderTimestamp !== undefined) return payment;
  return { ...payment, request: { ...payment.request, risk: { ...risk, orderTimestamp: requestTimestamp(now) } } };
}

/**
 * An initial payment. Card payments of an entity that authenticates go through the simulated
 * 3-D Secure directory server first: refused or authenticated at once, or pending with a step
 * (method URL, challenge) the shopper's browser must take; methods whose provider asks the
 * shopper to approve (the acquirer answers pending) are pending with a provider step. A pending
 * payment and its step are written in one commit; the step keeps the card number vault-sealed
 * (the security code is never kept: the authorization after the step goes without it).
 */
export async function createPayment(deps: Deps, ctx: Context, sent: InitialPayment, alsoWrite?: AlsoWrite<Created>): Promise<Created | Invalid> {
  const payment = withOrderTimestamp(sent, deps.clock());
  const { request, account } = payment;
  const refusal = checkEntityAllows(ctx, request.paymentType, account);
  if (refusal) return refusal;
  const plan = planAuthentication(ctx.entity, request, account, payment.accountData.number);
  if (PROVIDER_BRANDS.has(account.brand) && needsResultUrl(payment)) {
    return invalid('shopperResultUrl', undefined, `is required for ${account.brand}, an asynchronous method: the shopper comes back there from the provider's page`);
  }
  const processing = checkProcessing(request, {
    method: account.method,
    hasCvv: payment.accountData.cvv !== undefined,
    hasTokenVerification: request.tokenAccount?.dtvc !== undefined || request.tokenAccount?.cryptogram !== undefined || payment.accountData.walletToken !== undefined,
    hasThreeDSecure: hasExternalProof(request.threeDSecure) || plan.kind === 'authenticate',
    tokenized: payment.registration !== undefined && 'use' in payment.registration,
  });
  if (processing.length) return { kind: 'invalid', failure: failure(processing) };
  // A retry of a request that stopped after reserving its payment: that payment is the answer,
  // as it ended, or (still pending) authorized again under its id, recorded fenced below.
  const earlier = await reservedBefore(deps, ctx, request);
  if (earlier && (earlier.status !== 'pending' || (await findStepOfPayment(deps.store.db, earlier.id)))) {
    const answer: Created = { kind: 'payment', payment: earlier };
    if (alsoWrite) await deps.store.write((trx) => alsoWrite(trx, answer));
    return answer;
  }
  const referencedId = earlier ? earlier.referencedId : await referencedAuthorization(deps, ctx, request);
  if (typeof referencedId === 'object' && referencedId !== null) return referencedId;
  const before = authenticationOf(payment, plan);
  if (before.kind === 'invalid') return before;

  const amountMinor = toMinor(request.amount)!;
  const id = earlier?.id ?? deps.newId();
  let reservation: PaymentRecord | undefined = earlier;
  if (referencedId !== null && !reservation) {
    reservation = {
      id,
      entityId: ctx.entity.id,
      paymentType: request.paymentType,
      method: account.method,
      paymentBrand: account.brand,
      amountMinor,
      currency: request.currency,
      status: 'pending',
      resultCode: '000.200.000',
      referencedId,
      registrationId: payment.registration && 'use' in payment.registration ? payment.registration.use.id : null,
      sequence: request.sequence ?? null,
      numberOfCaptures: request.numberOfCaptures ? Number(request.numberOfCaptures) : null,
      merchantTransactionId: request.merchantTransactionId ?? null,
      ndc: ctx.ndc,
      // What the request says (its standingInstruction tells an increment); the outcome adds the rest.
      details: echoedDetails(request),
      acquirer: {},
      testMode: request.testMode ?? null,
      createdAt: deps.clock().getTime(),
      updatedAt: deps.clock().getTime(),
    };
    const refusal = await reserveOnAuthorization(deps, ctx, request, reservation);
    if (refusal) return refusal;
  }
  // What the acquirer is asked to authorize; should recording its approval fail, it is released.
  const authorization: Authorization = { id, entityId: ctx.entity.id, amountMinor, currency: request.currency };
  let approvedAtAcquirer = false;
  const authorizeAndRecord = async (): Promise<Created | Invalid> => {
    let outcome: AcquirerOutcome | undefined;
    if (before.kind === 'authorize') {
      const authorizationRequest: AuthorizationRequest = {
        paymentId: id,
        paymentType: request.paymentType,
        amountMinor,
        currency: request.currency,
        account: payment.accountData,
        billing: request.billing,
        riskCheck: request.risk !== undefined,
        testMode: request.testMode,
        ...(before.threeDSecure ? { threeDSecure: before.threeDSecure } : {}),
        ...(request.pos ? { pos: request.pos } : {}),
      };
      // No answer declines the payment (a reservation must end too), and what it may have authorized is reversed.
      outcome = await authorizeOrDecline(deps, authorization, () =>
        request.paymentType === 'CD' ? deps.acquirer.credit(authorizationRequest) : deps.acquirer.authorize(authorizationRequest),
      );
      approvedAtAcquirer = outcome.approved;
    }
    const now = deps.clock().getTime();
    const pending = before.kind === 'authenticate' || outcome?.pending === true;
    const approved = outcome?.approved === true && !pending;

    let registrationId: string | null = null;
    let newRegistration: RegistrationRecord | undefined;
    if (payment.registration && 'use' in payment.registration) registrationId = payment.registration.use.id;
    else if (payment.registration && approved) {
      registrationId = deps.newId();
      newRegistration = sealedRegistration(deps, ctx.entity.id, registrationId, payment.registration.create, now);
    }

    const threeDSecure =
      before.kind === 'authenticate'
        ? { ...(request.threeDSecure as Record<string, string> | undefined), ...threeDSecureFields('pending', account.brand, before.ids, before.exemptions) }
        : before.threeDSecure;
    const echoed = { ...(await withGatewayFacts(deps, ctx, payment, { ...payment.maskedAccount, ...echoedDetails(request) })), ...(threeDSecure ? { threeDSecure } : {}) };
    const details = pending ? echoed : withInitialTransactionId(echoed, outcome);
    const record: PaymentRecord = {
      id,
      entityId: ctx.entity.id,
      paymentType: request.paymentType,
      method: account.method,
      paymentBrand: account.brand,
      amountMinor,
      currency: request.currency,
      status: pending ? 'pending' : approved ? 'success' : 'rejected',
      resultCode: pending
        ? '000.200.000'
        : before.kind === 'refused'
          ? before.code
          : approved
            ? successCode(deps.env, request.testMode)
            : (outcome?.declineCode ?? '800.100.100'),
      referencedId,
      registrationId,
      sequence: request.sequence ?? null,
      numberOfCaptures: request.numberOfCaptures ? Number(request.numberOfCaptures) : null,
      merchantTransactionId: request.merchantTransactionId ?? null,
      ndc: ctx.ndc,
      details,
      acquirer: outcome && !pending
        ? { avsResponse: outcome.avsResponse, cvvResponse: outcome.cvvResponse, riskScore: outcome.riskScore, connectorDetails: outcome.connectorDetails, ...(outcome.pos ? { pos: outcome.pos } : {}) }
        : { ...(outcome ? { connectorDetails: outcome.connectorDetails } : {}) },
      testMode: request.testMode ?? null,
      createdAt: now,
      updatedAt: now,
    };

    let step: Step | undefined;
    let redirect: RedirectStep | undefined;
    if (pending) {
      const { token, hash } = newToken();
      const stepId = deps.newId();
      const create = payment.registration && 'create' in payment.registration ? payment.registration.create : undefined;
      const data: StepData = {
        // What the shopper authenticates: risk.amount when sent (the spec: "also used as the 3D
        // Secure amount when present"), else the payment's amount, which is what is authorized.
        amount: before.kind === 'authenticate' && request.risk?.amount !== undefined ? request.risk.amount : fromMinor(amountMinor),
        currency: request.currency,
        account: payment.maskedAccount,
        shopperResultUrl: request.shopperResultUrl,
        merchantName: request.merchant?.name ?? ctx.entity.name,
        ...pageLanguages(request),
        paymentType: request.paymentType as 'PA' | 'DB',
        billing: request.billing,
        riskCheck: request.risk !== undefined,
        testMode: request.testMode,
        ...(create ? { registration: { method: create.method, paymentBrand: create.paymentBrand, details: create.details } } : {}),
        ...(before.kind === 'authenticate' ? { ids: before.ids, exemptions: before.exemptions, challengeWindow: request.customer?.browser?.challengeWindow } : {}),
      };
      step = {
        id: stepId,
        entityId: ctx.entity.id,
        kind: before.kind === 'authenticate' ? 'payment' : 'provider',
        status: before.kind === 'authenticate' ? 'method' : 'provider',
        path: before.kind === 'authenticate' ? before.path : 'provider',
        paymentId: id,
        checkoutId: payment.checkoutId ?? null,
        paymentBrand: account.brand,
        tokenHash: hash,
        resultCode: null,
        data,
        secret: before.kind === 'authenticate' ? sealAccount(deps, { entityId: ctx.entity.id, id: stepId }, payment.accountData) : null,
        expiresAt: now + PENDING_LIFETIME_MS,
        createdAt: now,
        updatedAt: now,
      };
      redirect = { kind: before.kind === 'authenticate' ? 'threeds' : 'provider', id: stepId, token };
    }

    const created: Created = { kind: 'payment', payment: record, ...(redirect ? { redirect } : {}) };
    const rows = [...(newRegistration ? [registrationRow(newRegistration)] : []), ...(reservation ? [] : [paymentRow(record)]), ...(step ? [stepRow(step)] : [])];
    if (!alsoWrite && !reservation) {
      // Only new rows, the payment's and its notifications': on PostgreSQL they join other payments'
      // rows in one INSERT per table.
      await deps.store.insert([...rows, ...(deps.webhooks?.rows(createdEvents(record, newRegistration)) ?? [])]);
    } else {
      const recorded = await deps.store.write(async (trx) => {
        // A reservation ended meanwhile (finished as failed once stale, payments/reference.ts): that stands.
        if (reservation && !(await settlePendingPayment(trx, record))) return false;
        await insertRows(trx, rows);
        await enqueueEvents(trx, deps, ...createdEvents(record, newRegistration));
        if (alsoWrite) await alsoWrite(trx, created);
        return true;
      });
      if (!recorded) {
        // Its reservation ended meanwhile: as failed (stale), when an approval come too late is
        // released; or recorded by a retry that asked again under the same id, which stands.
        const stored = (await findPayment(deps.store.db, record.entityId, record.id)) ?? record;
        if (approved && stored.status !== 'success') reverseUnrecorded(deps, record, 'the acquirer approved it after the payment had ended');
        const ended: Created = { kind: 'payment', payment: stored };
        if (alsoWrite) await deps.store.write((trx) => alsoWrite(trx, ended));
        return ended;
      }
    }
    return created;
  };
  try {
    return await authorizeAndRecord();
  } catch (error) {
    const why = `recording the acquirer's answer failed: ${(error as Error).message}`;
    if (!reservation) {
      if (approvedAtAcquirer) await reverseIfUnrecorded(deps, authorization, why);
      throw error;
    }
    // A reservation must end: one left pending would hold its PA's reversal back.
    const ended: PaymentRecord = { ...reservation, status: 'rejected', resultCode: '900.100.100', updatedAt: deps.clock().getTime() };
    const settled = await deps.store.write((trx) => settlePendingPayment(trx, ended)).catch(() => false);
    if (settled && approvedAtAcquirer) reverseUnrecorded(deps, reservation, why);
    throw error;
  }
}

/**
 * An approved authorization whose write failed is released only once a read shows it was not
 * recorded: a write can fail after its commit (the WAL's fsync, a connection lost after COMMIT),
 * and a recorded approval must stand. Unreadable, it is left for operations, logged.
 */
async function reverseIfUnrecorded(deps: Deps, authorization: Authorization, why: string): Promise<void> {
  const recorded = await findPayment(deps.store.db, authorization.entityId, authorization.id).then(
    (payment) => payment !== undefined,
    () => undefined,
  );
  if (recorded === false) reverseUnrecorded(deps, authorization, why);
  else if (recorded === undefined) {
    deps.log?.error({ payment: authorization.id, entity: authorization.entityId, why }, 'approved authorization whose recording failed, and the database could not be read to tell whether it is recorded: check it at the acquirer');
  }
}
