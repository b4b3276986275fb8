// Schedules repository: scheduled registration payments, and the claim that makes one process
// the one that fires an occurrence (a conditional UPDATE of next_run_at).
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

/** Active schedules whose next occurrence is due at `now`, the earliest first. */
export async function dueSchedules(db: Kysely<Database>, now: number, limit: number): Promise<ScheduleRow[]> {
  return db
    .selectFrom('schedules')
    .selectAll()
    .where('status', '=', 'active')
    .where('next_run_at', '<=', now)
    .orderBy('next_run_at')
    .limit(limit)
    .execute();
}

/**
 * Take the occurrence `due` of a schedule: move next_run_at on to `next` (null: the schedule
 * ended) in one conditional UPDATE. Of several processes exactly one changes the row (PostgreSQL
 * re-checks the condition on the locked row after the other's commit; SQLite has one writer);
 * only that one fires. false when another process took it or the schedule was cancelled.
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
      updated_at: now,
    }))
    .where('id', '=', row.id)
    .where('entity_id', '=', row.entity_id)
    .where('status', '=', 'active')
    .where('next_run_at', '=', due)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** What the firing of occurrence `due` ended with: the payment it made, or the code it was refused with. */
export async function recordFiring(trx: Trx, row: Pick<ScheduleRow, 'id' | 'entity_id'>, due: number, paymentId: string | null, resultCode: string): Promise<void> {
  await trx
    .updateTable('schedules')
    .set({ last_payment_id: paymentId, last_result_code: resultCode })
    .where('id', '=', row.id)
    .where('entity_id', '=', row.entity_id)
    .where('last_run_at', '=', due)
    .execute();
}
