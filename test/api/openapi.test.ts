// The OpenAPI document (GET /v1/openapi.json) and the demo's API reference page: the document is
// valid OpenAPI 3.1, lists every route the gateway registers, describes each request body with
// exactly the flat names the request schemas accept (derived here from the zod shapes on their
// own), and real answers match its response schemas.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { compileErrors, validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import Fastify, { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import { demoShop } from '../../demo/shop.ts';
import { parameterRow } from '../../demo/reference.ts';
import { operations, openapiDocument, pageAccountPayment, pageRegistrationPayment } from '../../server/http/openapi.ts';
import { flatName, nest } from '../../server/http/params.ts';
import { registeredRoutes } from '../../server/http/routes/common.ts';
import { authenticationRequest } from '../../server/schema/authentication.ts';
import { cart } from '../../server/schema/cart.ts';
import { chargebackQuery } from '../../server/schema/chargebackQuery.ts';
import { checkoutRequest, checkoutUpdate, parsePagePayment } from '../../server/schema/checkout.ts';
import { crossFieldDependencies } from '../../server/schema/dependencies.ts';
import { flatBodySchema, flatParams, indexPattern } from '../../server/schema/flat.ts';
import { initialPaymentRequest, parseInitialPayment, parseRegistration, referencingRequest, registrationPaymentRequest, registrationRequest } from '../../server/schema/requests.ts';
import { scheduleRequest } from '../../server/schema/schedules.ts';
import { CRON_FIELDS, type CronField } from '../../server/schema/scheduling.ts';
import { cardDebit, shopA, startGateway, type TestGateway } from '../support/gateway.ts';
import { groupSamples } from '../support/groups.ts';

type Json = Record<string, any>;

/** The flat names a zod request schema accepts, walked from its shape (not from JSON Schema), written by params.ts's flatName: [0] for an index, [KEY] for a key. */
function zodNames(schema: z.ZodType, path: PropertyKey[] = []): string[] {
  const def = (schema as unknown as { _zod: { def: Json } })._zod.def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
      return zodNames(def.innerType, path);
    case 'pipe':
      return zodNames(def.in, path);
    case 'union':
      return [...new Set((def.options as z.ZodType[]).flatMap((option) => zodNames(option, path)))];
    case 'object':
      return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([key, child]) => zodNames(child, [...path, key]));
    case 'array':
      return zodNames(def.element, [...path, 0]);
    case 'record':
      return zodNames(def.valueType, [...path, 'KEY']);
    default:
      return [flatName(path)];
  }
}

/** The flat names a flat body schema of the document lists, in zodNames' writing. */
function documentedNames(schema: Json): string[] {
  const patterned = Object.values(schema.patternProperties ?? {}).map((p: any) => p['x-flatName'] as string);
  return [...Object.keys(schema.properties), ...patterned].map((name) => name.replace(/\[n\]/g, '[0]').replace(/\[key\]/g, '[KEY]'));
}

/** A name of documentedNames made concrete: [KEY] → a name every key pattern takes. */
const sendable = (name: string) => name.replace(/\[KEY\]/g, '[ABCD]');

/** The value at a JSON pointer (#/components/schemas/X) of the document. */
function pointer(doc: Json, ref: string): unknown {
  let node: unknown = doc;
  for (const part of ref.replace(/^#\//, '').split('/')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

function refsOf(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refsOf(n, out));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else refsOf(value, out);
    }
  }
  return out;
}

