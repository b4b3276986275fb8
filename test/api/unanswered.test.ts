// Authorizations the gateway does not record as approved although the acquirer may have approved
// them (payments/unanswered.ts): no answer (an error, a timeout), a process that stopped while it
// asked, an approval come after the payment ended. Each is declined or ended as it was, and
// reversed at the acquirer, so that no shopper's money stays held with nothing to release it.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { loggerOptions } from '../../server/http/log.ts';
import { ID } from '../../server/ids.ts';
import type { AcquirerOutcome, AuthorizationRequest, ReferenceRequest } from '../../server/simulator/acquirer.ts';
import { cardDebit, databaseUrl, holdNextAcquirerCall, pgSkip, shopA, startGateway, type Client, type TestGateway, type TestGatewayOptions } from '../support/gateway.ts';
import { billingAddress, browserData, cards, ShopperBrowser } from '../support/threeds.ts';

const MINUTE = 60 * 1000;
const ACQUIRER_TIMEOUT_MS = 300;
const RESULT_URL = 'https://shop.example/result';

type Authorize = (request: AuthorizationRequest) => Promise<AcquirerOutcome>;

function unansweredSuite(options: TestGatewayOptions) {
  let gw: TestGateway;
  let secure: Client;
  let browser: ShopperBrowser;
  const logLines: Array<{ level: number; msg: string; payment?: string; reversal?: string; why?: string; approved?: boolean; err?: string }> = [];
  let acquirer: { authorize: Authorize; reverse: (request: ReferenceRequest) => Promise<AcquirerOutcome> };
  let realAuthorize: Authorize;
  let realReverse: (request: ReferenceRequest) => Promise<AcquirerOutcome>;
  /** The acquirer's reversals asked since the test began. */
  let reversals: ReferenceRequest[] = [];
  /** What the acquirer's authorize calls would still answer, should a test hold them (resolved after each test). */
  const held: Array<() => void> = [];

  before(async () => {
    const logger = pino(loggerOptions('warn'), { write: (chunk: string) => void logLines.push(...chunk.split('\n').filter(Boolean).map((line) => JSON.parse(line))) });
    gw = await startGateway({ ...options, logger, acquirerTimeoutMs: ACQUIRER_TIMEOUT_MS });
    secure = gw.clientFor(shopA.token, shopA.threeDSecureEntityId);
    browser = new ShopperBrowser(gw.base);
    acquirer = gw.running.gateway.deps.acquirer as unknown as typeof acquirer;
    realAuthorize = acquirer.authorize;
    realReverse = acquirer.reverse;
    acquirer.reverse = async (request) => {
      reversals.push(request);
      return realReverse(request);
    };
  });
  afterEach(() => {
    acquirer.authorize = realAuthorize;
    held.splice(0).forEach((resume) => resume());
    reversals = [];
    logLines.length = 0;
  });
  after(async () => {
    acquirer.reverse = realReverse;
    await gw.close();
  });

  /** Every reversal asked so far has its answer (they run in the background). */
  const reversalsDone = () => Promise.allSettled([...gw.running.gateway.deps.reversals!]);
  const codeOf = async (client: Client, id: string) => (await client.get(`/v1/payments/${id}`)).body.result.code as string;
  const reversalLog = (payment: string) => logLines.filter((line) => line.payment === payment && line.reversal !== undefined);

  function assertReversed(reversal: ReferenceRequest | undefined, payment: string, amountMinor: number) {
    assert.ok(reversal, `a reversal of ${payment} was asked`);
    assert.equal(reversal.referencedId, payment);
    assert.equal(reversal.amountMinor, amountMinor);
    assert.equal(reversal.currency, 'EUR');
    assert.match(reversal.paymentId, ID);
    assert.notEqual(reversal.paymentId, payment, 'the reversal has an id of its own');
  }

  it('a card debit whose acquirer call fails is declined with 900.100.100 (HTTP 400, recorded, read alike), not a 500, and its authorization reversed', async () => {
    acquirer.authorize = async () => {
      throw new Error('connection reset by the acquirer');
    };
    const reply = await gw.client.post('/v1/payments', cardDebit({ amount: '41.00' }));
    assert.equal(reply.status, 400, JSON.stringify(reply.body));
    assert.equal(reply.body.result.code, '900.100.100');
    assert.match(reply.body.id, ID);
    assert.equal(await codeOf(gw.client, reply.body.id), '900.100.100');
    await reversalsDone();
    assert.equal(reversals.length, 1);
    assertReversed(reversals[0], reply.body.id, 4100);
    const [line] = reversalLog(reply.body.id);
    assert.equal(line?.msg, 'authorization not recorded as approved: reversed at the acquirer');
    assert.equal(line?.reversal, reversals[0]!.paymentId);
    assert.equal(line?.level, 40, 'a warning: released as it should be');
    assert.match(line?.why ?? '', /connection reset by the acquirer/);
  });

  it(`one the acquirer does not answer within ACQUIRER_TIMEOUT_MS is declined as uncertain (900.100.300) and reversed`, async () => {
    acquirer.authorize = () => new Promise((resolve) => held.push(() => resolve({ approved: true, connectorDetails: {} })));
    const started = Date.now();
    const reply = await gw.client.post('/v1/payments', cardDebit({ paymentType: 'PA', amount: '42.00' }));
    assert.ok(Date.now() - started >= ACQUIRER_TIMEOUT_MS, 'answered once the timeout passed');
    assert.equal(reply.status, 400, JSON.stringify(reply.body));
    assert.equal(reply.body.result.code, '900.100.300');
    await reversalsDone();
    assert.equal(reversals.length, 1);
    assertReversed(reversals[0], reply.body.id, 4200);
    // Nothing of it can be captured.
    const capture = await gw.client.post(`/v1/payments/${reply.body.id}`, { paymentType: 'CP', amount: '42.00', currency: 'EUR' });
    assert.equal(capture.status, 400);
    // The acquirer approves it after all (the reversal may have come first): released again.
    held.splice(0).forEach((resume) => resume());
    for (let i = 0; i < 100 && reversals.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    await reversalsDone();
    assert.equal(reversals.length, 2);
    assertReversed(reversals[1], reply.body.id, 4200);
    assert.equal(reversalLog(reply.body.id)[1]?.why, 'the acquirer approved it after its timeout');
    assert.equal(await codeOf(gw.client, reply.body.id), '900.100.300', 'the payment stays declined');
  });

  it('a reversal the acquirer declines (nothing to release, or not yet) is logged as an error to look into', async () => {
    acquirer.authorize = async () => {
      throw new Error('connection reset by the acquirer');
    };
    const reverse = acquirer.reverse;
    acquirer.reverse = async () => ({ approved: false, declineCode: '700.400.100', connectorDetails: {} });
    try {
      const reply = await gw.client.post('/v1/payments', cardDebit({ amount: '49.00' }));
      await reversalsDone();
      const [line] = reversalLog(reply.body.id);
      assert.equal(line?.level, 50);
      assert.equal(line?.msg, 'authorization not recorded as approved: the acquirer declined its reversal (nothing to release, or not yet): check it at the acquirer');
    } finally {
      acquirer.reverse = reverse;
    }
  });

  it('a reversal that fails is logged as an error naming the payment, for operations to reverse it by hand', async () => {
    acquirer.authorize = async () => {
      throw new Error('connection reset by the acquirer');
    };
    const reverse = acquirer.reverse;
    acquirer.reverse = async () => {
      throw new Error('acquirer unreachable');
    };
    try {
      const reply = await gw.client.post('/v1/payments', cardDebit({ amount: '43.00' }));
      assert.equal(reply.body.result.code, '900.100.100');
      await reversalsDone();
      const [line] = reversalLog(reply.body.id);
      assert.equal(line?.level, 50, 'an error');
      assert.equal(line?.msg, 'authorization not recorded as approved, and its reversal failed: reverse it at the acquirer by hand');
      assert.equal(line?.err, 'acquirer unreachable');
    } finally {
      acquirer.reverse = reverse;
    }
  });

  it('an approval whose recording fails is reversed: the request fails, and no money stays held', async () => {
    const store = gw.running.store as unknown as { insert: (...rows: unknown[]) => Promise<void> };
    const insert = store.insert;
    let paymentId = '';
    acquirer.authorize = async (request) => {
      paymentId = request.paymentId;
      return realAuthorize.call(acquirer, request);
    };
    store.insert = async () => {
      store.insert = insert;
      throw new Error('disk full');
    };
    try {
      const reply = await gw.client.post('/v1/payments', cardDebit({ amount: '44.00' }));
      assert.equal(reply.status, 500);
      await reversalsDone();
      assert.equal(reversals.length, 1);
      assertReversed(reversals[0], paymentId, 4400);
      assert.match(reversalLog(paymentId)[0]?.why ?? '', /disk full/);
    } finally {
      store.insert = insert;
    }
  });

  it('an approval whose write fails after its commit (an fsync, a lost connection) stands: recorded as approved, and not reversed', async () => {
    const store = gw.running.store as unknown as { insert: (...rows: unknown[]) => Promise<void> };
    const insert = store.insert;
    store.insert = async (...rows: unknown[]) => {
      store.insert = insert;
      await insert.apply(gw.running.store, rows);
      throw new Error('fsync failed after commit');
    };
    try {
      const reply = await gw.client.post('/v1/payments', cardDebit({ amount: '48.00', merchantTransactionId: 'committed-then-failed' }));
      assert.equal(reply.status, 500);
      await reversalsDone();
      assert.deepEqual(reversals, []);
      const [stored] = await gw.running.store.db.selectFrom('payments').select(['status', 'amount_minor']).where('merchant_transaction_id', '=', 'committed-then-failed').execute();
      assert.equal(stored?.status, 'success');
    } finally {
      store.insert = insert;
    }
  });

  it('a declined authorization is not reversed, nor an approved one recorded', async () => {
    const declined = await gw.client.post('/v1/payments', cardDebit({ amount: '45.00', 'card.number': '4000000000000002' }));
    assert.equal(declined.status, 400, JSON.stringify(declined.body));
    const approved = await gw.client.post('/v1/payments', cardDebit({ amount: '45.00' }));
    assert.equal(approved.status, 200);
    await reversalsDone();
    assert.deepEqual(reversals, []);
  });

  it('an increment whose process stopped while asking is reversed when it ends as failed, and its late approval is reversed again', async () => {
    const pa = (await gw.client.post('/v1/payments', cardDebit({ paymentType: 'PA', amount: '50.00' }))).body.id as string;
    const { asked, resume } = holdNextAcquirerCall(gw, 'authorize');
    held.push(resume);
    const stopped = gw.client.post('/v1/payments', cardDebit({ paymentType: 'PA', amount: '20.00', referenceUuid: pa, 'standingInstruction.industryPractice': 'INCREMENTAL_AUTH' }));
    await asked;
    const [increment] = await gw.running.store.db.selectFrom('payments').select('id').where('referenced_id', '=', pa).where('status', '=', 'pending').execute();
    assert.ok(increment);
    gw.clock.advance(31 * MINUTE);
    assert.equal(await codeOf(gw.client, increment.id), '900.100.100');
    await reversalsDone();
    assert.equal(reversals.length, 1);
    assertReversed(reversals[0], increment.id, 2000);
    assert.equal(reversalLog(increment.id)[0]?.why, 'its process stopped while the acquirer was asked');

    resume();
    const late = await stopped;
    assert.equal(late.body.result.code, '900.100.100', 'the late approval is not recorded over the failure');
    await reversalsDone();
    assert.equal(reversals.length, 2);
    assertReversed(reversals[1], increment.id, 2000);
    assert.notEqual(reversals[1]!.paymentId, reversals[0]!.paymentId);
    assert.equal(reversalLog(increment.id)[1]?.why, 'the acquirer approved it after the payment had ended');
  });

  /** A 3-D Secure card debit with the shopper at the issuer's challenge. */
  async function challenged(amount: string) {
    const { body } = await secure.post('/v1/payments', cardDebit({ amount, 'card.number': cards.challenge.VISA, shopperResultUrl: RESULT_URL, ...browserData, ...billingAddress }));
    assert.equal(body.result.code, '000.200.000', JSON.stringify(body));
    return { id: body.id as string, page: await browser.toChallenge(body.redirect) };
  }

  it('a challenged payment whose authorization after the challenge fails is declined with 900.100.100 and reversed', async () => {
    const { id, page } = await challenged('46.00');
    acquirer.authorize = async () => {
      throw new Error('connection reset by the acquirer');
    };
    await browser.finish(page, 'approve');
    assert.equal(await codeOf(secure, id), '900.100.100');
    await reversalsDone();
    assert.equal(reversals.length, 1);
    assertReversed(reversals[0], id, 4600);
  });

  it('a challenged payment whose process stopped while the acquirer was asked is abandoned after its time and reversed, and its late approval reversed again', async () => {
    const { id, page } = await challenged('47.00');
    const { asked, resume } = holdNextAcquirerCall(gw, 'authorize');
    held.push(resume);
    const pressed = browser.press(page, 'approve');
    await asked;
    gw.clock.advance(33 * MINUTE);
    await gw.running.sweep();
    assert.equal(await codeOf(secure, id), '100.396.103');
    await reversalsDone();
    assert.equal(reversals.length, 1);
    assertReversed(reversals[0], id, 4700);

    resume();
    await pressed;
    assert.equal(await codeOf(secure, id), '100.396.103', 'the late approval is not recorded over the end');
    await reversalsDone();
    assert.equal(reversals.length, 2);
    assertReversed(reversals[1], id, 4700);
  });
}

describe('authorizations without a recorded answer, on SQLite', () => unansweredSuite({}));
describe('authorizations without a recorded answer, on PostgreSQL', { skip: pgSkip }, () => unansweredSuite({ databaseUrl }));
