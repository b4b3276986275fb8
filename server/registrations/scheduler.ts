// Firing schedules: every poll, each schedule whose next occurrence is due is claimed (its
// next_run_at moved on in one conditional UPDATE) and, by the one process whose claim changed
// the row, paid with its registration as a merchant-initiated repeated payment. Occurrences
// missed while no gateway ran are fired once, not one payment each. A process that dies between
// its claim and the payment loses that occurrence: at most once, never a double charge.
import type { Logger } from 'pino';
import type { Entity } from '../config.ts';
import { newNdc } from '../ids.ts';
import type { Deps } from '../payments/deps.ts';
import type { RegistrationPaymentRequest } from '../schema/requests.ts';
import type { ScheduleRequest } from '../schema/schedules.ts';
import { claimOccurrence, dueSchedules, recordFiring, type ScheduleRow } from '../store/schedules.ts';
import { payWithRegistration } from './registrations.ts';
import { nextOccurrence } from './schedules.ts';

export const DEFAULT_POLL_MS = 1_000;
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
}

export interface Scheduler {
  /** Fire every occurrence due now (after any run under way), resolving with how many this process fired. */
  runDue(): Promise<number>;
  stop(): Promise<void>;
}

export function startScheduler(options: SchedulerOptions): Scheduler {
  const { deps, log } = options;
  let stopped = false;
  let current: Promise<number> | undefined;

  async function fire(row: ScheduleRow, now: number): Promise<boolean> {
    const due = Number(row.next_run_at);
    const next = nextOccurrence(row.expression, Math.max(now, due), row.start_at === null ? null : Number(row.start_at), row.end_at === null ? null : Number(row.end_at));
    if (!(await deps.store.write((trx) => claimOccurrence(trx, row, due, next, now)))) return false;
    const where = { schedule: row.id, entityId: row.entity_id, occurrence: new Date(due).toISOString() };
    const entity = options.entity(row.entity_id);
    if (!entity) {
      log.warn(where, 'scheduled payment not made: the entity is no longer configured');
      await deps.store.write((trx) => recordFiring(trx, row, due, null, '800.900.301'));
      return true;
    }
    const { registrationId: _registrationId, job: _job, ...fields } = JSON.parse(row.request) as ScheduleRequest;
    const request: RegistrationPaymentRequest = { ...fields, standingInstruction: { ...SCHEDULED } };
    const outcome = await payWithRegistration(deps, { entity, ndc: newNdc() }, row.registration_id, request, (trx, created) =>
      recordFiring(trx, row, due, created.payment.id, created.payment.resultCode),
    );
    if (outcome.kind === 'payment') {
      log.info({ ...where, payment: outcome.payment.id, resultCode: outcome.payment.resultCode }, 'scheduled payment made');
    } else {
      const code = outcome.kind === 'refused' ? outcome.code : outcome.failure.code;
      log.warn({ ...where, resultCode: code }, 'scheduled payment refused');
      await deps.store.write((trx) => recordFiring(trx, row, due, null, code));
    }
    return true;
  }

  async function fireDue(): Promise<number> {
    let fired = 0;
    for (;;) {
      const now = deps.clock().getTime();
      const rows = await dueSchedules(deps.store.db, now, BATCH);
      let claimed = 0;
      // Several at once: each payment waits for its commits, and subscriptions fall due together
      // (midnight on the 1st), so one at a time would leave the machine idle between them.
      let next = 0;
      const worker = async () => {
        while (next < rows.length && !stopped) {
          const row = rows[next++]!;
          const ok = await fire(row, now).catch((e: Error) => {
            log.warn({ schedule: row.id, err: e.message }, 'scheduled payment failed');
            return false;
          });
          if (ok) claimed++;
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARALLEL, rows.length) }, worker));
      fired += claimed;
      if (stopped) return fired;
      // A full batch may have more behind it; one where nothing was claimed was taken by others.
      if (rows.length < BATCH || claimed === 0) return fired;
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
