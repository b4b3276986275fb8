// Parallel referencing payments on one payment: captures, refunds and reversals are serialized by
// the store, so no amount is ever captured, refunded or reversed twice, on SQLite, on PostgreSQL
// and with two gateway processes sharing one PostgreSQL schema. Parallel deletes of one
// registration, likewise, delete it once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import type { Database } from '../../server/store/tables.ts';
import { cardDebit, databaseUrl, freshPostgresSchema, pgSkip, startGateway, type Client, type Reply, type TestGateway } from '../support/gateway.ts';

const PARALLEL = 25;

interface Setup {
  /** Shop A clients; requests are spread over them in turn (one per gateway instance). */
  clients: Client[];
  db: Kysely<Database>;
}

const toMinor = (amount: string) => Math.round(Number(amount) * 100);

async function initial(client: Client, paymentType: 'PA' | 'DB', amount: string): Promise<string> {
  const { status, body } = await client.post('/v1/payments', cardDebit({ paymentType, amount }));
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.result.code, '000.100.110');
  return body.id as string;
}

/** Fire all requests at once, each through the next client in turn. */
function inParallel(clients: Client[], requests: Array<{ path: string; params: Record<string, string> }>): Promise<Reply[]> {
  return Promise.all(requests.map((r, i) => clients[i % clients.length]!.post(r.path, r.params)));
}

/** What the store holds for the references of a payment, by type: successful sum and counts per status. */
async function storedReferences(db: Kysely<Database>, referencedId: string) {
  const rows = await db.selectFrom('payments').select(['payment_type', 'status', 'amount_minor']).where('referenced_id', '=', referencedId).execute();
  const byType: Record<string, { successMinor: number; success: number; pending: number; rejected: number }> = {};
  for (const row of rows) {
    const entry = (byType[row.payment_type] ??= { successMinor: 0, success: 0, pending: 0, rejected: 0 });
    if (row.status === 'success') {
      entry.success++;
      entry.successMinor += Number(row.amount_minor);
    } else if (row.status === 'pending') entry.pending++;
    else entry.rejected++;
  }
  return byType;
}

