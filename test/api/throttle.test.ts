import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cardDebit, redisUrl, shopA, startGateway, type TestGateway } from '../support/gateway.ts';

async function burst(gw: TestGateway, n: number) {
  const throttled = gw.clientFor(shopA.token, shopA.throttledEntityId);
  return Promise.all(Array.from({ length: n }, () => throttled.post('/v1/payments', cardDebit())));
}

function checkThrottling(gwOf: () => TestGateway) {
  it('rejects requests beyond the entity rate with 429 and 800.120.100', async () => {
    // The throttled entity allows 3 payments a second.
    const replies = await burst(gwOf(), 8);
    const rejected = replies.filter((r) => r.status === 429);
    const statuses = replies.map((r) => r.status).join(' ');
    assert.ok(replies.filter((r) => r.status === 200).length <= 3, statuses);
    assert.ok(rejected.length >= 5, statuses);
    const body = rejected[0]!.body;
    assert.equal(body.result.code, '800.120.100');
    // The spec's text for it.
    assert.equal(body.result.description, 'too many requests, try later');
    assert.deepEqual(Object.keys(body).sort(), ['buildNumber', 'id', 'ndc', 'result', 'timestamp']);
    assert.equal(rejected[0]!.headers.get('retry-after'), '1');
  });

  it('counts each operation separately', async () => {
    const gw = gwOf();
    await burst(gw, 6);
    const throttled = gw.clientFor(shopA.token, shopA.throttledEntityId);
    const read = await throttled.get('/v1/payments/0123456789abcdef0123456789abcdef');
    assert.equal(read.status, 404);
  });

  it('leaves other entities unthrottled', async () => {
    const gw = gwOf();
    await burst(gw, 6);
    const replies = await Promise.all(Array.from({ length: 10 }, () => gw.client.post('/v1/payments', cardDebit())));
    assert.ok(replies.every((r) => r.status === 200));
  });
}

describe('throttling in memory', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway();
  });
  after(() => gw.close());
  checkThrottling(() => gw);
});

describe('throttling shared through Redis', { skip: redisUrl ? false : 'REDIS_URL not set: Redis throttling tests skipped' }, () => {
  let one: TestGateway;
  let two: TestGateway;
  before(async () => {
    one = await startGateway({ redisUrl });
    two = await startGateway({ redisUrl });
  });
  after(async () => {
    await one?.close();
    await two?.close();
  });
  checkThrottling(() => one);

  it('shares one budget between two gateway processes', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const replies = [...(await burst(one, 3)), ...(await burst(two, 3))];
    const ok = replies.filter((r) => r.status === 200).length;
    assert.ok(ok <= 3, `${ok} passed`);
  });
});
