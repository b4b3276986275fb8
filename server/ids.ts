import { randomBytes } from 'node:crypto';

/** 32 lowercase hex characters: payment, registration and entity ids. */
export function newId(): string {
  return randomBytes(16).toString('hex');
}

/** The request's unique reference (ndc): letters, digits and hyphens. */
export function newNdc(): string {
  const hex = randomBytes(16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export type IdGenerator = () => string;
