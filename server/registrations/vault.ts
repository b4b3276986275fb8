// AES-256-GCM for account numbers kept in registrations. The key comes from CARD_KEY
// (64 hex characters) or is generated once into DATA_DIR for the embedded default.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface Vault {
  /** Ciphertext bound to `context` (the registration it belongs to). */
  seal(plain: string, context: string): string;
  open(sealed: string, context: string): string;
  /** A keyed digest for comparing requests without keeping what they held. */
  digest(data: string): string;
}

/**
 * CARD_KEY, else DATA_DIR/card.key, generated on the first start. A new key is written whole and
 * on disk before it is used: into a file of its own, fsynced, then linked as card.key (which fails
 * when another process made it first: its key is the key) and the directory fsynced. Written in
 * place, a process killed between creating card.key and writing it left an empty file, and the
 * next start sealed every card with the key of no bytes, which anyone can derive; a file that
 * holds no key stops the start instead.
 */
export function loadCardKey(cardKey: string | undefined, dataDir: string): Buffer {
  if (cardKey) {
    if (!/^[0-9a-fA-F]{64}$/.test(cardKey)) throw new Error('CARD_KEY must be 64 hex characters (32 bytes)');
    return Buffer.from(cardKey, 'hex');
  }
  const file = join(dataDir, 'card.key');
  const kept = readCardKey(file);
  if (kept) return kept;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  const written = join(dataDir, `card.key.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(written, 'wx', 0o600);
  try {
    writeSync(fd, key.toString('hex'));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(written, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readCardKey(file)!;
  } finally {
    unlinkSync(written);
  }
  removeAbandoned(dataDir);
  const directory = openSync(dataDir, 'r');
  try {
    fsyncSync(directory);
  } finally {
    closeSync(directory);
  }
  return key;
}

/** Keys a first start wrote and never linked (it was killed): of processes no longer running. */
function removeAbandoned(dataDir: string): void {
  for (const name of readdirSync(dataDir)) {
    const pid = /^card\.key\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name)?.[1];
    if (pid === undefined || Number(pid) === process.pid || isRunning(Number(pid))) continue;
    rmSync(join(dataDir, name), { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The key card.key holds, undefined when there is no such file; throws when it holds no key. */
function readCardKey(file: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (!/^[0-9a-fA-F]{64}$/.test(text)) {
    throw new Error(
      `${file} holds no card key (64 hex characters)${text === '' ? ': it is empty, as a process stopped while creating it leaves it. If no gateway started with it, delete it and the next start generates a key' : ''}`,
    );
  }
  return Buffer.from(text, 'hex');
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
