// Redirect steps of pending payments: a 3-D Secure authentication (method URL, then a challenge)
// or an approval at a simulated provider's page (PAYPAL, ONLINE_TRANSFER). A step starts with
// its pending payment, in the same commit; the shopper's browser moves it on with the token of
// the redirect; its end authorizes through the acquirer (when the shopper was authenticated or
// approved) and records the payment's outcome, the step's and the checkout's in one commit.
// A step nobody finishes is abandoned 30 minutes after it began: 100.396.103 (sweep and lazy check).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { sealedRegistration, type NewRegistration } from '../registrations/sealed.ts';
import { withInitialTransactionId } from '../payments/cardOnFile.ts';
import type { Deps } from '../payments/deps.ts';
import { successCode } from '../payments/resultCodes.ts';
import { authorizeOrDecline, reverseUnrecorded } from '../payments/unanswered.ts';
import { groups, type ResultCode } from '../results.ts';
import type { AcquirerOutcome, AccountData, AuthorizationRequest } from '../simulator/acquirer.ts';
import { settleCheckout } from '../store/checkouts.ts';
import { findPayment, settlePendingPayment, type PaymentRecord } from '../store/payments.ts';
import { insertRegistration, type RegistrationRecord } from '../store/registrations.ts';
import { dueSteps, findStep, findStepOfPayment, finishStep, moveStep, WAITING, type StepRecord, type StepStatus } from '../store/threeds.ts';
import {
  afterMethod,
  challengeOutcome,
  failureCode,
  standaloneCode,
  threeDSecureFields,
  type AuthenticationIds,
  type ChallengeAction,
  type Exemptions,
  type MethodCompletion,
  type Outcome,
} from './directory.ts';
import type { Flow } from '../schema/threeDSecure.ts';
import type { Pos } from '../schema/pos.ts';
import { enqueueEvents, registrationEvents } from '../webhooks/outbox.ts';
import { ID } from '../ids.ts';

/** A pending payment (and a standalone authentication) waits at most this long for its shopper: the checkout's lifetime. */
export const PENDING_LIFETIME_MS = 30 * 60 * 1000;
/** A step caught between its claim and its final commit (a crash) is abandoned this long after its expiry. */
export const COMPLETING_GRACE_MS = 2 * 60 * 1000;

/** What a step keeps besides its row: never a card number or a security code. */
export interface StepData {
  amount: string;
  currency: string;
  /** The masked account, as the pages show it (last four digits; a virtual account's id). */
  account: Record<string, unknown>;
  /** The shopper is sent here at the end (with id and resourcePath). */
  shopperResultUrl?: string;
  /** The entity's name, shown on the issuer's and provider's pages. */
  merchantName: string;
  /** The languages the payment asked for (locale, customer.browser.language): the gateway's pages speak the first they can. */
  languages?: string[];
  // 3-D Secure
  exemptions?: Exemptions;
  ids?: AuthenticationIds;
  challengeWindow?: string;
  methodCompletion?: MethodCompletion;
  // The authorization after the step (payments)
  paymentType?: 'PA' | 'DB';
  billing?: AuthorizationRequest['billing'];
  riskCheck?: boolean;
  testMode?: 'EXTERNAL' | 'INTERNAL';
  /** createRegistration=true: the registration to store with the successful payment (its number is in the secret). */
  registration?: Omit<NewRegistration, 'number'>;
  // Standalone authentications
  /** The answer's echoed structures (masked card, customer, billing, …). */
  details?: Record<string, unknown>;
  /** threeDSecure.* of the answer (request fields and the outcome's). */
  threeDSecure?: Record<string, string>;
  /** The ndc of the request that started it. */
  ndc?: string;
}

export type Step = StepRecord<StepData>;

/** StepData.languages of a request: its locale, then its shopper's browser language; none when it sent neither. */
export function pageLanguages(request: { locale?: string; customer?: { browser?: { language?: string } } }): Pick<StepData, 'languages'> {
  const languages = [request.locale, request.customer?.browser?.language].filter((value): value is string => !!value);
  return languages.length ? { languages } : {};
}

