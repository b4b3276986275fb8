// Webhook encryption (DESIGN.md "Webhooks"): AES-256-GCM under the webhook's 64-hex secret. The
// platform's published test vector must come out byte for byte, and what we send must decrypt.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bodyOf, ciphertextOf, decryptNotification, encryptNotification } from '../../server/webhooks/encryption.ts';
import { BACKOFF_MS, nextAttemptAt } from '../../server/webhooks/delivery.ts';

const VECTOR = {
  key: '000102030405060708090A0B0C0D0E0F000102030405060708090A0B0C0D0E0F',
  iv: '3D575574536D450F71AC76D8',
  plaintext: '{"type": "PAYMENT"}',
  ciphertext: 'F8E2F759E528CB69375E51DB2AF9B53734E393',
  tag: '19FDD068C6F383C173D3A906F7BD1D83',
};

describe('webhook encryption', () => {
  it('reproduces the published test vector: the given IV gives the given ciphertext and tag', () => {
    const sealed = encryptNotification(VECTOR.plaintext, VECTOR.key, Buffer.from(VECTOR.iv, 'hex'));
    assert.deepEqual(sealed, { iv: VECTOR.iv, ciphertext: VECTOR.ciphertext, tag: VECTOR.tag });
  });

  it('decrypts the published test vector, in upper or lower case hex', () => {
    assert.equal(decryptNotification({ iv: VECTOR.iv, ciphertext: VECTOR.ciphertext, tag: VECTOR.tag }, VECTOR.key), VECTOR.plaintext);
    const lower = { iv: VECTOR.iv.toLowerCase(), ciphertext: VECTOR.ciphertext.toLowerCase(), tag: VECTOR.tag.toLowerCase() };
    assert.equal(decryptNotification(lower, VECTOR.key.toLowerCase()), VECTOR.plaintext);
  });

  it('refuses a ciphertext, tag or key that was altered', () => {
    const flip = (hex: string) => (hex[0] === 'F' ? 'E' : 'F') + hex.slice(1);
    assert.throws(() => decryptNotification({ iv: VECTOR.iv, ciphertext: flip(VECTOR.ciphertext), tag: VECTOR.tag }, VECTOR.key));
    assert.throws(() => decryptNotification({ iv: VECTOR.iv, ciphertext: VECTOR.ciphertext, tag: flip(VECTOR.tag) }, VECTOR.key));
    assert.throws(() => decryptNotification({ iv: VECTOR.iv, ciphertext: VECTOR.ciphertext, tag: VECTOR.tag }, flip(VECTOR.key)));
  });

  it('draws a fresh 12-byte IV for every notification and round-trips UTF-8', () => {
    const text = JSON.stringify({ type: 'PAYMENT', payload: { customer: { givenName: 'Zoë', surname: '山田' } } });
    const a = encryptNotification(text, VECTOR.key);
    const b = encryptNotification(text, VECTOR.key);
    assert.match(a.iv, /^[0-9A-F]{24}$/);
    assert.match(a.tag, /^[0-9A-F]{32}$/);
    assert.notEqual(a.iv, b.iv);
    assert.notEqual(a.ciphertext, b.ciphertext);
    assert.equal(decryptNotification(a, VECTOR.key), text);
  });

  it('refuses a secret that is not 64 hexadecimal characters', () => {
    assert.throws(() => encryptNotification('{}', VECTOR.key.slice(2)), /64 hexadecimal/);
    assert.throws(() => encryptNotification('{}', `${VECTOR.key.slice(2)}zz`), /64 hexadecimal/);
  });

  it('sends the hex ciphertext as text/plain, or wrapped as {"encryptedBody"} in application/json', () => {
    assert.deepEqual(bodyOf(VECTOR.ciphertext, 'none'), { body: VECTOR.ciphertext, contentType: 'text/plain' });
    assert.deepEqual(bodyOf(VECTOR.ciphertext, 'json'), { body: `{"encryptedBody":"${VECTOR.ciphertext}"}`, contentType: 'application/json' });
    assert.equal(ciphertextOf(`{"encryptedBody":"${VECTOR.ciphertext}"}`, 'application/json; charset=utf-8'), VECTOR.ciphertext);
    assert.equal(ciphertextOf(VECTOR.ciphertext, 'text/plain'), VECTOR.ciphertext);
  });
});

describe('webhook retry schedule', () => {
  const MINUTE = 60_000;
  const DAY = 24 * 60 * MINUTE;

  it('waits 1, 2, 4, 8, 15, 30 minutes, then 1 hour, then a day after each failed attempt', () => {
    assert.deepEqual(BACKOFF_MS.map((ms) => ms / MINUTE), [1, 2, 4, 8, 15, 30, 60]);
    const created = 1_000_000;
    let now = created;
    const waits: number[] = [];
    for (let failed = 1; failed <= 10; failed++) {
      const next = nextAttemptAt(created, failed, now)!;
      waits.push((next - now) / MINUTE);
      now = next;
    }
    assert.deepEqual(waits, [1, 2, 4, 8, 15, 30, 60, 1440, 1440, 1440]);
  });

  it('tries a last time 30 days after the notification was made, even off the daily step, and gives up after that', () => {
    const created = 0;
    assert.equal(nextAttemptAt(created, 20, 29 * DAY), 30 * DAY);
    // Daily attempts at 2 h past each day end 22 h before the 30 days: one more comes at 30 days.
    assert.equal(nextAttemptAt(created, 21, 29 * DAY + 2 * 60 * MINUTE), 30 * DAY);
    assert.equal(nextAttemptAt(created, 22, 30 * DAY), undefined);
    assert.equal(nextAttemptAt(created, 22, 30 * DAY + 1), undefined);
  });
});
