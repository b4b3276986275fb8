// Schedules repository: scheduled registration payments, the claim that makes one process the
// one that fires an occurrence (a conditional UPDATE of next_run_at), and the lease that lets
// another process take a firing over when its claimer died before recording it (claimed_at).
import type { Kysely, Selectable } from 'kysely';
import type { Trx } from './db.ts';
import type { Database, SchedulesTable } from './tables.ts';

export type ScheduleRow = Selectable<SchedulesTable>;

export async function insertSchedule(trx: Trx, row: SchedulesTable): Promise<void> {
  await trx.insertInto('schedules').values(row).execute();
}

export async function findSchedule(db: Kysely<Database> | Trx, entityId: string, id: string): Promise<ScheduleRow | undefined> {
  return db.selectFrom('schedules').selectAll().where('id', '=', id).where('entity_id', '=', entityId).executeTakeFirst();
}

/** Cancel an active schedule of the entity: it fires no more. false when it is not active. */
export async function cancelSchedule(trx: Trx, entityId: string, id: string, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('schedules')
    .set({ status: 'cancelled', next_run_at: null, updated_at: now })
    .where('id', '=', id)
    .where('entity_id', '=', entityId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Active schedules whose next occurrence is due at `now` and whose last firing is recorded (a
 * schedule with a firing in flight waits for it, see claimOccurrence), the earliest first.
 */
export async function dueSchedules(db: Kysely<Database>, now: number, limit: number): Promise<ScheduleRow[]> {
  return db
    .selectFrom('schedules')
    .selectAll()
    .where('status', '=', 'active')
    .where('next_run_at', '<=', now)
    .where('claimed_at', 'is', null)
    .orderBy('next_run_at')
    .limit(limit)
    .execute();
}

/**
 * Schedules whose firing was claimed at or before `staleBefore` and is still unrecorded: its
 * claimer died (or hangs) before the payment's commit, which records the firing, so no payment
 * was made. Cancelled schedules are left out: nothing fires after a DELETE's commit.
 */
export async function staleFirings(db: Kysely<Database>, staleBefore: number, limit: number): Promise<ScheduleRow[]> {
  return db
    .selectFrom('schedules')
    .selectAll()
    .where('claimed_at', '<=', staleBefore)
    .where('status', 'in', ['active', 'ended'])
    .orderBy('claimed_at')
    .limit(limit)
    .execute();
}

/**
 * Take the occurrence `due` of a schedule: move next_run_at on to `next` (null: the schedule
 * ended) in one conditional UPDATE, and mark the firing claimed at `now` until it is recorded.
 * Of several processes exactly one changes the row (PostgreSQL re-checks the condition on the
 * locked row after the other's commit; SQLite has one writer); only that one fires. false when
 * another process took it, the schedule was cancelled, or its last firing is not recorded yet.
 *
 * The rule for that last case: the next occurrence is never claimed while the previous firing is
 * unrecorded (claimed_at not null), since its claim would overwrite the previous one's
 * last_run_at and lose it. A firing in flight finishes within seconds; a stale one is taken over
 * by recoverFiring first, and the next occurrence is claimed once that one is recorded.
 */
export async function claimOccurrence(trx: Trx, row: Pick<ScheduleRow, 'id' | 'entity_id'>, due: number, next: number | null, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('schedules')
    .set((eb) => ({
      next_run_at: next,
      status: next === null ? 'ended' : 'active',
      firings: eb('firings', '+', 1),
      last_run_at: due,
      last_payment_id: null,
      last_result_code: null,
      claimed_at: now,
      updated_at: now,
    }))
    .where('id', '=', row.id)
    .where('entity_id', '=', row.entity_id)
    .where('status', '=', 'active')
    .where('next_run_at', '=', due)
    .where('claimed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Take over a stale firing (staleFirings): claim the same occurrence (last_run_at) again at `now`,
 * in one conditional UPDATE on the claim read, so that of several processes exactly one wins.
 * The old claimer, should it wake up, can no longer record (recordFiring checks the claim), so its
 * payment's commit fails and no second payment is made.
 */
export async function recoverFiring(trx: Trx, row: Pick<ScheduleRow, 'id' | 'entity_id' | 'claimed_at'>, staleBefore: number, now: number): Promise<boolean> {
  if (row.claimed_at === null) return false;
  const result = await trx
    .updateTable('schedules')
    .set({ claimed_at: now, updated_at: now })
    .where('id', '=', row.id)
    .where('entity_id', '=', row.entity_id)
    .where('claimed_at', '=', Number(row.claimed_at))
    .where('claimed_at', '<=', staleBefore)
    .where('status', 'in', ['active', 'ended'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * What the firing of occurrence `due`, claimed at `claimedAt`, ended with: the payment it made, or
 * the code it was refused with. false, and nothing written, when that claim is no longer the
 * schedule's (another process took the firing over after the lease): the caller must not pay.
 */
export async function recordFiring(trx: Trx, row: Pick<ScheduleRow, 'id' | 'entity_id'>, due: number, claimedAt: number, paymentId: string | null, resultCode: string): Promise<boolean> {
  const result = await trx
    .updateTable('schedules')
    .set({ last_payment_id: paymentId, last_result_code: resultCode, claimed_at: null })
    .where('id', '=', row.id)
    .where('entity_id', '=', row.entity_id)
    .where('last_run_at', '=', due)
    .where('claimed_at', '=', claimedAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
