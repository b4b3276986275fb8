// Firing schedules: every poll, each schedule whose next occurrence is due is claimed (its
// next_run_at moved on and claimed_at set, in one conditional UPDATE) and, by the one process whose
// claim changed the row, paid with its registration as a merchant-initiated repeated payment. The
// payment's commit records the firing (and clears claimed_at); the acquirer being in-process, a
// charge exists only if that commit happened. So a firing still unrecorded a lease after its claim
// (DEFAULT_LEASE_MS, far above a payment's few milliseconds) was never paid: its claimer died or
// failed, and the poll claims that same occurrence again and pays it. The old claimer can no longer
// record, so its payment's commit would fail: each occurrence is paid exactly once. Occurrences
// missed while no gateway ran are fired once, not one payment each.
import type { Logger } from 'pino';
import type { Entity } from '../config.ts';
import { newNdc } from '../ids.ts';
import type { Deps } from '../payments/deps.ts';
import type { RegistrationPaymentRequest } from '../schema/requests.ts';
import type { ScheduleRequest } from '../schema/schedules.ts';
import { claimOccurrence, dueSchedules, recordFiring, recoverFiring, staleFirings, type ScheduleRow } from '../store/schedules.ts';
import { payWithRegistration } from './registrations.ts';
import { nextOccurrence } from './schedules.ts';

export const DEFAULT_POLL_MS = 1_000;
/** How long a claimed firing may stay unrecorded before another claim of it may pay it. */
export const DEFAULT_LEASE_MS = 5 * 60_000;
const BATCH = 100;
/** Firings in flight at once. */
const PARALLEL = 16;

/** A subscription's payment: fixed amount, fixed frequency, started by the merchant with a stored card (no shopper, no authentication). */
export const SCHEDULED = { type: 'RECURRING', recurringType: 'SUBSCRIPTION', mode: 'REPEATED', source: 'MIT' } as const;

export interface SchedulerOptions {
  deps: Deps;
  /** The entity a schedule belongs to (the merchants file may have dropped it since). */
  entity: (id: string) => Entity | undefined;
  log: Pick<Logger, 'info' | 'warn'>;
  /** How often due occurrences are looked for (default 1 s). */
  pollMs?: number;
  /** How long after its claim an unrecorded firing is taken over and paid again (default 5 min). */
  leaseMs?: number;
}

/** Thrown inside a payment's commit whose firing was taken over meanwhile: the commit rolls back, nothing is paid. */
class ClaimTakenOver extends Error {}

export interface Scheduler {
  /** Fire every occurrence due now and take over stale firings (after any run under way), resolving with how many firings this process recorded. */
  runDue(): Promise<number>;
  stop(): Promise<void>;
}

