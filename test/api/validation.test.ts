import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { visaFacts } from '../support/cardFacts.ts';
import { cardDebit, sepaDebit, shopA, startGateway, type TestGateway } from '../support/gateway.ts';

const CARD_NUMBER = '4200000000000000';

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

/** The payment fields as nested JSON objects. */
function nestedJson(params: Record<string, string>): Record<string, unknown> {
  const out: Record<string, any> = {};
  for (const [name, value] of Object.entries(params)) {
    const parts = name.split('.');
    let node = out;
    for (const part of parts.slice(0, -1)) node = node[part] ??= {};
    node[parts[parts.length - 1]!] = value;
  }
  return out;
}

// Three bad fields: currency (format), card.expiryMonth (range) and card.cvv (length).
const BAD = cardDebit({ currency: 'eur', 'card.expiryMonth': '13', 'card.cvv': '12' });
const BAD_NAMES = ['card.cvv', 'card.expiryMonth', 'currency'];

describe('request validation over HTTP', () => {
  let gw: TestGateway;
  const auth = { authorization: `Bearer ${shopA.token}` };
  before(async () => {
    gw = await startGateway();
  });
  after(() => gw.close());

  const send = async (method: string, path: string, headers: Record<string, string>, body?: RequestInit['body']) =>
    answer(await fetch(gw.base + path, { method, headers: { ...auth, ...headers }, body }));
  const postForm = (params: Record<string, string>, path = '/v1/payments') =>
    send('POST', path, { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' }, new URLSearchParams({ entityId: shopA.entityId, ...params }).toString());
  const postJson = (body: unknown, path = '/v1/payments') => send('POST', path, { 'content-type': 'application/json' }, JSON.stringify(body));
  const postMultipart = (params: Record<string, string>, path = '/v1/payments') => {
    const form = new FormData();
    for (const [name, value] of Object.entries({ entityId: shopA.entityId, ...params })) form.append(name, value);
    return send('POST', path, {}, form);
  };

  function assertInvalid(a: Answer, code: string, names: string[]) {
    assert.equal(a.status, 400, a.text);
    assert.equal(a.body.result.code, code, a.text);
    assert.deepEqual(a.body.result.parameterErrors.map((e: { name: string }) => e.name).sort(), [...names].sort(), a.text);
    assert.equal(a.body.id, undefined);
    assert.equal(a.body.buildNumber, 'test-build');
    assert.match(a.body.timestamp, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+0000$/);
    assert.equal(typeof a.body.ndc, 'string');
  }

  it('refuses a card number of a length its brand never has, for payments and registrations, nothing stored', async () => {
    const registration = { paymentBrand: 'VISA', 'card.number': '4123456784', 'card.expiryMonth': '05', 'card.expiryYear': '2034' };
    for (const [params, path] of [[cardDebit({ 'card.number': '4123456784' }), '/v1/payments'], [registration, '/v1/registrations']] as const) {
      const a = await postForm(params, path);
      assertInvalid(a, '100.100.101', ['card.number']);
      assert.equal(a.body.result.parameterErrors[0].value, '******6784');
    }
  });

  describe('every accepted encoding names each bad parameter', () => {
    it('names each bad parameter of a form-encoded request', async () => {
      assertInvalid(await postForm(BAD), '100.550.401', BAD_NAMES);
    });

    it('names each bad parameter of a JSON request with flat dotted names', async () => {
      assertInvalid(await postJson({ entityId: shopA.entityId, ...BAD }), '100.550.401', BAD_NAMES);
    });

    it('names each bad parameter of a JSON request with nested objects by its flat dotted name', async () => {
      const a = await postJson({ entityId: shopA.entityId, ...nestedJson(BAD) });
      assertInvalid(a, '100.550.401', BAD_NAMES);
      assert.deepEqual(a.body.result.parameterErrors.find((e: { name: string }) => e.name === 'card.expiryMonth'), {
        name: 'card.expiryMonth',
        value: '13',
        message: 'card.expiryMonth must be two digits from 01 to 12',
      });
    });

    it('names each bad parameter of a multipart/form-data request', async () => {
      assertInvalid(await postMultipart(BAD), '100.550.401', BAD_NAMES);
    });

    it('accepts a valid payment in each encoding', async () => {
      const answers = [
        await postForm(cardDebit()),
        await postJson({ entityId: shopA.entityId, ...cardDebit() }),
        await postJson({ entityId: shopA.entityId, ...nestedJson(cardDebit()) }),
        await postMultipart(cardDebit()),
      ];
      for (const a of answers) {
        assert.equal(a.status, 200, a.text);
        assert.equal(a.body.result.code, '000.100.110');
        assert.equal(a.body.amount, '92.00');
        assert.deepEqual(a.body.card, { bin: '420000', last4Digits: '0000', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034', ...visaFacts });
      }
    });

    it('accepts JSON numbers as parameter values', async () => {
      const a = await postJson({ entityId: shopA.entityId, ...nestedJson(cardDebit()), amount: 92, card: { ...nestedJson(cardDebit()).card as object, expiryYear: 2034, cvv: 123 } });
      assert.equal(a.status, 200, a.text);
      assert.equal(a.body.amount, '92.00');
      assert.equal(a.body.card.expiryYear, '2034');
    });

    it('takes a JSON amount as written: 92.00 is charged as 92.00, and 1.0000000000000001 is refused rather than rounded to 1', async () => {
      // JSON.parse reads 1.0000000000000001 as 1: judged on the float, it would be charged as 1.00.
      const json = (amount: string) => JSON.stringify({ entityId: shopA.entityId, ...nestedJson(cardDebit()) }).replace('"amount":"92.00"', `"amount":${amount}`);
      const paid = await send('POST', '/v1/payments', { 'content-type': 'application/json' }, json('92.00'));
      assert.equal(paid.status, 200, paid.text);
      assert.equal(paid.body.amount, '92.00');
      const refused = await send('POST', '/v1/payments', { 'content-type': 'application/json' }, json('1.0000000000000001'));
      assertInvalid(refused, '100.550.303', ['amount']);
      assert.equal(refused.body.result.parameterErrors[0].value, '1.0000000000000001');
      assert.equal(refused.body.id, undefined, 'no payment was made');
    });

    it('names keyed parameters of nested JSON as customParameters[key]', async () => {
      const a = await postJson({ entityId: shopA.entityId, ...nestedJson(cardDebit()), customParameters: { ab: 'too short a name' } });
      assertInvalid(a, '200.300.404', ['customParameters[ab]']);
    });

    it('masks the card number and security code in every encoding', async () => {
      const bad = cardDebit({ 'card.number': '4200000000000001', 'card.cvv': '98765' });
      for (const a of [await postForm(bad), await postJson({ entityId: shopA.entityId, ...nestedJson(bad) }), await postMultipart(bad)]) {
        assert.equal(a.status, 400, a.text);
        assert.equal(a.text.includes('4200000000000001'), false, a.text);
        assert.equal(a.text.includes('98765'), false, a.text);
        const errors = a.body.result.parameterErrors as Array<{ name: string; value: string }>;
        assert.equal(errors.find((e) => e.name === 'card.cvv')!.value, '*****');
      }
    });

    it('masks a card number that fails only the check digit', async () => {
      const a = await postForm(cardDebit({ 'card.number': '4200000000000001' }));
      assertInvalid(a, '100.100.101', ['card.number']);
      assert.deepEqual(a.body.result.parameterErrors, [{ name: 'card.number', value: '************0001', message: 'card.number is not a valid card number (check digit)' }]);
    });

    it('names a wrong check digit beside the card\u2019s other errors, and a wrong IBAN beside the bank account\u2019s', async () => {
      const card = await postForm(cardDebit({ 'card.number': '4200000000000001', 'card.expiryMonth': '13', 'card.cvv': '12', 'card.numbr': '1' }));
      assert.equal(card.status, 400, card.text);
      const names = (card.body.result.parameterErrors as Array<{ name: string; value: string }>).map((e) => e.name).sort();
      assert.deepEqual(names, ['card.cvv', 'card.expiryMonth', 'card.number', 'card.numbr']);
      const number = card.body.result.parameterErrors.find((e: { name: string }) => e.name === 'card.number');
      assert.deepEqual(number, { name: 'card.number', value: '************0001', message: 'card.number is not a valid card number (check digit)' });

      const bank = await postForm({ ...sepaDebit({ 'bankAccount.iban': 'DE89370400440532013001' }), 'bankAccount.holder': '' });
      assert.equal(bank.status, 400, bank.text);
      const bankNames = (bank.body.result.parameterErrors as Array<{ name: string }>).map((e) => e.name).sort();
      assert.deepEqual(bankNames, ['bankAccount.holder', 'bankAccount.iban']);
    });

    it('names an unknown parameter', async () => {
      const a = await postForm(cardDebit({ shoeSize: '42' }));
      assertInvalid(a, '200.300.404', ['shoeSize']);
      assert.deepEqual(a.body.result.parameterErrors, [{ name: 'shoeSize', value: '42', message: 'shoeSize is not a parameter of this request' }]);
    });

    it('masks a card number sent as a parameter\u2019s name, in the name and in the message naming it', async () => {
      const a = await postForm(cardDebit({ '4200000000000000': '1', 'card.4012-0010-3714-1112': 'x' }));
      assert.equal(a.status, 400, a.text);
      assert.equal(a.text.includes('4200000000000000') || a.text.includes('4012-0010-3714-1112'), false, a.text);
      const errors = a.body.result.parameterErrors as Array<{ name: string; message: string }>;
      assert.deepEqual(errors.map((e) => e.name).sort(), ['************0000', 'card.****-****-****-1112']);
      assert.deepEqual(errors.find((e) => e.name === '************0000'), { name: '************0000', value: '1', message: '************0000 is not a parameter of this request' });
    });

    it('refuses a taxAmount without decimals with 100.550.303, naming taxAmount', async () => {
      assertInvalid(await postForm(cardDebit({ taxAmount: '10' })), '100.550.303', ['taxAmount']);
    });

    it('refuses a zero amount with 100.550.300', async () => {
      assertInvalid(await postForm(cardDebit({ amount: '0.00' })), '100.550.300', ['amount']);
    });

    it('refuses a missing currency with 100.550.400', async () => {
      const params = cardDebit();
      delete (params as Record<string, string | undefined>).currency;
      assertInvalid(await postForm(params), '100.550.400', ['currency']);
    });
  });

  describe('parameter names', () => {
    it('reports a form parameter sent twice', async () => {
      const body = `${new URLSearchParams({ entityId: shopA.entityId, ...cardDebit() })}&amount=1.00`;
      const a = await send('POST', '/v1/payments', { 'content-type': 'application/x-www-form-urlencoded' }, body);
      assertInvalid(a, '200.300.404', ['amount']);
      assert.deepEqual(a.body.result.parameterErrors, [{ name: 'amount', value: '1.00', message: 'amount was sent more than once' }]);
    });

    it('reports a JSON key sent twice in one object (JSON.parse would keep the last), card data masked, nested names written as flat ones', async () => {
      const json = JSON.stringify({ entityId: shopA.entityId, ...cardDebit() });
      const twice = await send('POST', '/v1/payments', { 'content-type': 'application/json' }, `${json.slice(0, -1)},"amount":"1.00"}`);
      assertInvalid(twice, '200.300.404', ['amount']);
      assert.deepEqual(twice.body.result.parameterErrors, [{ name: 'amount', value: '1.00', message: 'amount was sent more than once' }]);
      const card = await send('POST', '/v1/payments', { 'content-type': 'application/json' }, `${json.slice(0, -1)},"card.number":"5200000000000007"}`);
      assert.deepEqual(card.body.result.parameterErrors, [{ name: 'card.number', value: '************0007', message: 'card.number was sent more than once' }]);
      assert.equal(card.text.includes('5200000000000007'), false);
      const nested = await send('POST', '/v1/payments', { 'content-type': 'application/json' }, `${json.slice(0, -1)},"cart":{"items":[{"name":"a","name":"b"}]}}`);
      assert.deepEqual(nested.body.result.parameterErrors, [{ name: 'cart.items[0].name', value: 'b', message: 'cart.items[0].name was sent more than once' }]);
      // An escaped key is the same key.
      const escaped = await send('POST', '/v1/payments', { 'content-type': 'application/json' }, `${json.slice(0, -1)},"\\u0061mount":"2.00"}`);
      assert.deepEqual(escaped.body.result.parameterErrors.map((e: { name: string }) => e.name), ['amount']);
      // The same key in two objects, and key-like text inside a value, are no repetition.
      const fine = await send('POST', '/v1/payments', { 'content-type': 'application/json' }, `${json.slice(0, -1)},"cart":{"items":[{"name":"a"},{"name":"b"}]},"merchantMemo":"{\\"amount\\":1,\\"amount\\":2}"}`);
      assert.equal(fine.status, 200, fine.text);
    });

    it('refuses a JSON body nested 150,000 deep (300 kB, no token) as too deep, and goes on answering', async () => {
      const depth = 150_000;
      const deep = await send('POST', '/v1/payments', { 'content-type': 'application/json' }, `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`);
      assert.equal(deep.status, 400);
      assert.deepEqual(deep.body.result.parameterErrors.map((e: { name: string }) => e.name), ['body', 'entityId']);
      assert.equal((await postForm(cardDebit())).status, 200);
    });

    it('reads a JSON body that starts with a byte order mark', async () => {
      const a = await send('POST', '/v1/payments', { 'content-type': 'application/json' }, `\ufeff${JSON.stringify({ entityId: shopA.entityId, ...cardDebit() })}`);
      assert.equal(a.status, 200, a.text);
    });

    it('masks the card number and security code when they are sent twice', async () => {
      const body = `${new URLSearchParams({ entityId: shopA.entityId, ...cardDebit() })}&card.number=5200000000000007&card.cvv=987`;
      const a = await send('POST', '/v1/payments', { 'content-type': 'application/x-www-form-urlencoded' }, body);
      assertInvalid(a, '200.300.404', ['card.number', 'card.cvv']);
      assert.deepEqual(a.body.result.parameterErrors, [
        { name: 'card.number', value: '************0007', message: 'card.number was sent more than once' },
        { name: 'card.cvv', value: '***', message: 'card.cvv was sent more than once' },
      ]);
      assert.equal(a.text.includes('5200000000000007'), false);
    });

    it('masks a card number sent twice even when entityId is missing too', async () => {
      const body = `card.number=${CARD_NUMBER}&card.number=5200000000000007`;
      const a = await send('POST', '/v1/payments', { 'content-type': 'application/x-www-form-urlencoded' }, body);
      assert.equal(a.status, 400);
      assert.deepEqual(a.body.result.parameterErrors, [
        { name: 'card.number', value: '************0007', message: 'card.number was sent more than once' },
        { name: 'entityId', value: '', message: 'entityId is required: 32 lowercase hexadecimal characters' },
      ]);
      assert.equal(a.text.includes('5200000000000007'), false);
    });

    it('masks card numbers and security codes under malformed or misspelt names, and card numbers under any name', async () => {
      const a = await postForm(cardDebit({ 'card[cvv]': '987', 'card.cvv[x]': '987', 'card[number]': '5200000000000007', 'card[securityCode]': '987' }));
      assertInvalid(a, '200.300.404', ['card[cvv]', 'card.cvv[x]', 'card[number]', 'card[securityCode]']);
      const values = a.body.result.parameterErrors.map((e: { value: string }) => e.value);
      assert.deepEqual(values, ['***', '***', '****************', '***']);
      assert.equal(a.text.includes('987'), false, a.text);
      const id = await postForm(cardDebit({ merchantTransactionId: `order-5200000000000007-${'x'.repeat(300)}` }));
      assertInvalid(id, '200.300.404', ['merchantTransactionId']);
      assert.match(id.body.result.parameterErrors[0].value, /^order-\*{12}0007-x+$/);
      const entity = await send('POST', '/v1/payments', { 'content-type': 'application/x-www-form-urlencoded' }, new URLSearchParams({ ...cardDebit(), entityId: '5200000000000007' }).toString());
      assert.equal(entity.status, 400);
      assert.equal(entity.text.includes('5200000000000007'), false, entity.text);
    });

    it('lists at most 1000 parameter errors, the last saying how many more failed', async () => {
      const junk = Array.from({ length: 1500 }, (_, i) => `junk${i}=x`).join('&');
      const a = await send('POST', '/v1/payments', { 'content-type': 'application/x-www-form-urlencoded' }, `${new URLSearchParams({ entityId: shopA.entityId, ...cardDebit() })}&${junk}`);
      assert.equal(a.status, 400);
      const errors = a.body.result.parameterErrors;
      assert.equal(errors.length, 1000);
      assert.deepEqual(errors[998], { name: 'junk998', value: 'x', message: 'junk998 is not a parameter of this request' });
      assert.deepEqual(errors[999], { name: 'parameters', value: '', message: 'parameters: 501 more parameter errors are not listed' });
    });

    it('reports a multipart field sent twice', async () => {
      const form = new FormData();
      for (const [name, value] of Object.entries({ entityId: shopA.entityId, ...cardDebit() })) form.append(name, value);
      form.append('amount', '1.00');
      const a = await send('POST', '/v1/payments', {}, form);
      assertInvalid(a, '200.300.404', ['amount']);
    });

    it('refuses a multipart body above 1 MiB, or one that does not state its length, before reading it', async () => {
      const big = new FormData();
      for (const [name, value] of Object.entries({ entityId: shopA.entityId, ...cardDebit() })) big.append(name, value);
      big.append('customParameters[PAD]', 'x'.repeat(1024 * 1024));
      const tooLarge = await send('POST', '/v1/payments', {}, big);
      assert.equal(tooLarge.status, 400, tooLarge.text);
      assert.deepEqual(tooLarge.body.result.parameterErrors, [{ name: 'body', value: '', message: 'the request body is larger than 1 MiB' }]);

      // Chunked: no length to check before reading, so it is not read at all.
      const chunked = await new Promise<{ status: number; body: any }>((resolve, reject) => {
        const url = new URL(`${gw.base}/v1/payments`);
        const request = httpRequest(
          { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { ...auth, 'content-type': 'multipart/form-data; boundary=b', 'transfer-encoding': 'chunked' } },
          (response) => {
            let text = '';
            response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
            response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
          },
        );
        request.on('error', reject);
        request.write(`--b\r\ncontent-disposition: form-data; name="entityId"\r\n\r\n${shopA.entityId}\r\n`);
        request.end('--b--\r\n');
      });
      assert.equal(chunked.status, 400);
      assert.deepEqual(chunked.body.result.parameterErrors, [{ name: 'body', value: '', message: 'a multipart/form-data body must be sent with its Content-Length' }]);
      // A multipart request of a usual size is read as ever.
      assert.equal((await postMultipart(cardDebit())).status, 200);
      // Nor is any body trickled past 30 s: the server ends the request (Node's 408), looking every 2 s
      // (Node's own 30 s let one live up to a minute).
      assert.equal(gw.running.app.server.requestTimeout, 30_000);
      assert.equal((gw.running.app.server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval, 2_000);
    });

    it('reports a JSON parameter sent both nested and flat', async () => {
      const a = await postJson({ entityId: shopA.entityId, ...nestedJson(cardDebit()), 'card.number': '5200000000000007' });
      assertInvalid(a, '200.300.404', ['card.number']);
    });

    it('reports a value that clashes with a group (card=x with card.number=y)', async () => {
      const a = await postForm({ ...cardDebit(), card: 'x' });
      assertInvalid(a, '200.300.404', ['card']);
      assert.equal(a.body.result.parameterErrors[0].message, 'card conflicts with another parameter of the same name');
    });

    it('refuses an index above 999, naming the parameter', async () => {
      const a = await postForm(cardDebit({ 'cart.items[1000].name': 'x' }));
      assertInvalid(a, '200.300.404', ['cart.items[1000].name']);
    });

    it('refuses __proto__ and constructor names without polluting the server', async () => {
      const a = await postForm(cardDebit({ '__proto__.polluted': 'yes', 'constructor.prototype.polluted': 'yes' }));
      assertInvalid(a, '200.300.404', ['__proto__.polluted', 'constructor.prototype.polluted']);
      const json = await send('POST', '/v1/payments', { 'content-type': 'application/json' }, `{"entityId":"${shopA.entityId}","__proto__":{"polluted":"yes"}}`);
      assertInvalid(json, '200.300.404', ['__proto__.polluted']);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      // The server still works normally afterwards.
      assert.equal((await postForm(cardDebit())).status, 200);
    });
  });

  describe('bodies that cannot be read', () => {
    it('refuses malformed JSON with HTTP 400 and never echoes the body', async () => {
      const body = `{"entityId":"${shopA.entityId}","card.number":"${CARD_NUMBER}","card.cvv":"987",`;
      const a = await send('POST', '/v1/payments', { 'content-type': 'application/json' }, body);
      assert.equal(a.status, 400);
      assert.equal(a.body.result.code, '200.300.404');
      assert.deepEqual(a.body.result.parameterErrors[0], { name: 'body', value: '', message: 'body is not valid JSON' });
      assert.equal(a.text.includes(CARD_NUMBER), false);
      assert.equal(a.text.includes('987'), false);
      assert.equal(a.text.includes('Unexpected'), false);
    });

    it('refuses a body nested thousands of levels deep with 400 naming it, before and after authentication, never a 500', async () => {
      const json = `{"entityId":"${shopA.entityId}","a":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
      const a = await send('POST', '/v1/payments', { 'content-type': 'application/json' }, json);
      assert.equal(a.status, 400, a.text.slice(0, 200));
      assert.deepEqual(a.body.result.parameterErrors, [{ name: 'body', value: '', message: 'body nests parameters deeper than 12 levels' }]);
      // Read before the token is checked: without one, the answer is the 401 for it.
      assert.equal((await send('POST', '/v1/payments', { 'content-type': 'application/json', authorization: '' }, json)).status, 401);
      const form = await postForm({ [`a${'.b'.repeat(2000)}`]: '1', [`c${'[0]'.repeat(5000)}`]: '2' });
      assert.equal(form.status, 400);
      assert.deepEqual(
        form.body.result.parameterErrors.map((e: { message: string; name: string }) => e.message.slice(e.name.length)),
        [' is nested deeper than 12 levels', ' is nested deeper than 12 levels'],
      );
      // The checkout payment (no token) too.
      const page = await send('POST', `/v1/checkouts/${'0'.repeat(32)}.node/payment`, { 'content-type': 'application/json', authorization: '' }, json);
      assert.ok(page.status < 500, String(page.status));
      assert.equal((await postForm(cardDebit())).status, 200);
    });

    it('refuses a JSON body that is not an object of parameters', async () => {
      for (const body of ['[1,2]', '"text"', '42', 'null']) {
        const a = await send('POST', '/v1/payments', { 'content-type': 'application/json' }, body);
        assert.equal(a.status, 400, body);
        assert.equal(a.body.result.code, '200.300.404');
        assert.deepEqual(a.body.result.parameterErrors[0], { name: 'body', value: '', message: 'the JSON body must be an object of parameters' }, body);
      }
    });

    it('answers 401 before looking at a malformed JSON body without an Authorization header', async () => {
      const a = answer(await fetch(`${gw.base}/v1/payments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"oops"' }));
      assert.equal((await a).status, 401);
    });

    it('refuses an unsupported content type with HTTP 400 naming the accepted ones', async () => {
      for (const type of ['application/xml', 'text/plain', 'text/csv']) {
        const a = await send('POST', '/v1/payments', { 'content-type': type }, `entityId=${shopA.entityId}&amount=1.00`);
        assert.equal(a.status, 400, type);
        assert.equal(a.body.result.code, '200.300.404');
        assert.deepEqual(
          a.body.result.parameterErrors,
          [{ name: 'body', value: '', message: 'Content-Type must be application/x-www-form-urlencoded; charset=UTF-8, multipart/form-data or application/json' }],
          type,
        );
      }
    });

    it('refuses a body above 1 MiB with HTTP 400', async () => {
      const a = await postForm(cardDebit({ descriptor: 'x'.repeat(1024 * 1024 + 1) }));
      assert.equal(a.status, 400);
      assert.equal(a.body.result.code, '200.300.404');
      assert.deepEqual(a.body.result.parameterErrors, [{ name: 'body', value: '', message: 'the request body is larger than 1 MiB' }]);
    });

    it('refuses a truncated or boundary-less multipart body with HTTP 400, not 500', async () => {
      for (const [type, body] of [
        ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="amount"\r\n\r\n1.00'],
        ['multipart/form-data; boundary=x', '--y--'],
        ['multipart/form-data', 'amount=1.00'],
      ]) {
        const a = await send('POST', '/v1/payments', { 'content-type': type! }, body);
        assert.equal(a.status, 400, `${type} ${body}: ${a.text}`);
        assert.equal(a.body.result.code, '200.300.404');
        assert.deepEqual(a.body.result.parameterErrors, [{ name: 'body', value: '', message: 'the request body could not be read' }]);
      }
    });

    it('refuses a multipart file upload with HTTP 400', async () => {
      const form = new FormData();
      for (const [name, value] of Object.entries({ entityId: shopA.entityId, ...cardDebit() })) form.append(name, value);
      form.append('attachment', new Blob(['hello']), 'hello.txt');
      const a = await send('POST', '/v1/payments', {}, form);
      assert.equal(a.status, 400);
      assert.equal(a.body.result.code, '200.300.404');
      assert.deepEqual(a.body.result.parameterErrors, [{ name: 'attachment', value: '', message: 'attachment must be sent once, as a text field' }]);
    });
  });

  describe('methods and paths', () => {
    it('answers PUT on /v1/payments with HTTP 405 and 200.300.403', async () => {
      const a = await send('PUT', '/v1/payments', { 'content-type': 'application/x-www-form-urlencoded' }, new URLSearchParams({ entityId: shopA.entityId, ...cardDebit() }).toString());
      assert.equal(a.status, 405);
      assert.equal(a.headers.get('allow'), 'POST');
      assert.equal(a.body.result.code, '200.300.403');
      assert.deepEqual(a.body.result.parameterErrors, [{ name: 'method', value: 'PUT', message: 'PUT is not supported here; use POST' }]);
    });

    it('answers DELETE and PATCH on /v1/payments with HTTP 405 and 200.300.403', async () => {
      for (const method of ['DELETE', 'PATCH']) {
        const a = await send(method, '/v1/payments', {});
        assert.equal(a.status, 405, method);
        assert.equal(a.body.result.code, '200.300.403');
      }
    });

    it('answers PUT on /v1/payments/{id} with HTTP 405 allowing POST and GET (and HEAD with it)', async () => {
      const a = await send('PUT', '/v1/payments/0123456789abcdef0123456789abcdef', {});
      assert.equal(a.status, 405);
      assert.equal(a.headers.get('allow'), 'POST, GET, HEAD');
      assert.equal(a.body.result.code, '200.300.403');
    });

    it('answers a payment id above 100 characters with HTTP 404 in the gateway envelope, without echoing it', async () => {
      const id = 'a'.repeat(101);
      for (const a of [await send('GET', `/v1/payments/${id}?entityId=${shopA.entityId}`, {}), await postForm({ paymentType: 'RV' }, `/v1/payments/${id}`)]) {
        assert.equal(a.status, 404);
        assert.equal(a.body.result.code, '200.300.404');
        assert.deepEqual(a.body.result.parameterErrors, [{ name: 'path', value: '', message: 'names no resource' }]);
        assert.equal(a.text.includes(id), false);
      }
    });

    it('answers a path with broken percent-encoding with HTTP 400 in the gateway envelope', async () => {
      const a = await send('GET', `/v1/payments/%E0%A4%A?entityId=${shopA.entityId}`, {});
      assert.equal(a.status, 400, a.text);
      assert.equal(a.body.result.code, '200.300.404');
      assert.deepEqual(a.body.result.parameterErrors, [{ name: 'path', value: '', message: 'is not a valid URL path' }]);
    });

    it('answers an unknown path with HTTP 404 in JSON', async () => {
      for (const [method, path] of [
        ['GET', '/v1/nothing-here?x=1'],
        ['POST', '/v2/payments'],
        ['GET', '/'],
      ] as const) {
        const a = await send(method, path, method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}, method === 'POST' ? 'a=1' : undefined);
        assert.equal(a.status, 404, path);
        assert.match(a.headers.get('content-type') ?? '', /^application\/json/);
        assert.equal(a.body.result.code, '200.300.404');
        assert.deepEqual(a.body.result.parameterErrors, [{ name: 'path', value: path.split('?')[0], message: 'there is no endpoint at this path' }]);
        assert.equal(a.body.buildNumber, 'test-build');
      }
    });
  });

  it('never answers with a 5xx for malformed requests', async () => {
    const json = { 'content-type': 'application/json' };
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const deep = `{"entityId":"${shopA.entityId}","a":${'{"b":'.repeat(500)}"x"${'}'.repeat(500)}}`;
    const attempts: Array<[string, string, Record<string, string>, RequestInit['body']]> = [
      ['POST', '/v1/payments', json, '{'],
      ['POST', '/v1/payments', json, deep],
      ['POST', '/v1/payments', json, `{"entityId":"${shopA.entityId}","amount":{"value":"1.00"}}`],
      ['POST', '/v1/payments', json, `{"entityId":"${shopA.entityId}","card":[1,2,3]}`],
      ['POST', '/v1/payments', json, `{"entityId":"${shopA.entityId}","card":"x","card.number":"y"}`],
      ['POST', '/v1/payments', form, `entityId=${shopA.entityId}&amount=%FF%FE&card.number=%`],
      ['POST', '/v1/payments', form, `entityId=${shopA.entityId}&cart.items[999999].name=x&a[`],
      ['POST', '/v1/payments', form, `entityId=${shopA.entityId}&toString.x=1&valueOf=2&hasOwnProperty=3`],
      ['POST', '/v1/payments', form, `entityId=${shopA.entityId}&customParameters[__proto__]=x`],
      ['POST', '/v1/payments', form, `entityId=NOT-HEX`],
      ['POST', '/v1/payments', form, ''],
      ['POST', '/v1/payments', { 'content-type': 'multipart/form-data; boundary=x' }, '--x\r\nbroken'],
      ['POST', '/v1/payments', { 'content-type': 'application/json; charset=latin1' }, '{}'],
      ['POST', '/v1/payments/..%2F..%2Fetc', form, `entityId=${shopA.entityId}&paymentType=RV`],
      ['POST', `/v1/payments/${'a'.repeat(5000)}`, form, `entityId=${shopA.entityId}&paymentType=RV`],
      ['GET', '/v1/payments/%00', {}, undefined],
      ['PUT', '/v1/payments', json, '{'],
      ['OPTIONS', '/v1/payments', {}, undefined],
    ];
    for (const [method, path, headers, body] of attempts) {
      const a = await send(method, path, headers, body);
      const what = `${method} ${path.slice(0, 60)} ${String(body).slice(0, 60)} → ${a.status} ${a.text.slice(0, 200)}`;
      assert.ok(a.status >= 400 && a.status < 500, what);
      // Always the gateway's envelope, never a framework's own error body.
      assert.match(a.body?.result?.code ?? '', /^\d{3}\.\d{3}\.\d{3}$/, what);
      assert.equal(a.body.buildNumber, 'test-build', what);
    }
  });

  it('API answers are never stored by a cache: they carry checkout ids, webhook secrets and payments', async () => {
    const debit = await postForm(cardDebit());
    const checkout = await postForm({ amount: '92.00', currency: 'EUR', paymentType: 'DB' }, '/v1/checkouts');
    const webhook = await postForm({ url: 'https://shop.example/hooks' }, '/v1/webhooks');
    const read = await send('GET', `/v1/payments/${debit.body.id}?entityId=${shopA.entityId}`, {});
    const refused = await postForm({ amount: 'x' });
    assert.deepEqual([debit, checkout, webhook, read, refused].map((a) => [a.status, a.headers.get('cache-control')]), [
      [200, 'no-store'],
      [200, 'no-store'],
      [200, 'no-store'],
      [200, 'no-store'],
      [400, 'no-store'],
    ]);
    assert.match(webhook.body.secret, /^[0-9A-F]{64}$/);
  });

  it('refuses a Host that is no host[:port] before anything builds a URL or a page policy from it', async () => {
    const withHost = (host: string) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const url = new URL(`${gw.base}/v1/checkouts/x/page`);
        const request = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, headers: { host } }, (response) => {
          let text = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
        });
        request.on('error', reject).end();
      });
    for (const host of ['shop.example; script-src *', 'a b', 'shop.example:80/x', "shop.example'"]) {
      const a = await withHost(host);
      assert.equal(a.status, 400, host);
      assert.deepEqual(a.body.result.parameterErrors, [{ name: 'Host', value: '', message: 'Host must be a host name or address, with an optional port' }], host);
    }
    for (const host of ['shop.example', 'localhost:8080', '127.0.0.1:1', '[::1]:8080', 'shop.example.']) assert.equal((await withHost(host)).status, 404, host);
  });
});

describe('request validation in the live environment', () => {
  let live: TestGateway;
  before(async () => {
    live = await startGateway({ env: 'live' });
  });
  after(() => live.close());

  it('refuses testMode with HTTP 400 and 600.200.701', async () => {
    const { status, body } = await live.client.post('/v1/payments', cardDebit({ testMode: 'INTERNAL' }));
    assert.equal(status, 400);
    assert.equal(body.result.code, '600.200.701');
    assert.deepEqual(body.result.parameterErrors, [{ name: 'testMode', value: 'INTERNAL', message: 'testMode is only allowed in the test environment' }]);
  });

  it('answers a payment without testMode with the live success code', async () => {
    const { status, body } = await live.client.post('/v1/payments', cardDebit());
    assert.equal(status, 200);
    assert.equal(body.result.code, '000.000.000');
  });
});
