// Checkouts and redirect steps that ended are deleted in batches, on SQLite and PostgreSQL;
// younger ones and those of a pending payment stay.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Trx } from '../../server/store/db.ts';
import { purgeEndedCheckouts } from '../../server/store/checkouts.ts';
import { purgeEndedSteps } from '../../server/store/threeds.ts';
import { databaseUrl, pgSkip, shopA, startGateway, type TestGateway, type TestGatewayOptions } from '../support/gateway.ts';

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;

function purgeSuite(options: TestGatewayOptions) {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway(options);
  });
  after(() => gw.close());

  // Times far ahead of the gateway's clock, so that its own hourly purge never meets these rows.
  const base = () => gw.clock.now().getTime() + 1000 * DAY;
  const hex = (prefix: string, i: number) => `${prefix}${String(i).padStart(32 - prefix.length, '0')}`;
  const payment = (id: string, status: string, at: number) => ({
    id,
    entity_id: shopA.entityId,
    payment_type: 'DB',
    method: 'CC',
    payment_brand: 'VISA',
    amount_minor: 9200,
    currency: 'EUR',
    status,
    result_code: status === 'pending' ? '000.200.000' : '000.100.110',
    ndc: 'ndc',
    details: '{}',
    acquirer: '{}',
    created_at: at,
    updated_at: at,
  });

  /** Each transaction's deletions in `table`, as the store commits them. */
  function counting(table: 'checkouts' | 'threeds') {
    const perTransaction: number[] = [];
    const count = async (trx: Trx) => Number((await trx.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const store = {
      write: <T>(unit: (trx: Trx) => Promise<T>) =>
        gw.running.store.write(async (trx) => {
          const before = await count(trx);
          const value = await unit(trx);
          perTransaction.push(before - (await count(trx)));
          return value;
        }),
    };
    return { store, perTransaction };
  }

  it('purges ended checkouts in bounded transactions; younger ones and one whose payment is pending stay', async () => {
    const cutoff = base();
    const checkout = (id: string, status: string, expiresAt: number, updatedAt: number, paymentId: string | null = null) => ({
      id: `${id}.node`,
      entity_id: shopA.entityId,
      status,
      request: '{}',
      payment_id: paymentId,
      registration_id: null,
      created_at: expiresAt - 30 * MINUTE,
      updated_at: updatedAt,
      expires_at: expiresAt,
    });
    const statuses = ['paid', 'cancelled', 'open', 'processing'];
    const ended = Array.from({ length: 250 }, (_, i) => checkout(hex('c', i), statuses[i % 4]!, cutoff - 1 - i, cutoff - 1 - i));
    const kept = [
      // Expired, or paid, less than 31 days ago.
      checkout(hex('k', 1), 'open', cutoff + 1, cutoff - 29 * MINUTE),
      checkout(hex('k', 2), 'paid', cutoff + 1, cutoff - 10 * MINUTE),
      // Expired long ago but paid since (a challenge begun in its last minute), less than 31 days ago.
      checkout(hex('k', 3), 'paid', cutoff - 20 * MINUTE, cutoff + 1),
      // Its payment still waits at its redirect, whatever its age.
      checkout(hex('k', 4), 'processing', cutoff - DAY, cutoff - DAY, hex('p', 4)),
    ];
    await gw.running.store.write(async (trx) => {
      await trx.insertInto('payments').values(payment(hex('p', 4), 'pending', cutoff - DAY)).execute();
      await trx.insertInto('checkouts').values([...ended, ...kept]).execute();
    });

    const { store, perTransaction } = counting('checkouts');
    assert.equal(await purgeEndedCheckouts(store, cutoff, 100), 250);
    assert.deepEqual(perTransaction, [100, 100, 50]);
    const left = await gw.running.store.db.selectFrom('checkouts').select('id').where('id', 'in', [...ended, ...kept].map((c) => c.id)).orderBy('id').execute();
    assert.deepEqual(left.map((r) => r.id), kept.map((c) => c.id));
  });

  it('purges ended steps in bounded transactions; open ones, younger ones and one whose payment is pending stay', async () => {
    const cutoff = base();
    const step = (id: string, kind: string, status: string, expiresAt: number, updatedAt: number, paymentId: string | null = null) => ({
      id,
      entity_id: shopA.entityId,
      kind,
      status,
      path: 'challenge',
      payment_id: paymentId,
      checkout_id: null,
      payment_brand: 'VISA',
      token_hash: 'h'.repeat(64),
      result_code: status === 'done' ? '000.100.110' : null,
      data: '{}',
      secret: status === 'done' ? null : 'v1:sealed',
      expires_at: expiresAt,
      created_at: expiresAt - 30 * MINUTE,
      updated_at: updatedAt,
    });
    const kinds = ['payment', 'standalone', 'provider'];
    const ended = Array.from({ length: 250 }, (_, i) => step(hex('s', i), kinds[i % 3]!, 'done', cutoff - 1 - i, cutoff - 1 - i));
    const kept = [
      // Never ended (a sweep that did not run): its card is still sealed in it, its payment pending.
      step(hex('k', 1), 'payment', 'challenge', cutoff - DAY, cutoff - DAY, hex('q', 1)),
      step(hex('k', 2), 'payment', 'completing', cutoff - DAY, cutoff - DAY),
      // Ended less than 31 days ago, or expired long ago but ended since.
      step(hex('k', 3), 'standalone', 'done', cutoff + 1, cutoff - 20 * MINUTE),
      step(hex('k', 4), 'payment', 'done', cutoff - 5 * MINUTE, cutoff + 1),
      // Done, yet its payment is pending.
      step(hex('k', 5), 'payment', 'done', cutoff - DAY, cutoff - DAY, hex('q', 5)),
    ];
    await gw.running.store.write(async (trx) => {
      await trx.insertInto('payments').values([payment(hex('q', 1), 'pending', cutoff - DAY), payment(hex('q', 5), 'pending', cutoff - DAY)]).execute();
      await trx.insertInto('threeds').values([...ended, ...kept]).execute();
    });

    const { store, perTransaction } = counting('threeds');
    assert.equal(await purgeEndedSteps(store, cutoff, 100), 250);
    assert.deepEqual(perTransaction, [100, 100, 50]);
    const left = await gw.running.store.db.selectFrom('threeds').select('id').where('id', 'in', [...ended, ...kept].map((s) => s.id)).orderBy('id').execute();
    assert.deepEqual(left.map((r) => r.id), kept.map((s) => s.id));
  });
}

describe('the purge of ended checkouts and steps, on SQLite', () => purgeSuite({}));
describe('the purge of ended checkouts and steps, on PostgreSQL', { skip: pgSkip }, () => purgeSuite({ databaseUrl }));
