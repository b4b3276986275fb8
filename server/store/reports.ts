// Reads of payments for the transaction query and the settlement reports: searches of one
// entity's payments, their links, and a day's payments for the clearing institute. Read only.
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { fromRow, type PaymentRecord } from './payments.ts';
import type { Dialect } from './db.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

const DAY_MS = 86_400_000;
/** Bound parameters per statement stay far below SQLite's and PostgreSQL's limits. */
const CHUNK = 500;

export interface PaymentSearch {
  entityId: string;
  merchantTransactionId?: string;
  /** created_at from and to, both inclusive (epoch ms). */
  createdFrom?: number;
  createdTo?: number;
  /** Payment ids from and to, both inclusive (a short id's range). */
  idFrom?: string;
  idTo?: string;
  paymentTypes?: readonly string[];
  /** Payments charged back (paymentTypes CB): with paymentTypes, payments of those types or charged back. */
  orChargedBack?: Chargeback;
  methods?: readonly string[];
  /**
   * Token account payments (method TA) of these tokenAccount.type values, found beside `methods`
   * (paymentMethods NT and ET: the spec's list has no code of the method, but one per kind of token).
   */
  tokenTypes?: readonly ('NETWORK' | 'EXTERNAL')[];
  /** Card payments (method CC) whose BIN data typed the card DEBIT (paymentMethods DC), found beside `methods`. */
  debitCards?: boolean;
  /** Bank account payments (method DD) of these brands only, or of all others (`exceptBrands`): DD and CT split them. */
  bankBrands?: { only: readonly string[] } | { except: readonly string[] };
  /** Only payments charged back so (chargebackResultCode). */
  chargeback?: Chargeback;
  limit: number;
}

/** Charged back: successful debits or captures of these amounts, made before `settledBefore`, not reversed before their day's end. */
export interface Chargeback {
  amountsMinor: readonly number[];
  types: readonly string[];
  settledBefore: number;
}

function chargedBack(eb: ExpressionBuilder<Database, 'payments'>, cb: Chargeback) {
  return eb.and([
    eb('status', '=', 'success'),
    eb('payment_type', 'in', [...cb.types]),
    eb('amount_minor', 'in', [...cb.amountsMinor]),
    eb('created_at', '<', cb.settledBefore),
    // A reversal before the end of the payment's day (UTC) stopped its settlement, so no chargeback.
    // The day as a literal: SQLite would divide by a bound number as a real, not in whole days.
    eb.not(
      eb.exists(
        eb
          .selectFrom('payments as rv')
          .select('rv.id')
          .whereRef('rv.referenced_id', '=', 'payments.id')
          .where('rv.payment_type', '=', 'RV')
          .where('rv.status', '=', 'success')
          .where('rv.created_at', '<', sql<number>`(payments.created_at / ${sql.lit(DAY_MS)} + 1) * ${sql.lit(DAY_MS)}`),
      ),
    ),
  ]);
}

/** The card.type of a payment's details JSON (null without one). */
const cardTypeOf = (dialect: Dialect) =>
  dialect === 'postgres' ? sql<string | null>`(details::jsonb -> 'card' ->> 'type')` : sql<string | null>`json_extract(details, '$.card.type')`;