/** A JSON Schema 2020-12 validator over the document's component schemas, strict but for our x- keywords. */
function validators(doc: Json) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  ajv.addVocabulary(['x-group', 'x-flatName', 'x-requiredWith', 'x-enumDescriptions', 'x-enumGroups', 'x-groups']);
  const schemas = JSON.parse(JSON.stringify(doc.components.schemas).replace(/"#\/components\/schemas\/([A-Za-z]+)"/g, '"$1"')) as Record<string, Json>;
  for (const [name, schema] of Object.entries(schemas)) ajv.addSchema(schema, name);
  return (name: string, value: unknown) => {
    const check = ajv.getSchema(name)!;
    const valid = check(value);
    return { valid, errors: (check.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`) };
  };
}

/**
 * The fields of an answer its schema does not list, by path: every object whose schema lists
 * properties must list each of its fields (an open object with none, such as threeDSecure, and a
 * record, such as customParameters, are not judged).
 */
function undocumented(doc: Json, value: unknown, schema: Json | undefined, path = ''): string[] {
  while (schema?.$ref) schema = pointer(doc, schema.$ref) as Json;
  if (!schema || value === null || typeof value !== 'object') return [];
  const branches = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (branches) return branches.map((branch) => undocumented(doc, value, branch, path)).sort((a, b) => a.length - b.length)[0]!;
  if (Array.isArray(value)) return value.flatMap((item, i) => undocumented(doc, item, schema.items, `${path}[${i}]`));
  const properties = (schema.properties ?? {}) as Json;
  if (Object.keys(properties).length === 0) return [];
  return Object.entries(value).flatMap(([key, child]) => (key in properties ? undocumented(doc, child, properties[key], `${path}.${key}`) : [`${path}.${key}`]));
}

const BODIES: Record<string, z.ZodType> = {
  PaymentRequest: initialPaymentRequest,
  ReferencingRequest: referencingRequest,
  RegistrationRequest: registrationRequest,
  RegistrationPaymentRequest: registrationPaymentRequest,
  CheckoutRequest: checkoutRequest,
  CheckoutUpdate: checkoutUpdate,
  AuthenticationRequest: authenticationRequest,
  ScheduleRequest: scheduleRequest,
};

describe('OpenAPI document', () => {
  let gw: TestGateway;
  let doc: Json;
  before(async () => {
    gw = await startGateway();
    doc = (await (await fetch(`${gw.base}/v1/openapi.json`)).json()) as Json;
  });
  after(() => gw.close());

  it('is served at GET /v1/openapi.json without a token, with CORS for any origin and an ETag', async () => {
    const response = await fetch(`${gw.base}/v1/openapi.json`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.equal(response.headers.get('cache-control'), 'public, max-age=300');
    const etag = response.headers.get('etag')!;
    // fetch takes gzip: the tag names the gzipped copy of the document.
    assert.match(etag, /^"[A-Za-z0-9_-]{27}\+gzip"$/);
    assert.equal(response.headers.get('content-encoding'), 'gzip');
    assert.deepEqual(await response.json(), openapiDocument({ env: 'test' }));
    const again = await fetch(`${gw.base}/v1/openapi.json`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get('access-control-allow-origin'), '*');
    // Weak comparison: a compressing proxy passes the tag on as W/"…"; * names any.
    for (const tag of [`W/${etag}`, `"other", W/${etag}`, '*']) assert.equal((await fetch(`${gw.base}/v1/openapi.json`, { headers: { 'if-none-match': tag } })).status, 304, tag);
    assert.equal((await fetch(`${gw.base}/v1/openapi.json`, { headers: { 'if-none-match': 'W/"other"' } })).status, 200);
  });

  it('is valid OpenAPI 3.1 for @readme/openapi-parser, with no warnings', async () => {
    assert.equal(doc.openapi, '3.1.1');
    const result = await validate(structuredClone(doc) as never);
    assert.equal(result.valid, true, result.valid ? '' : compileErrors(result));
    assert.deepEqual(result.warnings, []);
    assert.equal(result.specification, 'OpenAPI');
  });

  it('marks notificationUrl deprecated and says nothing is sent to it, on payments and checkouts', () => {
    for (const name of ['PaymentRequest', 'CheckoutRequest']) {
      const field = ((doc.components as Json).schemas as Json)[name] as Json;
      const notificationUrl = (field.properties as Json).notificationUrl as Json;
      assert.equal(notificationUrl.deprecated, true, name);
      assert.match(notificationUrl.description as string, /nothing is sent to it\. Register a webhook/, name);
    }
  });

  it('gives every operation responses, and every $ref resolves', () => {
    let count = 0;
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const [method, operation] of Object.entries(item as Json)) {
        count++;
        assert.ok(Object.keys(operation.responses).length > 0, `${method} ${path} has no responses`);
        for (const response of Object.values(operation.responses as Json)) assert.equal(typeof response.description, 'string');
      }
    }
    assert.equal(count, operations.length);
    const refs = [...new Set(refsOf(doc))];
    assert.ok(refs.includes('#/components/schemas/PaymentResponse'));
    for (const ref of refs) {
      assert.match(ref, /^#\/components\/(schemas|parameters)\/[A-Za-z]+$/);
      assert.notEqual(pointer(doc, ref), undefined, `${ref} does not resolve`);
    }
  });

  it('has component schemas that a strict JSON Schema 2020-12 validator compiles', () => {
    const ajv = new Ajv2020({ strict: true });
    ajv.addVocabulary(['x-group', 'x-flatName', 'x-requiredWith', 'x-enumDescriptions', 'x-enumGroups', 'x-groups']);
    const schemas = JSON.parse(JSON.stringify(doc.components.schemas).replace(/"#\/components\/schemas\/([A-Za-z]+)"/g, '"$1"')) as Record<string, Json>;
    for (const [name, schema] of Object.entries(schemas)) ajv.addSchema(schema, name);
    for (const name of Object.keys(schemas)) assert.equal(typeof ajv.getSchema(name), 'function', name);
  });

  it('lists exactly the routes the gateway registers, with their methods', () => {
    const registered = [...registeredRoutes(gw.running.gateway)].map(([url, methods]) => `${url.replace(/:(\w+)/g, '{$1}')} ${[...methods].map((m) => m.toLowerCase()).sort().join(',')}`);
    const documented = Object.entries(doc.paths as Json).map(([path, item]) => `${path} ${Object.keys(item).sort().join(',')}`);
    assert.deepEqual(documented.sort(), registered.sort());
  });

  it('has info, a relative server, the bearer scheme, and the checkout-scoped endpoints without a token', () => {
    assert.equal(doc.info.title, 'Payment gateway API');
    assert.equal(doc.info.version, JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
    assert.match(doc.info.description, /Authorization: Bearer <access token>/);
    assert.match(doc.info.description, /served by a \*\*test\*\* gateway/);
    assert.deepEqual(doc.servers, [{ url: '/', description: 'This gateway (test environment)' }]);
    const live = openapiDocument({ env: 'live' });
    assert.deepEqual(live.servers, [{ url: '/', description: 'This gateway (live environment)' }]);
    assert.match(String((live.info as Json).description), /served by a \*\*live\*\* gateway/);
    assert.deepEqual(doc.security, [{ bearer: [] }]);
    assert.deepEqual(doc.components.securitySchemes.bearer, { type: 'http', scheme: 'bearer', description: 'The merchant\u2019s access token; entityId names the entity it acts for.' });
    const op = (method: string, path: string) => doc.paths[path][method];
    for (const [method, path] of [['post', '/v1/checkouts/{id}/payment'], ['get', '/v1/checkouts/{id}/form'], ['get', '/v1/checkouts/{id}/page']]) {
      assert.deepEqual(op(method!, path!).security, [], `${method} ${path}`);
      assert.equal(op(method!, path!)['x-credential'], 'checkout id');
    }
    for (const [method, path] of [['post', '/v1/payments'], ['get', '/v1/payments/{id}'], ['post', '/v1/checkouts'], ['get', '/v1/checkouts/{id}/payment']]) {
      assert.equal(op(method!, path!).security, undefined, `${method} ${path} uses the document's bearer`);
      assert.equal(op(method!, path!)['x-credential'], 'access token');
    }
    assert.deepEqual(op('get', '/v1/openapi.json').security, []);
    assert.deepEqual(op('get', '/v1/payments/{id}').parameters, [
      { name: 'id', in: 'path', required: true, description: 'The payment id (id of the payment response).', schema: { type: 'string', pattern: '^[0-9a-f]{32}$' } },
      { $ref: '#/components/parameters/EntityId' },
    ]);
    assert.deepEqual(doc.components.parameters.EntityId, {
      name: 'entityId',
      in: 'query',
      required: true,
      description: 'The entity the request acts for: 32 lowercase hexadecimal characters. The access token must be allowed to act for it.',
      schema: { type: 'string', pattern: '^[0-9a-f]{32}$' },
    });
  });

  it('takes the payment body as form, multipart and JSON (flat or nested)', () => {
    assert.deepEqual(doc.paths['/v1/payments'].post.requestBody, {
      required: true,
      content: {
        'application/x-www-form-urlencoded': { schema: { $ref: '#/components/schemas/PaymentRequest' } },
        'multipart/form-data': { schema: { $ref: '#/components/schemas/PaymentRequest' } },
        'application/json': {
          schema: {
            description:
              'Flat names, nested objects, or both mixed; a JSON number or boolean is taken as its text as written ({"amount":92.00} is "92.00", true is "true"), null as not sent; a name given twice (in one object, or nested and flat) is refused.',
            anyOf: [{ $ref: '#/components/schemas/PaymentRequest' }, { $ref: '#/components/schemas/PaymentRequestJson' }],
          },
        },
      },
    });
    assert.deepEqual(doc.paths['/v1/checkouts/{id}/payment'].post.requestBody.content['application/x-www-form-urlencoded'], {
      schema: { oneOf: [{ $ref: '#/components/schemas/CheckoutPaymentWithAccount' }, { $ref: '#/components/schemas/CheckoutPaymentWithRegistration' }] },
    });
  });

  describe('parameters of POST /v1/payments', () => {
    const body = () => doc.components.schemas.PaymentRequest;

    it('card.number: 8 to 32 digits, required with any card.* parameter', () => {
      assert.deepEqual(body().properties['card.number'], {
        type: 'string',
        minLength: 8,
        maxLength: 32,
        pattern: '^[0-9]*$',
        description: 'Must contain digits only.',
        'x-group': 'card',
        'x-requiredWith': 'card',
      });
      assert.deepEqual(body().dependentRequired['card.cvv'], ['card.number', 'card.expiryMonth', 'card.expiryYear']);
      assert.deepEqual(body().properties['card.cvv'], { type: 'string', minLength: 3, maxLength: 4, pattern: '^[0-9]*$', description: 'Must contain digits only.', 'x-group': 'card' });
    });

    it('lists the rules across fields in dependentRequired, and the gateway refuses each name sent without what it needs', async () => {
      const listed = body().dependentRequired as Record<string, string[]>;
      const rules = crossFieldDependencies(Object.keys(body().properties));
      for (const [name, needs] of Object.entries(rules)) for (const need of needs) assert.ok(listed[name]?.includes(need), `${name} needs ${need}`);
      assert.deepEqual(rules['customer.email'], ['customer.givenName', 'customer.surname']);
      assert.deepEqual(rules['customer.givenName'], ['customer.surname']);
      assert.equal(rules['customer.browser.language'], undefined);
      // A wallet's decrypted form brings the card and the wallet's cryptogram (wallets.ts › checkWallet).
      assert.deepEqual(rules['applePay.source'], ['card.number', 'card.expiryMonth', 'card.expiryYear', 'threeDSecure.verificationId', 'threeDSecure.eci']);
      assert.match(body().properties['googlePay.source'].description, /requires card\.number, .*threeDSecure\.eci/);
      const samples: Record<string, string> = {
        'customer.email': 'jane@example.com',
        'customer.givenName': 'Jane',
        'customer.surname': 'Jones',
        'customer.identificationDocType': 'PASSPORT',
        'customer.identificationDocId': 'C01X00T47',
        'billing.houseNumber1': '12',
        'billing.houseNumber2': 'a',
        'shipping.houseNumber1': '12',
        'shipping.houseNumber2': 'a',
        'merchant.billing.houseNumber1': '12',
        'merchant.billing.houseNumber2': 'a',
        'merchant.shipping.houseNumber1': '12',
        'merchant.shipping.houseNumber2': 'a',
        'threeDSecure.exemptionFlag': '01',
        'threeDSecure.challengeIndicator': '05',
        'applePay.source': 'app',
        'googlePay.source': 'web',
        'samsungPay.source': 'app',
        'card.number': '4200000000000000',
        'card.expiryMonth': '05',
        'card.expiryYear': '2034',
        'threeDSecure.verificationId': 'AAACBllleHchZTBWIGV4MAAAAAA=',
        'threeDSecure.eci': '05',
      };
      const check = validators(doc);
      for (const name of Object.keys(rules).filter((n) => n in samples)) {
        // The nested JSON form says the same: the name alone fails the schema, with what it needs it passes.
        const complete = Object.fromEntries([name, ...rules[name]!].map((n) => [n, samples[n]!]));
        assert.equal(check('PaymentRequestJson', nest({ ...cardDebit({ [name]: samples[name]! }), entityId: shopA.entityId }).value).valid, false, `${name} alone (JSON)`);
        assert.equal(check('PaymentRequestJson', nest({ ...cardDebit(complete), entityId: shopA.entityId }).value).valid, true, `${name} with ${rules[name]} (JSON)`);
        const alone = await gw.client.post('/v1/payments', cardDebit({ [name]: samples[name]! }));
        assert.equal(alone.status, 400, name);
        const named = alone.body.result.parameterErrors.map((e: { name: string }) => e.name);
        // Named on the missing one, or on the one that needs it (houseNumber2 "requires houseNumber1").
        assert.ok(named.every((n: string) => n === name || rules[name]!.includes(n)) && named.length > 0, `${name} alone: ${named}`);
        const together = await gw.client.post('/v1/payments', cardDebit(complete));
        assert.equal(together.status, 200, `${name} with ${rules[name]}: ${JSON.stringify(together.body.result)}`);
      }
    });

    it('asks for exactly one account, as the gateway does (payments and registrations)', () => {
      const check = validators(doc);
      const card = { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034' };
      const bank = { paymentBrand: 'DIRECTDEBIT_SEPA', 'bankAccount.holder': 'Jane Jones', 'bankAccount.iban': 'DE89370400440532013000' };
      const virtual = { paymentBrand: 'PAYPAL', 'virtualAccount.accountId': 'jane@example.com' };
      const token = { paymentBrand: 'VISA', 'tokenAccount.number': '4200000000000000', 'tokenAccount.type': 'NETWORK' };
      const wallet = { paymentBrand: 'GOOGLEPAY', 'googlePay.paymentToken': '{"signature":"x"}' };
      const cases: Array<[string, Record<string, string>, boolean]> = [
        ['no account', { paymentBrand: 'VISA' }, false],
        ['a card', card, true],
        ['a bank account', bank, true],
        ['a virtual account', virtual, true],
        ['a token account', token, true],
        ['a wallet token', wallet, true],
        ['a card and a bank account', { ...bank, ...card }, false],
        ['a virtual account and a token account', { ...virtual, ...token }, false],
        ['a wallet token and a card', { ...card, ...wallet }, false],
      ];
      const now = new Date();
      for (const [what, params, valid] of cases) {
        const payment = { amount: '92.00', currency: 'EUR', paymentType: 'DB', ...params };
        assert.equal(parseInitialPayment(nest(payment).value, { env: 'test', now }).ok, valid, `the gateway: a payment with ${what}`);
        const body = { entityId: shopA.entityId, ...payment };
        assert.equal(check('PaymentRequest', body).valid, valid, `PaymentRequest with ${what}`);
        assert.equal(check('PaymentRequestJson', nest(body).value).valid, valid, `PaymentRequestJson with ${what}`);
        if (params === wallet) continue;
        assert.equal(parseRegistration(nest(params).value, { env: 'test', now }).ok, valid, `the gateway: a registration with ${what}`);
        assert.equal(check('RegistrationRequest', { entityId: shopA.entityId, ...params }).valid, valid, `RegistrationRequest with ${what}`);
      }
      assert.match(body().description, /^Exactly one account: card\.\*, bankAccount\.\*, virtualAccount\.\*, tokenAccount\.\*, a wallet's encrypted token/);
    });

    it('ReferencingRequest asks for amount and currency except for a reversal, as the gateway does', async () => {
      const check = validators(doc);
      const pa = (await gw.client.post('/v1/payments', cardDebit({ paymentType: 'PA' }))).body.id as string;
      for (const [params, valid] of [
        [{ paymentType: 'CP' }, false],
        [{ paymentType: 'CP', amount: '1.00' }, false],
        [{ paymentType: 'CP', amount: '1.00', currency: 'EUR' }, true],
        [{ paymentType: 'RV' }, true],
      ] as const) {
        const body = { entityId: shopA.entityId, ...params };
        assert.equal(check('ReferencingRequest', body).valid, valid, JSON.stringify(params));
        assert.equal(check('ReferencingRequestJson', body).valid, valid, JSON.stringify(params));
        if (!valid) assert.equal((await gw.client.post(`/v1/payments/${pa}`, params)).status, 400, JSON.stringify(params));
      }
    });

    it('amount: up to 10 digits, two decimals optional; required', () => {
      assert.deepEqual(body().properties.amount, {
        type: 'string',
        pattern: '^\\d{1,10}(\\.\\d{2})?$',
        description: 'Must be a decimal amount with up to 10 digits and two decimals, such as 92.00.',
        'x-group': '',
      });
      assert.deepEqual(body().properties.taxAmount.pattern, '^\\d{1,10}\\.\\d{2}$');
      assert.deepEqual(body().required, ['entityId', 'amount', 'currency', 'paymentType']);
    });

    it('currency: three uppercase letters, and the ISO 4217 refinement in words', () => {
      assert.deepEqual(body().properties.currency, {
        type: 'string',
        pattern: '^[A-Z]{3}$',
        description: 'Must be three uppercase letters (ISO 4217). Must be an ISO 4217 currency.',
        'x-group': '',
      });
      assert.deepEqual(body().properties.paymentType, { type: 'string', enum: ['PA', 'DB', 'CD'], 'x-group': '' });
    });

    it('customParameters[key]: a name pattern of 3 to 64 letters, digits, dots, underscores', () => {
      assert.deepEqual(body().patternProperties['^customParameters\\[(?:[A-Za-z0-9._]{3,64})\\]$'], {
        type: 'string',
        minLength: 0,
        maxLength: 2048,
        'x-group': 'customParameters',
        'x-flatName': 'customParameters[key]',
      });
    });

    it('cart.items[n]: an index from 0 to 999 in the name pattern', () => {
      assert.deepEqual(body().patternProperties['^cart\\.items\\[(?:0|[1-9][0-9]{0,2})\\]\\.name$'], {
        type: 'string',
        minLength: 1,
        maxLength: 255,
        'x-group': 'cart',
        'x-flatName': 'cart.items[n].name',
      });
    });

    it('validates real form bodies with a JSON Schema validator', () => {
      const check = validators(doc);
      const debit: Record<string, string> = { entityId: shopA.entityId, ...cardDebit() };
      assert.deepEqual(check('PaymentRequest', debit), { valid: true, errors: [] });
      assert.deepEqual(check('PaymentRequest', { ...debit, 'customParameters[ORDER_REF]': 'A-1', 'cart.items[0].name': 'Shirt', 'cart.items[999].quantity': '2' }), { valid: true, errors: [] });
      const refused = (params: Record<string, string>) => check('PaymentRequest', { ...debit, ...params }).errors;
      assert.deepEqual(refused({ 'card.numbr': '4200000000000000' }), [' must NOT have additional properties {"additionalProperty":"card.numbr"}']);
      assert.deepEqual(refused({ 'cart.items[1000].name': 'Shirt' }), [' must NOT have additional properties {"additionalProperty":"cart.items[1000].name"}']);
      assert.deepEqual(refused({ 'cart.items[01].name': 'Shirt' }), [' must NOT have additional properties {"additionalProperty":"cart.items[01].name"}']);
      assert.deepEqual(refused({ 'customParameters[ab]': 'x' }), [' must NOT have additional properties {"additionalProperty":"customParameters[ab]"}']);
      assert.deepEqual(refused({ 'card.number': '4200-0000' }), ['/card.number must match pattern "^[0-9]*$" {"pattern":"^[0-9]*$"}']);
      assert.deepEqual(refused({ amount: '92.5' }), ['/amount must match pattern "^\\d{1,10}(\\.\\d{2})?$" {"pattern":"^\\\\d{1,10}(\\\\.\\\\d{2})?$"}']);
      const { 'card.number': _number, ...noNumber } = debit;
      const errors = check('PaymentRequest', noNumber).errors;
      // No account left: none of the accounts' groups is complete.
      assert.ok(errors.includes(' must match exactly one schema in oneOf {"passingSchemas":null}'));
      assert.deepEqual(errors.filter((e) => e.includes('when property')), [
        ' must have properties card.number, card.expiryMonth, card.expiryYear when property card.holder is present {"property":"card.holder","missingProperty":"card.number","depsCount":3,"deps":"card.number, card.expiryMonth, card.expiryYear"}',
        ' must have properties card.number, card.expiryYear when property card.expiryMonth is present {"property":"card.expiryMonth","missingProperty":"card.number","depsCount":2,"deps":"card.number, card.expiryYear"}',
        ' must have properties card.number, card.expiryMonth when property card.expiryYear is present {"property":"card.expiryYear","missingProperty":"card.number","depsCount":2,"deps":"card.number, card.expiryMonth"}',
        ' must have properties card.number, card.expiryMonth, card.expiryYear when property card.cvv is present {"property":"card.cvv","missingProperty":"card.number","depsCount":3,"deps":"card.number, card.expiryMonth, card.expiryYear"}',
      ]);
    });
  });

  it('gives the rules of dates, timestamps, 3-D Secure codes, numbers and ids as patterns that agree with the gateway', () => {
    /** [component or query, flat name, values the gateway takes, values it refuses by the pattern alone] */
    const cases: Array<[string, string, string[], string[]]> = [
      ['PaymentRequest', 'customer.birthDate', ['1985-04-12', '2024-02-29', '0100-01-01'], ['1985-4-12', '0099-12-31', '1985-13-01', '1985-04-32', '1985-00-10', '85-04-12', '1985-04-12 ', '']],
      ['PaymentRequest', 'transactionDueDate', ['2030-01-31'], ['2030/01/31']],
      ['PaymentRequest', 'shipping.expectedDate', ['2030-05-02'], ['2030-5-2']],
      ['PaymentRequest', 'standingInstruction.expiry', ['2031-12-31'], ['20311231']],
      ['PaymentRequest', 'bankAccount.mandate.dateOfSignature', ['2020-01-01'], ['2020-01-01T00:00']],
      ['PaymentRequest', 'cart.items[n].deliveryDate', ['2030-05-02'], ['x']],
      ['PaymentRequest', 'airline.passengers[n].legs[n].departureDate', ['2030-05-02'], ['2030-05-02 10:00:00']],
      ['PaymentRequest', 'airline.ticketIssueDate', ['2030-05-02'], ['2030-02-02x']],
      ['PaymentRequest', 'risk.orderTimestamp', ['2024-01-01 10:00:00', '2024-02-29 23:59:59'], ['2024-01-01 24:00:00', '2024-01-01 10:60:00', '2024-01-01T10:00:00', '2024-01-01']],
      ['ScheduleRequest', 'job.startDate', ['2030-01-01 00:00:00'], ['2030-01-01']],
      ['RegistrationRequest', 'recurringMigration.requestTimestamp', ['2024-01-01 10:00:00'], ['2024-01-01 10:00']],
      ['PaymentRequest', 'threeDSecure.eci', ['01', '05', '08'], ['00', '09', '5', '005']],
      ['PaymentRequest', 'threeDSecure.channel', ['01', '10', '99'], ['00', '1', '100']],
      ['PaymentRequest', 'threeDSecure.authType', ['01', '04'], ['00', '05']],
      ['PaymentRequest', 'threeDSecure.challengeIndicator', ['01', '09'], ['00', '10']],
      ['PaymentRequest', 'threeDSecure.exemptionFlag', ['01', '04'], ['00', '05']],
      ['PaymentRequest', 'cart.items[n].itemNumber', ['1', '01', '999'], ['0', '000', '1000', '1.0']],
      ['PaymentRequest', 'numberOfCaptures', ['1', '01', '98'], ['0', '00', '99', '100']],
      ['CheckoutRequest', 'registrations[n].id', ['0123456789abcdef0123456789abcdef'], ['0123456789ABCDEF0123456789ABCDEF', '0123']],
      ['ScheduleRequest', 'registrationId', ['0123456789abcdef0123456789abcdef'], ['0123456789abcdef0123456789abcde']],
      ['query', 'limit', ['100', '250', '500'], ['99', '501', '0100', '1000']],
      ['query', 'paymentTypes', ['DB', 'DB,PA,3D'], ['db', 'DB,', 'DB, PA', 'XX', '']],
      ['query', 'paymentMethods', ['CC', 'CC,DD'], ['CC,XX', '']],
    ];
    const zodOf: Record<string, z.ZodType> = { ...BODIES, query: chargebackQuery };
    const queryParams = doc.paths['/v1/query'].get.parameters as Json[];
    for (const [where, name, taken, refused] of cases) {
      const schema: Json | undefined =
        where === 'query'
          ? queryParams.find((p) => p.name === name)?.schema
          : (doc.components.schemas[where].properties[name] ?? Object.values(doc.components.schemas[where].patternProperties ?? {}).find((p: any) => p['x-flatName'] === name));
      assert.equal(typeof schema?.pattern, 'string', `${where} ${name} has a pattern`);
      assert.ok(schema!.description, `${where} ${name} has a description`);
      const pattern = new RegExp(schema!.pattern, 'u');
      const sent = name.replace(/\[n\]/g, '[0]');
      const refusedByGateway = (value: string) => {
        const parsed = zodOf[where]!.safeParse(nest({ [sent]: value }).value);
        return !parsed.success && parsed.error.issues.some((issue) => flatName(issue.path) === sent);
      };
      for (const value of taken) {
        assert.ok(pattern.test(value), `${name} ${JSON.stringify(value)}: the pattern takes it`);
        assert.ok(!refusedByGateway(value), `${name} ${JSON.stringify(value)}: the gateway takes it`);
      }
      for (const value of refused) {
        assert.ok(!pattern.test(value), `${name} ${JSON.stringify(value)}: the pattern refuses it`);
        assert.ok(refusedByGateway(value), `${name} ${JSON.stringify(value)}: the gateway refuses it`);
      }
    }
  });

  it('gives each job.* field of a schedule the characters it takes as a pattern, and its range in words', () => {
    const body = doc.components.schemas.ScheduleRequest;
    const ranges: Record<CronField, string> = { second: '0-59', minute: '0-59', hour: '0-23', dayOfMonth: '1-31', month: '1-12', dayOfWeek: '1-7 or SUN-SAT', year: '1970-2099' };
    const samples = ['0', '7', '*', '*/5', '1-5', '1,3', '?', 'L', 'LW', '15W', '6L', '2#3', 'MON-FRI', 'mon', 'SUN', '1970', '2099', '', ' 1', '1 ', 'X', '1;2', '1.5', '\u0661', 'A'];
    for (const field of CRON_FIELDS) {
      const schema = body.properties[`job.${field}`];
      assert.equal(typeof schema.pattern, 'string', field);
      assert.ok(String(schema.description).includes(ranges[field]), `${field}: ${schema.description}`);
      const pattern = new RegExp(schema.pattern, 'u');
      for (const value of samples) {
        const parsed = scheduleRequest.safeParse({ job: { [field]: value } });
        const refused = !parsed.success && parsed.error.issues.some((issue) => flatName(issue.path) === `job.${field}`);
        // The pattern names the characters: what the gateway takes, it takes; what it refuses, the gateway refuses.
        if (!refused) assert.ok(pattern.test(value), `job.${field} ${JSON.stringify(value)} is taken by the gateway, refused by the pattern`);
        if (!pattern.test(value)) assert.ok(refused, `job.${field} ${JSON.stringify(value)} is refused by the pattern, taken by the gateway`);
      }
    }
  });

  it('lists, for every request body, exactly the flat names its zod schema accepts', () => {
    for (const [name, schema] of Object.entries(BODIES)) {
      const documented = documentedNames(doc.components.schemas[name]).filter((n) => n !== 'entityId');
      assert.deepEqual([...documented].sort(), [...new Set(zodNames(schema))].sort(), name);
      assert.equal(new Set(documented).size, documented.length, `${name} lists a name twice`);
    }
  });

  it('lists only names the gateway takes: each documented name, sent alone, is never refused as unknown', () => {
    const parsers: Record<string, z.ZodType> = BODIES;
    for (const [name, schema] of Object.entries(parsers)) {
      for (const param of documentedNames(doc.components.schemas[name]).filter((n) => n !== 'entityId')) {
        const nested = nest({ [sendable(param)]: 'x' });
        assert.deepEqual(nested.errors, [], `${name} ${param}`);
        const parsed = schema.safeParse(nested.value);
        const unknown = parsed.success ? [] : parsed.error.issues.filter((issue) => issue.code === 'unrecognized_keys');
        assert.deepEqual(unknown, [], `${name} ${param}`);
      }
    }
  });

  it('lists the payment form bodies as parsePagePayment takes them, name by name', () => {
    // Not the schedule's names: its registrationId is also the page's, where it picks the other body.
    const universe = new Set(Object.keys(BODIES).filter((name) => name !== 'ScheduleRequest').flatMap((name) => documentedNames(doc.components.schemas[name])));
    const variants: Array<{ schema: string; base: Record<string, string> }> = [
      { schema: 'CheckoutPaymentWithAccount', base: {} },
      { schema: 'CheckoutPaymentWithRegistration', base: { registrationId: '0123456789abcdef0123456789abcdef' } },
    ];
    for (const { schema, base } of variants) {
      const documented = new Set(documentedNames(doc.components.schemas[schema]));
      for (const name of new Set([...universe, ...documented])) {
        if (name in base || name === 'entityId') continue;
        const flat = sendable(name);
        const parsed = parsePagePayment(nest({ ...base, [flat]: 'x' }).value, { env: 'test', now: new Date() });
        const refused = !parsed.ok && parsed.failure.parameterErrors.some((e) => e.name === flat && e.message === `${flat} is not a parameter of this request`);
        assert.equal(!refused, documented.has(name), `${schema}: ${flat} is ${refused ? 'refused' : 'taken'} by the gateway`);
      }
    }
    assert.deepEqual(documentedNames(doc.components.schemas.CheckoutPaymentWithAccount), zodNames(pageAccountPayment));
    assert.deepEqual(documentedNames(doc.components.schemas.CheckoutPaymentWithRegistration), zodNames(pageRegistrationPayment));
  });

  it('describes real answers: payment, validation error, checkout, form, result codes, throttling', async () => {
    const check = validators(doc);
    const ok = (name: string, body: unknown) => assert.deepEqual(check(name, body), { valid: true, errors: [] }, `${name}: ${JSON.stringify(body)}`);
    const paid = await gw.client.post('/v1/payments', cardDebit({ 'customParameters[ORDER_REF]': 'A-1' }));
    assert.equal(paid.status, 200);
    ok('PaymentResponse', paid.body);
    ok('PaymentResponse', (await gw.client.get(`/v1/payments/${paid.body.id}`)).body);
    // Every group a payment echoes is in the schema, field by field (no additional field of its own).
    const everything = await gw.client.post('/v1/payments', cardDebit({ ...Object.assign({}, ...Object.values(groupSamples)), shopperResultUrl: 'https://shop.example/result' }));
    assert.equal(everything.status, 200, JSON.stringify(everything.body));
    ok('PaymentResponse', everything.body);
    const answer = doc.components.schemas.PaymentResponse as { properties: Record<string, { properties?: Record<string, unknown> }> };
    for (const name of ['billing', 'customer', 'shipping', 'cart', 'standingInstruction', 'shopperResultUrl', 'merchantInvoiceId', 'giftCard']) assert.ok(answer.properties[name], name);
    assert.ok(answer.properties.standingInstruction!.properties!.initialTransactionId);
    assert.equal(check('PaymentResponse', { ...everything.body, billing: { ...everything.body.billing, street9: 'x' } }).valid, false);
    // Every field the gateway answers is listed, the gateway's own beside the echo of merchant.* and risk.* too.
    assert.deepEqual(undocumented(doc, everything.body, doc.components.schemas.PaymentResponse), []);
    assert.ok(everything.body.merchant.name && everything.body.risk.channelId && everything.body.risk.score, JSON.stringify(everything.body.risk));
    for (const group of ['merchant', 'risk']) assert.equal(check('PaymentResponse', { ...everything.body, [group]: { ...everything.body[group], unknown: 'x' } }).valid, false, group);
    const authorized = await gw.client.post('/v1/payments', cardDebit({ paymentType: 'PA', numberOfCaptures: '2' }));
    assert.equal(authorized.body.numberOfCaptures, '2');
    const captured = await gw.client.post(`/v1/payments/${authorized.body.id}`, { paymentType: 'CP', amount: '92.00', currency: 'EUR', sequence: 'FINAL' });
    assert.equal(captured.body.sequence, 'FINAL');
    for (const answer of [authorized.body, captured.body]) {
      ok('PaymentResponse', answer);
      assert.deepEqual(undocumented(doc, answer, doc.components.schemas.PaymentResponse), []);
    }
    const invalid = await gw.client.post('/v1/payments', cardDebit({ 'card.number': '42', currency: 'eur' }));
    assert.equal(invalid.status, 400);
    ok('ErrorResponse', invalid.body);
    assert.equal(check('PaymentResponse', invalid.body).valid, false);
    const checkout = await gw.client.post('/v1/checkouts', { amount: '92.00', currency: 'EUR', paymentType: 'DB' });
    assert.equal(checkout.status, 200);
    ok('CheckoutResponse', checkout.body);
    const form = await fetch(`${gw.base}/v1/checkouts/${checkout.body.id}/form`);
    assert.equal(form.status, 200);
    ok('CheckoutForm', await form.json());
    ok('CheckoutState', (await gw.client.get(`/v1/checkouts/${checkout.body.id}/payment`)).body);
    ok('ResultCodesResponse', await (await fetch(`${gw.base}/v1/resultcodes`)).json());
    const registration = await gw.client.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
    const migrated = await gw.client.post('/v1/registrations', {
      paymentBrand: 'VISA',
      'card.number': '4200000000000000',
      'card.expiryMonth': '05',
      'card.expiryYear': '2034',
      'customParameters[ORDER_REF]': 'A-1',
      'recurringMigration.paymentType': 'DB',
      'recurringMigration.amount': '12.00',
      'recurringMigration.requestTimestamp': '2024-01-01 10:00:00',
    });
    assert.equal(migrated.status, 200, JSON.stringify(migrated.body));
    ok('RegistrationResponse', migrated.body);
    assert.deepEqual(undocumented(doc, migrated.body, doc.components.schemas.RegistrationResponse), []);
    assert.equal(check('RegistrationResponse', { ...migrated.body, recurringMigration: { ...migrated.body.recurringMigration, unknown: 'x' } }).valid, false);
    const scheduled = await gw.client.post('/scheduling/v1/schedules', { registrationId: registration.body.id, paymentType: 'DB', amount: '5.00', currency: 'EUR', 'job.hour': '6' });
    assert.equal(scheduled.status, 200);
    ok('ScheduleResponse', scheduled.body);
    ok('ScheduleResponse', (await gw.client.delete(`/scheduling/v1/schedules/${scheduled.body.id}`)).body);
    const throttled = gw.clientFor(shopA.token, shopA.throttledEntityId);
    const burst = await Promise.all(Array.from({ length: 8 }, () => throttled.post('/v1/payments', cardDebit())));
    const rejected = burst.find((r) => r.status === 429)!;
    ok('ThrottledResponse', rejected.body);
    assert.equal(check('ThrottledResponse', { ...rejected.body, extra: '1' }).valid, false);
  });

  it('keeps the result-code catalogue as an enum with descriptions and group patterns', () => {
    const codes = doc.components.schemas.ResultCode;
    assert.equal(codes.type, 'string');
    assert.ok(codes.enum.includes('800.120.100'));
    assert.equal(codes['x-enumDescriptions']['800.120.100'], 'too many requests, try later');
    assert.deepEqual(codes['x-enumGroups']['000.100.110'], ['success']);
    assert.equal(codes['x-groups'].success, '^(000\\.000\\.|000\\.100\\.1|000\\.[36]|000\\.400\\.[1][12]0)');
    assert.deepEqual(Object.keys(codes['x-enumDescriptions']), codes.enum);
  });
});

