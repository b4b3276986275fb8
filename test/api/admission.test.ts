// Admission (server/http/admission.ts): past MAX_IN_FLIGHT requests worked on at once, or their
// bodies' bytes, a request is refused at once with 503 in the try-later envelope, not queued.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { cart } from '../support/groups.ts';
import { cardDebit, holdNextAcquirerCall, rawConnection, shopA, startGateway, type TestGateway } from '../support/gateway.ts';

describe('admission: how much work the gateway takes on at once', () => {
  const gateways: TestGateway[] = [];
  after(async () => {
    for (const gw of gateways) await gw.close();
  });
  const start = async (maxInFlight: number) => {
    const gw = await startGateway({ maxInFlight });
    gateways.push(gw);
    return gw;
  };
  /** A payment whose acquirer call is held: it is in flight until `resume`. */
  const held = async (gw: TestGateway, params: Record<string, string>) => {
    const { asked, resume } = holdNextAcquirerCall(gw, 'authorize');
    const answer = gw.client.post('/v1/payments', cardDebit(params));
    await asked;
    return { resume, answer };
  };
  const stored = async (gw: TestGateway, merchantTransactionId: string) =>
    ((await gw.client.get(`/v1/query?merchantTransactionId=${merchantTransactionId}`)).body.payments ?? []).length;

  it('refuses a request past MAX_IN_FLIGHT with 503, 800.120.100 and Retry-After, stores nothing of it, still answers the health checks, and takes requests again once one is answered', async () => {
    const gw = await start(2);
    // A client sending its body slowly takes no place: nothing is worked on before the body is there.
    const slow = await rawConnection(gw.base);
    const body = new URLSearchParams({ entityId: shopA.entityId, ...cardDebit({ merchantTransactionId: 'slow-body-1' }) }).toString();
    slow.write(
      `POST /v1/payments HTTP/1.1\r\nHost: ${slow.host}\r\nAuthorization: Bearer ${shopA.token}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
    );
    const first = await held(gw, { merchantTransactionId: 'in-flight-1' });
    const second = await held(gw, { merchantTransactionId: 'in-flight-2' });

    const refused = await gw.client.post('/v1/payments', cardDebit({ merchantTransactionId: 'refused-01' }));
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.equal(refused.headers.get('cache-control'), 'no-store');
    assert.deepEqual(refused.body.result, { code: '800.120.100', description: 'too many requests, try later' });
    // The spec's five fields of 800.120.100, as a throttled answer has them.
    assert.deepEqual(Object.keys(refused.body).sort(), ['buildNumber', 'id', 'ndc', 'result', 'timestamp']);
    // A read is work too.
    assert.equal((await gw.client.get('/v1/query?merchantTransactionId=in-flight-1')).status, 503);
    const live = await fetch(`${gw.base}/health/live`);
    const ready = await fetch(`${gw.base}/health/ready`);
    assert.deepEqual([live.status, ready.status, ((await ready.json()) as { status: string }).status], [200, 200, 'ready']);

    first.resume();
    second.resume();
    assert.deepEqual([(await first.answer).status, (await second.answer).status], [200, 200]);
    assert.equal(await stored(gw, 'refused-01'), 0);
    assert.equal(await stored(gw, 'in-flight-1'), 1);
    // Their places are free again: the next payment, and the slow one once its body is whole, are taken.
    assert.equal((await gw.client.post('/v1/payments', cardDebit({ merchantTransactionId: 'after-01' }))).status, 200);
    slow.write(body.slice(10));
    assert.equal((await slow.closed).status, 200);
  });

  it('counts bodies too: past MAX_IN_FLIGHT × 8 KiB of bodies in flight a large one is refused while a small one is still taken', async () => {
    const gw = await start(16);
    // About 83 KB each: two are above the 128 KiB that 16 places allow.
    const large = (merchantTransactionId: string) => ({ ...cart(200), merchantTransactionId });
    const first = await held(gw, large('large-body-1'));

    const refused = await gw.client.post('/v1/payments', cardDebit(large('large-body-2')));
    assert.equal(refused.status, 503);
    assert.equal(refused.body.result.code, '800.120.100');
    assert.equal((await gw.client.post('/v1/payments', cardDebit({ merchantTransactionId: 'small-body-1' }))).status, 200);

    first.resume();
    assert.equal((await first.answer).status, 200);
    assert.equal((await gw.client.post('/v1/payments', cardDebit(large('large-body-3')))).status, 200);
    assert.equal(await stored(gw, 'large-body-2'), 0);
  });
});
