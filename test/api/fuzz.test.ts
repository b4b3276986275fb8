// 10,000 random requests against the gateway: real parameter names of every group (read off the
// request schemas' zod shapes) with valid values and junk mixed (very long strings, unicode,
// empty values, control characters, wrong JSON types, huge indexes, names sent twice, __proto__),
// mostly POST /v1/payments, some referencing payments, reads, registrations, checkouts and schedules. Whatever
// is sent, the answer is JSON with a result code, and never a 5xx. The seed is fixed: a failure
// reproduces, and fast-check prints the request it shrank to. On PostgreSQL too (3,000, another
// seed): its columns refuse what SQLite keeps, U+0000 or over-long text, which were 500s there.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { z } from 'zod';
import { checkoutRequest } from '../../server/schema/checkout.ts';
import { initialPaymentRequest, referencingRequest, registrationRequest } from '../../server/schema/requests.ts';
import { scheduleRequest } from '../../server/schema/schedules.ts';
import { cardDebit, databaseUrl, pgSkip, shopA, startGateway, type TestGateway, type TestGatewayOptions } from '../support/gateway.ts';
import { fullCardDebit, groupSamples } from '../support/groups.ts';
import { nameOf, parameterTemplates, type ParamTemplate } from '../support/params.ts';

const SEED = 20_261_122;
const RUNS = 10_000;
const RUNS_ON_POSTGRES = 3_000;
const RESULT_CODE = /^\d{3}\.\d{3}\.\d{3}$/;

type Pair = [string, string];

/** A form can only carry well-formed UTF-16: a lone surrogate goes as U+FFFD, as browsers send it. */
const wellFormed = (text: string) => text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
const encode = (text: string) => encodeURIComponent(wellFormed(text));

// ---------------------------------------------------------------------------------------------
// Values: what a valid value of a leaf looks like, and junk.

const KEYED = /(customParameters|overridePaymentType|\.data|\.parameters)\[[^\]]+\]/g;
/** A sent name as its template is named: indexes [n], keys [key]. */
const templateName = (name: string) => name.replace(/\[\d+\]/g, '[n]').replace(KEYED, '$1[key]');

const known = new Map<string, string[]>();
for (const params of [cardDebit(), fullCardDebit(), ...Object.values(groupSamples)]) {
  for (const [name, value] of Object.entries(params)) {
    const list = known.get(templateName(name)) ?? [];
    if (!list.includes(value)) list.push(value);
    known.set(templateName(name), list);
  }
}

const junk: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', ' ', '\u0000', '\r\n', '\t', 'null', 'undefined', 'NaN', '-1', '0', '-0', '1e309', '99999999999999999999.99', '0x1F', '１２３', '92,00'),
  fc.constantFrom('../../etc/passwd', '<script>alert(1)</script>', "' OR 1=1 --", '%00', '%', '\\', '{}', '[]', '__proto__', 'constructor', 'toString', 'javascript:alert(1)'),
  fc.constantFrom('😀', '\u202Eevil', 'e\u0301', '\uFEFF', '\uD800', '𝕏'.repeat(300), 'ß'.repeat(129), 'Łódź Straße 1'),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: fc.integer({ min: 0, max: 31 }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 10 }),
  fc.integer({ min: 256, max: 70_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 1, max: 40 }).map((n) => '9'.repeat(n)),
);

const validCache = new Map<string, fc.Arbitrary<string>>();
/** Values the leaf's schema describes: a known sample, an enum value, a string of its pattern and lengths. */
function validOf(t: ParamTemplate): fc.Arbitrary<string> {
  const cached = validCache.get(t.name);
  if (cached) return cached;
  const options: Array<fc.Arbitrary<string>> = [];
  const samples = known.get(t.name);
  if (samples) options.push(fc.constantFrom(...samples));
  const json = z.toJSONSchema(t.leaf, { unrepresentable: 'any', io: 'input' }) as { enum?: string[]; pattern?: string; minLength?: number; maxLength?: number };
  const min = json.minLength ?? 0;
  const max = Math.min(json.maxLength ?? 64, 300);
  if (json.enum?.length) options.push(fc.constantFrom(...json.enum.map(String)));
  if (json.pattern) {
    try {
      options.push(fc.stringMatching(new RegExp(json.pattern, 'u')).map((v) => v.slice(0, max)));
    } catch {
      // A pattern fast-check cannot generate from (unicode classes): lengths alone below.
    }
  }
  if (!options.length) options.push(fc.string({ minLength: min, maxLength: Math.max(min, Math.min(max, 40)) }));
  const arbitrary = fc.oneof(...options);
  validCache.set(t.name, arbitrary);
  return arbitrary;
}

