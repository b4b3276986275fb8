// The 3-D Secure rules as pure functions: the browser data a payment must carry, the simulated
// directory server's and ACS's answer for every path and brand, exemptions, disable and external
// proof, and the codes of every outcome (docs/threeds-protocol.md).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Entity } from '../../server/config.ts';
import { nest, type ParamError } from '../../server/http/params.ts';
import { checkShopperResultUrl } from '../../server/schema/asynchronous.ts';
import { checkCustomer } from '../../server/schema/customer.ts';
import { parseInitialPayment, type AccountCheck, type ValidationContext } from '../../server/schema/requests.ts';
import { checkThreeDSecure, hasExternalProof } from '../../server/schema/threeDSecure.ts';
import {
  afterMethod,
  challengeOutcome,
  eciOf,
  failureCode,
  firstAnswer,
  methodSignals,
  newAuthenticationIds,
  pathOf,
  standaloneCode,
  threeDSecureFields,
  UNKNOWN_CARD,
  type AuthenticationIds,
  type Outcome,
} from '../../server/threeds/directory.ts';
import { BILLING_FIELDS, BROWSER_FIELDS, missingForAuthentication, planAuthentication } from '../../server/threeds/policy.ts';
import { hashToken, newToken, tokenMatches } from '../../server/threeds/steps.ts';

const ctx: ValidationContext = { env: 'test', now: new Date('2026-03-15T12:00:00Z') };
const IDS: AuthenticationIds = { dsTransactionId: 'ds-0001', acsTransactionId: 'acs-0001', verificationId: 'AAACBllleHchZTBWIGV4MAAAAAA=' };
const CARD = { amount: '92.00', currency: 'EUR', paymentType: 'DB', 'card.number': '4200000000000091', 'card.expiryMonth': '05', 'card.expiryYear': '2034' };
const BROWSER: Record<string, string> = {
  'customer.browser.acceptHeader': 'text/html',
  'customer.browser.language': 'en-US',
  'customer.browser.screenHeight': '800',
  'customer.browser.screenWidth': '1280',
  'customer.browser.timezone': '-60',
  'customer.browser.userAgent': 'Mozilla/5.0',
  'customer.browser.javaEnabled': 'false',
};

function parse(params: Record<string, string>) {
  const { value, errors } = nest(params);
  assert.deepEqual(errors, []);
  return parseInitialPayment(value, ctx);
}

/** The parameter errors of a request that must fail. */
function errorsOf(params: Record<string, string>): ParamError[] {
  const result = parse(params);
  assert.equal(result.ok, false, 'the request should have been refused');
  return (result as { ok: false; failure: { parameterErrors: ParamError[] } }).failure.parameterErrors;
}

function accepted(params: Record<string, string>) {
  const result = parse(params);
  assert.equal(result.ok, true, result.ok ? '' : JSON.stringify(result.failure));
}

const entity = (threeDSecure: boolean): Entity => ({
  id: '0'.repeat(32),
  name: 'Test',
  brands: ['VISA', 'MASTER'],
  threeDSecure,
  showConnectorDetails: false,
  reversalCutoffHours: 24,
  throttle: { perSecond: 10 },
  webhooks: [],
  merchantName: 'Test',
  accessToken: 'x'.repeat(16),
});
const CC: AccountCheck = { method: 'CC', brand: 'VISA' };