/** The account the authorization needs after the step, sealed in the step's row while it is open. */
type SealedAccount = Pick<AccountData, 'number' | 'expiryMonth' | 'expiryYear' | 'holder'>;

const secretContext = (step: Pick<Step, 'entityId' | 'id'>) => `threeds:${step.entityId}:${step.id}`;

export function sealAccount(deps: Deps, step: Pick<Step, 'entityId' | 'id'>, account: AccountData): string {
  const sealed: SealedAccount = { number: account.number, expiryMonth: account.expiryMonth, expiryYear: account.expiryYear, holder: account.holder };
  return deps.vault.seal(JSON.stringify(sealed), secretContext(step));
}

function openAccount(deps: Deps, step: Step): SealedAccount {
  return step.secret ? (JSON.parse(deps.vault.open(step.secret, secretContext(step))) as SealedAccount) : {};
}

/** The opaque credential of a redirect: 192 random bits; only its SHA-256 is stored. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(24).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function tokenMatches(step: Pick<Step, 'tokenHash'>, token: string | undefined): boolean {
  if (typeof token !== 'string' || token.length === 0 || token.length > 255) return false;
  const sent = Buffer.from(hashToken(token), 'hex');
  const kept = Buffer.from(step.tokenHash, 'hex');
  return sent.length === kept.length && timingSafeEqual(sent, kept);
}

export function stepById(deps: Deps, id: string): Promise<Step | undefined> {
  return ID.test(id) ? findStep<StepData>(deps.store.db, id) : Promise.resolve(undefined);
}

const isDue = (deps: Deps, step: Step) => step.status !== 'done' && deps.clock().getTime() >= step.expiresAt + (step.status === 'completing' ? COMPLETING_GRACE_MS : 0);

/** The step as it is now: abandoned first when its time is up (the lazy check). */
export async function current(deps: Deps, step: Step): Promise<Step> {
  if (isDue(deps, step)) await abandon(deps, step);
  return (await findStep<StepData>(deps.store.db, step.id)) ?? step;
}

/** A pending payment as it is now: abandoned first when its step's time is up. */
export async function currentPayment(deps: Deps, payment: PaymentRecord): Promise<PaymentRecord> {
  if (payment.status !== 'pending') return payment;
  const step = await findStepOfPayment<StepData>(deps.store.db, payment.id);
  if (!step || !isDue(deps, step)) return payment;
  await abandon(deps, step);
  return (await findPayment(deps.store.db, payment.entityId, payment.id)) ?? payment;
}

/** Every step whose time is up, abandoned (the sweep: every minute; several processes may sweep at once). */
export async function sweep(deps: Deps): Promise<number> {
  const now = deps.clock().getTime();
  let ended = 0;
  for (;;) {
    const due = await dueSteps<StepData>(deps.store.db, now, COMPLETING_GRACE_MS);
    let progressed = false;
    for (const step of due) {
      if (await abandon(deps, step)) {
        ended++;
        progressed = true;
      }
    }
    if (due.length < 100 || !progressed) return ended;
  }
}

/** The 3-D Secure fields of a step's outcome: the request's own fields, then the outcome's. */
function outcomeFields(step: Step, requested: Record<string, unknown> | undefined, outcome: Outcome | 'pending'): Record<string, string> {
  const { ids, exemptions } = step.data;
  if (!ids) return {};
  const base = Object.fromEntries(Object.entries(requested ?? {}).filter(([key]) => !OUTCOME_KEYS.has(key))) as Record<string, string>;
  return { ...base, ...threeDSecureFields(outcome, step.paymentBrand, ids, exemptions ?? {}) };
}

const OUTCOME_KEYS = new Set(['eci', 'verificationId', 'authenticationStatus', 'dsTransactionId', 'acsTransactionId', 'version']);

/** What ends a step. */
type Ending = { outcome: Outcome } | { provider: 'approved' | 'cancelled' | 'abandoned' };

const abandoned = (step: Step): Ending => (step.kind === 'provider' ? { provider: 'abandoned' } : { outcome: { kind: 'abandoned' } });