describe('flat parameter names', () => {
  it('writes indexes as [n] with a pattern of 0 to the highest index, keys as [key] with the key pattern', () => {
    const params = flatParams(cart);
    const name = params.find((p) => p.name === 'items[n].name')!;
    assert.deepEqual(name, { name: 'items[n].name', namePattern: '^items\\[(?:0|[1-9][0-9]{0,2})\\]\\.name$', group: 'items', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } });
    const recipient = params.find((p) => p.name === 'items[n].recipient.email')!;
    assert.equal(recipient.namePattern, '^items\\[(?:0|[1-9][0-9]{0,2})\\]\\.recipient\\.email$');
    assert.deepEqual(
      flatParams(checkoutRequest).filter((p) => p.name.startsWith('registrations') || p.name.startsWith('overridePaymentType')),
      [
        {
          name: 'overridePaymentType[key]',
          namePattern: '^overridePaymentType\\[(?:[A-Za-z0-9_]{1,32})\\]$',
          group: 'overridePaymentType',
          required: false,
          schema: { type: 'string', enum: ['PA', 'DB'] },
        },
        {
          name: 'registrations[n].id',
          // A checkout offers at most 10: registrations[0] to [9].
          namePattern: '^registrations\\[(?:[0-9])\\]\\.id$',
          group: 'registrations',
          required: false,
          requiredWith: 'registrations[n]',
          schema: { type: 'string', pattern: '^[0-9a-f]{32}$', description: 'Must be 32 lowercase hexadecimal characters.' },
        },
      ],
    );
  });

  it('writes the keyed groups params.ts knows with brackets, also for fixed keys', () => {
    const names = flatParams(initialPaymentRequest).map((p) => p.name);
    assert.ok(names.includes('threeDSecure.schemeData[CB-ITEMSNB]'));
    assert.ok(names.includes('merchant.data[key]'));
    assert.ok(names.includes('risk.parameters[key]'));
  });

  it('lists every branch of a union of groups once, none of them required', () => {
    const wallet = z.union([z.strictObject({ token: z.string().max(64) }), z.strictObject({ token: z.string().max(64), network: z.enum(['VISA']) })]);
    assert.deepEqual(flatParams(z.strictObject({ wallet: wallet.optional() })), [
      { name: 'wallet.token', group: 'wallet', required: false, schema: { type: 'string', maxLength: 64 } },
      { name: 'wallet.network', group: 'wallet', required: false, schema: { type: 'string', enum: ['VISA'] } },
    ]);
  });

  it('builds index patterns for any highest index', () => {
    assert.equal(indexPattern(999), '0|[1-9][0-9]{0,2}');
    assert.equal(indexPattern(9), '[0-9]');
    assert.equal(indexPattern(0), '0');
    assert.equal(indexPattern(254), '0|[1-9][0-9]{0,1}|1[0-9]{2}|2[0-4][0-9]{1}|25[0-3]|254');
    const pattern = new RegExp(`^(?:${indexPattern(254)})$`);
    const taken = Array.from({ length: 1100 }, (_, i) => String(i)).filter((n) => pattern.test(n));
    assert.equal(taken.length, 255);
    assert.equal(taken.at(-1), '254');
    assert.equal(pattern.test('007'), false);
  });

  it('names what a part brings along in dependentRequired, and leaves names free when closed is false', () => {
    const schema = flatBodySchema([
      { name: 'a', group: '', required: true, schema: { type: 'string' } },
      { name: 'g.x', group: 'g', required: false, requiredWith: 'g', schema: { type: 'string' } },
      { name: 'g.y', group: 'g', required: false, schema: { type: 'string' } },
    ], { closed: false });
    assert.deepEqual(schema, {
      type: 'object',
      properties: { a: { type: 'string', 'x-group': '' }, 'g.x': { type: 'string', 'x-group': 'g', 'x-requiredWith': 'g' }, 'g.y': { type: 'string', 'x-group': 'g' } },
      required: ['a'],
      dependentRequired: { 'g.y': ['g.x'] },
    });
  });
});

