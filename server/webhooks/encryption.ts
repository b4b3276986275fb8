// Encryption of webhook notifications (DESIGN.md "Webhooks"): AES-256-GCM under the webhook's
// 64-hex secret, a fresh 12-byte IV per notification; IV and tag travel as hex headers, the
// ciphertext as the hex body, or inside {"encryptedBody":"<hex>"} for the JSON wrapper.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export type Wrapper = 'none' | 'json';

export const IV_HEADER = 'x-initialization-vector';
export const TAG_HEADER = 'x-authentication-tag';

export interface Sealed {
  /** Hex, upper case as the platform's published vector writes it. */
  iv: string;
  tag: string;
  ciphertext: string;
}

function keyOf(secret: string): Buffer {
  if (!/^[0-9a-fA-F]{64}$/.test(secret)) throw new Error('a webhook secret is 64 hexadecimal characters');
  return Buffer.from(secret, 'hex');
}

/** `iv` is for the published test vector only: every notification gets a random one. */
export function encryptNotification(plaintext: string, secret: string, iv: Buffer = randomBytes(12)): Sealed {
  if (iv.length !== 12) throw new Error('the IV is 12 bytes');
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { iv: hex(iv), tag: hex(cipher.getAuthTag()), ciphertext: hex(ciphertext) };
}

/** What a receiver does: hex IV, tag and ciphertext in, the plaintext out (throws when anything was altered). */
export function decryptNotification(sealed: Sealed, secret: string): string {
  const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), Buffer.from(sealed.iv, 'hex'));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'hex'));
  return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'hex')), decipher.final()]).toString('utf8');
}

const hex = (bytes: Buffer) => bytes.toString('hex').toUpperCase();

/** The HTTP body and its content type for a webhook's wrapper. */
export function bodyOf(ciphertext: string, wrapper: Wrapper): { body: string; contentType: string } {
  return wrapper === 'json'
    ? { body: JSON.stringify({ encryptedBody: ciphertext }), contentType: 'application/json' }
    : { body: ciphertext, contentType: 'text/plain' };
}

/** A received notification's ciphertext, whichever form it came in. */
export function ciphertextOf(body: string, contentType: string | undefined): string {
  if (contentType?.startsWith('application/json')) return (JSON.parse(body) as { encryptedBody: string }).encryptedBody;
  return body.trim();
}