describe('browser data for 3-D Secure 2', () => {
  it('names each missing browser field and billing field, in the spec\'s order', () => {
    assert.deepEqual(BROWSER_FIELDS, ['acceptHeader', 'language', 'screenHeight', 'screenWidth', 'timezone', 'userAgent', 'javaEnabled']);
    assert.deepEqual(BILLING_FIELDS, ['street1', 'city', 'postcode', 'country']);
    assert.deepEqual(
      missingForAuthentication(undefined, undefined, false).map((e) => [e.name, e.message, e.code]),
      [...BROWSER_FIELDS.map((f) => `customer.browser.${f}`), ...BILLING_FIELDS.map((f) => `billing.${f}`)].map((name) => [name, `${name} is required for 3-D Secure 2`, '200.300.404']),
    );
    // Without a checkout to bring the shopper back, shopperResultUrl is needed too.
    assert.deepEqual(missingForAuthentication(undefined, undefined, true).at(-1), { name: 'shopperResultUrl', value: '', message: "shopperResultUrl is required for 3-D Secure 2: the shopper comes back there from the issuer's page", code: '200.300.404' });
    for (const field of BROWSER_FIELDS) {
      const browser = { acceptHeader: 'a', language: 'en', screenHeight: '1', screenWidth: '1', timezone: '0', userAgent: 'u', javaEnabled: 'false' } as Record<string, string>;
      delete browser[field];
      assert.deepEqual(
        missingForAuthentication({ browser }, { street1: 's', city: 'c', postcode: 'p', country: 'DE' }, false).map((e) => e.name),
        [`customer.browser.${field}`],
      );
    }
    assert.deepEqual(missingForAuthentication({ browser: { ...Object.fromEntries(BROWSER_FIELDS.map((f) => [f, '1'])) } }, { street1: 's', city: 'c', postcode: 'p' }, false).map((e) => e.name), ['billing.country']);
  });

  it('takes timezone as getTimezoneOffset(): minutes, positive when local time is behind UTC, from -840 (UTC+14) to 720 (UTC-12)', () => {
    for (const zone of ['0', '-60', '-120', '300', '720', '-840', '+60', '-0', '570', '-345']) accepted({ ...CARD, ...BROWSER, 'customer.browser.timezone': zone });
    const message = "customer.browser.timezone must be the minutes between UTC and local time, positive when local time is behind UTC (JavaScript's getTimezoneOffset()), from -840 to 720";
    for (const zone of ['721', '840', '-841', '-900', '60.5', 'UTC+1', '', '+-60', '01:00']) {
      const errors = errorsOf({ ...CARD, ...BROWSER, 'customer.browser.timezone': zone });
      assert.equal(errors.length, 1, zone);
      assert.equal(errors[0]!.name, 'customer.browser.timezone');
      if (zone !== '') assert.equal(errors[0]!.message, message, zone);
    }
    assert.equal(errorsOf({ ...CARD, ...BROWSER, 'customer.browser.timezone': '-1200' })[0]!.message, message);
    assert.equal(errorsOf({ ...CARD, ...BROWSER, 'customer.browser.timezone': '123456' })[0]!.message, 'customer.browser.timezone must be at most 5 characters');
  });

  it('takes javaEnabled as true or false only', () => {
    accepted({ ...CARD, ...BROWSER, 'customer.browser.javaEnabled': 'true' });
    accepted({ ...CARD, ...BROWSER, 'customer.browser.javaEnabled': 'false' });
    for (const value of ['TRUE', 'False', '1', '0', 'yes', '']) {
      assert.deepEqual(errorsOf({ ...CARD, ...BROWSER, 'customer.browser.javaEnabled': value }), [
        { name: 'customer.browser.javaEnabled', value, message: 'customer.browser.javaEnabled must be one of true, false' },
      ]);
    }
  });

  it('checks the other browser fields\' forms and lengths', () => {
    accepted({ ...CARD, ...BROWSER, 'customer.browser.language': 'zh-Hant', 'customer.browser.screenColorDepth': '24', 'customer.browser.challengeWindow': '1' });
    accepted({ ...CARD, ...BROWSER, 'customer.browser.challengeWindow': '05', 'customer.browser.deviceId': 'd'.repeat(32), 'customer.app.deviceId': 'a'.repeat(40) });
    const refused = (name: string, value: string, message: string) => assert.deepEqual(errorsOf({ ...CARD, ...BROWSER, [`customer.${name}`]: value }), [{ name: `customer.${name}`, value, message: `customer.${name} ${message}` }]);
    refused('browser.language', 'zh-Hant-TW', 'must be at most 8 characters');
    refused('browser.language', 'english', 'must be a language tag (IETF BCP 47) such as en-US');
    refused('browser.screenHeight', '1234567', 'must be at most 6 characters');
    refused('browser.screenWidth', '12px', 'must contain digits only');
    refused('browser.screenColorDepth', '128', 'must be at most 2 characters');
    refused('browser.challengeWindow', '6', 'must be a challenge window size code from 01 to 05');
    refused('browser.challengeWindow', '00', 'must be a challenge window size code from 01 to 05');
    refused('browser.acceptHeader', 'a'.repeat(2049), 'must be at most 2048 characters');
    refused('browser.userAgent', '', 'must be at least 1 characters');
    refused('browser.deviceId', 'd'.repeat(33), 'must be at most 32 characters');
    refused('app.deviceId', 'a'.repeat(41), 'must be at most 40 characters');
    assert.deepEqual(errorsOf({ ...CARD, 'customer.browser.colour': 'blue' }), [{ name: 'customer.browser.colour', value: 'blue', message: 'customer.browser.colour is not a parameter of this request' }]);
  });
});

