// AES-256-GCM for account numbers kept in registrations. The key comes from CARD_KEY
// (64 hex characters) or is generated once into DATA_DIR for the embedded default.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Vault {
  /** Ciphertext bound to `context` (the registration it belongs to). */
  seal(plain: string, context: string): string;
  open(sealed: string, context: string): string;
  /** A keyed digest for comparing requests without keeping what they held. */
  digest(data: string): string;
}

export function loadCardKey(cardKey: string | undefined, dataDir: string): Buffer {
  if (cardKey) {
    if (!/^[0-9a-fA-F]{64}$/.test(cardKey)) throw new Error('CARD_KEY must be 64 hex characters (32 bytes)');
    return Buffer.from(cardKey, 'hex');
  }
  const file = join(dataDir, 'card.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('hex'), { mode: 0o600, flag: 'wx' });
  return key;
}

export function createVault(key: Buffer): Vault {
  const encryptionKey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'registration-numbers', 32));
  const digestKey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'request-digests', 32));
  return {
    seal(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
    },
    open(sealed, context) {
      if (!sealed.startsWith('v1:')) throw new Error('unknown ciphertext version');
      const raw = Buffer.from(sealed.slice(3), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', encryptionKey, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
    digest(data) {
      return createHmac('sha256', digestKey).update(data).digest('hex');
    },
  };
}