describe('API reference page of the demo', () => {
  let gw: TestGateway;
  let shop: FastifyInstance;
  let shopOrigin: string;
  before(async () => {
    gw = await startGateway();
    shop = Fastify();
    await shop.register(demoShop, { gatewayUrl: () => gw.base, publicGatewayUrl: () => gw.base, token: shopA.token, entityId: shopA.entityId });
    shopOrigin = await shop.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await shop.close();
    await gw.close();
  });

  it('renders every operation and each parameter with its constraints, under the shop\u2019s strict policy', async () => {
    const response = await fetch(`${shopOrigin}/reference`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(response.headers.get('content-security-policy')!, /^default-src 'self'; script-src 'self' http:\/\/127\.0\.0\.1:\d+; .*style-src 'self'; .*require-trusted-types-for 'script'$/);
    const html = await response.text();
    assert.doesNotMatch(html, /<script|<style|\sstyle=|\son[a-z]+=/i);
    assert.match(html, /<a href="\/reference">API reference<\/a>/);
    for (const op of operations) assert.ok(html.includes(`<section class="operation" id="${op.operationId}">`), op.operationId);
    const createPayment = html.slice(html.indexOf('id="createPayment"'), html.indexOf('id="referencePayment"'));
    assert.ok(createPayment.includes('<tr><td><code>card.number</code></td><td>string</td><td>8\u201332</td><td><code>^[0-9]*$</code></td><td>with card.*</td><td>Must contain digits only.</td></tr>'));
    assert.ok(createPayment.includes('<tr><td><code>amount</code></td><td>string</td><td></td><td><code>^\\d{1,10}(\\.\\d{2})?$</code></td><td>yes</td><td>Must be a decimal amount with up to 10 digits and two decimals, such as 92.00.</td></tr>'));
    assert.ok(createPayment.includes('<tr><td><code>paymentType</code></td><td>string</td><td></td><td><code>PA</code> <code>DB</code> <code>CD</code></td><td>yes</td><td></td></tr>'));
    assert.ok(createPayment.includes('<tr><td><code>cart.items[n].name</code></td><td>string</td><td>up to 255</td><td></td><td></td><td></td></tr>'));
    assert.ok(createPayment.includes('<tr><td><code>customParameters[key]</code></td><td>string</td><td>up to 2048</td><td></td><td></td><td></td></tr>'));
    assert.ok(createPayment.includes('<details class="group"><summary>card.* <span class="count">'));
    assert.ok(html.includes('<tr><td><code>registrations[n].id</code></td><td>string</td><td></td><td><code>^[0-9a-f]{32}$</code></td><td>in each registrations[n]</td><td>Must be 32 lowercase hexadecimal characters.</td></tr>'));
    assert.ok(html.includes(`<a href="${gw.base}/v1/openapi.json"><code>/v1/openapi.json</code></a>`));
    const answers = html.slice(html.indexOf('<section class="schema" id="schema-PaymentResponse">'));
    assert.ok(answers.includes('<tr><td><code>card.bin</code></td><td>string</td><td></td><td><code>^\\d{6}$</code></td><td></td><td>First six digits of the card number.</td></tr>'));
    assert.ok(answers.includes('<tr><td><code>redirect.parameters[n].name</code></td><td>string</td><td>up to 255</td><td></td><td>in each redirect.parameters[n]</td><td></td></tr>'));
    assert.ok(html.includes('<tr><td><code>800.120.100</code></td><td>too many requests, try later</td><td>riskValidation</td></tr>'));
  });

  it('asks the gateway again with If-None-Match and keeps the page', async () => {
    const first = await (await fetch(`${shopOrigin}/reference`)).text();
    const second = await (await fetch(`${shopOrigin}/reference`)).text();
    assert.equal(second, first);
  });

  it('shows lengths as exactly, up to or a range', () => {
    assert.equal(parameterRow('x', { minLength: 28, maxLength: 28 }, false).length, 'exactly 28');
    assert.equal(parameterRow('x', { minLength: 8, maxLength: 255 }, false).length, '8\u2013255');
    assert.equal(parameterRow('x', { minLength: 1, maxLength: 15 }, false).length, 'up to 15');
    assert.equal(parameterRow('x', { 'x-requiredWith': 'bankAccount' }, false).required, 'with bankAccount.*');
  });
});
