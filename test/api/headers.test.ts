// Requests a proxy and the gateway could read apart (server/http/requestHeaders.ts, params.ts):
// body codings the gateway does not decode, charsets other than UTF-8, bytes that are no UTF-8,
// and headers that name one thing sent twice. Each is refused with 400 naming what is wrong.
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { cardDebit, rawConnection, shopA, startGateway, type TestGateway } from '../support/gateway.ts';

describe('request headers and body bytes', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway();
  });
  after(() => gw.close());

  const form = (overrides: Record<string, string> = {}) => new URLSearchParams({ entityId: shopA.entityId, ...cardDebit(overrides) }).toString();

  /** One raw HTTP/1.1 request, headers as written (duplicates kept); the answer's status and JSON body. */
  async function raw(headerLines: string[], body = ''): Promise<{ status: number; body: any }> {
    const answer = await exchange(`POST /v1/payments HTTP/1.1\r\n${[...headerLines, `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close'].join('\r\n')}\r\n\r\n${body}`);
    return { status: answer.status, body: answer.body };
  }
  const post = async (headers: Record<string, string>, body: RequestInit['body']) => {
    const reply = await fetch(`${gw.base}/v1/payments`, { method: 'POST', headers: { authorization: `Bearer ${shopA.token}`, ...headers }, body });
    return { status: reply.status, body: (await reply.json()) as any };
  };
  const named = (reply: { body: any }) => reply.body.result.parameterErrors.map((e: { name: string; message: string }) => `${e.name}: ${e.message}`);

  it('refuses a header that names one thing sent twice (Node would keep the first, a proxy may keep the last)', async () => {
    const url = new URL(gw.base);
    const base = [`Host: ${url.host}`, `Authorization: Bearer ${shopA.token}`, 'Content-Type: application/x-www-form-urlencoded'];
    assert.equal((await raw(base, form())).status, 200, 'the request as it is pays');
    for (const [name, twice] of [
      ['Authorization', [`Authorization: Bearer ${shopA.token}`]],
      ['Content-Type', ['Content-Type: application/json']],
      ['Host', [`Host: ${url.host}`]],
      ['Idempotency-Key', ['Idempotency-Key: b', 'idempotency-key: a']],
    ] as const) {
      const reply = await raw([...base, ...twice], form());
      assert.equal(reply.status, 400, name);
      assert.equal(reply.body.result.code, '200.300.404');
      assert.deepEqual(named(reply), [`${name}: ${name} was sent more than once`]);
      assert.equal(reply.body.result.parameterErrors[0].value, '', 'the values, a token among them, are not repeated');
    }
  });

  it('refuses a body coding it does not decode, rather than read compressed bytes as a form or charge a body labelled compressed', async () => {
    for (const coding of ['gzip', 'br', 'deflate']) {
      const labelled = await post({ 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': coding }, form());
      assert.equal(labelled.status, 400, coding);
      assert.deepEqual(named(labelled), ['Content-Encoding: Content-Encoding must be identity (or absent): request bodies are read as sent, not decompressed']);
    }
    const gzipped = await post({ 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' }, gzipSync(form()));
    assert.equal(gzipped.status, 400);
    assert.equal((await post({ 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'identity' }, form())).status, 200);
    const url = new URL(gw.base);
    const transfer = await raw([`Host: ${url.host}`, `Authorization: Bearer ${shopA.token}`, 'Content-Type: application/x-www-form-urlencoded', 'Transfer-Encoding: gzip, chunked'], '');
    assert.equal(transfer.status, 400);
  });

  it('reads bodies as UTF-8 only: another charset is refused naming Content-Type, utf-8 in any spelling is taken', async () => {
    for (const type of ['application/x-www-form-urlencoded; charset=ISO-8859-1', 'application/json; charset="windows-1252"']) {
      const reply = await post({ 'content-type': type }, form());
      assert.equal(reply.status, 400, type);
      assert.deepEqual(named(reply), ['Content-Type: Content-Type charset must be utf-8: bodies are read as UTF-8']);
    }
    for (const type of ['application/x-www-form-urlencoded; charset=UTF-8', 'application/x-www-form-urlencoded;charset="utf-8"', 'application/x-www-form-urlencoded; charset=utf8']) {
      assert.equal((await post({ 'content-type': type }, form())).status, 200, type);
    }
  });

  it('refuses a value whose bytes are no UTF-8 (Latin-1 escapes, raw bytes) naming it, instead of storing U+FFFD on the statement', async () => {
    const latin1 = await post({ 'content-type': 'application/x-www-form-urlencoded' }, `${form()}&descriptor=Caf%E9+Berlin`);
    assert.equal(latin1.status, 400);
    assert.deepEqual(named(latin1), ["descriptor: descriptor is not UTF-8: a form's names and values are UTF-8, percent-encoded"]);
    const latin1BesideStray = await post({ 'content-type': 'application/x-www-form-urlencoded' }, `${form()}&descriptor=Caf%E9+100%zz`);
    assert.deepEqual(named(latin1BesideStray), ["descriptor: descriptor is not UTF-8: a form's names and values are UTF-8, percent-encoded"]);
    const rawBytes = Buffer.concat([Buffer.from(`${form()}&descriptor=Caf`), Buffer.from([0xe9]), Buffer.from('+Berlin')]);
    const inRaw = await post({ 'content-type': 'application/x-www-form-urlencoded' }, rawBytes);
    assert.deepEqual(named(inRaw), ["descriptor: descriptor is not UTF-8: a form's names and values are UTF-8, percent-encoded"]);
    const json = Buffer.concat([Buffer.from(JSON.stringify({ entityId: shopA.entityId, ...cardDebit() }).slice(0, -1) + ',"descriptor":"Caf'), Buffer.from([0xe9]), Buffer.from(' Berlin"}')]);
    const inJson = await post({ 'content-type': 'application/json' }, json);
    assert.deepEqual(named(inJson), ['descriptor: descriptor is not UTF-8: a JSON body is UTF-8']);
    const replacementInJson = await post({ 'content-type': 'application/json' }, JSON.stringify({ entityId: shopA.entityId, ...cardDebit({ descriptor: 'repl \uFFFD raw' }) }));
    assert.equal(replacementInJson.status, 200, 'U+FFFD sent as UTF-8 in JSON is the character itself');
    // UTF-8, escaped or not, a stray % that escapes nothing, and U+FFFD itself sent as UTF-8, are read as they are.
    for (const descriptor of ['Caf%C3%A9+Berlin', 'Café Berlin', '100%25 sure', '100% sure', 'repl %EF%BF%BD', 'repl \uFFFD raw', 'repl %EF%BF%BD 100%zz']) {
      const fine = await post({ 'content-type': 'application/x-www-form-urlencoded' }, `${form()}&descriptor=${descriptor}`);
      assert.equal(fine.status, 200, `${descriptor}: ${JSON.stringify(fine.body)}`);
    }
  });

  it('refuses a multipart text field whose bytes are no UTF-8 naming it, whatever charset its part names, as a form value', async () => {
    /** A multipart body of the payment's fields and a descriptor part of these bytes, with this part header. */
    const multipart = (descriptor: Buffer, partType?: string) => {
      const part = (name: string, type?: string) => `--b\r\nContent-Disposition: form-data; name="${name}"\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n`;
      const fields = Object.entries({ entityId: shopA.entityId, ...cardDebit() }).map(([name, value]) => `${part(name)}${value}\r\n`);
      return Buffer.concat([Buffer.from(fields.join('') + part('descriptor', partType)), descriptor, Buffer.from('\r\n--b--\r\n')]);
    };
    const latin1 = Buffer.from('Café Berlin', 'latin1');
    for (const partType of [undefined, 'text/plain; charset=utf-8', 'text/plain; charset=iso-8859-1']) {
      const reply = await post({ 'content-type': 'multipart/form-data; boundary=b' }, multipart(latin1, partType));
      assert.equal(reply.status, 400, `${partType}: ${JSON.stringify(reply.body)}`);
      assert.equal(reply.body.result.code, '200.300.404');
      assert.deepEqual(reply.body.result.parameterErrors, [{ name: 'descriptor', value: 'Caf\uFFFD Berlin', message: "descriptor is not UTF-8: a multipart body's text fields are UTF-8" }]);
    }
    // UTF-8, and U+FFFD itself sent as UTF-8, are read as they are.
    for (const descriptor of ['Café Berlin', 'repl \uFFFD raw']) {
      const fine = await post({ 'content-type': 'multipart/form-data; boundary=b' }, multipart(Buffer.from(descriptor)));
      assert.equal(fine.status, 200, `${descriptor}: ${JSON.stringify(fine.body)}`);
      assert.equal(fine.body.descriptor, descriptor);
    }
  });

  /** Raw bytes on a new connection; the answer's status line, headers and JSON body. */
  async function exchange(text: string): Promise<{ status: number; head: string; body: any }> {
    const connection = await rawConnection(gw.base);
    connection.write(text);
    const { status, head, body } = await connection.closed;
    return { status, head, body: JSON.parse(body) };
  }

  it('answers what Node refuses before any route in its own envelope, naming what was wrong (not a bare Node or Fastify body)', async () => {
    const host = `Host: ${new URL(gw.base).host}`;
    for (const [text, status, name] of [
      [`BREW /v1/payments HTTP/1.1\r\n${host}\r\n\r\n`, 400, 'request'],
      [`POST /v1/payments HTTP/1.1\r\n${host}\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabc`, 400, 'request'],
      [`GET /v1/openapi.json HTTP/1.1\r\n${host}\r\nX-Pad: ${'x'.repeat(17 * 1024)}\r\n\r\n`, 431, 'headers'],
    ] as const) {
      const answer = await exchange(text);
      assert.equal(answer.status, status, text.slice(0, 40));
      assert.match(answer.head, /\r\ncontent-type: application\/json; charset=utf-8\r\n/i);
      assert.equal(answer.body.result.code, '200.300.404');
      assert.deepEqual(answer.body.result.parameterErrors.map((e: { name: string }) => e.name), [name]);
      assert.equal(typeof answer.body.ndc, 'string');
    }
  });

  it('answers 405 with Allow to any other method on a known path (OPTIONS, TRACE …); HEAD is allowed with GET, a preflight where the widget calls', async () => {
    const host = `Host: ${new URL(gw.base).host}`;
    for (const [method, path, allow] of [
      ['OPTIONS', '/v1/payments', 'POST'],
      ['TRACE', '/v1/payments', 'POST'],
      ['DELETE', '/v1/openapi.json', 'GET, HEAD, OPTIONS'],
      ['PUT', '/v1/checkouts/0123456789abcdef0123456789abcdef.uat01-vm-tx01/form', 'OPTIONS, GET, HEAD'],
    ] as const) {
      const answer = await exchange(`${method} ${path} HTTP/1.1\r\n${host}\r\nConnection: close\r\n\r\n`);
      assert.equal(answer.status, 405, `${method} ${path}`);
      assert.match(answer.head, new RegExp(`\\r\\nallow: ${allow}\\r\\n`, 'i'), answer.head);
      assert.equal(answer.body.result.code, '200.300.403');
    }
    const preflight = await fetch(`${gw.base}/v1/checkouts/0123456789abcdef0123456789abcdef.uat01-vm-tx01/form`, { method: 'OPTIONS', headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' } });
    assert.equal(preflight.status, 204);
    assert.equal((await fetch(`${gw.base}/v1/openapi.json`, { method: 'HEAD' })).status, 200);
  });

  it('refuses parameters in a DELETE\'s body other than entityId and testMode, which were dropped without a word', async () => {
    const registered = await gw.client.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
    const path = `/v1/registrations/${registered.body.id}`;
    const remove = (body: Record<string, string>) =>
      fetch(`${gw.base}${path}`, { method: 'DELETE', headers: { authorization: `Bearer ${shopA.token}`, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body) });
    const refused = await remove({ entityId: shopA.entityId, amount: '1.00', foo: 'bar' });
    assert.equal(refused.status, 400);
    assert.deepEqual(named({ body: await refused.json() }), [
      'amount: amount is not a parameter of a DELETE: its body takes entityId only',
      'foo: foo is not a parameter of a DELETE: its body takes entityId only',
    ]);
    assert.equal((await remove({ entityId: shopA.entityId, testMode: 'INTERNAL' })).status, 200, 'still there, deleted now');
  });

  it('refuses parameters of a POST or DELETE sent in the query string, which were dropped without a word, and an entityId naming two entities', async () => {
    const inQuery = await fetch(`${gw.base}/v1/payments?card.cvv=999&foo=bar`, { method: 'POST', headers: { authorization: `Bearer ${shopA.token}`, 'content-type': 'application/x-www-form-urlencoded' }, body: form() });
    assert.equal(inQuery.status, 400);
    assert.deepEqual(named({ body: await inQuery.json() }), [
      'card.cvv: card.cvv is sent in the query string: the parameters of a POST go in its body',
      'foo: foo is sent in the query string: the parameters of a POST go in its body',
    ]);
    const paid = (await gw.client.post('/v1/payments', cardDebit({ paymentType: 'PA' }))).body.id as string;
    const twoEntities = await fetch(`${gw.base}/v1/payments/${paid}?entityId=${shopA.throttledEntityId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shopA.token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ entityId: shopA.entityId, paymentType: 'RV' }),
    });
    assert.equal(twoEntities.status, 400);
    assert.deepEqual(named({ body: await twoEntities.json() }), ['entityId: entityId was sent twice, in the query string and the body, with different values']);
    // entityId in the query alone, or the same in both, is how a DELETE or a POST may name its entity.
    const same = await fetch(`${gw.base}/v1/payments/${paid}?entityId=${shopA.entityId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shopA.token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ entityId: shopA.entityId, paymentType: 'RV' }),
    });
    assert.equal(same.status, 200, JSON.stringify(await same.clone().json()));
  });
});
