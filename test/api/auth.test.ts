import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, cardDebit, shopA, shopB, startGateway, type TestGateway } from '../support/gateway.ts';

describe('authentication and isolation between merchants', () => {
  let gw: TestGateway;
  let paymentOfA: string;
  before(async () => {
    gw = await startGateway();
    paymentOfA = (await gw.client.post('/v1/payments', cardDebit())).body.id;
  });
  after(() => gw.close());

  const raw = (path: string, init: RequestInit) => fetch(gw.base + path, init).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

  it('answers 401 without an Authorization header', async () => {
    const { status, body } = await raw('/v1/payments', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ entityId: shopA.entityId, ...cardDebit() }) });
    assert.equal(status, 401);
    assert.equal(body.result.parameterErrors[0].name, 'Authorization');
  });

  it('answers 401 for a malformed Authorization header, saying which scheme it takes (WWW-Authenticate)', async () => {
    for (const header of ['Basic abc', 'Bearer', 'Bearer two words', `bearer${shopA.token}`, `Token ${shopA.token}`]) {
      const reply = await fetch(`${gw.base}/v1/payments/${paymentOfA}?entityId=${shopA.entityId}`, { headers: { authorization: header } });
      assert.equal(reply.status, 401, header);
      assert.equal(reply.headers.get('www-authenticate'), 'Bearer', header);
    }
  });

  it('takes the Bearer scheme in any case and after more than one space (RFC 9110: the scheme is case-insensitive); the token as issued', async () => {
    for (const header of [`bearer ${shopA.token}`, `BEARER ${shopA.token}`, `Bearer  ${shopA.token}`]) {
      const { status } = await raw(`/v1/payments/${paymentOfA}?entityId=${shopA.entityId}`, { headers: { authorization: header } });
      assert.equal(status, 200, header);
    }
    const { status } = await raw(`/v1/payments/${paymentOfA}?entityId=${shopA.entityId}`, { headers: { authorization: `Bearer ${shopA.token.toLowerCase()}` } });
    assert.equal(status, 403);
  });

  it('marks every answer nosniff, JSON answers and errors included', async () => {
    for (const [path, init] of [
      [`/v1/payments/${paymentOfA}?entityId=${shopA.entityId}`, { headers: { authorization: `Bearer ${shopA.token}` } }],
      ['/v1/payments', { method: 'POST' }],
      ['/v1/no-such-path', {}],
      ['/v1/resultcodes', {}],
    ] as const) {
      const reply = await fetch(gw.base + path, init);
      assert.equal(reply.headers.get('x-content-type-options'), 'nosniff', path);
    }
  });

  it('answers 403 for an unknown access token', async () => {
    const stranger = gw.clientFor('bm90LWEtcmVhbC10b2tlbi1hdC1hbGw', shopA.entityId);
    const { status, body } = await stranger.post('/v1/payments', cardDebit());
    assert.equal(status, 403);
    assert.equal(body.result.code, '800.900.300');
  });

  it("answers 403 when a token names another merchant's entity", async () => {
    const intruder = gw.clientFor(shopB.token, shopA.entityId);
    const { status, body } = await intruder.post('/v1/payments', cardDebit());
    assert.equal(status, 403);
    assert.equal(body.result.parameterErrors[0].name, 'entityId');
  });

  it('refuses a request without entityId, naming the parameter', async () => {
    const response = await fetch(`${gw.base}/v1/payments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shopA.token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(cardDebit()),
    });
    const body = (await response.json()) as any;
    assert.equal(response.status, 400);
    assert.equal(body.result.code, '200.300.404');
    assert.equal(body.result.parameterErrors[0].name, 'entityId');
  });

  it("answers 404 when reading another merchant's payment with the other merchant's own entity", async () => {
    const other = gw.clientFor(shopB.token, shopB.entityId);
    const { status, body } = await other.get(`/v1/payments/${paymentOfA}`);
    assert.equal(status, 404);
    assert.equal(body.result.code, '700.400.580');
  });

  it("answers 404 when another entity of the same merchant reads the payment", async () => {
    const sibling = new Client(gw.base, shopA.token, shopA.throttledEntityId);
    const { status } = await sibling.get(`/v1/payments/${paymentOfA}`);
    assert.equal(status, 404);
  });

  it('lets the owner read its payment', async () => {
    const { status, body } = await gw.client.get(`/v1/payments/${paymentOfA}`);
    assert.equal(status, 200);
    assert.equal(body.id, paymentOfA);
    assert.equal(body.amount, '92.00');
  });

  it('answers JSON 404 for an unknown payment id and for an unknown path', async () => {
    const unknown = await gw.client.get('/v1/payments/0123456789abcdef0123456789abcdef');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.result.code, '700.400.580');
    const path = await raw('/v2/nothing', {});
    assert.equal(path.status, 404);
    assert.equal(path.body.result.parameterErrors[0].value, '/v2/nothing');
  });

  it('serves the public result-code catalogue without a token', async () => {
    const { status, body } = await raw('/v1/resultcodes', {});
    assert.equal(status, 200);
    const capture = body.resultCodes.find((c: { code: string }) => c.code === '700.400.100');
    assert.ok(capture);
    assert.deepEqual(capture.groups, ['referenceValidation']);
    assert.ok(body.resultCodes.find((c: { code: string; groups: string[] }) => c.code === '000.100.110')?.groups.includes('success'));
  });
});
