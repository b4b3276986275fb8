import { randomFillSync } from 'node:crypto';

// Random bytes are drawn from the CSPRNG a few kilobytes at a time, each byte handed out once:
// one call per id costs more than the rest of building it.
const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let offset = POOL_SIZE;

function randomHex(bytes: number): string {
  if (offset + bytes > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return hex;
}

/** What newId makes: the form of payment, registration and entity ids. */
export const ID = /^[0-9a-f]{32}$/;

/** 32 lowercase hex characters: payment, registration and entity ids. */
export function newId(): string {
  return randomHex(16);
}

/** The request's unique reference (ndc): letters, digits and hyphens. */
export function newNdc(): string {
  const hex = randomHex(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export type IdGenerator = () => string;