/**
 * How a request is made: valid (every value fits its field, lists from index 0), mixed (valid and
 * junk values, any index) or junk (junk values, the base request cut down).
 */
type Mode = 'valid' | 'mixed' | 'junk';
const valueOf = (t: ParamTemplate, mode: Mode) =>
  mode === 'valid' ? validOf(t) : mode === 'mixed' ? fc.oneof({ arbitrary: validOf(t), weight: 3 }, { arbitrary: junk, weight: 2 }) : fc.oneof({ arbitrary: validOf(t), weight: 1 }, { arbitrary: junk, weight: 3 });

const index = fc.oneof({ arbitrary: fc.integer({ min: 0, max: 3 }), weight: 8 }, { arbitrary: fc.constantFrom(999, 1000, 99_999, 12_345_678), weight: 1 });
const key = fc.oneof(
  { arbitrary: fc.constantFrom('SHOPPER_order', 'order.id', 'USER_DATA1', 'VISA', 'CB-ITEMSNB'), weight: 6 },
  { arbitrary: fc.constantFrom('ab', '__proto__', 'constructor', 'x'.repeat(70), '', 'a]b', 'a.b', 'ä ö', '3DS2_flow'), weight: 2 },
);

/** A real parameter name of the template, indexes and keys filled in, with a value. */
function pairOf(t: ParamTemplate, mode: Mode): fc.Arbitrary<Pair> {
  const holes = t.segments.filter((s) => typeof s !== 'string').length;
  const indexOf = mode === 'valid' ? fc.constant(0) : index;
  const keyOf = mode === 'valid' ? fc.constantFrom('SHOPPER_order', 'order.id', 'CB-ITEMSNB') : key;
  return fc.tuple(fc.array(indexOf, { minLength: holes, maxLength: holes }), fc.array(keyOf, { minLength: holes, maxLength: holes }), valueOf(t, mode)).map(([indexes, keys, value]): Pair => [
    nameOf(t.segments, (at) => indexes[t.segments.slice(0, at).filter((s) => typeof s !== 'string').length]!, (at) => keys[t.segments.slice(0, at).filter((s) => typeof s !== 'string').length]!),
    value,
  ]);
}

/** Names no schema has: typos, prototype keys, broken brackets, empty names. */
const fakeName = fc.constantFrom('foo', 'card.numbr', '__proto__.polluted', 'constructor.prototype.polluted', 'a[', 'cart.items[-1].name', 'cart.items[abc].name', '.x', 'x..y', '', 'toString', 'hasOwnProperty', 'customer', 'card', 'cart.items', 'customParameters[]');

// ---------------------------------------------------------------------------------------------
// Requests.

interface Endpoint {
  name: string;
  method: 'POST' | 'GET';
  templates: ParamTemplate[];
  base: () => Record<string, string>;
  path: (id: string) => string;
}

const capture = () => ({ amount: '10.00', currency: 'EUR', paymentType: 'CP' });