describe('customer rules', () => {
  it('browser.* and app.* alone call for no name; any other customer parameter calls for givenName and surname', () => {
    assert.deepEqual(checkCustomer({ browser: { language: 'de' }, app: { deviceId: 'x' } }), []);
    assert.deepEqual(
      checkCustomer({ email: 'jane@example.com', browser: { language: 'de' } }).map((e) => [e.name, e.message, e.code]),
      [
        ['customer.givenName', 'customer.givenName is required when other customer parameters are sent, such as customer.email', '100.700.200'],
        ['customer.surname', 'customer.surname is required when other customer parameters are sent, such as customer.email', '100.700.100'],
      ],
    );
    assert.deepEqual(checkCustomer({ givenName: 'Jane' }).map((e) => [e.name, e.message]), [['customer.surname', 'customer.surname is required when other customer parameters are sent, such as customer.givenName']]);
    assert.deepEqual(checkCustomer({ givenName: 'Jane', surname: 'Jones', email: 'jane@example.com' }), []);
  });

  it('identificationDocType and identificationDocId go together', () => {
    const named = { givenName: 'Jane', surname: 'Jones' };
    assert.deepEqual(checkCustomer({ ...named, identificationDocType: 'PASSPORT' }).map((e) => [e.name, e.code]), [['customer.identificationDocId', '100.700.801']]);
    assert.deepEqual(checkCustomer({ ...named, identificationDocId: 'X1234567' }).map((e) => [e.name, e.code]), [['customer.identificationDocType', '100.700.800']]);
    assert.deepEqual(checkCustomer({ ...named, identificationDocType: 'IDCARD', identificationDocId: 'X1234567' }), []);
  });

  it('is checked on payments, with the catalogue\'s codes', () => {
    const result = parse({ ...CARD, 'customer.email': 'jane@example.com' });
    assert.equal(result.ok, false);
    if (!result.ok) {
      assert.equal(result.failure.code, '100.700.200');
      assert.deepEqual(result.failure.parameterErrors.map((e) => e.name), ['customer.givenName', 'customer.surname']);
    }
  });
});

