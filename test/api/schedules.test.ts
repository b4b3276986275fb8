// Scheduled payments (job.*) over HTTP: create, read and cancel a schedule of a registration;
// refusals naming the bad parameters; firing at the right time by the gateway's clock, as a
// merchant-initiated repeated payment of the schedule's amount; no firing after DELETE or after
// job.endDate; an occurrence whose claimer died before paying it paid after the lease, once; and
// two gateway processes on one database firing (and recovering) each occurrence exactly once.
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client, databaseUrl, freshPostgresSchema, pgSkip, sepaDebit, shopA, shopB, startGateway, TestClock, type TestGateway } from '../support/gateway.ts';
import type { Answer, Command } from '../support/gatewayProcess.ts';
import { claimWithoutPaying, extraScheduler } from '../support/schedules.ts';
import { DEFAULT_LEASE_MS, SCHEDULED } from '../../server/registrations/scheduler.ts';
import { recordFiring } from '../../server/store/schedules.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** Tuesday, 1 January 2030, 00:00:00 UTC. */
const T0 = Date.parse('2030-01-01T00:00:00Z');
const SCHEDULES = '/scheduling/v1/schedules';
/** The firing suite's lease (the option; other suites run with the default). */
const LEASE = 10 * MINUTE;

const card = { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034' };

async function register(client: Client, params: Record<string, string> = card): Promise<string> {
  const { status, body } = await client.post('/v1/registrations', params);
  assert.equal(status, 200, JSON.stringify(body));
  return body.id;
}

async function schedule(client: Client, params: Record<string, string>): Promise<any> {
  const { status, body } = await client.post(SCHEDULES, params);
  assert.equal(status, 200, JSON.stringify(body));
  return body;
}

/** The payments of a merchantTransactionId, oldest first. */
async function paymentsOf(client: Client, merchantTransactionId: string): Promise<any[]> {
  const { status, body } = await client.get(`/v1/query?merchantTransactionId=${merchantTransactionId}`);
  assert.equal(status, 200, JSON.stringify(body));
  return body.payments;
}

const names = (body: any) => body.result.parameterErrors.map((e: { name: string }) => e.name);

/** A gateway whose clock stands at T0 and polls only when asked, with one registration of shop A. */
function withGateway(backend: { databaseUrl?: string }, scheduleLeaseMs?: number) {
  const state = {} as { gw: TestGateway; registrationId: string };
  before(async () => {
    state.gw = await startGateway({ ...backend, clock: new TestClock(new Date(T0)), schedulePollMs: HOUR, webhookPollMs: HOUR, scheduleLeaseMs });
    state.registrationId = await register(state.gw.client);
  });
  after(() => state.gw.close());
  return state;
}

function apiSuite(backend: { databaseUrl?: string }) {
  const setup = withGateway(backend);
  let gw: TestGateway;
  let registrationId: string;
  before(() => {
    ({ gw, registrationId } = setup);
  });

  it('creates a schedule, answers it on GET with its job, expression, state and next firing time, and cancels it on DELETE', async () => {
    const created = await schedule(gw.client, {
      registrationId,
      paymentType: 'DB',
      amount: '9',
      currency: 'EUR',
      merchantTransactionId: 'sub-create-1',
      'job.name': 'monthly box',
      'job.dayOfWeek': '2',
      'job.hour': '12',
      'job.month': '*',
      'customParameters[PLAN]': 'gold',
    });
    assert.match(created.id, /^[0-9a-f]{32}$/);
    assert.equal(created.result.code, '000.100.110');
    assert.equal(created.buildNumber, 'test-build');
    assert.match(created.timestamp, /^2030-01-01 00:00:00\+0000$/);
    assert.match(created.ndc, /^[0-9a-f-]{36}$/);
    const expected = {
      id: created.id,
      registrationId,
      paymentType: 'DB',
      amount: '9.00',
      currency: 'EUR',
      merchantTransactionId: 'sub-create-1',
      customParameters: { PLAN: 'gold' },
      job: { name: 'monthly box', dayOfWeek: '2', hour: '12', month: '*', expression: '0 0 12 ? * 2 *' },
      state: 'ACTIVE',
      // Monday (Quartz weekday 2) after Tuesday 1 January 2030, at noon UTC.
      nextFiringTime: '2030-01-07 12:00:00',
      firings: 0,
    };
    const { result: _r, buildNumber: _b, timestamp: _t, ndc: _n, ...view } = created;
    assert.deepEqual(view, expected);

    const read = await gw.client.get(`${SCHEDULES}/${created.id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.result.code, '000.100.110');
    const { result: _r2, buildNumber: _b2, timestamp: _t2, ndc: _n2, ...readView } = read.body;
    assert.deepEqual(readView, expected);

    const deleted = await gw.client.delete(`${SCHEDULES}/${created.id}`);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.state, 'CANCELLED');
    assert.equal(deleted.body.nextFiringTime, undefined);
    assert.equal((await gw.client.get(`${SCHEDULES}/${created.id}`)).body.state, 'CANCELLED');
    // Cancelling again changes nothing and says so the same way.
    const again = await gw.client.delete(`${SCHEDULES}/${created.id}`);
    assert.equal(again.status, 200);
    assert.equal(again.body.state, 'CANCELLED');
  });

  it('takes job.expression and honours job.startDate; a POST retried with its Idempotency-Key makes one schedule', async () => {
    const params = { registrationId, paymentType: 'PA', amount: '5.00', currency: 'EUR', 'job.expression': '0 30 8 L * ?', 'job.startDate': '2030-03-01 00:00:00' };
    const first = await gw.client.post(SCHEDULES, params, { 'idempotency-key': 'sched-once' });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.job.expression, '0 30 8 L * ?');
    assert.equal(first.body.nextFiringTime, '2030-03-31 08:30:00');
    const retry = await gw.client.post(SCHEDULES, params, { 'idempotency-key': 'sched-once' });
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.equal(retry.body.id, first.body.id);
    const rows = await gw.running.store.db.selectFrom('schedules').select('id').where('request', 'like', '%0 30 8 L%').execute();
    assert.equal(rows.length, 1);
    await gw.client.delete(`${SCHEDULES}/${first.body.id}`);
  });

  it('steps the year from 1970, the first year of the field, as Quartz does: */4 is 2030, 2034 …, not 2032', async () => {
    const base = { registrationId, paymentType: 'DB', amount: '5.00', currency: 'EUR', merchantTransactionId: 'sub-years-1' };
    const fields = await schedule(gw.client, { ...base, 'job.year': '*/4', 'job.month': '*' });
    assert.equal(fields.job.expression, '0 0 0 1 * ? */4');
    assert.equal(fields.nextFiringTime, '2030-02-01 00:00:00');
    const expression = await schedule(gw.client, { ...base, 'job.expression': '0 0 0 1 1 ? */3' });
    assert.equal(expression.job.expression, '0 0 0 1 1 ? */3');
    // 1970 + 3k: 2030 has passed at its first moment (now), so 2033.
    assert.equal(expression.nextFiringTime, '2033-01-01 00:00:00');
    await gw.client.delete(`${SCHEDULES}/${fields.id}`);
    await gw.client.delete(`${SCHEDULES}/${expression.id}`);
  });

  it('refuses bad requests with 400, naming every bad parameter', async () => {
    const base = { registrationId, paymentType: 'DB', amount: '10.00', currency: 'EUR' };
    const sepaRegistration = await register(gw.client, (({ amount: _a, currency: _c, paymentType: _p, ...account }) => account)(sepaDebit()));
    const deletedRegistration = await register(gw.client);
    await gw.client.delete(`/v1/registrations/${deletedRegistration}`);
    const paypalRegistration = await register(gw.client, { paymentBrand: 'PAYPAL', 'virtualAccount.accountId': 'jane@example.com' });
    const cases: Array<[Record<string, string>, string[], string?]> = [
      [{ ...base, 'job.dayOfWeek': 'MON', 'job.dayOfMonth': '15' }, ['job.dayOfWeek']],
      [{ ...base, 'job.expression': '0 0 12 * *' }, ['job.expression']],
      [{ ...base, 'job.expression': '0 0 12 15 * MON' }, ['job.expression']],
      [{ ...base, 'job.hour': '24' }, ['job.hour']],
      [{ ...base, 'job.startDate': '2030-02-01 00:00:00', 'job.endDate': '2030-01-31 00:00:00' }, ['job.endDate']],
      [{ ...base, registrationId: '0123456789abcdef0123456789abcdef' }, ['registrationId'], '100.150.200'],
      [{ ...base, registrationId: deletedRegistration }, ['registrationId'], '100.150.202'],
      [{ ...base, registrationId: 'not-an-id' }, ['registrationId'], '100.150.101'],
      [{ paymentType: 'DB' }, ['registrationId', 'amount', 'currency']],
      [{ ...base, paymentType: 'CD' }, ['paymentType']],
      [{ ...base, registrationId: sepaRegistration, paymentType: 'PA' }, ['paymentType'], '600.200.310'],
      // Each PAYPAL payment needs the shopper at the provider's page: no schedule can pay it.
      [{ ...base, registrationId: paypalRegistration }, ['registrationId']],
      // No security code is ever taken, so none can be kept with the schedule.
      [{ ...base, 'card.cvv': '123' }, ['card.cvv']],
      [{ ...base, 'job.durationUnit': 'MONTH' }, ['job.durationNumber']],
      // The schedule would never fire: the year is past, or endDate comes before the first occurrence.
      [{ ...base, 'job.year': '2029' }, ['job.year']],
      [{ ...base, 'job.hour': '12', 'job.endDate': '2030-01-01 11:00:00' }, ['job.endDate']],
      // Or startDate comes after its last occurrence (the year field's last, 2099, for a schedule of every year).
      [{ ...base, 'job.year': '2030', 'job.month': '*', 'job.startDate': '2031-01-01 00:00:00' }, ['job.startDate']],
      [{ ...base, 'job.startDate': '3001-01-01 00:00:00' }, ['job.startDate']],
      // The year field ends with 2099: so does every schedule.
      [{ ...base, 'job.startDate': '2100-01-01 00:00:00' }, ['job.startDate']],
      [{ ...base, 'job.startDate': '9999-12-31 23:59:59', 'job.endDate': '9999-12-31 23:59:59' }, ['job.startDate']],
    ];
    for (const [params, expected, code] of cases) {
      const { status, body } = await gw.client.post(SCHEDULES, params);
      assert.equal(status, 400, JSON.stringify(params));
      assert.deepEqual(names(body), expected, JSON.stringify(body));
      if (code) assert.equal(body.result.code, code, JSON.stringify(params));
      if (params['card.cvv']) assert.equal(body.result.parameterErrors[0].value, '***');
    }
    const rows = await gw.running.store.db.selectFrom('schedules').select('id').where('registration_id', 'in', [sepaRegistration, deletedRegistration, paypalRegistration]).execute();
    assert.deepEqual(rows, []);
  });

  it('needs the token like every merchant call, and keeps entities apart: another entity\u2019s schedule is 404', async () => {
    const created = await schedule(gw.client, { registrationId, paymentType: 'DB', amount: '1.00', currency: 'EUR', 'job.hour': '6' });
    const path = `${SCHEDULES}/${created.id}`;
    assert.equal((await fetch(`${gw.base}${path}?entityId=${shopA.entityId}`)).status, 401);
    assert.equal((await gw.clientFor('bm90LWEtcmVhbC10b2tlbi0wMDAwMDAwMDAwMDA', shopA.entityId).get(path)).status, 403);
    const foreign = await gw.clientFor(shopB.token, shopA.entityId).get(path);
    assert.equal(foreign.status, 403);
    assert.equal(foreign.body.result.code, '800.900.301');
    for (const other of [gw.clientFor(shopB.token, shopB.entityId), gw.clientFor(shopA.token, shopA.threeDSecureEntityId)]) {
      const read = await other.get(path);
      assert.equal(read.status, 404);
      assert.equal(read.body.result.code, '200.300.404');
      assert.deepEqual(names(read.body), ['id']);
      assert.equal((await other.delete(path)).status, 404);
    }
    // A registration of another entity is as unknown as one that never was.
    const theirs = await register(gw.clientFor(shopB.token, shopB.entityId));
    const refused = await gw.client.post(SCHEDULES, { registrationId: theirs, paymentType: 'DB', amount: '1.00', currency: 'EUR' });
    assert.equal(refused.status, 400);
    assert.deepEqual(names(refused.body), ['registrationId']);
    assert.equal((await gw.client.get(`${SCHEDULES}/0123456789abcdef0123456789abcdef`)).status, 404);
    assert.equal((await gw.client.get(`${SCHEDULES}/nope`)).status, 404);
    assert.equal((await gw.client.get(path)).body.state, 'ACTIVE');
    await gw.client.delete(path);
  });
}

function firingSuite(backend: { databaseUrl?: string }) {
  const setup = withGateway(backend, LEASE);
  let gw: TestGateway;
  let registrationId: string;
  before(() => {
    ({ gw, registrationId } = setup);
  });
  const at = (ms: number) => (gw.clock.current = new Date(ms));

  it('fires at the occurrence and not before: a repeated merchant-initiated debit of the schedule\u2019s amount with its registration', async () => {
    at(T0);
    const created = await schedule(gw.client, { registrationId, paymentType: 'DB', amount: '12.34', currency: 'EUR', merchantTransactionId: 'sub-weekly-1', 'job.dayOfWeek': 'MON', 'job.hour': '12' });
    const noon = Date.parse('2030-01-07T12:00:00Z');
    at(noon - SECOND);
    assert.equal(await gw.running.runSchedules(), 0);
    assert.deepEqual(await paymentsOf(gw.client, 'sub-weekly-1'), []);

    at(noon);
    assert.equal(await gw.running.runSchedules(), 1);
    // Asked again at the same time: the occurrence was fired already.
    assert.equal(await gw.running.runSchedules(), 0);
    const [payment, ...more] = await paymentsOf(gw.client, 'sub-weekly-1');
    assert.deepEqual(more, []);
    const read = await gw.client.get(`/v1/payments/${payment.id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.amount, '12.34');
    assert.equal(read.body.currency, 'EUR');
    assert.equal(read.body.paymentType, 'DB');
    assert.equal(read.body.registrationId, registrationId);
    assert.equal(read.body.result.code, '000.100.110');
    assert.equal(read.body.card.last4Digits, '0000');
    assert.deepEqual(read.body.standingInstruction, { type: 'RECURRING', recurringType: 'SUBSCRIPTION', mode: 'REPEATED', source: 'MIT' });
    assert.equal(read.body.threeDSecure, undefined);
    assert.equal(read.body.timestamp, '2030-01-07 12:00:00+0000');

    const shown = (await gw.client.get(`${SCHEDULES}/${created.id}`)).body;
    assert.equal(shown.firings, 1);
    assert.deepEqual(shown.lastFiring, { time: '2030-01-07 12:00:00', paymentId: payment.id, resultCode: '000.100.110' });
    assert.equal(shown.nextFiringTime, '2030-01-14 12:00:00');

    at(Date.parse('2030-01-14T12:00:05Z'));
    assert.equal(await gw.running.runSchedules(), 1);
    assert.equal((await paymentsOf(gw.client, 'sub-weekly-1')).length, 2);
    await gw.client.delete(`${SCHEDULES}/${created.id}`);
  });

  it('a declined or refused firing is recorded on the schedule, and the next occurrence still comes', async () => {
    at(T0);
    const doomed = await register(gw.client);
    const created = await schedule(gw.client, { registrationId: doomed, paymentType: 'DB', amount: '100.51', currency: 'EUR', merchantTransactionId: 'sub-decline-1', 'job.expression': '0 0 * * * ?' });
    at(T0 + HOUR);
    assert.equal(await gw.running.runSchedules(), 1);
    const [declined] = await paymentsOf(gw.client, 'sub-decline-1');
    assert.equal(declined.result.code, '800.100.151');
    assert.equal((await gw.client.get(`${SCHEDULES}/${created.id}`)).body.lastFiring.resultCode, '800.100.151');
    await gw.client.delete(`/v1/registrations/${doomed}`);
    at(T0 + 2 * HOUR);
    assert.equal(await gw.running.runSchedules(), 1);
    const shown = (await gw.client.get(`${SCHEDULES}/${created.id}`)).body;
    assert.deepEqual(shown.lastFiring, { time: '2030-01-01 02:00:00', resultCode: '100.150.202' });
    assert.equal(shown.firings, 2);
    assert.equal((await paymentsOf(gw.client, 'sub-decline-1')).length, 1);
    await gw.client.delete(`${SCHEDULES}/${created.id}`);
  });

  it('a deleted schedule fires no more', async () => {
    at(T0);
    const created = await schedule(gw.client, { registrationId, paymentType: 'DB', amount: '3.00', currency: 'EUR', merchantTransactionId: 'sub-deleted-1', 'job.expression': '0 * * * * ?' });
    at(T0 + MINUTE);
    assert.equal(await gw.running.runSchedules(), 1);
    assert.equal((await gw.client.delete(`${SCHEDULES}/${created.id}`)).status, 200);
    for (let i = 2; i <= 4; i++) {
      at(T0 + i * MINUTE);
      assert.equal(await gw.running.runSchedules(), 0);
    }
    assert.equal((await paymentsOf(gw.client, 'sub-deleted-1')).length, 1);
    const shown = (await gw.client.get(`${SCHEDULES}/${created.id}`)).body;
    assert.equal(shown.state, 'CANCELLED');
    assert.equal(shown.firings, 1);
  });

  it('job.endDate ends it: the last occurrence before it fires, then the schedule is ENDED', async () => {
    at(T0);
    const created = await schedule(gw.client, {
      registrationId,
      paymentType: 'PA',
      amount: '7.00',
      currency: 'EUR',
      merchantTransactionId: 'sub-ending-1',
      'job.expression': '0 0 * * * ?',
      'job.endDate': '2030-01-01 02:30:00',
    });
    assert.equal(created.nextFiringTime, '2030-01-01 01:00:00');
    at(T0 + HOUR);
    assert.equal(await gw.running.runSchedules(), 1);
    at(T0 + 2 * HOUR);
    assert.equal(await gw.running.runSchedules(), 1);
    const ended = (await gw.client.get(`${SCHEDULES}/${created.id}`)).body;
    assert.equal(ended.state, 'ENDED');
    assert.equal(ended.nextFiringTime, undefined);
    at(T0 + 5 * HOUR);
    assert.equal(await gw.running.runSchedules(), 0);
    const payments = await paymentsOf(gw.client, 'sub-ending-1');
    assert.deepEqual(payments.map((p) => [p.paymentType, p.amount]), [['PA', '7.00'], ['PA', '7.00']]);
    // Ended is not active: DELETE leaves it ENDED.
    assert.equal((await gw.client.delete(`${SCHEDULES}/${created.id}`)).body.state, 'ENDED');
  });

  it('occurrences missed while no gateway polled are fired once, not one payment each', async () => {
    at(T0);
    const created = await schedule(gw.client, { registrationId, paymentType: 'DB', amount: '2.00', currency: 'EUR', merchantTransactionId: 'sub-missed-1', 'job.expression': '0 0 * * * ?' });
    at(T0 + 3 * HOUR + 10 * MINUTE);
    assert.equal(await gw.running.runSchedules(), 1);
    assert.equal((await paymentsOf(gw.client, 'sub-missed-1')).length, 1);
    const shown = (await gw.client.get(`${SCHEDULES}/${created.id}`)).body;
    assert.equal(shown.lastFiring.time, '2030-01-01 01:00:00');
    assert.equal(shown.nextFiringTime, '2030-01-01 04:00:00');
    await gw.client.delete(`${SCHEDULES}/${created.id}`);
  });

  it('an occurrence whose claimer died before paying is paid after the lease, once, for that occurrence, and not before', async () => {
    at(T0);
    const created = await schedule(gw.client, { registrationId, paymentType: 'DB', amount: '6.50', currency: 'EUR', merchantTransactionId: 'sub-dead-1', 'job.expression': '0 0 * * * ?' });
    const occurrence = T0 + HOUR;
    at(occurrence);
    assert.equal(await claimWithoutPaying(gw.running.store, created.id, occurrence), occurrence);
    const claimed = (await gw.client.get(`${SCHEDULES}/${created.id}`)).body;
    assert.deepEqual([claimed.firings, claimed.lastFiring, claimed.nextFiringTime], [1, { time: '2030-01-01 01:00:00' }, '2030-01-01 02:00:00']);

    // Within the lease the claimer may still be paying: nothing fires.
    assert.equal(await gw.running.runSchedules(), 0);
    at(occurrence + LEASE - SECOND);
    assert.equal(await gw.running.runSchedules(), 0);
    assert.deepEqual(await paymentsOf(gw.client, 'sub-dead-1'), []);

    const other = extraScheduler(gw.running, { leaseMs: LEASE });
    try {
      at(occurrence + LEASE);
      assert.equal(await other.scheduler.runDue(), 1);
      const recovered = other.lines.filter((l) => /recovered/.test(l.msg));
      assert.deepEqual(
        recovered.map((l) => [l.level, l.schedule, l.occurrence, l.claimedAt]),
        [['warn', created.id, '2030-01-01T01:00:00.000Z', '2030-01-01T01:00:00.000Z']],
      );
      const [payment, ...more] = await paymentsOf(gw.client, 'sub-dead-1');
      assert.deepEqual(more, []);
      assert.equal(payment.amount, '6.50');
      assert.equal(payment.registrationId, registrationId);
      assert.equal(payment.result.code, '000.100.110');
      assert.deepEqual(payment.standingInstruction, SCHEDULED);
      assert.deepEqual(
        other.lines.filter((l) => l.msg === 'scheduled payment made').map((l) => [l.occurrence, l.payment]),
        [['2030-01-01T01:00:00.000Z', payment.id]],
      );
      const shown = (await gw.client.get(`${SCHEDULES}/${created.id}`)).body;
      assert.deepEqual(shown.lastFiring, { time: '2030-01-01 01:00:00', paymentId: payment.id, resultCode: '000.100.110' });
      assert.equal(shown.firings, 1);
      assert.equal(shown.nextFiringTime, '2030-01-01 02:00:00');

      // Recorded now: no scheduler fires it again, however late.
      assert.equal(await gw.running.runSchedules(), 0);
      at(occurrence + 3 * LEASE);
      assert.equal(await other.scheduler.runDue(), 0);
      assert.equal(await gw.running.runSchedules(), 0);
      assert.equal((await paymentsOf(gw.client, 'sub-dead-1')).length, 1);

      // The dead claimer, were it only stalled, can no longer record its firing (its payment's commit would roll back).
      const row = await gw.running.store.db.selectFrom('schedules').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
      assert.equal(await gw.running.store.write((trx) => recordFiring(trx, row, occurrence, occurrence, null, '800.100.100')), false);
      assert.deepEqual((await gw.client.get(`${SCHEDULES}/${created.id}`)).body.lastFiring, shown.lastFiring);
    } finally {
      await other.scheduler.stop();
    }
    await gw.client.delete(`${SCHEDULES}/${created.id}`);
  });

  it('a claimer that stalls past the lease cannot record its firing: its payment rolls back, and the occurrence is paid once, by the taker', async () => {
    at(T0);
    const created = await schedule(gw.client, { registrationId, paymentType: 'DB', amount: '6.75', currency: 'EUR', merchantTransactionId: 'sub-stalled-1', 'job.expression': '0 0 * * * ?' });
    const occurrence = T0 + HOUR;
    // The stalled scheduler's acquirer answers only when the test lets it.
    const acquirer = gw.running.gateway.deps.acquirer;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let called!: () => void;
    const calledOnce = new Promise<void>((resolve) => (called = resolve));
    const stalled = extraScheduler(gw.running, {
      leaseMs: LEASE,
      acquirer: { ...acquirer, authorize: async (request) => (called(), await released, acquirer.authorize(request)) },
    });
    const taker = extraScheduler(gw.running, { leaseMs: LEASE });
    try {
      at(occurrence);
      const stalledRun = stalled.scheduler.runDue();
      await calledOnce;
      at(occurrence + LEASE);
      assert.equal(await taker.scheduler.runDue(), 1);
      const [paid, ...more] = await paymentsOf(gw.client, 'sub-stalled-1');
      assert.deepEqual(more, []);
      release();
      assert.equal(await stalledRun, 0);
      assert.deepEqual(
        stalled.lines.filter((l) => l.level === 'warn').map((l) => [l.msg, l.occurrence]),
        [['scheduled occurrence not recorded: another process took its firing over after the lease', '2030-01-01T01:00:00.000Z']],
      );
      assert.deepEqual((await paymentsOf(gw.client, 'sub-stalled-1')).map((p) => p.id), [paid.id]);
      const shown = (await gw.client.get(`${SCHEDULES}/${created.id}`)).body;
      assert.deepEqual([shown.firings, shown.lastFiring], [1, { time: '2030-01-01 01:00:00', paymentId: paid.id, resultCode: '000.100.110' }]);
    } finally {
      release();
      await stalled.scheduler.stop();
      await taker.scheduler.stop();
    }
    await gw.client.delete(`${SCHEDULES}/${created.id}`);
  });

  it('the next occurrence waits for an unrecorded firing instead of overwriting it; once stale, that one is paid first, then the next', async () => {
    at(T0);
    const created = await schedule(gw.client, { registrationId, paymentType: 'DB', amount: '7.25', currency: 'EUR', merchantTransactionId: 'sub-dead-2', 'job.expression': '0 0 * * * ?' });
    // A late poll claims 01:00 at 01:58, and its process dies.
    const claimedAt = T0 + HOUR + 58 * MINUTE;
    at(claimedAt);
    assert.equal(await claimWithoutPaying(gw.running.store, created.id, claimedAt), T0 + HOUR);

    // 02:00 is due, but 01:00 is still within its lease: neither fires, and 01:00 stays the last firing.
    at(T0 + 2 * HOUR);
    assert.equal(await gw.running.runSchedules(), 0);
    // Nor can any process claim 02:00 over it.
    assert.equal(await claimWithoutPaying(gw.running.store, created.id, T0 + 2 * HOUR), undefined);
    let shown = (await gw.client.get(`${SCHEDULES}/${created.id}`)).body;
    assert.deepEqual([shown.firings, shown.lastFiring, shown.nextFiringTime], [1, { time: '2030-01-01 01:00:00' }, '2030-01-01 02:00:00']);
    assert.deepEqual(await paymentsOf(gw.client, 'sub-dead-2'), []);

    const other = extraScheduler(gw.running, { leaseMs: LEASE });
    try {
      at(claimedAt + LEASE);
      assert.equal(await other.scheduler.runDue(), 2);
      const made = other.lines.filter((l) => l.msg === 'scheduled payment made').map((l) => [l.occurrence, l.payment]);
      assert.deepEqual(made.map(([occurrence]) => occurrence), ['2030-01-01T01:00:00.000Z', '2030-01-01T02:00:00.000Z']);
      assert.deepEqual(other.lines.filter((l) => /recovered/.test(l.msg)).map((l) => l.occurrence), ['2030-01-01T01:00:00.000Z']);
      const payments = await paymentsOf(gw.client, 'sub-dead-2');
      assert.deepEqual(payments.map((p) => p.id).sort(), made.map(([, id]) => id).sort());
      shown = (await gw.client.get(`${SCHEDULES}/${created.id}`)).body;
      assert.deepEqual([shown.firings, shown.lastFiring, shown.nextFiringTime], [2, { time: '2030-01-01 02:00:00', paymentId: made[1]![1], resultCode: '000.100.110' }, '2030-01-01 03:00:00']);
      assert.equal(await gw.running.runSchedules(), 0);
    } finally {
      await other.scheduler.stop();
    }
    await gw.client.delete(`${SCHEDULES}/${created.id}`);
  });

  it('a recorded firing is never fired again: neither a payment made nor a refusal, which stays refused', async () => {
    at(T0);
    const doomed = await register(gw.client);
    const paid = await schedule(gw.client, { registrationId, paymentType: 'DB', amount: '8.00', currency: 'EUR', merchantTransactionId: 'sub-recorded-1', 'job.expression': '0 0 12 * * ?' });
    const refused = await schedule(gw.client, { registrationId: doomed, paymentType: 'DB', amount: '8.00', currency: 'EUR', merchantTransactionId: 'sub-recorded-2', 'job.expression': '0 0 12 * * ?' });
    await gw.client.delete(`/v1/registrations/${doomed}`);
    at(T0 + 12 * HOUR);
    assert.equal(await gw.running.runSchedules(), 2);
    const before = [(await gw.client.get(`${SCHEDULES}/${paid.id}`)).body, (await gw.client.get(`${SCHEDULES}/${refused.id}`)).body];
    assert.equal(before[0].lastFiring.resultCode, '000.100.110');
    assert.deepEqual(before[1].lastFiring, { time: '2030-01-01 12:00:00', resultCode: '100.150.202' });

    const other = extraScheduler(gw.running, { leaseMs: LEASE });
    try {
      for (const later of [LEASE, 3 * LEASE, 11 * HOUR]) {
        at(T0 + 12 * HOUR + later);
        assert.equal(await gw.running.runSchedules(), 0);
        assert.equal(await other.scheduler.runDue(), 0);
      }
      assert.deepEqual(other.lines, []);
    } finally {
      await other.scheduler.stop();
    }
    assert.equal((await paymentsOf(gw.client, 'sub-recorded-1')).length, 1);
    assert.deepEqual(await paymentsOf(gw.client, 'sub-recorded-2'), []);
    for (const [i, id] of [paid.id, refused.id].entries()) {
      const { firings, lastFiring } = (await gw.client.get(`${SCHEDULES}/${id}`)).body;
      assert.deepEqual({ firings, lastFiring }, { firings: before[i].firings, lastFiring: before[i].lastFiring });
      await gw.client.delete(`${SCHEDULES}/${id}`);
    }
  });

  it('several schedulers polling together take a stale firing over exactly once', async () => {
    at(T0);
    const created = await schedule(gw.client, { registrationId, paymentType: 'DB', amount: '5.50', currency: 'EUR', merchantTransactionId: 'sub-dead-3', 'job.expression': '0 0 * * * ?' });
    at(T0 + HOUR);
    assert.equal(await claimWithoutPaying(gw.running.store, created.id, T0 + HOUR), T0 + HOUR);
    const others = [extraScheduler(gw.running, { leaseMs: LEASE }), extraScheduler(gw.running, { leaseMs: LEASE })];
    try {
      at(T0 + HOUR + LEASE + SECOND);
      const fired = await Promise.all([gw.running.runSchedules(), ...others.map((o) => o.scheduler.runDue())]);
      assert.equal(fired.reduce((a, b) => a + b, 0), 1, String(fired));
      assert.equal(others.flatMap((o) => o.lines).filter((l) => /recovered/.test(l.msg)).length, fired[0] === 1 ? 0 : 1);
    } finally {
      for (const o of others) await o.scheduler.stop();
    }
    const payments = await paymentsOf(gw.client, 'sub-dead-3');
    assert.equal(payments.length, 1);
    assert.equal((await gw.client.get(`${SCHEDULES}/${created.id}`)).body.lastFiring.paymentId, payments[0].id);
    await gw.client.delete(`${SCHEDULES}/${created.id}`);
  });

  it('the last occurrence of an ended schedule is taken over too, and the schedule stays ENDED', async () => {
    at(T0);
    const created = await schedule(gw.client, { registrationId, paymentType: 'PA', amount: '4.50', currency: 'EUR', merchantTransactionId: 'sub-dead-5', 'job.expression': '0 0 * * * ?', 'job.endDate': '2030-01-01 01:30:00' });
    at(T0 + HOUR);
    assert.equal(await claimWithoutPaying(gw.running.store, created.id, T0 + HOUR), T0 + HOUR);
    assert.equal((await gw.client.get(`${SCHEDULES}/${created.id}`)).body.state, 'ENDED');
    at(T0 + HOUR + LEASE);
    assert.equal(await gw.running.runSchedules(), 1);
    const payments = await paymentsOf(gw.client, 'sub-dead-5');
    assert.deepEqual(payments.map((p) => [p.paymentType, p.amount]), [['PA', '4.50']]);
    const shown = (await gw.client.get(`${SCHEDULES}/${created.id}`)).body;
    assert.deepEqual([shown.state, shown.firings, shown.lastFiring], ['ENDED', 1, { time: '2030-01-01 01:00:00', paymentId: payments[0].id, resultCode: '000.100.110' }]);
    at(T0 + 5 * HOUR);
    assert.equal(await gw.running.runSchedules(), 0);
  });

  it('a cancelled schedule\u2019s unrecorded firing is not paid: nothing fires after DELETE', async () => {
    at(T0);
    const created = await schedule(gw.client, { registrationId, paymentType: 'DB', amount: '5.75', currency: 'EUR', merchantTransactionId: 'sub-dead-4', 'job.expression': '0 0 * * * ?' });
    at(T0 + HOUR);
    assert.equal(await claimWithoutPaying(gw.running.store, created.id, T0 + HOUR), T0 + HOUR);
    assert.equal((await gw.client.delete(`${SCHEDULES}/${created.id}`)).body.state, 'CANCELLED');
    at(T0 + HOUR + 2 * LEASE);
    assert.equal(await gw.running.runSchedules(), 0);
    assert.deepEqual(await paymentsOf(gw.client, 'sub-dead-4'), []);
  });

  it('many schedules due at the same moment (the 1st at midnight) are each fired once in one run', async () => {
    at(T0);
    const count = 40;
    const created: string[] = [];
    for (let i = 0; i < count; i++) {
      created.push((await schedule(gw.client, { registrationId, paymentType: 'DB', amount: `${i + 1}.00`, currency: 'EUR', merchantTransactionId: `sub-monthly-${i}`, 'job.expression': '0 0 0 1 * ?' })).id);
    }
    at(Date.parse('2030-02-01T00:00:00Z'));
    assert.equal(await gw.running.runSchedules(), count);
    assert.equal(await gw.running.runSchedules(), 0);
    for (let i = 0; i < count; i++) {
      const payments = await paymentsOf(gw.client, `sub-monthly-${i}`);
      assert.deepEqual(payments.map((p) => p.amount), [`${i + 1}.00`], `schedule ${i}`);
      const shown = (await gw.client.get(`${SCHEDULES}/${created[i]}`)).body;
      assert.deepEqual([shown.firings, shown.lastFiring.paymentId, shown.nextFiringTime], [1, payments[0]?.id, '2030-03-01 00:00:00']);
      await gw.client.delete(`${SCHEDULES}/${created[i]}`);
    }
  });
}

describe('schedules: API', () => apiSuite({}));
describe('schedules: API on PostgreSQL', { skip: pgSkip }, () => apiSuite({ databaseUrl }));
describe('schedules: firing', () => firingSuite({}));
describe('schedules: firing on PostgreSQL', { skip: pgSkip }, () => firingSuite({ databaseUrl }));

describe('schedules: the periodic poll', () => {
  it('fires a due occurrence by itself', async () => {
    const gw = await startGateway({ clock: new TestClock(new Date(T0)), schedulePollMs: 50, webhookPollMs: HOUR });
    try {
      const registrationId = await register(gw.client);
      await schedule(gw.client, { registrationId, paymentType: 'DB', amount: '4.00', currency: 'EUR', merchantTransactionId: 'sub-polled-1', 'job.expression': '0 0 * * * ?' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.deepEqual(await paymentsOf(gw.client, 'sub-polled-1'), []);
      gw.clock.advance(HOUR);
      // No runSchedules(): the poll finds the occurrence due.
      for (let i = 0; i < 200 && (await paymentsOf(gw.client, 'sub-polled-1')).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      const payments = await paymentsOf(gw.client, 'sub-polled-1');
      assert.equal(payments.length, 1);
      assert.equal(payments[0].amount, '4.00');
    } finally {
      await gw.close();
    }
  });
});

/** A gateway in its own process (test/support/gatewayProcess.ts), its clock set by the test. */
class GatewayProcess {
  private next = 0;
  private waiting = new Map<number, (answer: Answer) => void>();
  private constructor(
    private child: ChildProcess,
    readonly base: string,
  ) {
    child.on('message', (message: Answer) => this.waiting.get(message.id)?.(message));
  }

  static async start(env: Record<string, string>): Promise<GatewayProcess> {
    const child = fork(new URL('../support/gatewayProcess.ts', import.meta.url).pathname, [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const base = await new Promise<string>((resolve, reject) => {
      child.once('message', (message: { base: string }) => resolve(message.base));
      child.once('exit', (code) => reject(new Error(`gateway process exited with ${code}`)));
    });
    return new GatewayProcess(child, base);
  }

  send(command: Omit<Command, 'id'>): Promise<Answer> {
    const id = ++this.next;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.send({ ...command, id });
    });
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    await this.send({ close: true });
    await exited;
  }
}

function twoProcessSuite(backend: 'sqlite' | 'postgres') {
  /** Two gateway processes on one fresh database, closed (and the database dropped) after `body`. */
  async function withTwoProcesses(prefix: string, body: (a: GatewayProcess, b: GatewayProcess) => Promise<void>): Promise<void> {
    const dataDir = mkdtempSync(join(tmpdir(), prefix));
    const schema = backend === 'postgres' ? await freshPostgresSchema(databaseUrl!) : undefined;
    // Processes of one gateway share the card key (registrations are sealed with it).
    const env = { DATA_DIR: dataDir, SCHEMA_URL: schema?.url ?? '', CARD_KEY: 'b'.repeat(64), CLOCK_MS: String(T0) };
    // One after the other: the first one creates the database.
    const a = await GatewayProcess.start(env);
    const b = await GatewayProcess.start(env).catch(async (e: Error) => (await a.close(), Promise.reject(e)));
    try {
      await body(a, b);
    } finally {
      await a.close();
      await b.close();
      await schema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  it('fire each occurrence of each schedule exactly once, whichever process claims it', () =>
    withTwoProcesses('gw-schedules-two-', async (a, b) => {
      const clientA = new Client(a.base, shopA.token, shopA.entityId);
      const clientB = new Client(b.base, shopA.token, shopA.entityId);
      const registrationId = await register(clientA);
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) {
        const created = await schedule(i % 2 ? clientA : clientB, {
          registrationId,
          paymentType: 'DB',
          amount: `${i + 1}.00`,
          currency: 'EUR',
          merchantTransactionId: `sub-both-${i}`,
          'job.expression': '0 0 * * * ?',
          'job.endDate': '2030-01-01 03:00:00',
        });
        ids.push(created.id);
      }
      let fired = 0;
      for (let hour = 1; hour <= 4; hour++) {
        const [fa, fb] = await Promise.all([a.send({ at: T0 + hour * HOUR, run: true }), b.send({ at: T0 + hour * HOUR, run: true })]);
        fired += fa.fired + fb.fired;
        assert.equal(fa.fired + fb.fired, hour <= 3 ? 8 : 0, `hour ${hour}`);
      }
      assert.equal(fired, 24);
      for (let i = 0; i < 8; i++) {
        const payments = await paymentsOf(i % 2 ? clientB : clientA, `sub-both-${i}`);
        assert.equal(payments.length, 3, `schedule ${i}`);
        assert.ok(payments.every((p) => p.amount === `${i + 1}.00` && p.result.code === '000.100.110'));
        const shown = await clientA.get(`${SCHEDULES}/${ids[i]}`);
        assert.equal(shown.body.firings, 3);
        assert.equal(shown.body.state, 'ENDED');
      }
    }));
  it('take over the occurrence of a process that died after its claim exactly once, after the lease', () =>
    withTwoProcesses('gw-schedules-dead-', async (a, b) => {
      const clientA = new Client(a.base, shopA.token, shopA.entityId);
      const registrationId = await register(clientA);
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) {
        ids.push((await schedule(clientA, { registrationId, paymentType: 'DB', amount: `${i + 1}.25`, currency: 'EUR', merchantTransactionId: `sub-died-${i}`, 'job.expression': '0 0 * * * ?' })).id);
      }
      // Process A claims every 01:00 occurrence and dies before paying any.
      for (const id of ids) assert.equal((await a.send({ at: T0 + HOUR, claim: id })).fired, 1);
      const within = await Promise.all([a.send({ at: T0 + HOUR + DEFAULT_LEASE_MS - SECOND, run: true }), b.send({ at: T0 + HOUR + DEFAULT_LEASE_MS - SECOND, run: true })]);
      assert.equal(within[0].fired + within[1].fired, 0);
      const after = await Promise.all([a.send({ at: T0 + HOUR + DEFAULT_LEASE_MS, run: true }), b.send({ at: T0 + HOUR + DEFAULT_LEASE_MS, run: true })]);
      assert.equal(after[0].fired + after[1].fired, 4);
      const again = await Promise.all([a.send({ at: T0 + HOUR + 3 * DEFAULT_LEASE_MS, run: true }), b.send({ at: T0 + HOUR + 3 * DEFAULT_LEASE_MS, run: true })]);
      assert.equal(again[0].fired + again[1].fired, 0);
      for (let i = 0; i < 4; i++) {
        const payments = await paymentsOf(clientA, `sub-died-${i}`);
        assert.deepEqual(payments.map((p) => [p.amount, p.result.code]), [[`${i + 1}.25`, '000.100.110']], `schedule ${i}`);
        const shown = (await clientA.get(`${SCHEDULES}/${ids[i]}`)).body;
        assert.deepEqual([shown.firings, shown.lastFiring], [1, { time: '2030-01-01 01:00:00', paymentId: payments[0].id, resultCode: '000.100.110' }]);
      }
    }));
}

describe('schedules: two gateway processes on one SQLite data dir', () => twoProcessSuite('sqlite'));
describe('schedules: two gateway processes on one PostgreSQL schema', { skip: pgSkip }, () => twoProcessSuite('postgres'));