/** One entity's payments matching every given criterion, oldest first. */
export async function searchPayments(db: Db, dialect: Dialect, s: PaymentSearch): Promise<PaymentRecord[]> {
  let query = db.selectFrom('payments').selectAll().where('entity_id', '=', s.entityId);
  if (s.merchantTransactionId !== undefined) query = query.where('merchant_transaction_id', '=', s.merchantTransactionId);
  if (s.createdFrom !== undefined) query = query.where('created_at', '>=', s.createdFrom);
  if (s.createdTo !== undefined) query = query.where('created_at', '<=', s.createdTo);
  if (s.idFrom !== undefined) query = query.where('id', '>=', s.idFrom);
  if (s.idTo !== undefined) query = query.where('id', '<=', s.idTo);
  const { paymentTypes, orChargedBack, chargeback } = s;
  if (paymentTypes || orChargedBack) {
    query = query.where((eb) =>
      eb.or([...(paymentTypes?.length ? [eb('payment_type', 'in', [...paymentTypes])] : []), ...(orChargedBack ? [chargedBack(eb, orChargedBack)] : [])]),
    );
  }
  const { methods, tokenTypes, debitCards, bankBrands } = s;
  if (methods || tokenTypes || debitCards || bankBrands) {
    query = query.where((eb) =>
      eb.or([
        ...(methods?.length ? [eb('method', 'in', [...methods])] : []),
        ...(bankBrands
          ? [eb.and([eb('method', '=', 'DD'), 'only' in bankBrands ? eb('payment_brand', 'in', [...bankBrands.only]) : eb('payment_brand', 'not in', [...bankBrands.except])])]
          : []),
        // The card's type is inside the JSON (BIN data appended to the masked card), read as JSON:
        // a pattern could meet a cart item's or a custom parameter's "type" first.
        ...(debitCards ? [eb.and([eb('method', '=', 'CC'), eb(cardTypeOf(dialect), '=', 'DEBIT')])] : []),
        // details is the JSON the payment answers; its masked tokenAccount always begins with its type
        // (schema/echo.ts › maskedAccount), and no value inside a string can hold the unescaped quotes.
        ...(tokenTypes ?? []).map((type) => eb.and([eb('method', '=', 'TA'), eb('details', 'like', `%"tokenAccount":{"type":"${type}"%`)])),
      ]),
    );
  }
  if (chargeback) query = query.where((eb) => chargedBack(eb, chargeback));
  const rows = await query.orderBy('created_at').orderBy('id').limit(s.limit).execute();
  return rows.map(fromRow);
}

/** The entity's payments that reference one of these, or that one of these references; none of the given ones. */
export async function linkedPayments(db: Db, entityId: string, payments: readonly PaymentRecord[]): Promise<PaymentRecord[]> {
  const given = new Set(payments.map((p) => p.id));
  const ids = [...given];
  const referenced = [...new Set(payments.map((p) => p.referencedId).filter((id): id is string => id !== null && !given.has(id)))];
  const found = new Map<string, PaymentRecord>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await db.selectFrom('payments').selectAll().where('entity_id', '=', entityId).where('referenced_id', 'in', ids.slice(i, i + CHUNK)).execute();
    for (const row of rows) if (!given.has(row.id)) found.set(row.id, fromRow(row));
  }
  for (const p of await paymentsByIds(db, entityId, referenced)) found.set(p.id, p);
  return [...found.values()].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
}

/** The entity's payments with these ids. */
export async function paymentsByIds(db: Db, entityId: string, ids: readonly string[]): Promise<PaymentRecord[]> {
  const out: PaymentRecord[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await db.selectFrom('payments').selectAll().where('entity_id', '=', entityId).where('id', 'in', ids.slice(i, i + CHUNK)).execute();
    out.push(...rows.map(fromRow));
  }
  return out;
}

/** Successful payments of these types made in [from, to) (epoch ms), oldest first. */
export async function successfulPaymentsMade(db: Db, entityId: string, types: readonly string[], from: number, to: number): Promise<PaymentRecord[]> {
  const rows = await db
    .selectFrom('payments')
    .selectAll()
    .where('entity_id', '=', entityId)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .where('status', '=', 'success')
    .where('payment_type', 'in', [...types])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(fromRow);
}

/** Successful reversals of these payments, by the reversed payment's id. */
export async function reversalsOf(db: Db, entityId: string, ids: readonly string[]): Promise<Map<string, Array<{ createdAt: number }>>> {
  const out = new Map<string, Array<{ createdAt: number }>>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await db
      .selectFrom('payments')
      .select(['referenced_id', 'created_at'])
      .where('entity_id', '=', entityId)
      .where('payment_type', '=', 'RV')
      .where('status', '=', 'success')
      .where('referenced_id', 'in', ids.slice(i, i + CHUNK))
      .execute();
    for (const row of rows) {
      const list = out.get(row.referenced_id!) ?? [];
      list.push({ createdAt: Number(row.created_at) });
      out.set(row.referenced_id!, list);
    }
  }
  return out;
}
