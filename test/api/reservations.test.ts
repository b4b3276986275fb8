// Reservations a stopped process left: a reference (CP, RV, RF, RB) reserved as pending whose
// acquirer answer was never recorded, and a PA reserved on the authorization it adds to. The
// process that "stops" here is a request whose acquirer call never answers until the test lets it.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { cardDebit, databaseUrl, holdNextAcquirerCall, pgSkip, startGateway, type Reply, type TestGateway, type TestGatewayOptions } from '../support/gateway.ts';

const TEST_SUCCESS = '000.100.110';
const MINUTE = 60 * 1000;

function reservationsSuite(options: TestGatewayOptions) {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway(options);
  });
  after(() => gw.close());
  // A test that failed early still lets its stopped request answer, so that the gateway can close.
  const stopped: Array<() => void> = [];
  afterEach(() => stopped.splice(0).forEach((resume) => resume()));

  async function initial(paymentType: 'PA' | 'DB', amount: string): Promise<string> {
    const { status, body } = await gw.client.post('/v1/payments', cardDebit({ paymentType, amount }));
    assert.equal(status, 200, JSON.stringify(body));
    return body.id as string;
  }
  const reference = (id: string, params: Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> => gw.client.post(`/v1/payments/${id}`, params, headers);
  const capture = (id: string, amount: string, extra: Record<string, string> = {}, headers: Record<string, string> = {}) => reference(id, { paymentType: 'CP', amount, currency: 'EUR', ...extra }, headers);
  const codeOf = async (id: string) => (await gw.client.get(`/v1/payments/${id}`)).body.result.code as string;
  const pendingOn = (id: string) =>
    gw.running.store.db.selectFrom('payments').select(['id', 'payment_type']).where('referenced_id', '=', id).where('status', '=', 'pending').execute();

  /**
   * Sends `request` while the acquirer's `method` never answers: the request stops after its
   * reservation, as a process killed there would. Resolves once the reservation is written, with
   * its id, the request's reply to come, and `resume` to let that first call answer at last.
   */
  async function stoppedAfterReservation(method: 'capture' | 'refund' | 'reverse' | 'authorize', referencedId: string, request: () => Promise<Reply>) {
    const { asked, resume } = holdNextAcquirerCall(gw, method);
    stopped.push(resume);
    const reply = request();
    // Once the acquirer is asked (after the reservation's commit), and the acquirer is itself again.
    await asked;
    const reservation = await pendingOn(referencedId);
    assert.equal(reservation.length, 1, 'the request reserved its payment');
    return { id: reservation[0]!.id, reply, resume };
  }

  it('a read finishes a capture left pending past its lease: the acquirer is asked again, and the stopped request\u2019s late answer is the same payment', async () => {
    const pa = await initial('PA', '100.00');
    const stopped = await stoppedAfterReservation('capture', pa, () => capture(pa, '100.00'));
    // Within the lease the process may still be working: the reservation counts, and reads pending.
    assert.equal(await codeOf(stopped.id), '000.200.000');
    const meanwhile = await capture(pa, '0.01');
    assert.equal(meanwhile.body.result.code, '700.400.100');

    gw.clock.advance(3 * MINUTE);
    assert.equal(await codeOf(stopped.id), TEST_SUCCESS);
    assert.deepEqual(await pendingOn(pa), []);
    // Captured whole: nothing is left to reverse.
    assert.equal((await reference(pa, { paymentType: 'RV' })).body.result.code, '700.400.300');

    stopped.resume();
    const late = await stopped.reply;
    assert.equal(late.status, 200, JSON.stringify(late.body));
    assert.equal(late.body.id, stopped.id);
    assert.equal(late.body.result.code, TEST_SUCCESS);
    const captures = await gw.running.store.db.selectFrom('payments').select('id').where('referenced_id', '=', pa).execute();
    assert.deepEqual(captures.map((c) => c.id), [stopped.id], 'one capture, recorded once');
  });

  it('the next reference finishes a stale capture before the rules decide, and the sweep finishes a stale refund', async () => {
    const pa = await initial('PA', '100.00');
    const stopped = await stoppedAfterReservation('capture', pa, () => capture(pa, '30.00'));
    gw.clock.advance(3 * MINUTE);
    const rest = await capture(pa, '70.00', { sequence: 'FINAL' });
    assert.equal(rest.body.result.code, TEST_SUCCESS, JSON.stringify(rest.body));
    // Finished by that capture (read from the store: a GET would finish it itself).
    const finished = await gw.running.store.db.selectFrom('payments').select(['status', 'result_code']).where('id', '=', stopped.id).executeTakeFirstOrThrow();
    assert.deepEqual(finished, { status: 'success', result_code: TEST_SUCCESS });
    stopped.resume(); // its answer comes too late to be recorded: what was recorded is its answer
    assert.equal((await stopped.reply).body.id, stopped.id);

    const db = await initial('DB', '50.00');
    const refund = await stoppedAfterReservation('refund', db, () => reference(db, { paymentType: 'RF', amount: '50.00', currency: 'EUR' }));
    gw.clock.advance(3 * MINUTE);
    assert.ok((await gw.running.sweep()) >= 1, 'the sweep finished it');
    const stored = await gw.running.store.db.selectFrom('payments').select(['status', 'result_code']).where('id', '=', refund.id).executeTakeFirstOrThrow();
    assert.deepEqual(stored, { status: 'success', result_code: TEST_SUCCESS });
    assert.equal((await reference(db, { paymentType: 'RF', amount: '0.01', currency: 'EUR' })).body.result.code, '700.400.200');
    refund.resume();
    assert.equal((await refund.reply).body.id, refund.id);
  });

  it('a retry with the Idempotency-Key of a request that stopped answers the payment it reserved, never a second one', async () => {
    const pa = await initial('PA', '100.00');
    const key = { 'idempotency-key': `stopped-capture-${Date.now()}` };
    const stopped = await stoppedAfterReservation('capture', pa, () => capture(pa, '30.00', {}, key));
    // Before the key's lease the first request may still answer: the retry waits, then says so.
    gw.clock.advance(6 * MINUTE);
    const retry = await capture(pa, '30.00', {}, key);
    assert.equal(retry.status, 200, JSON.stringify(retry.body));
    assert.equal(retry.body.id, stopped.id);
    assert.equal(retry.body.amount, '30.00');
    const again = await capture(pa, '30.00', {}, key);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.id, stopped.id);
    // 30.00 was captured once: exactly 70.00 is left.
    assert.equal((await capture(pa, '70.01')).body.result.code, '700.400.100');
    assert.equal((await capture(pa, '70.00')).body.result.code, TEST_SUCCESS);
    stopped.resume();
    await stopped.reply;
    const captures = await gw.running.store.db.selectFrom('payments').select(['id', 'amount_minor']).where('referenced_id', '=', pa).orderBy('created_at').execute();
    assert.deepEqual(captures.map((c) => Number(c.amount_minor)), [3000, 7000]);
  });

  it('a PA reserved on its authorization (an increment) that a stopped process left ends as failed after 30 minutes, releasing its PA', async () => {
    const pa = await initial('PA', '50.00');
    const stopped = await stoppedAfterReservation('authorize', pa, () =>
      gw.client.post('/v1/payments', cardDebit({ paymentType: 'PA', amount: '20.00', referenceUuid: pa, 'standingInstruction.industryPractice': 'INCREMENTAL_AUTH' })),
    );
    gw.clock.advance(10 * MINUTE);
    assert.equal(await codeOf(stopped.id), '000.200.000', 'an authorization may take its redirect step\u2019s time');
    gw.clock.advance(21 * MINUTE);
    assert.equal(await codeOf(stopped.id), '900.100.100');
    const reversal = await reference(pa, { paymentType: 'RV' });
    assert.equal(reversal.body.result.code, TEST_SUCCESS, JSON.stringify(reversal.body));
    assert.equal(reversal.body.amount, '50.00');
    stopped.resume();
    const late = await stopped.reply;
    assert.equal(late.body.id, stopped.id);
    assert.equal(late.body.result.code, '900.100.100', 'its late approval is not recorded over the failure');
  });

  it('a retry with the Idempotency-Key of an increment whose request stopped after its reservation answers that increment, authorized again under its id, never a second one', async () => {
    const pa = await initial('PA', '50.00');
    const key = { 'idempotency-key': `stopped-increment-${Date.now()}` };
    const increment = () =>
      gw.client.post('/v1/payments', cardDebit({ paymentType: 'PA', amount: '20.00', referenceUuid: pa, 'standingInstruction.industryPractice': 'INCREMENTAL_AUTH' }), key);
    const stopped = await stoppedAfterReservation('authorize', pa, increment);
    const acquirer = gw.running.gateway.deps.acquirer as unknown as { authorize: (call: { paymentId: string }) => Promise<unknown> };
    const real = acquirer.authorize;
    const asked: string[] = [];
    acquirer.authorize = (call) => (asked.push(call.paymentId), real.call(acquirer, call));
    try {
      // Past the key's lease: the retry takes the abandoned key over.
      gw.clock.advance(6 * MINUTE);
      const retry = await increment();
      assert.equal(retry.status, 200, JSON.stringify(retry.body));
      assert.equal(retry.body.id, stopped.id);
      assert.equal(retry.body.result.code, TEST_SUCCESS);
      assert.equal(retry.body.amount, '20.00');
      assert.deepEqual(asked, [stopped.id], 'the acquirer was asked again with the reserved payment\u2019s id');
      const again = await increment();
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(again.body.id, stopped.id);
    } finally {
      acquirer.authorize = real;
    }
    const linked = await gw.running.store.db.selectFrom('payments').select(['id', 'status', 'result_code']).where('referenced_id', '=', pa).execute();
    assert.deepEqual(linked, [{ id: stopped.id, status: 'success', result_code: TEST_SUCCESS }], 'one increment, recorded once');
    // The stopped request, were it only slow, records nothing over it (its key was taken over) and releases nothing.
    const reversals: string[] = [];
    const reverse = (gw.running.gateway.deps.acquirer as unknown as { reverse: (call: { referencedId: string }) => Promise<unknown> }).reverse;
    (gw.running.gateway.deps.acquirer as unknown as { reverse: (call: { referencedId: string }) => Promise<unknown> }).reverse = (call) => (reversals.push(call.referencedId), reverse(call));
    try {
      stopped.resume();
      assert.notEqual((await stopped.reply).status, 200);
      await Promise.allSettled([...gw.running.gateway.deps.reversals]);
      assert.deepEqual(reversals, []);
    } finally {
      (gw.running.gateway.deps.acquirer as unknown as { reverse: unknown }).reverse = reverse;
    }
    // The PA holds 50.00 and the increment's 20.00: its reversal releases both.
    const reversal = await reference(pa, { paymentType: 'RV' });
    assert.equal(reversal.body.result.code, TEST_SUCCESS, JSON.stringify(reversal.body));
    assert.equal(reversal.body.amount, '70.00');
  });

  it('a retry with the Idempotency-Key of an increment whose stopped reservation ended as failed (30 minutes on) answers that failure, not a second increment', async () => {
    const pa = await initial('PA', '50.00');
    const key = { 'idempotency-key': `ended-increment-${Date.now()}` };
    const increment = () =>
      gw.client.post('/v1/payments', cardDebit({ paymentType: 'PA', amount: '20.00', referenceUuid: pa, 'standingInstruction.industryPractice': 'INCREMENTAL_AUTH' }), key);
    const stopped = await stoppedAfterReservation('authorize', pa, increment);
    gw.clock.advance(31 * MINUTE);
    assert.ok((await gw.running.sweep()) >= 1, 'the sweep ended it');
    const retry = await increment();
    // A failed payment answers 400 (outcomes.ts): this one's failure.
    assert.equal(retry.status, 400, JSON.stringify(retry.body));
    assert.equal(retry.body.id, stopped.id);
    assert.equal(retry.body.result.code, '900.100.100');
    const linked = await gw.running.store.db.selectFrom('payments').select(['id', 'status']).where('referenced_id', '=', pa).execute();
    assert.deepEqual(linked, [{ id: stopped.id, status: 'rejected' }]);
    stopped.resume();
    await stopped.reply;
  });

  /** Counts the acquirer's `method` calls from now on; `fail` makes the next ones throw. */
  function countCalls(method: 'capture') {
    const acquirer = gw.running.gateway.deps.acquirer as unknown as Record<string, (call: unknown) => Promise<unknown>>;
    const real = acquirer[method]!;
    const counter = { calls: 0, failing: 0, delayMs: 0, restore: () => void (acquirer[method] = real) };
    acquirer[method] = async (call: unknown) => {
      counter.calls++;
      await new Promise((resolve) => setTimeout(resolve, counter.delayMs));
      if (counter.failing > 0) {
        counter.failing--;
        throw new Error('connection reset by the acquirer');
      }
      return real.call(acquirer, call);
    };
    return counter;
  }

  it('a capture asked again without an answer (an error) stays pending and counting, and is asked again after the lease: never freed to be captured twice', async () => {
    const pa = await initial('PA', '100.00');
    const stopped = await stoppedAfterReservation('capture', pa, () => capture(pa, '100.00'));
    const counter = countCalls('capture');
    try {
      gw.clock.advance(3 * MINUTE);
      counter.failing = 1;
      assert.equal(await codeOf(stopped.id), '000.200.000');
      assert.equal(counter.calls, 1);
      assert.equal((await capture(pa, '100.00')).body.result.code, '700.400.100', 'the amount is still held');
      // Within the new lease nobody asks again.
      assert.equal(await codeOf(stopped.id), '000.200.000');
      assert.equal(counter.calls, 1);
      gw.clock.advance(3 * MINUTE);
      assert.equal(await codeOf(stopped.id), TEST_SUCCESS);
      assert.equal(counter.calls, 2);
    } finally {
      counter.restore();
    }
    stopped.resume();
    assert.equal((await stopped.reply).body.result.code, TEST_SUCCESS);
  });

  it('one asker at a time: reads, a query and the sweep meeting one stale capture at once ask the acquirer once', async () => {
    const pa = await initial('PA', '100.00');
    const stopped = await stoppedAfterReservation('capture', pa, () => capture(pa, '40.00'));
    const counter = countCalls('capture');
    counter.delayMs = 100; // an acquirer that takes its time: the others meet the reservation meanwhile
    try {
      gw.clock.advance(3 * MINUTE);
      await Promise.all([gw.client.get(`/v1/payments/${stopped.id}`), gw.client.get(`/v1/payments/${stopped.id}`), gw.client.get(`/v1/query/${pa}?includeLinkedTransactions=true`), gw.running.sweep()]);
      assert.equal(counter.calls, 1);
      assert.equal(await codeOf(stopped.id), TEST_SUCCESS);
    } finally {
      counter.restore();
    }
    stopped.resume();
    assert.equal((await stopped.reply).body.id, stopped.id);
  });

  it('the key of a stopped request taken over with other parameters is refused (400), not answered with the stopped request\u2019s payment', async () => {
    const pa = await initial('PA', '100.00');
    const key = { 'idempotency-key': `stopped-other-${Date.now()}` };
    const stopped = await stoppedAfterReservation('capture', pa, () => capture(pa, '30.00', {}, key));
    gw.clock.advance(6 * MINUTE);
    const other = await capture(pa, '50.00', {}, key);
    assert.equal(other.status, 400, JSON.stringify(other.body));
    assert.deepEqual(other.body.result.parameterErrors.map((e: { name: string }) => e.name), ['Idempotency-Key']);
    // The same request still takes it over, and answers the stopped one's payment.
    const same = await capture(pa, '30.00', {}, key);
    assert.equal(same.body.id, stopped.id);
    stopped.resume();
    // The stopped request, were it only slow, cannot record an answer for a key taken over.
    assert.notEqual((await stopped.reply).status, 200);
  });
}

describe('reservations a stopped process left, on SQLite', () => reservationsSuite({}));
describe('reservations a stopped process left, on PostgreSQL', { skip: pgSkip }, () => reservationsSuite({ databaseUrl }));
