// Referencing payments (CP, RV, RF, RB). The referenced payment is locked, the rules decided and
// the new payment reserved as pending in one commit, so parallel requests can never over-capture
// or over-refund; the acquirer is called outside the lock and its answer recorded in a second commit.
// A process that stops between the two leaves a reservation: past RESERVATION_LEASE_MS it is
// finished by whoever meets it (a read, the next reference, the sweep, a retry with its key).
import { toMinor } from '../money.ts';
import type { ReferencingRequest } from '../schema/requests.ts';
import type { AcquirerOutcome, ReferenceRequest } from '../simulator/acquirer.ts';
import { linkKeyToPayment } from '../store/idempotency.ts';
import { findPayment, insertPayment, leaseReservation, lockPayment, referencesOf, settlePendingPayment, staleReservations, type PaymentRecord } from '../store/payments.ts';
import { findStepOfPayment } from '../store/threeds.ts';
import { currentPayment, PENDING_LIFETIME_MS } from '../threeds/steps.ts';
import { echoedDetails } from './create.ts';
import { refused, type AlsoWrite, type Context, type Deps, type Invalid, type Refusal } from './deps.ts';
import { failure, paramError } from '../schema/errors.ts';
import { successCode } from './resultCodes.ts';
import { decideReference, type ReferenceType } from './rules.ts';
import { enqueueEvents } from '../webhooks/outbox.ts';
import { reverseUnrecorded } from './unanswered.ts';
import { withDeadline } from '../deadline.ts';

