// Referencing payments (CP, RV, RF, RB). The referenced payment is locked, the rules decided and
// the new payment reserved as pending in one commit, so parallel requests can never over-capture
// or over-refund; the acquirer is called outside the lock and its answer recorded in a second commit.
import { toMinor } from '../money.ts';
import type { ReferencingRequest } from '../schema/requests.ts';
import type { AcquirerOutcome, ReferenceRequest } from '../simulator/acquirer.ts';
import { findPayment, insertPayment, lockPayment, referencesOf, updatePaymentOutcome, type PaymentRecord } from '../store/payments.ts';
import { currentPayment } from '../threeds/steps.ts';
import { echoedDetails } from './create.ts';
import { refused, type AlsoWrite, type Context, type Deps, type Refusal } from './deps.ts';
import { successCode } from './resultCodes.ts';
import { decideReference, type ReferenceType } from './rules.ts';
import { enqueueEvents } from '../webhooks/outbox.ts';

export interface Referenced {
  kind: 'payment';
  payment: PaymentRecord;
}

const HOUR_MS = 60 * 60 * 1000;

export async function referencePayment(
  deps: Deps,
  ctx: Context,
  referencedId: string,
  request: ReferencingRequest,
  alsoWrite?: AlsoWrite<Referenced>,
): Promise<Referenced | Refusal> {
  const paymentType = request.paymentType as ReferenceType;
  // A pending payment whose redirect step's time is up is abandoned before the rules look at it.
  const before = await findPayment(deps.store.db, ctx.entity.id, referencedId);
  if (before?.status === 'pending') await currentPayment(deps, before);
  const reserved = await deps.store.write(async (trx) => {
    const referenced = await lockPayment(trx, deps.store.dialect, ctx.entity.id, referencedId);
    if (!referenced) return refused('700.400.580', true);
    const existing = await referencesOf(trx, referencedId);
    const now = deps.clock().getTime();
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
    return { kind: 'reserved' as const, payment };
  });
  if (reserved.kind === 'refused') return reserved;

  const { payment } = reserved;
  const call: ReferenceRequest = { paymentId: payment.id, referencedId, amountMinor: payment.amountMinor, currency: payment.currency };
  // A connector that fails to answer frees the reservation rather than leaving it pending forever.
  const outcome = await acquirerCall(deps, paymentType, call).catch(
    (): AcquirerOutcome => ({ approved: false, declineCode: '900.100.100', connectorDetails: {} }),
  );
  const settled: PaymentRecord = {
    ...payment,
    status: outcome.approved ? 'success' : 'rejected',
    resultCode: outcome.approved ? successCode(deps.env, payment.testMode) : outcome.declineCode ?? '800.100.100',
    acquirer: { connectorDetails: outcome.connectorDetails },
    updatedAt: deps.clock().getTime(),
  };
  const result: Referenced = { kind: 'payment', payment: settled };
  await deps.store.write(async (trx) => {
    await updatePaymentOutcome(trx, settled.id, settled);
    // Notified once it has its outcome: the reservation before it is no answer to anyone.
    await enqueueEvents(trx, deps, { type: 'PAYMENT', action: 'CREATED', payment: settled });
    if (alsoWrite) await alsoWrite(trx, result);
  });
  return result;
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
