// Schedules (job.*): a stored registration paid on a Quartz schedule. Create, read, cancel, and
// when a schedule's next occurrence is. Firing is scheduler.ts's.
import { checkEntityAllows } from '../payments/create.ts';
import type { AlsoWrite, Context, Deps, Invalid } from '../payments/deps.ts';
import { fromMinor, toMinor } from '../money.ts';
import { failure, paramError, type CodedParamError } from '../schema/errors.ts';
import type { AccountCheck } from '../schema/requests.ts';
import type { ScheduleRequest } from '../schema/schedules.ts';
import { PROVIDER_BRANDS } from '../simulator/simulator.ts';
import type { Cron } from 'croner';
import { cronOf, cronSchedule, CRON_FIELDS, SCHEDULES_END_MS, type Job } from '../schema/scheduling.ts';
import { findRegistration } from '../store/registrations.ts';
import { cancelSchedule, findSchedule, insertSchedule, type ScheduleRow } from '../store/schedules.ts';
import { ID } from '../ids.ts';

export interface Scheduled {
  kind: 'schedule';
  schedule: ScheduleRow;
}
export interface UnknownSchedule {
  kind: 'unknown';
  id: string;
}


/** job.startDate and job.endDate are UTC, as every time of the gateway. */
const epochOf = (dateTime: string | undefined): number | null => (dateTime === undefined ? null : Date.parse(`${dateTime.replace(' ', 'T')}Z`));

/** yyyy-MM-dd HH:mm:ss, UTC: the form job.startDate and job.endDate are sent in. */
export const dateTimeOf = (epoch: number): string => new Date(epoch).toISOString().slice(0, 19).replace('T', ' ');

// Schedules share few expressions ("the 1st at midnight"): each is parsed once. Bounded, as
// expressions come from merchants.
const MAX_CACHED = 1_000;
const crons = new Map<string, Cron>();
function parsedCron(expression: string): Cron {
  let cron = crons.get(expression);
  if (!cron) {
    if (crons.size >= MAX_CACHED) crons.clear();
    crons.set(expression, (cron = cronSchedule(expression)));
  }
  return cron;
}

/** The first occurrence after `after` within [startAt, endAt] (both included), or null when none is left. */
export function nextOccurrence(expression: string, after: number, startAt: number | null, endAt: number | null): number | null {
  const from = startAt === null ? after : Math.max(after, startAt - 1);
  const next = parsedCron(expression).nextRun(new Date(from))?.getTime() ?? null;
  return next === null || next > SCHEDULES_END_MS || (endAt !== null && next > endAt) ? null : next;
}

const invalid = (...errors: CodedParamError[]): Invalid => ({ kind: 'invalid', failure: failure(errors) });

/** A schedule that would never fire is refused, naming what ends it: endDate, startDate, or the fields of its time. */
function neverFires(j: Job, endAt: number | null, expression: string, now: number, startAt: number | null): Invalid {
  if (endAt !== null && nextOccurrence(expression, now, startAt, null) !== null) {
    return invalid(paramError('job.endDate', j.endDate, 'is before the first occurrence of the schedule'));
  }
  // Occurrences to come, all before startDate (or a startDate past the last year a schedule has).
  if (startAt !== null && nextOccurrence(expression, now, null, null) !== null) {
    return invalid(paramError('job.startDate', j.startDate, `is after the last occurrence of the schedule ${expression}`));
  }
  const sent = j.expression !== undefined ? ['expression' as const] : CRON_FIELDS.filter((f) => j[f] !== undefined);
  return invalid(...sent.map((f) => paramError(`job.${f}`, j[f], `names no time to come: the schedule ${expression} never fires after now`)));
}

export async function createSchedule(deps: Deps, ctx: Context, request: ScheduleRequest, alsoWrite?: AlsoWrite<Scheduled>): Promise<Scheduled | Invalid> {
  const registration = await findRegistration(deps.store.db, ctx.entity.id, request.registrationId);
  if (!registration) return invalid(paramError('registrationId', request.registrationId, 'names no registration of this entity', '100.150.200'));
  if (registration.status !== 'active') return invalid(paramError('registrationId', request.registrationId, 'names a deleted registration', '100.150.202'));
  // Refused now rather than at every firing: a brand the entity does not take, PA on a direct debit.
  const refusal = checkEntityAllows(ctx, request.paymentType, { method: registration.method as AccountCheck['method'], brand: registration.paymentBrand });
  if (refusal) return refusal;
  if (PROVIDER_BRANDS.has(registration.paymentBrand)) {
    return invalid(paramError('registrationId', request.registrationId, `names a ${registration.paymentBrand} registration: each of its payments needs the shopper at the provider's page, so it cannot be scheduled`));
  }

  const j = request.job ?? {};
  const expression = cronOf(j);
  const startAt = epochOf(j.startDate);
  const endAt = epochOf(j.endDate);
  const now = deps.clock().getTime();
  const next = nextOccurrence(expression, now, startAt, endAt);
  if (next === null) return neverFires(j, endAt, expression, now, startAt);

  const stored: ScheduleRequest = { ...request, amount: fromMinor(toMinor(request.amount)!) };
  const schedule: ScheduleRow = {
    id: deps.newId(),
    entity_id: ctx.entity.id,
    registration_id: registration.id,
    status: 'active',
    expression,
    request: JSON.stringify(stored),
    start_at: startAt,
    end_at: endAt,
    next_run_at: next,
    firings: 0,
    last_run_at: null,
    last_payment_id: null,
    last_result_code: null,
    claimed_at: null,
    created_at: now,
    updated_at: now,
  };
  const scheduled: Scheduled = { kind: 'schedule', schedule };
  await deps.store.write(async (trx) => {
    await insertSchedule(trx, schedule);
    if (alsoWrite) await alsoWrite(trx, scheduled);
  });
  return scheduled;
}

export async function readSchedule(deps: Deps, ctx: Context, id: string): Promise<Scheduled | UnknownSchedule> {
  const schedule = ID.test(id) ? await findSchedule(deps.store.db, ctx.entity.id, id) : undefined;
  return schedule ? { kind: 'schedule', schedule } : { kind: 'unknown', id };
}

/** Cancel: no occurrence fires after this commit. A schedule already cancelled or ended is answered as it is. */
export async function removeSchedule(deps: Deps, ctx: Context, id: string): Promise<Scheduled | UnknownSchedule> {
  if (!ID.test(id)) return { kind: 'unknown', id };
  return deps.store.write(async (trx) => {
    await cancelSchedule(trx, ctx.entity.id, id, deps.clock().getTime());
    const schedule = await findSchedule(trx, ctx.entity.id, id);
    return schedule ? { kind: 'schedule', schedule } : { kind: 'unknown', id };
  });
}

/** What the answers show of a schedule: its request as accepted, its expression, state and firings. */
export function scheduleView(s: ScheduleRow): Record<string, unknown> {
  const { registrationId: _registrationId, job, ...payment } = JSON.parse(s.request) as ScheduleRequest;
  return {
    id: s.id,
    registrationId: s.registration_id,
    ...payment,
    job: { ...job, expression: s.expression },
    state: s.status.toUpperCase(),
    ...(s.next_run_at !== null ? { nextFiringTime: dateTimeOf(Number(s.next_run_at)) } : {}),
    firings: Number(s.firings),
    ...(s.last_run_at !== null
      ? {
          lastFiring: {
            time: dateTimeOf(Number(s.last_run_at)),
            ...(s.last_payment_id ? { paymentId: s.last_payment_id } : {}),
            ...(s.last_result_code ? { resultCode: s.last_result_code } : {}),
          },
        }
      : {}),
  };
}
