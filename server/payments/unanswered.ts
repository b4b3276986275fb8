// Authorizations the gateway does not record as approved although the acquirer may have approved
// them: its answer never came (an error, a timeout, a process that stopped while asking) or came
// after the payment had ended. Such an authorization would hold the shopper's money with nothing to
// release it, so it is reversed at the acquirer, as card networks have acquirers send a reversal
// for an authorization whose answer was lost.
import type { AcquirerOutcome, ReferenceRequest } from '../simulator/acquirer.ts';
import { DeadlinePassed, withDeadline } from '../deadline.ts';
import type { Deps } from './deps.ts';

/**
 * How long the acquirer may take to answer, and the most ACQUIRER_TIMEOUT_MS may set: less than a
 * reservation's lease (reference.ts), so that whoever asks again after the lease never overlaps a
 * process still waiting for the first answer.
 */
export const MAX_ACQUIRER_TIMEOUT_MS = 60_000;

/** The connector's call, a synchronous throw of it as a rejection. */
function called<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return ask();
  } catch (error) {
    return Promise.reject(error);
  }
}

export interface Authorization {
  /** The payment the acquirer was asked to authorize (or credit) under this id. */
  id: string;
  entityId: string;
  amountMinor: number;
  currency: string;
}

/**
 * Asks for an authorization; no answer is a decline that says so (900.100.100 after an error,
 * 900.100.300 after the timeout: the result is uncertain), and the authorization is reversed.
 */
export async function authorizeOrDecline(deps: Deps, authorization: Authorization, ask: () => Promise<AcquirerOutcome>): Promise<AcquirerOutcome> {
  const call = called(ask);
  try {
    return await withDeadline(call, deps.acquirerTimeoutMs);
  } catch (error) {
    const timedOut = error instanceof DeadlinePassed;
    reverseUnrecorded(deps, authorization, timedOut ? 'the acquirer did not answer in time' : `the acquirer call failed: ${(error as Error).message}`);
    // The reversal may reach the acquirer before the authorization it names: an approval that
    // still comes is released again.
    if (timedOut) {
      call.then(
        (late) => late.approved && reverseUnrecorded(deps, authorization, 'the acquirer approved it after its timeout'),
        () => undefined,
      );
    }
    return { approved: false, declineCode: timedOut ? '900.100.300' : '900.100.100', connectorDetails: {} };
  }
}

/**
 * Reverses at the acquirer an authorization the gateway did not record as approved, in the
 * background (the shopper's answer does not wait for it), with a reversal id of its own each time:
 * a second reversal of the same authorization releases nothing twice. Both outcomes are logged, a
 * failed one as an error for operations to reverse by hand.
 */
export function reverseUnrecorded(deps: Deps, authorization: Authorization, why: string): void {
  const call: ReferenceRequest = { paymentId: deps.newId(), referencedId: authorization.id, amountMinor: authorization.amountMinor, currency: authorization.currency };
  const where = { payment: authorization.id, entity: authorization.entityId, reversal: call.paymentId, why };
  const reversed = withDeadline(called(() => deps.acquirer.reverse(call)), deps.acquirerTimeoutMs).then(
    (outcome) =>
      outcome.approved
        ? deps.log?.warn(where, 'authorization not recorded as approved: reversed at the acquirer')
        : // Nothing stood to release, or the reversal came before the authorization: worth a look.
          deps.log?.error(where, 'authorization not recorded as approved: the acquirer declined its reversal (nothing to release, or not yet): check it at the acquirer'),
    (error: Error) => deps.log?.error({ ...where, err: error.message }, 'authorization not recorded as approved, and its reversal failed: reverse it at the acquirer by hand'),
  );
  deps.reversals.add(reversed);
  void reversed.finally(() => deps.reversals.delete(reversed));
}