export interface Referenced {
  kind: 'payment';
  payment: PaymentRecord;
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * A reference still pending after this long was left by a process that stopped before it recorded
 * the acquirer's answer (connectors answer within a minute): it is asked again, with the same
 * payment id, which a connector takes as the same operation.
 */
export const RESERVATION_LEASE_MS = 2 * 60 * 1000;

const REFERENCE_TYPE_LIST: readonly ReferenceType[] = ['CP', 'RV', 'RF', 'RB'];
const REFERENCE_TYPES: ReadonlySet<string> = new Set(REFERENCE_TYPE_LIST);

/**
 * What a referencing request names that is not the payment in its URL: a paymentBrand other than
 * the payment's (a reference pays with the referenced account, whose brand it cannot change), or a
 * referenceUuid naming another payment (the spec: the parameter alternative to the URL form, "the
 * UUID is validated"). Both were taken and dropped, or echoed as if they meant something.
 */
function mismatchedReference(request: ReferencingRequest, referenced: PaymentRecord): Invalid | undefined {
  const errors = [];
  if (request.paymentBrand !== undefined && request.paymentBrand !== referenced.paymentBrand) {
    errors.push(paramError('paymentBrand', request.paymentBrand, `must be ${referenced.paymentBrand}, the brand of the payment it references, or left out`, '100.100.501'));
  }
  if (request.referenceUuid !== undefined && request.referenceUuid !== referenced.id) {
    errors.push(paramError('referenceUuid', request.referenceUuid, `must name the payment of the URL, ${referenced.id}, or be left out: a referencing payment names its payment in the URL`));
  }
  return errors.length ? { kind: 'invalid', failure: failure(errors) } : undefined;
}

export async function referencePayment(
  deps: Deps,
  ctx: Context,
  referencedId: string,
  request: ReferencingRequest,
  alsoWrite?: AlsoWrite<Referenced>,
): Promise<Referenced | Refusal | Invalid> {
  // A retry that took the key over from a request that stopped: that request's payment is the answer.
  const earlier = ctx.idempotency?.reserved ? await findPayment(deps.store.db, ctx.entity.id, ctx.idempotency.reserved) : undefined;
  if (earlier && earlier.referencedId === referencedId) return resumeReservation(deps, earlier, alsoWrite);
  const paymentType = request.paymentType as ReferenceType;
  // A pending payment is brought up to date first (a step past its time abandoned, a stale reservation finished).
  const before = await findPayment(deps.store.db, ctx.entity.id, referencedId);
  const mismatch = before ? mismatchedReference(request, before) : undefined;
  if (mismatch) return mismatch;
  if (before?.status === 'pending') await recoverPayment(deps, before);
  let reserved = await reserve(deps, ctx, referencedId, paymentType, request, true);
  if (reserved.kind === 'stale') {
    // References left by a stopped process count against the payment until they are finished:
    // finished first, then the rules decide again (with any that could not be, as they are).
    for (const stale of reserved.stale) await recoverPayment(deps, stale);
    reserved = await reserve(deps, ctx, referencedId, paymentType, request, false);
  }
  if (reserved.kind === 'reserved') return settleReservation(deps, reserved.payment, alsoWrite);
  return reserved as Refusal;
}

type Reservation = { kind: 'reserved'; payment: PaymentRecord } | { kind: 'stale'; stale: PaymentRecord[] } | Refusal;

/** The rules decided and the payment reserved as pending, under the referenced payment's lock. */
function reserve(deps: Deps, ctx: Context, referencedId: string, paymentType: ReferenceType, request: ReferencingRequest, stopAtStale: boolean): Promise<Reservation> {
  return deps.store.write(async (trx): Promise<Reservation> => {
    const referenced = await lockPayment(trx, deps.store.dialect, ctx.entity.id, referencedId);
    if (!referenced) return refused('700.400.580', true);
    const existing = await referencesOf(trx, referencedId);
    const now = deps.clock().getTime();
    const stale = stopAtStale ? existing.filter((p) => isStaleReservation(p, now)) : [];
    if (stale.length) return { kind: 'stale', stale };
    const decision = decideReference(
      referenced,
      existing,
      {
        paymentType,
        amountMinor: request.amount === undefined ? undefined : toMinor(request.amount),
        currency: request.currency,
        ...(paymentType === 'CP' && request.numberOfCaptures !== undefined && { numberOfCaptures: Number(request.numberOfCaptures) }),
        ...(paymentType === 'CP' && request.sequence === 'FINAL' && { final: true }),
      },
      now,
      ctx.entity.reversalCutoffHours * HOUR_MS,
    );
    if (!decision.ok) return refused(decision.code);
    const payment: PaymentRecord = {
      id: deps.newId(),
      entityId: ctx.entity.id,
      paymentType,
      method: referenced.method,
      paymentBrand: referenced.paymentBrand,
      amountMinor: decision.amountMinor,
      currency: referenced.currency,
      status: 'pending',
      resultCode: '000.200.000',
      referencedId,
      registrationId: referenced.registrationId,
      sequence: request.sequence ?? null,
      numberOfCaptures: paymentType === 'CP' && request.numberOfCaptures !== undefined ? Number(request.numberOfCaptures) : null,
      merchantTransactionId: request.merchantTransactionId ?? referenced.merchantTransactionId,
      ndc: ctx.ndc,
      // The account shown is the referenced payment's (masked); the rest is this request's.
      details: { ...pick(referenced.details, ['card', 'bankAccount', 'virtualAccount', 'tokenAccount']), ...echoedDetails(request) },
      acquirer: {},
      testMode: request.testMode ?? referenced.testMode,
      createdAt: now,
      updatedAt: now,
    };
    await insertPayment(trx, payment);
    const claim = ctx.idempotency;
    if (claim) await linkKeyToPayment(trx, ctx.entity.id, claim.key, claim.claimedAt, payment.id);
    return { kind: 'reserved', payment };
  });
}

/**
 * Asks the acquirer for a reserved reference and records its answer, fenced: when another process
 * recorded one first (a retry, the sweep), that one stands, and is the answer here too. No answer
 * (an error, a timeout) says nothing of whether the acquirer did it: the reservation stays
 * pending, still counting against its payment, to be asked again after the lease; past a redirect
 * step's 30 minutes of that it ends as uncertain (900.100.300) rather than be asked for ever.
 */
async function settleReservation(deps: Deps, payment: PaymentRecord, alsoWrite?: AlsoWrite<Referenced>): Promise<Referenced> {
  if (payment.status === 'pending') {
    const call: ReferenceRequest = { paymentId: payment.id, referencedId: payment.referencedId!, amountMinor: payment.amountMinor, currency: payment.currency };
    const outcome = await withDeadline(acquirerCall(deps, payment.paymentType as ReferenceType, call), deps.acquirerTimeoutMs).catch(() => undefined);
    const now = deps.clock().getTime();
    const settled: PaymentRecord | undefined = outcome
      ? {
          ...payment,
          status: outcome.approved ? 'success' : 'rejected',
          resultCode: outcome.approved ? successCode(deps.env, payment.testMode) : outcome.declineCode ?? '800.100.100',
          acquirer: { connectorDetails: outcome.connectorDetails },
          updatedAt: now,
        }
      : now - payment.createdAt > PENDING_LIFETIME_MS
        ? { ...payment, status: 'rejected', resultCode: '900.100.300', updatedAt: now }
        : undefined;
    const recorded =
      settled &&
      (await deps.store.write(async (trx) => {
        if (!(await settlePendingPayment(trx, settled))) return false;
        // Notified once it has its outcome: the reservation before it is no answer to anyone.
        await enqueueEvents(trx, deps, { type: 'PAYMENT', action: 'CREATED', payment: settled });
        if (alsoWrite) await alsoWrite(trx, { kind: 'payment', payment: settled });
        return true;
      }));
    if (recorded) return { kind: 'payment', payment: settled };
  }
  return answerWith(deps, (await findPayment(deps.store.db, payment.entityId, payment.id)) ?? payment, alsoWrite);
}

/** The payment as stored is the answer (recorded by another, or still pending). */
async function answerWith(deps: Deps, payment: PaymentRecord, alsoWrite?: AlsoWrite<Referenced>): Promise<Referenced> {
  const result: Referenced = { kind: 'payment', payment };
  if (alsoWrite) await deps.store.write((trx) => alsoWrite(trx, result));
  return result;
}

/**
 * A payment left pending by a process that stopped between its reservation and its answer: a
 * reference untouched for RESERVATION_LEASE_MS (each asking renews it); a PA reserved on the
 * authorization it adds to (an increment, a reauthorization) past a redirect step's life, with no
 * step (create.ts).
 */
function isStaleReservation(p: PaymentRecord, now: number): boolean {
  if (p.status !== 'pending' || p.referencedId === null) return false;
  if (REFERENCE_TYPES.has(p.paymentType)) return now - p.updatedAt > RESERVATION_LEASE_MS;
  return p.paymentType === 'PA' && now - p.createdAt > PENDING_LIFETIME_MS;
}

/**
 * Finishes a stale reservation: a reference is asked of the acquirer again by whoever renews its
 * lease first (one asker at a time, across processes); a PA reserved on an authorization cannot be
 * (its card is not kept), and ends as the failure it was (900.100.100), as create.ts ends one
 * whose request failed. Other payments are returned as they are.
 */
async function finishStale(deps: Deps, p: PaymentRecord): Promise<PaymentRecord> {
  const now = deps.clock().getTime();
  if (!isStaleReservation(p, now)) return p;
  if (REFERENCE_TYPES.has(p.paymentType)) {
    const leased = await deps.store.write((trx) => leaseReservation(trx, p.id, now, now - RESERVATION_LEASE_MS));
    if (!leased) return (await findPayment(deps.store.db, p.entityId, p.id)) ?? p;
    return (await settleReservation(deps, { ...p, updatedAt: now })).payment;
  }
  if (await findStepOfPayment(deps.store.db, p.id)) return p;
  const ended: PaymentRecord = { ...p, status: 'rejected', resultCode: '900.100.100', updatedAt: now };
  const recorded = await deps.store.write(async (trx) => {
    if (!(await settlePendingPayment(trx, ended))) return false;
    await enqueueEvents(trx, deps, { type: 'PAYMENT', action: 'CREATED', payment: ended });
    return true;
  });
  // Its process may have been answered before it stopped: what the acquirer approved is released.
  if (recorded) reverseUnrecorded(deps, p, 'its process stopped while the acquirer was asked');
  return recorded ? ended : ((await findPayment(deps.store.db, p.entityId, p.id)) ?? p);
}

/**
 * A retry that took an abandoned key over answers the payment the stopped request reserved:
 * finished first when it is stale, else (another is asking right now) its state a few seconds on.
 */
async function resumeReservation(deps: Deps, reserved: PaymentRecord, alsoWrite?: AlsoWrite<Referenced>): Promise<Referenced> {
  let payment = await recoverPayment(deps, reserved);
  for (let waited = 0; payment.status === 'pending' && waited < RESUME_WAIT_MS; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    payment = (await findPayment(deps.store.db, payment.entityId, payment.id)) ?? payment;
  }
  return answerWith(deps, payment, alsoWrite);
}

const RESUME_WAIT_MS = 10_000;

/** What a payment is now: a redirect step whose time is up abandoned, a stale reservation finished. */
export async function recoverPayment(deps: Deps, payment: PaymentRecord): Promise<PaymentRecord> {
  if (payment.status !== 'pending') return payment;
  return finishStale(deps, await currentPayment(deps, payment));
}

/** Every stale reservation finished (the per-minute sweep; several processes may sweep at once). */
export async function sweepReservations(deps: Deps): Promise<number> {
  const now = deps.clock().getTime();
  let finished = 0;
  for (const p of await staleReservations(deps.store.db, REFERENCE_TYPE_LIST, now - RESERVATION_LEASE_MS, now - PENDING_LIFETIME_MS)) {
    if ((await finishStale(deps, p)).status !== 'pending') finished++;
  }
  return finished;
}

function acquirerCall(deps: Deps, type: ReferenceType, call: ReferenceRequest): Promise<AcquirerOutcome> {
  switch (type) {
    case 'CP':
      return deps.acquirer.capture(call);
    case 'RV':
      return deps.acquirer.reverse(call);
    case 'RF':
      return deps.acquirer.refund(call);
    case 'RB':
      return deps.acquirer.rebill(call);
  }
}

function pick(source: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}
