// The CARD_KEY check: every process of one gateway must seal and open registrations with the same
// key. The first process records a keyed digest of its key; a process whose digest differs was
// given another key (or generated its own: CARD_KEY unset on a shared PostgreSQL) and stops.
import type { Kysely } from 'kysely';
import type { Database } from './tables.ts';

const GATEWAY_WIDE = '';

/** Record `digest` as the database's key if none is, and throw when the recorded one differs. */
export async function checkCardKey(db: Kysely<Database>, digest: string, now: number): Promise<void> {
  await db
    .insertInto('card_key_check')
    .values({ entity_id: GATEWAY_WIDE, digest, created_at: now })
    .onConflict((oc) => oc.column('entity_id').doNothing())
    .execute();
  const recorded = await db.selectFrom('card_key_check').select('digest').where('entity_id', '=', GATEWAY_WIDE).executeTakeFirstOrThrow();
  if (recorded.digest !== digest) {
    throw new Error(
      'CARD_KEY is not the key this database was first used with: its registrations could not be opened. Give every process of this gateway the same CARD_KEY (without one, each data directory generates its own).',
    );
  }
}
