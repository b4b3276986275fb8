// Registrations repository. The account number is kept only as AES-256-GCM ciphertext.
import type { Kysely } from 'kysely';
import { insertRows, type RowInsert, type Trx } from './db.ts';
import type { Database } from './tables.ts';

export interface RegistrationRecord {
  id: string;
  entityId: string;
  method: string;
  paymentBrand: string;
  status: 'active' | 'deleted';
  details: Record<string, unknown>;
  secret: string | null;
  createdAt: number;
  updatedAt: number;
}

/** The registration as a new row. */
export function registrationRow(r: RegistrationRecord): RowInsert {
  return {
    table: 'registrations',
    row: {
      id: r.id,
      entity_id: r.entityId,
      method: r.method,
      payment_brand: r.paymentBrand,
      status: r.status,
      details: JSON.stringify(r.details),
      secret: r.secret,
      created_at: r.createdAt,
      updated_at: r.updatedAt,
    },
  };
}

export async function insertRegistration(trx: Trx, r: RegistrationRecord): Promise<void> {
  await insertRows(trx, [registrationRow(r)]);
}

export async function findRegistration(db: Kysely<Database> | Trx, entityId: string, id: string): Promise<RegistrationRecord | undefined> {
  const row = await db.selectFrom('registrations').selectAll().where('id', '=', id).where('entity_id', '=', entityId).executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    entityId: row.entity_id,
    method: row.method,
    paymentBrand: row.payment_brand,
    status: row.status as RegistrationRecord['status'],
    details: JSON.parse(row.details) as Record<string, unknown>,
    secret: row.secret,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** Deleting forgets the number itself: the ciphertext goes, the masked details stay for history. */
export async function deleteRegistration(trx: Trx, entityId: string, id: string, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('registrations')
    .set({ status: 'deleted', secret: null, updated_at: now })
    .where('id', '=', id)
    .where('entity_id', '=', entityId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
