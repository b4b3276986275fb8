// The checkout's payment request, shared by the number frame and the page (SEPA, virtual account,
// saved registration without a security code). Form-urlencoded, no cookies, an Idempotency-Key;
// a network failure is retried once with the SAME key, so a lost answer never charges twice.
import type { GatewayAnswer } from './messages.ts';

export interface PaymentAnswer {
  /** HTTP status; 0 when the network failed twice. */
  status: number;
  body: GatewayAnswer | null;
}

/**
 * The gateway refused the Idempotency-Key because it was already used with other fields: the
 * attempt whose answer was lost reached it, and the retry's fields differ from that attempt's.
 */
export const keyUsedForOtherFields = (answer: PaymentAnswer): boolean =>
  answer.status === 400 && !!answer.body?.result.parameterErrors?.some((error) => error.name === 'Idempotency-Key');

/** Checkout id: 32 lowercase hex, a dot, a node name; 32–48 characters in all. */
export const CHECKOUT_ID = /^[0-9a-f]{32}\.[A-Za-z0-9_-]{1,15}$/;

export const paymentPath = (checkoutId: string): string => `/v1/checkouts/${encodeURIComponent(checkoutId)}/payment`;

export async function postPayment(url: string, fields: Record<string, string>, idempotencyKey: string, fetcher: typeof fetch = fetch): Promise<PaymentAnswer> {
  const request = (): Promise<Response> =>
    fetcher(url, {
      method: 'POST',
      credentials: 'omit',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Idempotency-Key': idempotencyKey },
      body: new URLSearchParams(fields).toString(),
    });
  let response: Response;
  try {
    response = await request();
  } catch {
    try {
      response = await request();
    } catch {
      return { status: 0, body: null };
    }
  }
  return { status: response.status, body: await answerOf(response) };
}

/** The gateway's JSON answer, or null when the body is not one. */
export async function answerOf(response: Response): Promise<GatewayAnswer | null> {
  try {
    const body: unknown = await response.json();
    if (typeof body === 'object' && body !== null && typeof (body as GatewayAnswer).result?.code === 'string') return body as GatewayAnswer;
  } catch {
    // not JSON: a proxy's error page
  }
  return null;
}