interface Sent {
  endpoint: string;
  method: 'POST' | 'GET';
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** On SQLite all RUNS; on PostgreSQL, whose columns refuse what SQLite keeps (U+0000, longer text), a share of them. */
function fuzzSuite(options: TestGatewayOptions, runs: number, seed: number) {
  let gw: TestGateway;
  let paymentId = '';
  let registrationId = '';
  before(async () => {
    gw = await startGateway(options);
    const pa = await gw.client.post('/v1/payments', cardDebit({ paymentType: 'PA', amount: '500.00' }));
    assert.equal(pa.status, 200);
    paymentId = pa.body.id;
    const registration = await gw.client.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
    assert.equal(registration.status, 200);
    registrationId = registration.body.id;
  });
  after(() => gw.close());

  it(`answers ${runs} random requests with JSON and a result code, never a 5xx`, async (t) => {
    const endpoints: Endpoint[] = [
      { name: 'POST /v1/payments', method: 'POST', templates: parameterTemplates(initialPaymentRequest), base: () => cardDebit(), path: () => '/v1/payments' },
      { name: 'POST /v1/payments/{id}', method: 'POST', templates: parameterTemplates(referencingRequest), base: capture, path: (id) => `/v1/payments/${id}` },
      { name: 'GET /v1/payments/{id}', method: 'GET', templates: [], base: () => ({}), path: (id) => `/v1/payments/${id}` },
      { name: 'POST /v1/registrations', method: 'POST', templates: parameterTemplates(registrationRequest), base: () => ({ paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034' }), path: () => '/v1/registrations' },
      { name: 'POST /v1/checkouts', method: 'POST', templates: parameterTemplates(checkoutRequest), base: () => ({ amount: '92.00', currency: 'EUR', paymentType: 'DB' }), path: () => '/v1/checkouts' },
      {
        name: 'POST /scheduling/v1/schedules',
        method: 'POST',
        templates: parameterTemplates(scheduleRequest),
        base: () => ({ registrationId, paymentType: 'DB', amount: '9.99', currency: 'EUR', 'job.expression': '0 0 0 1 * ?' }),
        path: () => '/scheduling/v1/schedules',
      },
    ];
    const weights = [66, 10, 4, 8, 8, 4];
    const ids = fc.oneof(
      { arbitrary: fc.constant('PAYMENT'), weight: 5 },
      { arbitrary: fc.stringMatching(/^[0-9a-f]{32}$/), weight: 2 },
      { arbitrary: fc.constantFrom('x', '..', '%00', 'a'.repeat(101), '0'.repeat(32), 'ÄÖÜ', '__proto__'), weight: 1 },
    );

    const request = fc
      .tuple(
        fc.oneof(...endpoints.map((endpoint, i) => ({ arbitrary: fc.constant(endpoint), weight: weights[i]! }))),
        fc.constantFrom<Mode>('valid', 'valid', 'mixed', 'mixed', 'junk'),
        fc.double({ min: 0, max: 1, noNaN: true }),
        ids,
        fc.constantFrom<'form' | 'json' | 'nested' | 'raw'>('form', 'form', 'form', 'form', 'json', 'nested', 'raw'),
        fc.integer({ min: 0, max: 1_000_000 }),
      )
      .chain(([endpoint, mode, dropShare, id, encoding, salt]) => {
        const real = fc.constantFrom(...(endpoint.templates.length ? endpoint.templates : [{ name: 'x', segments: [], leaf: z.string() } as ParamTemplate])).chain((t) => pairOf(t, mode));
        const fake = fc.tuple(fakeName, junk);
        const pairs = !endpoint.templates.length
          ? fc.constant([] as Pair[])
          : mode === 'valid'
            ? fc.array(real, { maxLength: 6 })
            : fc.array(fc.oneof({ arbitrary: real, weight: 12 }, { arbitrary: fake, weight: 1 }), { maxLength: 8 });
        const jsonTypes = fc.array(fc.constantFrom('string', 'number', 'boolean', 'null', 'array', 'object'), { minLength: 20, maxLength: 20 });
        const raw = fc.constantFrom('{', '[]', '"x"', 'null', '42', `{"entityId":"${shopA.entityId}","a":${'{"b":'.repeat(200)}"x"${'}'.repeat(200)}}`, '{"entityId":1}', '');
        return fc.tuple(fc.constant({ endpoint, mode, dropShare, id, encoding: mode === 'valid' && encoding === 'raw' ? 'form' : encoding, salt }), pairs, fc.boolean(), jsonTypes, raw);
      })
      .map(([{ endpoint, mode, dropShare, id, encoding, salt }, extra, duplicate, jsonTypes, raw]): Sent => {
        // The base request (a card debit, a capture …) whole, or with some of its fields left out.
        const keep = mode === 'valid' ? 0 : mode === 'mixed' ? dropShare * 0.3 : dropShare;
        const base = Object.entries(endpoint.base()).filter((_, i) => ((salt >> i) & 7) / 8 >= keep);
        // Extra values replace the base's of the same name: a name twice is its own case below.
        const names = new Set(extra.map(([name]) => name));
        const pairs: Pair[] = [['entityId', shopA.entityId], ...(base.filter(([name]) => !names.has(name)) as Pair[]), ...extra];
        if (mode !== 'valid' && duplicate && pairs.length > 1) pairs.push(pairs[1 + (salt % (pairs.length - 1))]!);
        const url = endpoint.path(encode(id === 'PAYMENT' ? paymentId : id));
        const auth = { authorization: `Bearer ${shopA.token}` };
        if (endpoint.method === 'GET') return { endpoint: endpoint.name, method: 'GET', url: `${url}?entityId=${shopA.entityId}`, headers: auth };
        if (encoding === 'form') {
          // Now and then bytes no form encoder writes: broken percent-escapes, invalid UTF-8.
          const broken = salt % 23 === 0 ? '&%E0%A4%A=1&amount=%FF%FE&a=%' : '';
          const body = pairs.map(([n, v]) => `${encode(n)}=${encode(v)}`).join('&') + broken;
          return { endpoint: endpoint.name, method: 'POST', url, headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' }, payload: body };
        }
        if (encoding === 'raw') return { endpoint: endpoint.name, method: 'POST', url, headers: { ...auth, 'content-type': 'application/json' }, payload: raw };
        // JSON: flat dotted names, or nested objects; values of every JSON type.
        const typed = (value: string, i: number): unknown => {
          switch (jsonTypes[i % jsonTypes.length]) {
            case 'number':
              return Number.isFinite(Number(value)) && value.trim() !== '' ? Number(value) : salt;
            case 'boolean':
              return salt % 2 === 0;
            case 'null':
              return null;
            case 'array':
              return [value, salt];
            case 'object':
              return { value };
            default:
              return value;
          }
        };
        // Objects without a prototype: a name such as __proto__.polluted must become a key of the
        // body, not pollute this process (which the gateway under test shares).
        const object = () => Object.create(null) as Record<string, unknown>;
        const body = object();
        pairs.forEach(([name, value], i) => {
          const v = name === 'entityId' || mode === 'valid' ? value : typed(value, i);
          if (encoding === 'json') body[name] = v;
          else {
            const parts = name.split('.');
            let node = body;
            for (const part of parts.slice(0, -1)) {
              const next = node[part];
              node = (next !== null && typeof next === 'object' && !Array.isArray(next) ? next : (node[part] = object())) as Record<string, unknown>;
            }
            node[parts[parts.length - 1]!] = v;
          }
        });
        return { endpoint: endpoint.name, method: 'POST', url, headers: { ...auth, 'content-type': 'application/json' }, payload: JSON.stringify(body) };
      });

    let sent = 0;
    const byEndpoint = new Map<string, number>();
    const byStatus = new Map<number, number>();
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        sent++;
        byEndpoint.set(r.endpoint, (byEndpoint.get(r.endpoint) ?? 0) + 1);
        const response = await gw.running.app.inject({ method: r.method, url: r.url, headers: r.headers, ...(r.payload !== undefined ? { payload: r.payload } : {}) });
        byStatus.set(response.statusCode, (byStatus.get(response.statusCode) ?? 0) + 1);
        const what = `${r.method} ${r.url.slice(0, 80)} ${String(r.payload ?? '').slice(0, 300)} → ${response.statusCode} ${response.body.slice(0, 300)}`;
        assert.ok(response.statusCode < 500, what);
        assert.match(String(response.headers['content-type'] ?? ''), /^application\/json/, what);
        const body = JSON.parse(response.body) as { result?: { code?: string } };
        assert.match(body.result?.code ?? '', RESULT_CODE, what);
      }),
      { seed, numRuns: runs },
    );
    const seconds = (performance.now() - started) / 1000;
    const summary = `fuzz: ${sent} requests sent in ${seconds.toFixed(1)} s (seed ${seed}); ${[...byEndpoint].map(([e, n]) => `${e} ${n}`).join(', ')}; statuses ${[...byStatus].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}×${n}`).join(' ')}`;
    t.diagnostic(summary);
    assert.equal(sent, runs);
    // Nothing the requests named (__proto__.polluted, constructor.prototype.polluted) reached a prototype.
    assert.deepEqual(Object.keys(Object.prototype), []);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
}

describe('fuzz: random requests over real parameter names', () => fuzzSuite({}, RUNS, SEED));
describe('fuzz on PostgreSQL', { skip: pgSkip }, () => fuzzSuite({ databaseUrl }, RUNS_ON_POSTGRES, SEED + 1));