/** Abandon a step whose time is up (nobody finished it): 100.396.103. false when it had ended meanwhile. */
async function abandon(deps: Deps, step: Step): Promise<boolean> {
  const now = deps.clock().getTime();
  const completing = step.status === 'completing';
  const ended = await finish(deps, step, abandoned(step), undefined, {
    from: completing ? ['completing'] : WAITING,
    dueBy: now - (completing ? COMPLETING_GRACE_MS : 0),
  });
  if (ended && completing && step.kind !== 'standalone' && step.paymentId) {
    // Its process stopped while the acquirer was asked: what the acquirer may have authorized is released.
    const payment = await findPayment(deps.store.db, step.entityId, step.paymentId);
    if (payment) reverseUnrecorded(deps, payment, 'its process stopped while the acquirer was asked');
  }
  return ended;
}

/**
 * The final commit of a step: the step done (secret wiped), its payment settled, a registration
 * stored, its checkout paid or open again naming this attempt. `authorization` is the acquirer's
 * answer when one was asked. false when the step had already ended (someone else won).
 */
async function finish(
  deps: Deps,
  step: Step,
  ending: Ending,
  authorization: { outcome: AcquirerOutcome; number?: string } | undefined,
  guard: { from: StepStatus[]; dueBy?: number },
): Promise<boolean> {
  const now = deps.clock().getTime();
  const code = endingCode(deps, step, ending, authorization?.outcome);
  if (step.kind === 'standalone') {
    const threeDSecure = 'outcome' in ending ? outcomeFields(step, step.data.threeDSecure, ending.outcome) : step.data.threeDSecure;
    return deps.store.write((trx) => finishStep(trx, step.id, guard.from, { resultCode: code, data: { ...step.data, threeDSecure }, now, dueBy: guard.dueBy }));
  }

  const payment = step.paymentId ? await findPayment(deps.store.db, step.entityId, step.paymentId) : undefined;
  if (!payment) return deps.store.write((trx) => finishStep(trx, step.id, guard.from, { resultCode: code, data: step.data, now, dueBy: guard.dueBy }));
  const approved = authorization?.outcome.approved === true;
  let registration: RegistrationRecord | undefined;
  if (approved && step.data.registration) {
    registration = sealedRegistration(deps, step.entityId, deps.newId(), { ...step.data.registration, number: authorization?.number }, now);
  }
  const requested = payment.details.threeDSecure as Record<string, unknown> | undefined;
  const threeDSecure = 'outcome' in ending ? outcomeFields(step, requested, ending.outcome) : undefined;
  const acquirer = authorization?.outcome;
  const settled: PaymentRecord = {
    ...payment,
    status: approved ? 'success' : 'rejected',
    resultCode: code,
    acquirer: acquirer
      ? { avsResponse: acquirer.avsResponse, cvvResponse: acquirer.cvvResponse, riskScore: acquirer.riskScore, connectorDetails: acquirer.connectorDetails, ...(acquirer.pos ? { pos: acquirer.pos } : {}) }
      : payment.acquirer,
    details: withInitialTransactionId(threeDSecure ? { ...payment.details, threeDSecure } : payment.details, acquirer),
    registrationId: registration?.id ?? payment.registrationId,
    updatedAt: now,
  };
  return deps.store.write(async (trx) => {
    if (!(await finishStep(trx, step.id, guard.from, { resultCode: code, data: step.data, now, dueBy: guard.dueBy }))) return false;
    const updated = await settlePendingPayment(trx, settled);
    if (registration) await insertRegistration(trx, registration);
    if (updated) await enqueueEvents(trx, deps, { type: 'PAYMENT', action: 'UPDATED', payment: settled }, ...registrationEvents(settled, registration));
    if (step.checkoutId) {
      await settleCheckout(trx, step.checkoutId, approved ? { paid: true, paymentId: payment.id, registrationId: registration?.id ?? null } : { paid: false, attemptId: payment.id, declined: !groups.communicationError.test(code) }, now);
    }
    return true;
  });
}

