// Helpers for tests of the scheduler: a process that dies right after claiming an occurrence, and
// a second scheduler over a running gateway's store whose log lines the test reads.
import type { Logger } from 'pino';
import type { RunningGateway } from '../../server/gateway.ts';
import { startScheduler, type Scheduler } from '../../server/registrations/scheduler.ts';
import { nextOccurrence } from '../../server/registrations/schedules.ts';
import type { Acquirer } from '../../server/simulator/acquirer.ts';
import type { Store } from '../../server/store/db.ts';
import { claimOccurrence } from '../../server/store/schedules.ts';

/**
 * Claim the due occurrence of a schedule at `now` as the scheduler does, and pay nothing: what a
 * process that dies between its claim and the payment's commit leaves behind. Resolves with the
 * occurrence claimed, or undefined when none was due or the claim failed.
 */
export async function claimWithoutPaying(store: Store, scheduleId: string, now: number): Promise<number | undefined> {
  const row = await store.db.selectFrom('schedules').selectAll().where('id', '=', scheduleId).executeTakeFirstOrThrow();
  if (row.next_run_at === null || Number(row.next_run_at) > now) return undefined;
  const due = Number(row.next_run_at);
  const next = nextOccurrence(row.expression, Math.max(now, due), row.start_at === null ? null : Number(row.start_at), row.end_at === null ? null : Number(row.end_at));
  return (await store.write((trx) => claimOccurrence(trx, row, due, next, now))) ? due : undefined;
}

export interface LogLine {
  level: 'info' | 'warn';
  msg: string;
  [field: string]: unknown;
}

/**
 * Another scheduler on the gateway's store and clock, polling only when asked, logging into
 * `lines`; with `acquirer`, its payments go to that one (e.g. one that stalls).
 */
export function extraScheduler(running: RunningGateway, options: { leaseMs?: number; acquirer?: Acquirer } = {}): { scheduler: Scheduler; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const log = {
    info: (fields: object, msg: string) => lines.push({ ...fields, level: 'info', msg }),
    warn: (fields: object, msg: string) => lines.push({ ...fields, level: 'warn', msg }),
  } as unknown as Pick<Logger, 'info' | 'warn'>;
  const scheduler = startScheduler({
    deps: { ...running.gateway.deps, ...(options.acquirer ? { acquirer: options.acquirer } : {}) },
    entity: (id) => running.gateway.merchants.entity(id),
    log,
    pollMs: 60 * 60 * 1000,
    leaseMs: options.leaseMs,
  });
  return { scheduler, lines };
}
