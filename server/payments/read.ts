import { findPayment, type PaymentRecord } from '../store/payments.ts';
import { currentPayment } from '../threeds/steps.ts';
import type { Context, Deps } from './deps.ts';

/**
 * A payment of the caller's entity; another entity's payment is reported as missing. A pending
 * payment whose redirect step's time is up is abandoned first (100.396.103), so a read never
 * shows a payment pending past its 30 minutes, whether or not the sweep has run.
 */
export async function readPayment(deps: Deps, ctx: Context, id: string): Promise<PaymentRecord | undefined> {
  const payment = await findPayment(deps.store.db, ctx.entity.id, id);
  return payment && currentPayment(deps, payment);
}