function endingCode(deps: Deps, step: Step, ending: Ending, acquirer: AcquirerOutcome | undefined): ResultCode {
  if ('provider' in ending) {
    if (ending.provider === 'cancelled') return '100.396.101';
    if (ending.provider === 'abandoned') return '100.396.103';
  } else if (ending.outcome.kind !== 'authenticated') {
    return failureCode(ending.outcome)!;
  } else if (step.kind === 'standalone') {
    return standaloneCode(ending.outcome, successCode(deps.env, step.data.testMode));
  }
  if (acquirer?.approved) return successCode(deps.env, step.data.testMode);
  return acquirer?.declineCode ?? '800.100.100';
}

/**
 * Authorize after the step (authenticated, or approved at the provider) and finish. The step is
 * claimed first (→ completing) in a commit of its own, so that two requests at once (a double
 * click) authorize once; the acquirer is called outside any transaction.
 */
async function authorizeAndFinish(deps: Deps, step: Step, from: StepStatus[], ending: Ending): Promise<Step> {
  const now = deps.clock().getTime();
  const claimed = await deps.store.write((trx) => moveStep(trx, step.id, from, 'completing', now));
  if (!claimed) return (await findStep<StepData>(deps.store.db, step.id)) ?? step;
  const held = { ...step, status: 'completing' as const };
  if (step.kind === 'standalone') {
    await finish(deps, held, ending, undefined, { from: ['completing'] });
    return (await findStep<StepData>(deps.store.db, step.id)) ?? step;
  }
  const payment = step.paymentId ? await findPayment(deps.store.db, step.entityId, step.paymentId) : undefined;
  const sealed = openAccount(deps, step);
  let outcome: AcquirerOutcome = { approved: false, declineCode: '900.100.100', connectorDetails: {} };
  if (payment) {
    const details = payment.details as { virtualAccount?: { accountId?: string }; bankAccount?: { iban?: string; number?: string; holder?: string } };
    const account: AccountData = {
      method: payment.method as AccountData['method'],
      brand: payment.paymentBrand,
      ...sealed,
      iban: details.bankAccount?.iban ?? details.bankAccount?.number,
      accountId: details.virtualAccount?.accountId,
      ...(payment.method !== 'CC' && details.bankAccount?.holder ? { holder: details.bankAccount.holder } : {}),
    };
    const threeDSecure = 'outcome' in ending ? outcomeFields(step, payment.details.threeDSecure as Record<string, unknown> | undefined, ending.outcome) : undefined;
    const request: AuthorizationRequest = {
      paymentId: payment.id,
      paymentType: step.data.paymentType ?? 'DB',
      amountMinor: payment.amountMinor,
      currency: payment.currency,
      account,
      billing: step.data.billing,
      riskCheck: step.data.riskCheck ?? false,
      testMode: step.data.testMode,
      // The security code was never kept: the 3-D Secure proof stands in for it.
      ...(threeDSecure ? { threeDSecure } : {}),
      ...('provider' in ending ? { providerApproved: true } : {}),
      // A terminal's payment approved at a provider: its answer carries the terminal's fields too
      // (pos.* as kept, its secrets never were).
      ...(payment.details.pos ? { pos: payment.details.pos as Pos } : {}),
    };
    // No answer declines it, and what the acquirer may have authorized is reversed.
    const answer = await authorizeOrDecline(deps, payment, () => deps.acquirer.authorize(request));
    // A second "pending" is no answer: the connector failed to decide.
    outcome = answer.pending ? { ...answer, approved: false, pending: false, declineCode: answer.declineCode ?? '900.100.300' } : answer;
  }
  const finished = await finish(deps, held, ending, { outcome, number: sealed.number }, { from: ['completing'] });
  // The step was swept meanwhile (ended as abandoned): an approval come too late is released.
  if (!finished && outcome.approved && payment) reverseUnrecorded(deps, payment, 'the acquirer approved it after the payment had ended');
  return (await findStep<StepData>(deps.store.db, step.id)) ?? step;
}

/** End a step without asking the acquirer (failed, cancelled): one commit. */
async function endWithout(deps: Deps, step: Step, from: StepStatus[], ending: Ending): Promise<Step> {
  const now = deps.clock().getTime();
  if (now < step.expiresAt) await finish(deps, step, ending, undefined, { from });
  return current(deps, (await findStep<StepData>(deps.store.db, step.id)) ?? step);
}

