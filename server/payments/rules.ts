// The referencing rules of the spec as a pure function: what a CP, RV, RF or RB may do to the
// payment it references, given the references that already count against it.
import type { ResultCode } from '../results.ts';
import { chargebackOf, settlementDateOf, startOfDay } from '../simulator/clearing.ts';
import { PENDING_LIFETIME_MS } from '../threeds/steps.ts';
import type { PaymentRecord } from '../store/payments.ts';

export type ReferenceType = 'CP' | 'RV' | 'RF' | 'RB';

export interface ReferenceAsk {
  paymentType: ReferenceType;
  /** Minor units; absent for a reversal, which takes what is left. */
  amountMinor?: number;
  currency?: string;
  /** A capture's numberOfCaptures: the limit of partial captures, when its PA set none. */
  numberOfCaptures?: number;
  /** A capture sent with sequence=FINAL. */
  final?: boolean;
}

export type ReferenceDecision = { ok: true; amountMinor: number } | { ok: false; code: ResultCode };

const REFERENCEABLE: Record<ReferenceType, readonly string[]> = {
  CP: ['PA'],
  RV: ['PA', 'DB', 'CD'],
  RF: ['DB', 'CD', 'CP'],
  RB: ['DB', 'CP'],
};

const sum = (payments: PaymentRecord[], type: string) =>
  payments.filter((p) => p.paymentType === type).reduce((total, p) => total + p.amountMinor, 0);

/** A PA sent with INCREMENTAL_AUTH and referenceUuid: it adds to the authorization it names. */
export const isIncrement = (p: PaymentRecord) =>
  p.paymentType === 'PA' && p.referencedId !== null && (p.details.standingInstruction as { industryPractice?: string } | undefined)?.industryPractice === 'INCREMENTAL_AUTH';

/** What a PA authorizes: its amount and its increments' that succeeded. */
const authorizedOf = (pa: PaymentRecord, existing: PaymentRecord[]) =>
  pa.amountMinor + existing.filter((p) => isIncrement(p) && p.status === 'success').reduce((total, p) => total + p.amountMinor, 0);

/**
 * A PA that names this one (an increment or a reauthorization) still waiting for its answer: what
 * it adds is not known yet. For at most a redirect step's life; one whose process died while the
 * acquirer answered is left behind after that.
 */
const waitingLinked = (existing: PaymentRecord[], now: number) =>
  existing.some((p) => p.paymentType === 'PA' && p.status === 'pending' && now - p.createdAt < PENDING_LIFETIME_MS);

/** When the clearing institute settles a payment (and charges it back): its next day, UTC. */
const settlementStart = (p: PaymentRecord) => startOfDay(settlementDateOf(p.createdAt));

export function decideReference(
  referenced: PaymentRecord,
  existing: PaymentRecord[],
  ask: ReferenceAsk,
  now: number,
  reversalCutoffMs: number,
): ReferenceDecision {
  const refuse = (code: ResultCode): ReferenceDecision => ({ ok: false, code });
  if (referenced.status === 'pending') return refuse('700.400.570');
  if (referenced.status === 'rejected') return refuse('700.300.200');
  // An increment is captured and reversed with the authorization it adds to, never by itself.
  if (!REFERENCEABLE[ask.paymentType].includes(referenced.paymentType) || isIncrement(referenced)) return refuse('700.300.100');
  if (ask.currency !== undefined && ask.currency !== referenced.currency) return refuse('700.100.500');
  if (existing.some((p) => p.paymentType === 'RV')) return refuse('700.300.300');

  const finalOf = (type: string) => existing.some((p) => p.paymentType === type && p.sequence === 'FINAL');
  const captured = sum(existing, 'CP');
  const refunded = sum(existing, 'RF');
  const rebilled = sum(existing, 'RB');
  const amount = ask.amountMinor ?? 0;

  switch (ask.paymentType) {
    case 'CP': {
      if (finalOf('CP')) return refuse('700.300.300');
      const captures = existing.filter((p) => p.paymentType === 'CP');
      // The PA's limit, else the first one a capture stated (a capture may state it: the spec's CP row).
      const limit = referenced.numberOfCaptures ?? captures.find((p) => p.numberOfCaptures !== null)?.numberOfCaptures ?? ask.numberOfCaptures ?? null;
      if (limit !== null && captures.length >= limit) return refuse('700.400.100');
      // A final capture would leave an increment approved after it with nothing to capture it.
      if (ask.final && waitingLinked(existing, now)) return refuse('700.400.570');
      if (captured + amount > authorizedOf(referenced, existing)) return refuse('700.400.100');
      return { ok: true, amountMinor: amount };
    }
    case 'RV': {
      if (now - referenced.createdAt > reversalCutoffMs) return refuse('700.300.700');
      // A DB or CD settles at the end of its day; a reversal after that could not take it back.
      if (referenced.paymentType !== 'PA' && now >= settlementStart(referenced)) return refuse('700.300.700');
      if (waitingLinked(existing, now)) return refuse('700.400.570');
      // A reversal releases what is left: the uncaptured part of a PA, all of an untouched DB or CD.
      const left = referenced.paymentType === 'PA' ? authorizedOf(referenced, existing) - captured : refunded > 0 ? 0 : referenced.amountMinor;
      if (left <= 0) return refuse('700.400.300');
      if (ask.amountMinor !== undefined && ask.amountMinor !== left) return refuse('700.100.200');
      return { ok: true, amountMinor: left };
    }
    case 'RF': {
      if (finalOf('RF')) return refuse('700.300.300');
      // A chargeback took all of it back already: a refund would pay the customer twice.
      if (chargebackOf(referenced) !== undefined && now >= settlementStart(referenced)) return refuse('700.400.200');
      if (refunded + amount > referenced.amountMinor + rebilled) return refuse('700.400.200');
      return { ok: true, amountMinor: amount };
    }
    case 'RB': {
      if (refunded === 0) return refuse('700.400.550');
      if (rebilled + amount > refunded) return refuse('700.100.300');
      return { ok: true, amountMinor: amount };
    }
  }
}
