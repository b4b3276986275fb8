import { findPayment, type PaymentRecord } from '../store/payments.ts';
import type { Context, Deps } from './deps.ts';
import { recoverPayment } from './reference.ts';

/**
 * A payment of the caller's entity; another entity's payment is reported as missing. A pending
 * payment whose redirect step's time is up is abandoned first (100.396.103), and a reservation a
 * stopped process left is finished (reference.ts), so a read never shows either pending past its
 * time, whether or not the sweep has run.
 */
export async function readPayment(deps: Deps, ctx: Context, id: string): Promise<PaymentRecord | undefined> {
  const payment = await findPayment(deps.store.db, ctx.entity.id, id);
  return payment && recoverPayment(deps, payment);
}