describe('when authentication applies', () => {
  it('authenticates card PA and DB of an authenticating entity on a card the directory server knows', () => {
    assert.deepEqual(planAuthentication(entity(true), { paymentType: 'DB' }, CC, '4200000000000042'), { kind: 'authenticate', path: 'challenge' });
    assert.deepEqual(planAuthentication(entity(true), { paymentType: 'PA' }, CC, '4200000000000091'), { kind: 'authenticate', path: 'frictionless' });
  });

  it('not: an entity without 3-D Secure, disable=true, a credit, a token or bank account, an unknown card', () => {
    const none = { kind: 'none' };
    assert.deepEqual(planAuthentication(entity(false), { paymentType: 'DB' }, CC, '4200000000000042'), none);
    assert.deepEqual(planAuthentication(entity(true), { paymentType: 'DB', threeDSecure: { disable: 'true' } }, CC, '4200000000000042'), none);
    assert.deepEqual(planAuthentication(entity(true), { paymentType: 'DB', threeDSecure: { disable: 'false' } }, CC, '4200000000000042'), { kind: 'authenticate', path: 'challenge' });
    assert.deepEqual(planAuthentication(entity(false), { paymentType: 'DB', threeDSecure: { disable: 'false' } }, CC, '4200000000000042'), none);
    assert.deepEqual(planAuthentication(entity(true), { paymentType: 'CD' }, CC, '4200000000000042'), none);
    assert.deepEqual(planAuthentication(entity(true), { paymentType: 'DB' }, { method: 'TA', brand: 'VISA' }, '4200000000000042'), none);
    assert.deepEqual(planAuthentication(entity(true), { paymentType: 'DB' }, { method: 'DD', brand: 'DIRECTDEBIT_SEPA' }, undefined), none);
    assert.deepEqual(planAuthentication(entity(true), { paymentType: 'DB' }, CC, '4200000000000000'), none);
    assert.deepEqual(planAuthentication(entity(true), { paymentType: 'DB' }, CC, '4111111111111111'), none);
  });

  it('external proof (eci, verificationId or dsTransactionId) is passed through, on any entity', () => {
    for (const proof of [{ eci: '05' }, { verificationId: 'A'.repeat(28) }, { dsTransactionId: 'd'.repeat(36) }]) {
      assert.equal(hasExternalProof(proof), true);
      assert.deepEqual(planAuthentication(entity(true), { paymentType: 'DB', threeDSecure: proof }, CC, '4200000000000042'), { kind: 'external' });
      assert.deepEqual(planAuthentication(entity(false), { paymentType: 'DB', threeDSecure: proof }, CC, '4200000000000042'), { kind: 'external' });
    }
    assert.equal(hasExternalProof({ authenticationStatus: 'Y', acsTransactionId: 'a'.repeat(36) }), false);
    assert.equal(hasExternalProof(undefined), false);
  });

  it('customParameters[3DS2_flow] forces the path on any card, and must name a flow', () => {
    for (const flow of ['frictionless', 'attempt', 'challenge', 'error', 'notEnrolled', 'methodTimeout'] as const) {
      assert.equal(pathOf('4200000000000000', { '3DS2_flow': flow }), flow);
      assert.deepEqual(planAuthentication(entity(true), { paymentType: 'DB', customParameters: { '3DS2_flow': flow } }, CC, '4111111111111111'), { kind: 'authenticate', path: flow });
    }
    assert.deepEqual(checkThreeDSecure(undefined, { '3DS2_flow': 'sometimes' }).map((e) => [e.name, e.value, e.message]), [
      ['customParameters[3DS2_flow]', 'sometimes', 'customParameters[3DS2_flow] must be one of frictionless, attempt, challenge, error, notEnrolled, methodTimeout'],
    ]);
  });

  it('knows the test cards of DESIGN.md', () => {
    assert.deepEqual(
      ['4200000000000000', '4200000000000091', '5200000000000007', '4200000000000109', '5200000000000023', '4200000000000042', '5200000000000015', '4012001037461114', '5434580000000006', '4012001037141112', '5457350076543210'].map((n) => pathOf(n)),
      ['none', 'frictionless', 'frictionless', 'attempt', 'attempt', 'challenge', 'challenge', 'error', 'error', 'notEnrolled', 'notEnrolled'],
    );
  });

  it('an exemption flags both fields', () => {
    assert.deepEqual(checkThreeDSecure({ exemptionFlag: '01' }, undefined).map((e) => e.name), ['threeDSecure.challengeIndicator']);
    assert.deepEqual(checkThreeDSecure({ exemptionFlag: '01', challengeIndicator: '05' }, undefined), []);
    assert.deepEqual(checkThreeDSecure({ challengeIndicator: '04' }, undefined), []);
  });
});