export function startScheduler(options: SchedulerOptions): Scheduler {
  const { deps, log } = options;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  if (!(leaseMs > 0)) throw new Error(`the schedule lease must be a positive number of milliseconds, not ${leaseMs}`);
  let stopped = false;
  let current: Promise<number> | undefined;

  /** Fire what `row` holds at `now`: a stale firing taken over, then its next occurrence if due. How many firings this process recorded. */
  async function fire(row: ScheduleRow, now: number): Promise<number> {
    let fired = 0;
    if (row.claimed_at !== null) {
      if (!(await deps.store.write((trx) => recoverFiring(trx, row, now - leaseMs, now)))) return 0;
      const due = Number(row.last_run_at);
      log.warn(
        { schedule: row.id, entityId: row.entity_id, occurrence: new Date(due).toISOString(), claimedAt: new Date(Number(row.claimed_at)).toISOString() },
        'scheduled occurrence recovered: its firing was claimed but never recorded (the claiming process died or failed), so it is paid now',
      );
      if (!(await pay(row, due, now))) return 0;
      fired = 1;
      // Recorded now, so the next occurrence may be claimed (claimOccurrence), if it is due.
      if (row.status !== 'active' || row.next_run_at === null || Number(row.next_run_at) > now) return fired;
    }
    const due = Number(row.next_run_at);
    const next = nextOccurrence(row.expression, Math.max(now, due), row.start_at === null ? null : Number(row.start_at), row.end_at === null ? null : Number(row.end_at));
    if (!(await deps.store.write((trx) => claimOccurrence(trx, row, due, next, now)))) return fired;
    return fired + Number(await pay(row, due, now));
  }

  /** Pay occurrence `due` of the schedule, claimed at `claimedAt`, and record it; false when it was not recorded (taken over meanwhile). */
  async function pay(row: ScheduleRow, due: number, claimedAt: number): Promise<boolean> {
    const where = { schedule: row.id, entityId: row.entity_id, occurrence: new Date(due).toISOString() };
    const takenOver = () => (log.warn(where, 'scheduled occurrence not recorded: another process took its firing over after the lease'), false);
    const entity = options.entity(row.entity_id);
    if (!entity) {
      log.warn(where, 'scheduled payment not made: the entity is no longer configured');
      return (await deps.store.write((trx) => recordFiring(trx, row, due, claimedAt, null, '800.900.301'))) || takenOver();
    }
    const { registrationId: _registrationId, job: _job, ...fields } = JSON.parse(row.request) as ScheduleRequest;
    const request: RegistrationPaymentRequest = { ...fields, standingInstruction: { ...SCHEDULED } };
    const outcome = await payWithRegistration(deps, { entity, ndc: newNdc() }, row.registration_id, request, async (trx, created) => {
      // Taken over meanwhile (this process stalled past the lease): throwing rolls the payment back.
      if (!(await recordFiring(trx, row, due, claimedAt, created.payment.id, created.payment.resultCode))) throw new ClaimTakenOver();
    }).catch((e: unknown) => {
      if (e instanceof ClaimTakenOver) return undefined;
      throw e;
    });
    if (!outcome) return takenOver();
    if (outcome.kind === 'payment') {
      log.info({ ...where, payment: outcome.payment.id, resultCode: outcome.payment.resultCode }, 'scheduled payment made');
      return true;
    }
    const code = outcome.kind === 'refused' ? outcome.code : outcome.failure.code;
    log.warn({ ...where, resultCode: code }, 'scheduled payment refused');
    return (await deps.store.write((trx) => recordFiring(trx, row, due, claimedAt, null, code))) || takenOver();
  }

  async function fireDue(): Promise<number> {
    let fired = 0;
    for (;;) {
      const now = deps.clock().getTime();
      const stale = await staleFirings(deps.store.db, now - leaseMs, BATCH);
      const due = await dueSchedules(deps.store.db, now, BATCH);
      const rows = [...stale, ...due];
      let claimed = 0;
      // Several at once: each payment waits for its commits, and subscriptions fall due together
      // (midnight on the 1st), so one at a time would leave the machine idle between them.
      let next = 0;
      const worker = async () => {
        while (next < rows.length && !stopped) {
          const row = rows[next++]!;
          const fired = await fire(row, now).catch((e: Error) => {
            // The firing is recorded only with its payment's commit: unrecorded, it is taken over after the lease.
            log.warn({ schedule: row.id, err: e.message }, 'scheduled payment failed; an unrecorded occurrence is fired again after the lease');
            return 0;
          });
          claimed += fired;
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARALLEL, rows.length) }, worker));
      fired += claimed;
      if (stopped) return fired;
      // A full batch may have more behind it; one where nothing was claimed was taken by others.
      if ((stale.length < BATCH && due.length < BATCH) || claimed === 0) return fired;
    }
  }

  function runDue(): Promise<number> {
    if (stopped) return Promise.resolve(0);
    const run = (current ?? Promise.resolve(0)).catch(() => 0).then(fireDue);
    current = run;
    void run.finally(() => {
      if (current === run) current = undefined;
    }).catch(() => undefined);
    return run;
  }

  const timer = setInterval(() => void runDue().catch((e: Error) => log.warn({ err: e.message }, 'schedule poll failed')), options.pollMs ?? DEFAULT_POLL_MS);
  timer.unref();

  return {
    runDue,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current?.catch(() => undefined);
    },
  };
}