function referencingRaces(setup: () => Setup) {
  it(`${PARALLEL} parallel 10.00 captures on a 100.00 preauthorization: exactly 10 succeed, 15 are refused with 700.400.100, 100.00 captured`, async () => {
    const { clients, db } = setup();
    const pa = await initial(clients[0]!, 'PA', '100.00');
    const replies = await inParallel(
      clients,
      Array.from({ length: PARALLEL }, () => ({ path: `/v1/payments/${pa}`, params: { paymentType: 'CP', amount: '10.00', currency: 'EUR' } })),
    );
    const ok = replies.filter((r) => r.status === 200);
    const refusedReplies = replies.filter((r) => r.status !== 200);
    assert.equal(ok.length, 10);
    for (const r of ok) {
      assert.equal(r.body.result.code, '000.100.110');
      assert.equal(r.body.paymentType, 'CP');
      assert.equal(r.body.amount, '10.00');
    }
    assert.equal(refusedReplies.length, 15);
    for (const r of refusedReplies) {
      assert.equal(r.status, 400);
      assert.equal(r.body.result.code, '700.400.100');
    }
    assert.equal(new Set(ok.map((r) => r.body.id)).size, 10);

    // Read back every successful capture: each is there, successful, and they add up to 100.00.
    const reads = await Promise.all(ok.map((r) => clients[0]!.get(`/v1/payments/${r.body.id}`)));
    let capturedMinor = 0;
    for (const read of reads) {
      assert.equal(read.status, 200);
      assert.equal(read.body.paymentType, 'CP');
      assert.equal(read.body.result.code, '000.100.110');
      capturedMinor += toMinor(read.body.amount);
    }
    assert.equal(capturedMinor, 10000);
    const paRead = await clients[0]!.get(`/v1/payments/${pa}`);
    assert.equal(paRead.body.amount, '100.00');
    assert.equal(paRead.body.paymentType, 'PA');

    assert.deepEqual(await storedReferences(db, pa), { CP: { successMinor: 10000, success: 10, pending: 0, rejected: 0 } });

    // Nothing is left: even one cent more is refused.
    const more = await clients[0]!.post(`/v1/payments/${pa}`, { paymentType: 'CP', amount: '0.01', currency: 'EUR' });
    assert.equal(more.status, 400);
    assert.equal(more.body.result.code, '700.400.100');
  });

  it(`${PARALLEL} parallel 10.00 refunds of a 100.00 debit: exactly 10 succeed, 15 are refused with 700.400.200, 100.00 refunded`, async () => {
    const { clients, db } = setup();
    const debit = await initial(clients[0]!, 'DB', '100.00');
    const replies = await inParallel(
      clients,
      Array.from({ length: PARALLEL }, () => ({ path: `/v1/payments/${debit}`, params: { paymentType: 'RF', amount: '10.00', currency: 'EUR' } })),
    );
    const ok = replies.filter((r) => r.status === 200);
    const refusedReplies = replies.filter((r) => r.status !== 200);
    assert.equal(ok.length, 10);
    for (const r of ok) {
      assert.equal(r.body.result.code, '000.100.110');
      assert.equal(r.body.paymentType, 'RF');
      assert.equal(r.body.amount, '10.00');
    }
    assert.equal(refusedReplies.length, 15);
    for (const r of refusedReplies) {
      assert.equal(r.status, 400);
      assert.equal(r.body.result.code, '700.400.200');
    }

    const reads = await Promise.all(ok.map((r) => clients[0]!.get(`/v1/payments/${r.body.id}`)));
    let refundedMinor = 0;
    for (const read of reads) {
      assert.equal(read.status, 200);
      assert.equal(read.body.paymentType, 'RF');
      assert.equal(read.body.result.code, '000.100.110');
      refundedMinor += toMinor(read.body.amount);
    }
    assert.equal(refundedMinor, 10000);
    assert.deepEqual(await storedReferences(db, debit), { RF: { successMinor: 10000, success: 10, pending: 0, rejected: 0 } });

    const more = await clients[0]!.post(`/v1/payments/${debit}`, { paymentType: 'RF', amount: '0.01', currency: 'EUR' });
    assert.equal(more.status, 400);
    assert.equal(more.body.result.code, '700.400.200');
  });

  it('a reversal racing a full capture on one preauthorization: exactly one of them succeeds, every round', async () => {
    const { clients, db } = setup();
    for (let round = 0; round < 10; round++) {
      const pa = await initial(clients[0]!, 'PA', '100.00');
      const cp = { path: `/v1/payments/${pa}`, params: { paymentType: 'CP', amount: '100.00', currency: 'EUR' } };
      const rv = { path: `/v1/payments/${pa}`, params: { paymentType: 'RV' } };
      // Alternate which request is sent first (and, with two gateways, which instance gets which).
      const [cpReply, rvReply] = round % 2 === 0 ? await inParallel(clients, [cp, rv]) : (await inParallel(clients, [rv, cp])).reverse();
      const cpWon = cpReply!.status === 200;
      const rvWon = rvReply!.status === 200;
      assert.equal(Number(cpWon) + Number(rvWon), 1, `round ${round}: CP ${cpReply!.body.result.code}, RV ${rvReply!.body.result.code}`);
      if (cpWon) {
        assert.equal(cpReply!.body.result.code, '000.100.110');
        assert.equal(rvReply!.status, 400);
        assert.equal(rvReply!.body.result.code, '700.400.300');
        assert.deepEqual(await storedReferences(db, pa), { CP: { successMinor: 10000, success: 1, pending: 0, rejected: 0 } });
      } else {
        assert.equal(rvReply!.body.result.code, '000.100.110');
        assert.equal(rvReply!.body.amount, '100.00');
        assert.equal(cpReply!.status, 400);
        assert.equal(cpReply!.body.result.code, '700.300.300');
        assert.deepEqual(await storedReferences(db, pa), { RV: { successMinor: 10000, success: 1, pending: 0, rejected: 0 } });
      }
    }
  });

  it('a reversal racing partial captures: captures and the reversal together take exactly the 100.00 authorized, every round', async () => {
    const { clients, db } = setup();
    for (let round = 0; round < 8; round++) {
      const pa = await initial(clients[0]!, 'PA', '100.00');
      const requests: Array<{ path: string; params: Record<string, string> }> = Array.from({ length: 5 }, () => ({
        path: `/v1/payments/${pa}`,
        params: { paymentType: 'CP', amount: '30.00', currency: 'EUR' },
      }));
      const rvAt = round % (requests.length + 1);
      requests.splice(rvAt, 0, { path: `/v1/payments/${pa}`, params: { paymentType: 'RV' } });
      const replies = await inParallel(clients, requests);
      const rvReply = replies[rvAt]!;
      const cpReplies = replies.filter((_, i) => i !== rvAt);

      // At most 90.00 can be captured in 30.00 steps, so the reversal always finds something left.
      assert.equal(rvReply.status, 200, JSON.stringify(rvReply.body));
      assert.equal(rvReply.body.result.code, '000.100.110');
      const okCaptures = cpReplies.filter((r) => r.status === 200);
      assert.ok(okCaptures.length <= 3, `round ${round}: ${okCaptures.length} captures succeeded`);
      const capturedMinor = okCaptures.reduce((sum, r) => sum + toMinor(r.body.amount), 0);
      assert.equal(toMinor(rvReply.body.amount), 10000 - capturedMinor);
      for (const r of cpReplies.filter((x) => x.status !== 200)) {
        assert.equal(r.status, 400);
        // Refused either because the reversal came first or because the authorization is used up.
        assert.ok(['700.300.300', '700.400.100'].includes(r.body.result.code), r.body.result.code);
      }
      const stored = await storedReferences(db, pa);
      assert.deepEqual(stored.RV, { successMinor: 10000 - capturedMinor, success: 1, pending: 0, rejected: 0 });
      assert.equal((stored.CP?.successMinor ?? 0) + stored.RV!.successMinor, 10000);
      assert.equal(stored.CP?.success ?? 0, okCaptures.length);
      assert.equal(stored.CP?.pending ?? 0, 0);

      // After a reversal nothing more may be captured.
      const late = await clients[0]!.post(`/v1/payments/${pa}`, { paymentType: 'CP', amount: '0.01', currency: 'EUR' });
      assert.equal(late.status, 400);
      assert.equal(late.body.result.code, '700.300.300');
    }
  });
  it('parallel deletes of one registration: exactly one deletes it, the others are refused with 100.150.202, every round', async () => {
    const { clients } = setup();
    for (let round = 0; round < 5; round++) {
      const registered = await clients[0]!.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
      assert.equal(registered.status, 200, JSON.stringify(registered.body));
      const replies = await Promise.all(Array.from({ length: 4 }, (_, i) => clients[i % clients.length]!.delete(`/v1/registrations/${registered.body.id}`)));
      assert.deepEqual(replies.map((r) => r.body.result.code).sort(), ['000.100.110', '100.150.202', '100.150.202', '100.150.202'], `round ${round}`);
    }
  });

  it('incremental authorizations racing a reversal of their PA: each is refused or reversed with it, nothing stays authorized, every round', async () => {
    const { clients, db } = setup();
    for (let round = 0; round < 8; round++) {
      const pa = await initial(clients[0]!, 'PA', '50.00');
      const increment = { path: '/v1/payments', params: cardDebit({ paymentType: 'PA', amount: '20.00', referenceUuid: pa, 'standingInstruction.industryPractice': 'INCREMENTAL_AUTH' }) };
      const requests = [increment, increment, increment];
      const rvAt = round % (requests.length + 1);
      requests.splice(rvAt, 0, { path: `/v1/payments/${pa}`, params: { paymentType: 'RV' } });
      const replies = await inParallel(clients, requests);
      let rvReply = replies[rvAt]!;
      const increments = replies.filter((_, i) => i !== rvAt);
      const approved = increments.filter((r) => r.status === 200);
      for (const r of increments.filter((x) => x.status !== 200)) {
        assert.equal(r.body.result.parameterErrors[0].message, 'referenceUuid names an authorization that was reversed', JSON.stringify(r.body));
      }
      if (rvReply.status !== 200) {
        // It met an increment waiting for its answer: a reversal sent now releases them all.
        assert.equal(rvReply.body.result.code, '700.400.570', JSON.stringify(rvReply.body));
        rvReply = await clients[0]!.post(`/v1/payments/${pa}`, { paymentType: 'RV' });
      }
      assert.equal(rvReply.status, 200, JSON.stringify(rvReply.body));
      assert.equal(toMinor(rvReply.body.amount), 5000 + 2000 * approved.length, `round ${round}`);
      const stored = await storedReferences(db, pa);
      assert.deepEqual(stored.PA ?? { successMinor: 0, success: 0, pending: 0, rejected: 0 }, { successMinor: 2000 * approved.length, success: approved.length, pending: 0, rejected: 0 });
      assert.deepEqual(stored.RV, { successMinor: 5000 + 2000 * approved.length, success: 1, pending: 0, rejected: 0 });
    }
  });
}

