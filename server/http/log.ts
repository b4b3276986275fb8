// Logger options: card data, tokens and the Authorization header never reach a log line.
import type { LoggerOptions } from 'pino';

export const redactedPaths = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  '*.card.number',
  '*.card.cvv',
  'card.number',
  'card.cvv',
  '*["card.number"]',
  '*["card.cvv"]',
  '*.tokenAccount.number',
  '*.tokenAccount.cryptogram',
  '*["tokenAccount.number"]',
  '*["tokenAccount.cryptogram"]',
  '*.applePay.paymentToken',
  '*.googlePay.paymentToken',
  '*.samsungPay.paymentToken',
  '*["applePay.paymentToken"]',
  '*["googlePay.paymentToken"]',
  '*["samsungPay.paymentToken"]',
  '*.accessToken',
  'accessToken',
  '*.secret',
];

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: redactedPaths, censor: '[redacted]' },
    // Whatever slips past the paths (a body logged deeper down, a number inside a message) is
    // scrubbed at any depth: card fields censored, digit runs that could be a card number cut.
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((arg) => scrub(arg, 0)) as Parameters<typeof method>);
      },
    },
  };
}

/** Replace runs of 12-19 digits (possible card numbers) by their last four digits. */
export function maskDigits(text: string): string {
  return text.replace(CARD_LIKE_RUN, (run) => `****${run.replace(/\D/g, '').slice(-4)}`);
}

/**
 * A run of 12 or more digits standing alone, whatever its length (a number with its security code
 * glued on too), grouped by spaces or dashes or not: what a card number looks like in a message.
 * A run inside a hex token (a payment or notification id) is left whole, so that log lines still
 * name ids that can be looked up.
 */
const CARD_LIKE_RUN = /(?<![0-9A-Fa-f])\d(?:[ -]?\d){11,}(?![0-9A-Fa-f])/g;

const SECRET_KEY = /(^|\.)(number|cvv|cryptogram|dtvc|pin|paymentToken|accountNumber|encryptedPin|encryptedSred|iccDataRequest|iccDataResponse|authorization|accessToken|secret)$/i;
const MAX_DEPTH = 8;

/** A copy of a log argument with card and token fields censored at any depth. */
export function scrub(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return maskDigits(value);
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (value instanceof Error) return value;
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) out[key] = SECRET_KEY.test(key) ? '[redacted]' : scrub(child, depth + 1);
  return out;
}
