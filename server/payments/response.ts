// The payment response (also the payload of webhooks), shaped from a stored payment.
import type { Entity } from '../config.ts';
import { fromMinor } from '../money.ts';
import { catalogue, type ResultCode } from '../results.ts';
import type { PaymentRecord } from '../store/payments.ts';

export interface Meta {
  buildNumber: string;
  timestamp: string;
}

export function resultOf(code: string, extra: Record<string, string | undefined> = {}): Record<string, string> {
  const out: Record<string, string> = { code, description: catalogue[code as ResultCode] ?? '' };
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) out[key] = value;
  return out;
}

export function paymentResponse(p: PaymentRecord, entity: Entity, meta: Meta): Record<string, unknown> {
  const { risk, pos, ...details } = p.details as { risk?: Record<string, unknown>; pos?: Record<string, unknown> } & Record<string, unknown>;
  const riskOut = p.acquirer.riskScore !== undefined ? { ...(risk ?? {}), score: p.acquirer.riskScore } : risk;
  // A terminal's request (pos.*, secrets left out) with the acquirer's answer for it.
  const posOut = p.acquirer.pos !== undefined ? { ...(pos ?? {}), ...p.acquirer.pos } : pos;
  return {
    id: p.id,
    paymentType: p.paymentType,
    paymentBrand: p.paymentBrand,
    amount: fromMinor(p.amountMinor),
    currency: p.currency,
    ...(p.merchantTransactionId ? { merchantTransactionId: p.merchantTransactionId } : {}),
    ...(p.sequence ? { sequence: p.sequence } : {}),
    ...(p.numberOfCaptures !== null ? { numberOfCaptures: String(p.numberOfCaptures) } : {}),
    result: resultOf(p.resultCode, { avsResponse: p.acquirer.avsResponse, cvvResponse: p.acquirer.cvvResponse }),
    ...(entity.showConnectorDetails && p.acquirer.connectorDetails ? { resultDetails: p.acquirer.connectorDetails } : {}),
    ...details,
    ...(posOut ? { pos: posOut } : {}),
    ...(riskOut ? { risk: riskOut } : {}),
    ...(p.registrationId ? { registrationId: p.registrationId } : {}),
    buildNumber: meta.buildNumber,
    timestamp: meta.timestamp,
    ndc: p.ndc,
  };
}