describe('concurrent referencing payments on SQLite', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway();
  });
  after(() => gw.close());
  referencingRaces(() => ({ clients: [gw.client], db: gw.running.store.db }));
});

describe('concurrent referencing payments on PostgreSQL', { skip: pgSkip }, () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway({ databaseUrl });
  });
  after(() => gw.close());
  referencingRaces(() => ({ clients: [gw.client], db: gw.running.store.db }));
});

describe('concurrent referencing payments on two gateway instances sharing one PostgreSQL schema', { skip: pgSkip }, () => {
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>>;
  let first: TestGateway;
  let second: TestGateway;
  before(async () => {
    schema = await freshPostgresSchema(databaseUrl!);
    // One after the other: the second finds the schema already migrated.
    // Processes of one gateway share CARD_KEY (a gateway with another key refuses to start).
    const cardKey = 'c3'.repeat(32);
    first = await startGateway({ schemaUrl: schema.url, cardKey });
    second = await startGateway({ schemaUrl: schema.url, cardKey });
  });
  after(async () => {
    await first?.close();
    await second?.close();
    await schema?.drop();
  });

  it('both instances use the same schema: a payment made through one is read through the other', async () => {
    const id = await initial(first.client, 'DB', '12.34');
    const read = await second.client.get(`/v1/payments/${id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.amount, '12.34');
  });

  referencingRaces(() => ({ clients: [first.client, second.client], db: first.running.store.db }));
});