describe('the simulated directory server and ACS', () => {
  it('answers each path: at once (Y, A), refused (U, N), or with the method step first', () => {
    assert.deepEqual(firstAnswer('frictionless', {}), { kind: 'authenticated', status: 'Y' });
    assert.deepEqual(firstAnswer('attempt', {}), { kind: 'authenticated', status: 'A' });
    assert.deepEqual(firstAnswer('challenge', {}), { kind: 'method' });
    assert.deepEqual(firstAnswer('error', {}), { kind: 'refused', status: 'U', code: '000.400.103' });
    assert.deepEqual(firstAnswer('notEnrolled', {}), { kind: 'refused', status: 'N', code: '000.400.109' });
    assert.deepEqual(firstAnswer('methodTimeout', {}), { kind: 'method' });
    assert.equal(methodSignals('challenge'), true);
    assert.equal(methodSignals('methodTimeout'), false);
    assert.equal(afterMethod('challenge', {}), 'challenge');
    assert.deepEqual(afterMethod('methodTimeout', {}), { kind: 'authenticated', status: 'Y' });
  });

  it('honours exemptions: 04 challenges a frictionless card; an exemption on a challenge card is accepted (I) unless 04', () => {
    assert.deepEqual(firstAnswer('frictionless', { challengeIndicator: '04' }), { kind: 'method' });
    assert.equal(afterMethod('frictionless', { challengeIndicator: '04' }), 'challenge');
    assert.equal(afterMethod('methodTimeout', { challengeIndicator: '04' }), 'challenge');
    assert.deepEqual(firstAnswer('frictionless', { challengeIndicator: '05' }), { kind: 'authenticated', status: 'Y' });
    assert.deepEqual(firstAnswer('challenge', { challengeIndicator: '05', exemptionFlag: '01' }), { kind: 'authenticated', status: 'I' });
    assert.deepEqual(firstAnswer('challenge', { challengeIndicator: '04', exemptionFlag: '01' }), { kind: 'method' });
    // An attempt's issuer does not take part: nothing to challenge with.
    assert.deepEqual(firstAnswer('attempt', { challengeIndicator: '04' }), { kind: 'authenticated', status: 'A' });
    assert.deepEqual(firstAnswer('error', { challengeIndicator: '05', exemptionFlag: '02' }), { kind: 'refused', status: 'U', code: '000.400.103' });
  });

  it('gives each status its electronic commerce indicator per brand family', () => {
    const table = (brand: string) => (['Y', 'A', 'I', 'N', 'U'] as const).map((s) => eciOf(brand, s));
    assert.deepEqual(table('VISA'), ['05', '06', '07', '07', '07']);
    assert.deepEqual(table('MASTER'), ['02', '01', '06', '00', '00']);
    assert.deepEqual(table('MAESTRO'), table('MASTER'));
    assert.deepEqual(table('AMEX'), table('VISA'));
  });

  it('returns the threeDSecure fields of every outcome', () => {
    const fields = (outcome: Outcome | 'pending', brand = 'VISA', exemptions = {}) => threeDSecureFields(outcome, brand, IDS, exemptions);
    const proof = (status: string, eci: string) => ({ eci, verificationId: IDS.verificationId, authenticationStatus: status, dsTransactionId: 'ds-0001', acsTransactionId: 'acs-0001', version: '2.2.0' });
    assert.deepEqual(fields({ kind: 'authenticated', status: 'Y', challenged: false }), proof('Y', '05'));
    assert.deepEqual(fields({ kind: 'authenticated', status: 'Y', challenged: true }, 'MASTER'), proof('Y', '02'));
    assert.deepEqual(fields({ kind: 'authenticated', status: 'A', challenged: false }, 'MASTER'), proof('A', '01'));
    assert.deepEqual(fields({ kind: 'authenticated', status: 'I', challenged: false }, 'VISA', { challengeIndicator: '05', exemptionFlag: '01' }), {
      ...proof('I', '07'),
      challengeIndicator: '05',
      exemptionFlag: '01',
    });
    assert.deepEqual(fields({ kind: 'refused', status: 'U', code: '000.400.103' }), { eci: '07', authenticationStatus: 'U', dsTransactionId: 'ds-0001', version: '2.2.0' });
    assert.deepEqual(fields({ kind: 'refused', status: 'N', code: '000.400.109' }, 'MASTER'), { eci: '00', authenticationStatus: 'N', dsTransactionId: 'ds-0001', version: '2.2.0' });
    assert.deepEqual(fields({ kind: 'failed' }), { eci: '07', authenticationStatus: 'N', dsTransactionId: 'ds-0001', acsTransactionId: 'acs-0001', version: '2.2.0' });
    assert.deepEqual(fields({ kind: 'failed' }, 'MASTER', { challengeIndicator: '04' }), { eci: '00', authenticationStatus: 'N', dsTransactionId: 'ds-0001', acsTransactionId: 'acs-0001', version: '2.2.0', challengeIndicator: '04' });
    for (const outcome of ['pending', { kind: 'cancelled' }, { kind: 'abandoned' }] as const) {
      assert.deepEqual(fields(outcome), { dsTransactionId: 'ds-0001', acsTransactionId: 'acs-0001', version: '2.2.0' });
    }
  });

  it('codes every outcome: payments and standalone authentications', () => {
    assert.equal(failureCode({ kind: 'authenticated', status: 'Y', challenged: true }), undefined);
    assert.equal(failureCode({ kind: 'refused', status: 'U', code: '000.400.103' }), '000.400.103');
    assert.equal(failureCode({ kind: 'refused', status: 'N', code: '000.400.109' }), '000.400.109');
    assert.equal(failureCode(challengeOutcome('fail')), '100.380.401');
    assert.equal(failureCode(challengeOutcome('cancel')), '100.396.101');
    assert.equal(failureCode({ kind: 'abandoned' }), '100.396.103');
    assert.deepEqual(challengeOutcome('approve'), { kind: 'authenticated', status: 'Y', challenged: true });
    assert.equal(standaloneCode({ kind: 'authenticated', status: 'Y', challenged: false }, '000.100.110'), '000.400.110');
    assert.equal(standaloneCode({ kind: 'authenticated', status: 'A', challenged: false }, '000.100.110'), '000.400.110');
    assert.equal(standaloneCode({ kind: 'authenticated', status: 'I', challenged: false }, '000.100.110'), '000.400.110');
    assert.equal(standaloneCode({ kind: 'authenticated', status: 'Y', challenged: true }, '000.000.000'), '000.000.000');
    assert.equal(standaloneCode(UNKNOWN_CARD, '000.100.110'), '000.400.108');
    assert.equal(standaloneCode(challengeOutcome('fail'), '000.100.110'), '100.380.401');
  });

  it('draws UUID transaction ids and a 28-character verificationId (base64 of 20 bytes)', () => {
    const ids = newAuthenticationIds();
    assert.match(ids.dsTransactionId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.match(ids.acsTransactionId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(ids.verificationId.length, 28);
    assert.equal(Buffer.from(ids.verificationId, 'base64').length, 20);
    assert.notEqual(newAuthenticationIds().verificationId, ids.verificationId);
  });
});

describe('redirect tokens and result URLs', () => {
  it('keeps only the hash of a token and matches it in constant time', () => {
    const { token, hash } = newToken();
    assert.match(token, /^[A-Za-z0-9_-]{32}$/);
    assert.equal(hash, hashToken(token));
    assert.equal(tokenMatches({ tokenHash: hash }, token), true);
    assert.equal(tokenMatches({ tokenHash: hash }, `${token}x`), false);
    assert.equal(tokenMatches({ tokenHash: hash }, undefined), false);
    assert.equal(tokenMatches({ tokenHash: hash }, ''), false);
  });

  it('sends the shopper to http(s), or to the app\'s own scheme only; never to javascript:, data:, vbscript:, file:', () => {
    assert.deepEqual(checkShopperResultUrl('https://shop.example/r', undefined), []);
    assert.deepEqual(checkShopperResultUrl('http://localhost:8080/r', undefined), []);
    assert.deepEqual(checkShopperResultUrl('myshop://done', 'myshop://'), []);
    assert.deepEqual(checkShopperResultUrl('MyShop://done', 'myshop://callback'), []);
    assert.equal(checkShopperResultUrl('myshop://done', undefined)[0]!.message, "shopperResultUrl must be an http or https URL; an app's own scheme (myshop:) is taken when merchant.app.schemeUrl names it");
    assert.equal(checkShopperResultUrl('javascript:alert(1)', undefined)[0]!.message, 'shopperResultUrl must be an http or https URL');
    assert.equal(checkShopperResultUrl('other://done', 'myshop://')[0]!.message, "shopperResultUrl must be an http or https URL, or use the app's scheme myshop: of merchant.app.schemeUrl");
    for (const scheme of ['javascript', 'data', 'vbscript', 'file', 'blob', 'about']) {
      assert.equal(checkShopperResultUrl(`${scheme}://x/y`, `${scheme}://`).length, 1, scheme);
      assert.equal(checkShopperResultUrl(`${scheme.toUpperCase()}://x/y`, `${scheme}://`).length, 1, scheme);
    }
    assert.deepEqual(checkShopperResultUrl(undefined, 'javascript://'), []);
  });
});
