import { findPayment, type PaymentRecord } from '../store/payments.ts';
import type { Context, Deps } from './deps.ts';

/** A payment of the caller's entity; another entity's payment is reported as missing. */
export function readPayment(deps: Deps, ctx: Context, id: string): Promise<PaymentRecord | undefined> {
  return findPayment(deps.store.db, ctx.entity.id, id);
}
