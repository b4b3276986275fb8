import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { visaFacts } from '../support/cardFacts.ts';
import { cardDebit, shopB, startGateway, type Reply, type TestGateway } from '../support/gateway.ts';

const HOUR_MS = 60 * 60 * 1000;
// A referencing payment answers the referenced payment's card, BIN data included.
const MASKED_CARD = { bin: '420000', last4Digits: '0000', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034', ...visaFacts };
const TEST_SUCCESS = '000.100.110';

describe('referencing payments (CP, RV, RF, RB) over HTTP', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway();
  });
  after(() => gw.close());

  /** An approved initial payment; returns its id. */
  async function initial(paymentType: 'PA' | 'DB' | 'CD', amount: string, extra: Record<string, string> = {}): Promise<string> {
    const { status, body } = await gw.client.post('/v1/payments', cardDebit({ paymentType, amount, ...extra }));
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.result.code, TEST_SUCCESS);
    assert.equal(body.amount, amount);
    return body.id as string;
  }

  /** Moves the gateway's clock on to the next UTC day at `hour`:00. */
  function toNextDayAt(hour: number) {
    const next = new Date(gw.clock.current.getTime() + 24 * HOUR_MS);
    next.setUTCHours(hour, 0, 0, 0);
    gw.clock.current = next;
  }

  const reference = (id: string, params: Record<string, string>): Promise<Reply> => gw.client.post(`/v1/payments/${id}`, params);
  const capture = (id: string, amount: string, extra: Record<string, string> = {}) => reference(id, { paymentType: 'CP', amount, currency: 'EUR', ...extra });
  const refund = (id: string, amount: string) => reference(id, { paymentType: 'RF', amount, currency: 'EUR' });

  function assertApproved(reply: Reply, paymentType: string, amount: string) {
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.result.code, TEST_SUCCESS);
    assert.equal(reply.body.paymentType, paymentType);
    assert.equal(reply.body.amount, amount);
    assert.equal(reply.body.currency, 'EUR');
  }

  function assertRefused(reply: Reply, status: number, code: string) {
    assert.equal(reply.status, status, JSON.stringify(reply.body));
    assert.equal(reply.body.result.code, code, JSON.stringify(reply.body));
    assert.equal(reply.body.id, undefined);
  }

  describe('captures', () => {
    it('captures a PA in parts and refuses a capture above the remaining authorized amount with 700.400.100', async () => {
      const pa = await initial('PA', '100.00');
      assertApproved(await capture(pa, '30.00'), 'CP', '30.00');
      assertApproved(await capture(pa, '50.00'), 'CP', '50.00');
      assertRefused(await capture(pa, '20.01'), 400, '700.400.100');
      // The refused capture reserved nothing: exactly the remainder can still be captured.
      assertApproved(await capture(pa, '20.00'), 'CP', '20.00');
      assertRefused(await capture(pa, '0.01'), 400, '700.400.100');
    });

    it('refuses a single capture above the authorized amount with 700.400.100', async () => {
      const pa = await initial('PA', '10.00');
      assertRefused(await capture(pa, '10.01'), 400, '700.400.100');
    });

    it('refuses a third capture of a PA sent with numberOfCaptures=2 with 700.400.100', async () => {
      const pa = await initial('PA', '100.00', { numberOfCaptures: '2' });
      assertApproved(await capture(pa, '10.00'), 'CP', '10.00');
      assertApproved(await capture(pa, '10.00'), 'CP', '10.00');
      assertRefused(await capture(pa, '10.00'), 400, '700.400.100');
    });

    it('takes numberOfCaptures from the first capture that states it when the PA did not (the spec\u2019s CP row)', async () => {
      const pa = await initial('PA', '100.00');
      const first = await capture(pa, '10.00', { numberOfCaptures: '1' });
      assertApproved(first, 'CP', '10.00');
      assert.equal(first.body.numberOfCaptures, '1');
      assertRefused(await capture(pa, '10.00'), 400, '700.400.100');
    });

    it('ends the captures of a PA with a capture sent with sequence=FINAL', async () => {
      const pa = await initial('PA', '100.00');
      const final = await capture(pa, '10.00', { sequence: 'FINAL' });
      assertApproved(final, 'CP', '10.00');
      assert.equal(final.body.sequence, 'FINAL');
      assertRefused(await capture(pa, '10.00'), 400, '700.300.300');
    });

    it('refuses a capture in another currency than the PA with 700.100.500', async () => {
      const pa = await initial('PA', '100.00');
      assertRefused(await reference(pa, { paymentType: 'CP', amount: '10.00', currency: 'USD' }), 400, '700.100.500');
    });

    it('refuses a paymentBrand other than the PA\u2019s (100.100.501) and a referenceUuid naming another payment, naming each; the same ones are taken', async () => {
      const pa = await initial('PA', '100.00');
      const other = await initial('PA', '100.00');
      const refused = await capture(pa, '10.00', { paymentBrand: 'MASTER', referenceUuid: other });
      assertRefused(refused, 400, '100.100.501');
      assert.deepEqual(refused.body.result.parameterErrors.map((e: { name: string }) => e.name), ['paymentBrand', 'referenceUuid']);
      assertRefused(await capture(pa, '10.00', { referenceUuid: 'abc' }), 400, '200.300.404');
      // Nothing was captured by the refusals.
      assertApproved(await capture(pa, '100.00', { paymentBrand: 'VISA', referenceUuid: pa }), 'CP', '100.00');
    });

    it('refuses to capture a DB with 700.300.100', async () => {
      const db = await initial('DB', '20.00');
      assertRefused(await capture(db, '10.00'), 400, '700.300.100');
    });

    it('refuses a capture without amount with HTTP 400 naming amount', async () => {
      const pa = await initial('PA', '100.00');
      const reply = await reference(pa, { paymentType: 'CP', currency: 'EUR' });
      assert.equal(reply.status, 400);
      assert.equal(reply.body.result.code, '100.550.300');
      assert.deepEqual(reply.body.result.parameterErrors, [{ name: 'amount', value: '', message: 'amount is required for CP' }]);
    });

    it('answers a capture with the referenced payment’s masked card and a new 32-hex id', async () => {
      const pa = await initial('PA', '100.00');
      const reply = await capture(pa, '25.00');
      assertApproved(reply, 'CP', '25.00');
      assert.match(reply.body.id, /^[0-9a-f]{32}$/);
      assert.notEqual(reply.body.id, pa);
      assert.equal(reply.body.paymentBrand, 'VISA');
      assert.deepEqual(reply.body.card, MASKED_CARD);
      assert.equal(JSON.stringify(reply.body).includes('4200000000000000'), false);
      assert.equal(JSON.stringify(reply.body).includes('"cvv"'), false);
      assert.equal(reply.body.buildNumber, 'test-build');
      assert.match(reply.body.timestamp, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+0000$/);
      assert.equal(typeof reply.body.ndc, 'string');
    });

    it('leaves the PA unchanged when read after its captures', async () => {
      const pa = await initial('PA', '100.00');
      const first = await capture(pa, '40.00');
      const second = await capture(pa, '60.00');
      const read = await gw.client.get(`/v1/payments/${pa}`);
      assert.equal(read.status, 200);
      assert.equal(read.body.id, pa);
      assert.equal(read.body.paymentType, 'PA');
      assert.equal(read.body.amount, '100.00');
      assert.equal(read.body.currency, 'EUR');
      assert.equal(read.body.result.code, TEST_SUCCESS);
      assert.deepEqual(read.body.card, MASKED_CARD);
      for (const cp of [first, second]) {
        const readCp = await gw.client.get(`/v1/payments/${cp.body.id}`);
        assert.equal(readCp.status, 200);
        assert.equal(readCp.body.paymentType, 'CP');
        assert.equal(readCp.body.amount, cp.body.amount);
      }
    });
  });

  describe('reversals', () => {
    it('reverses a PA for its whole amount', async () => {
      const pa = await initial('PA', '100.00');
      const reply = await reference(pa, { paymentType: 'RV' });
      assertApproved(reply, 'RV', '100.00');
      assert.match(reply.body.id, /^[0-9a-f]{32}$/);
      assert.deepEqual(reply.body.card, MASKED_CARD);
    });

    it('reverses a DB for its whole amount', async () => {
      const db = await initial('DB', '92.00');
      assertApproved(await reference(db, { paymentType: 'RV' }), 'RV', '92.00');
    });

    it('reverses a CD for its whole amount', async () => {
      const cd = await initial('CD', '15.50');
      assertApproved(await reference(cd, { paymentType: 'RV' }), 'RV', '15.50');
    });

    it('reverses the uncaptured remainder of a partially captured PA', async () => {
      const pa = await initial('PA', '100.00');
      assertApproved(await capture(pa, '35.00'), 'CP', '35.00');
      assertApproved(await reference(pa, { paymentType: 'RV' }), 'RV', '65.00');
      // Nothing can be captured after the reversal.
      assertRefused(await capture(pa, '1.00'), 400, '700.300.300');
    });

    it('accepts a reversal that names the exact amount left, and refuses any other with 700.100.200', async () => {
      const db = await initial('DB', '40.00');
      assertRefused(await reference(db, { paymentType: 'RV', amount: '39.99', currency: 'EUR' }), 400, '700.100.200');
      assertApproved(await reference(db, { paymentType: 'RV', amount: '40.00', currency: 'EUR' }), 'RV', '40.00');
    });

    it('refuses to reverse a fully captured PA with 700.400.300', async () => {
      const pa = await initial('PA', '50.00');
      assertApproved(await capture(pa, '50.00'), 'CP', '50.00');
      assertRefused(await reference(pa, { paymentType: 'RV' }), 400, '700.400.300');
    });

    it('refuses a second reversal with 700.300.300', async () => {
      const db = await initial('DB', '20.00');
      assertApproved(await reference(db, { paymentType: 'RV' }), 'RV', '20.00');
      assertRefused(await reference(db, { paymentType: 'RV' }), 400, '700.300.300');
      assertRefused(await refund(db, '1.00'), 400, '700.300.300');
    });

    it('refuses a reversal after the entity’s 24-hour cut-off with 700.300.700', async () => {
      const db = await initial('DB', '30.00');
      const pa = await initial('PA', '30.00');
      gw.clock.advance(25 * HOUR_MS);
      assertRefused(await reference(db, { paymentType: 'RV' }), 400, '700.300.700');
      assertRefused(await reference(pa, { paymentType: 'RV' }), 400, '700.300.700');
      // The cut-off is for reversals only: the PA can still be captured, the DB refunded.
      assertApproved(await capture(pa, '30.00'), 'CP', '30.00');
      assertApproved(await refund(db, '30.00'), 'RF', '30.00');
    });

    it('allows a reversal of a PA just before the cut-off', async () => {
      const pa = await initial('PA', '30.00');
      gw.clock.advance(23 * HOUR_MS);
      assertApproved(await reference(pa, { paymentType: 'RV' }), 'RV', '30.00');
    });

    it('reverses a DB only until the end of its day, when it settles: a reversal after that is refused with 700.300.700', async () => {
      toNextDayAt(23);
      const db = await initial('DB', '30.00');
      const late = await initial('DB', '31.00');
      gw.clock.advance(HOUR_MS - 1000);
      assertApproved(await reference(db, { paymentType: 'RV' }), 'RV', '30.00');
      gw.clock.advance(1000);
      assertRefused(await reference(late, { paymentType: 'RV' }), 400, '700.300.700');
      // It settled, so it is refunded instead.
      assertApproved(await refund(late, '31.00'), 'RF', '31.00');
    });
  });

  describe('refunds and rebills', () => {
    it('refunds a DB in parts and refuses a refund above what is left with 700.400.200', async () => {
      const db = await initial('DB', '92.00');
      assertApproved(await refund(db, '30.00'), 'RF', '30.00');
      assertApproved(await refund(db, '40.00'), 'RF', '40.00');
      assertRefused(await refund(db, '22.01'), 400, '700.400.200');
      assertApproved(await refund(db, '22.00'), 'RF', '22.00');
      assertRefused(await refund(db, '0.01'), 400, '700.400.200');
    });

    it('refunds a capture, up to the captured amount', async () => {
      const pa = await initial('PA', '100.00');
      const cp = await capture(pa, '60.00');
      assertApproved(cp, 'CP', '60.00');
      const rf = await refund(cp.body.id, '60.00');
      assertApproved(rf, 'RF', '60.00');
      assert.deepEqual(rf.body.card, MASKED_CARD);
      assertRefused(await refund(cp.body.id, '0.01'), 400, '700.400.200');
    });

    it('refuses to refund a PA with 700.300.100', async () => {
      const pa = await initial('PA', '100.00');
      assertRefused(await refund(pa, '10.00'), 400, '700.300.100');
    });

    it('refuses a refund in another currency than the DB with 700.100.500', async () => {
      const db = await initial('DB', '92.00');
      assertRefused(await reference(db, { paymentType: 'RF', amount: '10.00', currency: 'GBP' }), 400, '700.100.500');
    });

    it('refuses a reversal of a partly refunded DB with 700.400.300', async () => {
      const db = await initial('DB', '92.00');
      assertApproved(await refund(db, '2.00'), 'RF', '2.00');
      assertRefused(await reference(db, { paymentType: 'RV' }), 400, '700.400.300');
    });

    it('refuses to refund a charged-back DB with 700.400.200 from its settlement day, when the chargeback came', async () => {
      toNextDayAt(12);
      const chargedBack = await initial('DB', '100.20');
      const refundedFirst = await initial('DB', '100.21');
      assertApproved(await refund(refundedFirst, '10.00'), 'RF', '10.00');
      toNextDayAt(0);
      assertRefused(await refund(chargedBack, '1.00'), 400, '700.400.200');
      assertRefused(await refund(refundedFirst, '1.00'), 400, '700.400.200');
    });

    it('rebills a refunded DB up to the refunded amount', async () => {
      const db = await initial('DB', '50.00');
      assertRefused(await reference(db, { paymentType: 'RB', amount: '10.00', currency: 'EUR' }), 400, '700.400.550');
      assertApproved(await refund(db, '20.00'), 'RF', '20.00');
      assertRefused(await reference(db, { paymentType: 'RB', amount: '20.01', currency: 'EUR' }), 400, '700.100.300');
      assertApproved(await reference(db, { paymentType: 'RB', amount: '20.00', currency: 'EUR' }), 'RB', '20.00');
    });
  });

  describe('REAUTHORIZATION and INCREMENTAL_AUTH by referenceUuid', () => {
    const linked = (referenceUuid: string, industryPractice: string, amount: string, extra: Record<string, string> = {}) =>
      gw.client.post('/v1/payments', cardDebit({ paymentType: 'PA', amount, referenceUuid, 'standingInstruction.industryPractice': industryPractice, ...extra }));
    const refusedNaming = (reply: Reply, name: string, message: string) => {
      assert.equal(reply.status, 400, JSON.stringify(reply.body));
      assert.deepEqual(reply.body.result.parameterErrors.map((e: { name: string; message: string }) => [e.name, e.message]), [[name, `${name} ${message}`]]);
    };

    it('an incremental authorization is linked to its PA and adds to what the PA captures and reverses; it is not captured by itself', async () => {
      const pa = await initial('PA', '5.00');
      const more = await linked(pa, 'INCREMENTAL_AUTH', '2.00');
      assertApproved(more, 'PA', '2.00');
      assert.equal(more.body.referenceUuid, pa);
      const query = await gw.client.get(`/v1/query/${pa}?includeLinkedTransactions=true`);
      assert.deepEqual(query.body.payments.map((p: { id: string }) => p.id).sort(), [pa, more.body.id].sort());
      assertRefused(await capture(more.body.id, '2.00'), 400, '700.300.100');
      assertApproved(await capture(pa, '6.00'), 'CP', '6.00');
      assertRefused(await capture(pa, '1.01'), 400, '700.400.100');
      const reversal = await reference(pa, { paymentType: 'RV' });
      assertApproved(reversal, 'RV', '1.00');
      // A reversed authorization takes no more increments.
      refusedNaming(await linked(pa, 'INCREMENTAL_AUTH', '1.00'), 'referenceUuid', 'names an authorization that was reversed');
    });

    it('refuses an increment that names an increment, or a PA whose final capture was made', async () => {
      const pa = await initial('PA', '50.00');
      const more = await linked(pa, 'INCREMENTAL_AUTH', '20.00');
      assertApproved(more, 'PA', '20.00');
      refusedNaming(await linked(more.body.id, 'INCREMENTAL_AUTH', '30.00'), 'referenceUuid', `names an incremental authorization: name the authorization it adds to, ${pa}`);
      assertApproved(await capture(pa, '10.00', { sequence: 'FINAL' }), 'CP', '10.00');
      refusedNaming(await linked(pa, 'INCREMENTAL_AUTH', '5.00'), 'referenceUuid', 'names an authorization whose final capture was made: nothing more can be captured');
      // What was not captured is released whole: the PA and its increment.
      assertApproved(await reference(pa, { paymentType: 'RV' }), 'RV', '60.00');
    });

    /** Runs `during` while the acquirer authorizes the next payment, as a request racing it would. */
    async function whileAuthorizing<T>(during: () => Promise<T>, request: () => Promise<Reply>): Promise<{ during: T; reply: Reply }> {
      const acquirer = gw.running.gateway.deps.acquirer;
      const authorize = acquirer.authorize;
      let result: T | undefined;
      acquirer.authorize = async (call) => {
        acquirer.authorize = authorize;
        result = await during();
        return authorize.call(acquirer, call);
      };
      try {
        const reply = await request();
        return { during: result as T, reply };
      } finally {
        acquirer.authorize = authorize;
      }
    }

    it('refuses a final capture while an increment waits for the acquirer (700.400.570): the increment then captures with the rest', async () => {
      const pa = await initial('PA', '50.00');
      const { during: final, reply: more } = await whileAuthorizing(() => capture(pa, '50.00', { sequence: 'FINAL' }), () => linked(pa, 'INCREMENTAL_AUTH', '20.00'));
      assertRefused(final, 400, '700.400.570');
      assertApproved(more, 'PA', '20.00');
      assertApproved(await capture(pa, '70.00', { sequence: 'FINAL' }), 'CP', '70.00');
    });

    it('ends an increment as rejected when its payment fails after the reservation, so its PA can still be reversed', async () => {
      const pa = await initial('PA', '50.00');
      // The acquirer is slow: past the idempotency lease, a retry with the same key takes the
      // request over, and the first one's commit fails.
      const { during: retry, reply: first } = await whileAuthorizing(
        () => {
          gw.clock.advance(6 * 60 * 1000);
          return gw.client.post('/v1/payments', cardDebit({ paymentType: 'PA', amount: '10.00', referenceUuid: pa, 'standingInstruction.industryPractice': 'INCREMENTAL_AUTH' }), { 'idempotency-key': 'increment-taken-over' });
        },
        () => gw.client.post('/v1/payments', cardDebit({ paymentType: 'PA', amount: '10.00', referenceUuid: pa, 'standingInstruction.industryPractice': 'INCREMENTAL_AUTH' }), { 'idempotency-key': 'increment-taken-over' }),
      );
      assert.notEqual(first.status, 200);
      assertApproved(retry, 'PA', '10.00');
      const linkedStates = (await gw.client.get(`/v1/query/${pa}?includeLinkedTransactions=true`)).body.payments.map((p: { id: string; result: { code: string } }) => [p.id === retry.body.id, p.result.code]);
      assert.deepEqual(linkedStates.filter(([, code]: [boolean, string]) => code === '000.200.000'), []);
      assertApproved(await reference(pa, { paymentType: 'RV' }), 'RV', '60.00');
    });

    it('a reauthorization is linked to its PA and stands on its own', async () => {
      const pa = await initial('PA', '5.00');
      const again = await linked(pa, 'REAUTHORIZATION', '5.00');
      assertApproved(again, 'PA', '5.00');
      assertApproved(await capture(again.body.id, '5.00'), 'CP', '5.00');
      assertRefused(await capture(pa, '5.01'), 400, '700.400.100');
    });

    it('refuses a referenceUuid that names no successful PA of the entity, or that comes without its practice', async () => {
      const pa = await initial('PA', '5.00');
      const db = await initial('DB', '5.00');
      const declined = (await gw.client.post('/v1/payments', cardDebit({ paymentType: 'PA', amount: '100.51' }))).body.id as string;
      const others = (await gw.clientFor(shopB.token, shopB.entityId).post('/v1/payments', cardDebit({ paymentType: 'PA', amount: '5.00' }))).body.id as string;
      refusedNaming(await linked('0123456789abcdef0123456789abcdef', 'INCREMENTAL_AUTH', '1.00'), 'referenceUuid', 'names no authorization (PA) of this entity');
      refusedNaming(await linked(others, 'INCREMENTAL_AUTH', '1.00'), 'referenceUuid', 'names no authorization (PA) of this entity');
      refusedNaming(await linked(db, 'REAUTHORIZATION', '1.00'), 'referenceUuid', 'names no authorization (PA) of this entity');
      refusedNaming(await linked(declined, 'REAUTHORIZATION', '1.00'), 'referenceUuid', 'names an authorization that did not succeed');
      refusedNaming(await linked(pa, 'NO_SHOW', '1.00'), 'referenceUuid', 'is sent with standingInstruction.industryPractice REAUTHORIZATION or INCREMENTAL_AUTH only');
      refusedNaming(await linked(pa, 'INCREMENTAL_AUTH', '1.00', { paymentType: 'DB' }), 'paymentType', 'must be PA for INCREMENTAL_AUTH: it authorizes again, or more, on the authorization referenceUuid names');
      refusedNaming(await linked(pa, 'INCREMENTAL_AUTH', '1.00', { currency: 'USD' }), 'currency', 'must be EUR, the currency of the authorization referenceUuid names');
      // Nothing was written: the PA still captures exactly its own amount.
      assertRefused(await capture(pa, '5.01'), 400, '700.400.100');
    });
  });

  describe('what cannot be referenced', () => {
    it('refuses to reference a declined payment with 700.300.200', async () => {
      const declined = await gw.client.post('/v1/payments', cardDebit({ amount: '100.51' }));
      assert.equal(declined.status, 400);
      assert.equal(declined.body.result.code, '800.100.151');
      const id = declined.body.id as string;
      assert.match(id, /^[0-9a-f]{32}$/);
      assertRefused(await reference(id, { paymentType: 'RV' }), 400, '700.300.200');
      assertRefused(await refund(id, '1.00'), 400, '700.300.200');
    });

    it('refuses to capture a declined PA with 700.300.200', async () => {
      const declined = await gw.client.post('/v1/payments', cardDebit({ paymentType: 'PA', amount: '100.51' }));
      assert.equal(declined.body.result.code, '800.100.151');
      assertRefused(await capture(declined.body.id, '1.00'), 400, '700.300.200');
    });

    it('answers HTTP 404 with 700.400.580 for an unknown payment id, 400 naming id for one no payment can have (a checkout\'s id says where its payment is)', async () => {
      assertRefused(await capture('0123456789abcdef0123456789abcdef', '1.00'), 404, '700.400.580');
      const malformed = await reference('not-a-payment-id', { paymentType: 'RV' });
      assertRefused(malformed, 400, '200.300.404');
      assert.deepEqual(malformed.body.result.parameterErrors, [{ name: 'id', value: 'not-a-payment-id', message: 'id must be a payment id: 32 lowercase hexadecimal characters' }]);
      const checkoutId = '0123456789abcdef0123456789abcdef.vm';
      for (const answer of [await reference(checkoutId, { paymentType: 'RF', amount: '1.00', currency: 'EUR' }), await gw.client.get(`/v1/payments/${checkoutId}`)]) {
        assertRefused(answer, 400, '200.300.404');
        assert.deepEqual(answer.body.result.parameterErrors, [{ name: 'id', value: checkoutId, message: `id is a checkout's id: read its payment at GET /v1/checkouts/${checkoutId}/payment, whose id is the payment's` }]);
      }
    });

    it('answers HTTP 404 when another merchant references the payment, and leaves it untouched', async () => {
      const pa = await initial('PA', '100.00');
      const other = gw.clientFor(shopB.token, shopB.entityId);
      assertRefused(await other.post(`/v1/payments/${pa}`, { paymentType: 'CP', amount: '100.00', currency: 'EUR' }), 404, '700.400.580');
      assertRefused(await other.post(`/v1/payments/${pa}`, { paymentType: 'RV' }), 404, '700.400.580');
      const read = await other.get(`/v1/payments/${pa}`);
      assert.equal(read.status, 404);
      assert.equal(read.body.result.code, '700.400.580');
      // Shop A can still capture all of it.
      assertApproved(await capture(pa, '100.00'), 'CP', '100.00');
    });

    it('answers HTTP 404 with 700.400.580 when reading an unknown payment', async () => {
      const read = await gw.client.get('/v1/payments/0123456789abcdef0123456789abcdef');
      assert.equal(read.status, 404);
      assert.equal(read.body.result.code, '700.400.580');
    });
  });
});
