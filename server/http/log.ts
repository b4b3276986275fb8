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
  '*.accessToken',
  'accessToken',
  '*.secret',
];

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: redactedPaths, censor: '[redacted]' },
    // Anything that still slips into a message is cut down to what looks like a card number.
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((arg) => (typeof arg === 'string' ? maskDigits(arg) : arg)) as Parameters<typeof method>);
      },
    },
  };
}

/** Replace runs of 12-19 digits (possible card numbers) by their last four digits. */
export function maskDigits(text: string): string {
  return text.replace(/\d{12,19}/g, (run) => `****${run.slice(-4)}`);
}