/** What the authentication page learns after the method URL: a challenge to show, or the end. */
export type Next = { kind: 'challenge'; step: Step } | { kind: 'done'; step: Step } | { kind: 'waiting'; step: Step };

/** The shopper's browser ran the method URL (threeDSCompInd Y, N or U): a challenge, or frictionless to the end. */
export async function continueAfterMethod(deps: Deps, loaded: Step, completion: MethodCompletion): Promise<Next> {
  const step = await current(deps, loaded);
  if (step.status === 'done' || step.status === 'completing') return { kind: 'done', step };
  if (step.status === 'challenge') return { kind: 'challenge', step };
  if (step.status !== 'method') return { kind: 'waiting', step };
  const next = afterMethod(step.path as Flow, step.data.exemptions ?? {});
  const data: StepData = { ...step.data, methodCompletion: completion };
  if (next === 'challenge') {
    const moved = await deps.store.write((trx) => moveStep(trx, step.id, ['method'], 'challenge', deps.clock().getTime(), data));
    const after = (await findStep<StepData>(deps.store.db, step.id)) ?? step;
    return moved || after.status === 'challenge' ? { kind: 'challenge', step: after } : { kind: 'done', step: after };
  }
  const ended = await authorizeAndFinish(deps, { ...step, data }, ['method'], { outcome: { ...next, challenged: false } });
  return { kind: 'done', step: ended };
}

/** The shopper's answer on the issuer's challenge page. */
export async function answerChallenge(deps: Deps, loaded: Step, action: ChallengeAction): Promise<Step> {
  const step = await current(deps, loaded);
  if (step.status !== 'challenge') return step;
  const outcome = challengeOutcome(action);
  if (outcome.kind === 'authenticated') return authorizeAndFinish(deps, step, ['challenge'], { outcome });
  return endWithout(deps, step, ['challenge'], { outcome });
}

/**
 * The shopper left the authentication from the page that shows it (the widget's Cancel): it
 * ends as a cancelled challenge would, from wherever it stands; one that ended stays as it is.
 */
export async function cancelAuthentication(deps: Deps, loaded: Step): Promise<Step> {
  const step = await current(deps, loaded);
  if (step.status !== 'method' && step.status !== 'challenge') return step;
  return endWithout(deps, step, ['method', 'challenge'], { outcome: challengeOutcome('cancel') });
}

/**
 * The shopper started a new attempt on the checkout while this payment waited at its redirect
 * (Back from the issuer's or the provider's page, a reload, another tab): the wait ends as a
 * cancel would end it, so that the new attempt may go on. One that is being authorized is left.
 */
export async function supersede(deps: Deps, payment: PaymentRecord): Promise<void> {
  if (payment.status !== 'pending') return;
  const step = await findStepOfPayment<StepData>(deps.store.db, payment.id);
  if (!step || !WAITING.includes(step.status)) return;
  await endWithout(deps, step, WAITING, step.kind === 'provider' ? { provider: 'cancelled' } : { outcome: challengeOutcome('cancel') });
}

export type ProviderAction = 'approve' | 'cancel';
export const PROVIDER_ACTIONS: readonly ProviderAction[] = ['approve', 'cancel'];

/** The shopper's answer on the provider's page. */
export async function answerProvider(deps: Deps, loaded: Step, action: ProviderAction): Promise<Step> {
  const step = await current(deps, loaded);
  if (step.status !== 'provider') return step;
  if (action === 'approve') return authorizeAndFinish(deps, step, ['provider'], { provider: 'approved' });
  return endWithout(deps, step, ['provider'], { provider: 'cancelled' });
}

/** The authorization's outcome on the shopper's side: the payment (or the standalone step) as it ended. */
export async function resultOfStep(deps: Deps, step: Step): Promise<{ code: string; payment?: PaymentRecord }> {
  if (step.kind === 'standalone' || !step.paymentId) return { code: step.resultCode ?? '000.200.000' };
  const payment = await findPayment(deps.store.db, step.entityId, step.paymentId);
  return { code: payment?.resultCode ?? step.resultCode ?? '000.200.000', payment };
}
