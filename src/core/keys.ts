// Random keys: the per-instance channel key (128 bits, in the frame URL and every message) and
// the Idempotency-Key of a submission. crypto.getRandomValues works in every context (unlike
// randomUUID, which needs a secure context).

export function randomHex(bytes = 16): string {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  let hex = '';
  for (const value of values) hex += value.toString(16).padStart(2, '0');
  return hex;
}

/** 128 random bits as 32 lowercase hex characters. */
export const newChannelKey = (): string => randomHex(16);

/** A fresh Idempotency-Key for one payment attempt. */
export const newIdempotencyKey = (): string => `pw-${randomHex(16)}`;
