// The OpenAPI 3.1 document of the gateway, generated from the same zod schemas that validate
// requests (server/schema/) and from the answers' schemas (responseSchemas.ts). Request bodies
// are described by their flat parameter names, as merchants send them (server/schema/flat.ts).
// Every operation of the gateway is listed here; test/api/openapi.test.ts holds the list against
// the routes the app registers and the bodies against the request schemas.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CHECKOUT_ID } from '../checkouts/checkouts.ts';
import type { GatewayEnv } from '../config.ts';
import { catalogue, groups, groupsOf, type ResultCode } from '../results.ts';
import { checkoutRequest, checkoutUpdate, merchantSessionRequest, pageAccountPayment, pageRegistrationPayment } from '../schema/checkout.ts';
import { authenticationRequest } from '../schema/authentication.ts';
import { flatBodySchema, flatParams, flattenJsonSchema, nestedJsonSchema, type JsonSchema } from '../schema/flat.ts';
import { accountRule, addNestedDependencies, crossFieldDependencies, referencingAmountRule } from '../schema/dependencies.ts';
import { chargebackQuery } from '../schema/chargebackQuery.ts';
import { reportingParameters } from '../schema/reporting.ts';
import { initialPaymentRequest, referencingRequest, registrationPaymentRequest, registrationRequest } from '../schema/requests.ts';
import { scheduleRequest } from '../schema/schedules.ts';
import { webhookRequest } from '../schema/webhooks.ts';
import { CHALLENGE_ACTIONS } from '../threeds/directory.ts';
import { PROVIDER_ACTIONS } from '../threeds/steps.ts';
import { MAX_INDEX } from './params.ts';
import { responseSchemas, type ResponseName } from './responseSchemas.ts';
import { CHANNEL, FIELDS, LOCALE } from './routes/widget.ts';
import { ID } from '../ids.ts';

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string; description?: string };


// The payment form's two bodies are the parser's own (server/schema/checkout.ts).
export { pageAccountPayment, pageRegistrationPayment };

// The bodies the gateway's own pages post to its shopper pages (3-D Secure and provider steps).
const redirectToken = z.string().min(1).describe('The token of redirect.parameters, as the pending payment\u2019s answer gave it.');
const threeDSMethodData = z.string().describe('base64url JSON of threeDSServerTransID and threeDSMethodNotificationURL (EMV 3-D Secure).');
const tuple = (values: readonly string[]) => values as [string, ...string[]];
const shopperBodies = {
  authenticate: z.object({ token: redirectToken }),
  method: z.object({ threeDSMethodData: threeDSMethodData.optional() }),
  continue: z.object({ token: redirectToken, threeDSCompInd: z.enum(['Y', 'N', 'U']).describe('The method step: Y finished, N not finished within 10 s, U no method URL.') }),
  challenge: z.object({
    threeDSSessionData: redirectToken,
    creq: z.string().optional().describe('The challenge request (base64url JSON); shows the simulated issuer\u2019s page.'),
    action: z.enum(tuple(CHALLENGE_ACTIONS)).optional().describe('The shopper\u2019s answer on the issuer\u2019s page; ends the authentication.'),
  }),
  providerPay: z.object({ token: redirectToken, action: z.enum(tuple(PROVIDER_ACTIONS)).optional().describe('The shopper\u2019s answer on the provider\u2019s page.') }),
};

/** Who may call an operation. */
export type Credential = 'access token' | 'checkout id' | 'redirect token' | 'none';

interface BodyVariant {
  /** Name in components.schemas (the flat form); `${name}Json` is the nested JSON form. */
  name: string;
  title: string;
  schema: z.ZodType;
  /** JSON Schema keywords for rules across fields the schema's shape cannot say (if/then). */
  rules?: JsonSchema;
  /** The body carries exactly one account (dependencies.ts › accountRule). */
  account?: boolean;
}

interface Body {
  variants: BodyVariant[];
  /** The body also carries entityId (the merchant's POSTs). */
  entityId: boolean;
  /** Parameters not listed are refused (the API), or ignored (the shopper pages). */
  closed: boolean;
  /** Nested JSON is accepted too. */
  json: boolean;
}

interface QueryParam {
  name: string;
  required: boolean;
  description: string;
  schema: JsonSchema;
}

type Content = 'json' | 'html' | 'javascript' | 'css' | 'none';

interface ResponseSpec {
  description: string;
  content?: Content;
  /** The JSON schema(s) of the body: one, or any of several. */
  json?: ResponseName | ResponseName[];
  headers?: Record<string, JsonSchema>;
  /** The same answer is also served as text/csv (Accept: text/csv): what the file holds. */
  csv?: string;
}

interface Operation {
  method: 'get' | 'post' | 'delete';
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  credential: Credential;
  /** The {id} of the path (or of another name). */
  id?: { name?: string; description: string; pattern?: RegExp };
  query?: QueryParam[];
  body?: Body;
  /** POST with an Idempotency-Key header. */
  idempotent?: boolean;
  responses: Record<string, ResponseSpec>;
}

const api = (variants: BodyVariant[], entityId = true): Body => ({ variants, entityId, closed: true, json: true });
const page = (name: string, title: string, schema: z.ZodType): Body => ({ variants: [{ name, title, schema }], entityId: false, closed: false, json: false });

const replayed = { 'Idempotent-Replayed': { type: 'string', enum: ['true'], description: 'The stored answer to an earlier request with the same Idempotency-Key.' } };
const json = (description: string, names: ResponseName | ResponseName[], headers?: Record<string, JsonSchema>): ResponseSpec => ({ description, content: 'json', json: names, ...(headers ? { headers } : {}) });
/** The seconds to wait before a throttled request can pass (counters run per second). */
const RETRY_AFTER = { 'Retry-After': { type: 'string', const: '1', description: 'Seconds until a retry can pass: the counters run per second.' } };
const html = (description: string): ResponseSpec => ({ description, content: 'html' });

const unknownId = (what: string) => json(`No ${what} with this id for this entity.`, 'ErrorResponse');
const noCheckout = json('No checkout with this id.', 'ErrorResponse');
const invalid = json('Invalid parameters: result.parameterErrors names each one (200.300.404, or the most specific catalogue code).', 'ErrorResponse');
const inFlight = json('Another request with this Idempotency-Key is still running.', 'ErrorResponse');
const notBuilt = json('The widget is not built (npm run build), or its files do not match the manifest.', 'NotBuiltResponse');
const script = (what: string): Record<string, ResponseSpec> => ({
  '200': { description: `${what}: the exact bytes whose sha384 the manifest holds; CORS *; cached for a year (immutable) at the URL of its version (?v=), revalidated (no-cache, ETag) at any other (the plain one, ?checkoutId=).`, content: 'javascript' },
  '304': { description: 'Not modified (If-None-Match).', content: 'none' },
  '503': notBuilt,
});
const stepPages = (what: string): Record<string, ResponseSpec> => ({
  '400': json('The body could not be read, or a field has a value the page does not take.', 'ErrorResponse'),
  '403': json(`The ${what} does not match this step.`, 'ErrorResponse'),
  '404': json('No such step.', 'ErrorResponse'),
  '429': json('Throttled (the widget calls of the entity).', 'ThrottledResponse', RETRY_AFTER),
});

const entityIdQuery: QueryParam = {
  name: 'entityId',
  required: true,
  description: 'The entity the request acts for: 32 lowercase hexadecimal characters. The access token must be allowed to act for it.',
  schema: { type: 'string', pattern: ID.source },
};

const paymentId = { description: 'The payment id (id of the payment response).', pattern: ID };
const registrationId = { description: 'The registration id.', pattern: ID };
const checkoutId = { description: 'The checkout id (id of POST /v1/checkouts).', pattern: CHECKOUT_ID };
const stepId = { description: 'The pending payment\u2019s step, from redirect.url.', pattern: ID };

/** Query parameters read off a zod schema (flat names, as sent), with notes the schema does not hold. */
function queryOf(schema: z.ZodType, notes: Record<string, string> = {}, only?: string[]): QueryParam[] {
  return flatParams(schema)
    .filter((p) => !only || only.includes(p.name))
    .map((p) => ({ name: p.name, required: p.required, description: [notes[p.name], p.schema.description].filter(Boolean).join(' '), schema: p.schema }));
}

const queryNotes: Record<string, string> = {
  chargebackResultCode: 'Payments charged back with this reason (settled debits and captures of the simulator\u2019s chargeback amounts).',
  merchantTransactionId: 'The merchant\u2019s reference; cannot be combined with date.from/date.to.',
  limit: 'At most this many payments (default 100); linked payments are not counted.',
  'date.from': 'Start of the time frame (UTC), with date.to.',
  'date.to': 'End of the time frame (UTC, the whole second included), with date.from.',
  paymentTypes: 'Only payments of these types.',
  paymentMethods: 'Only payments of these methods: CC every card, DC debit cards (by BIN data), DD direct debits, CT bank transfers, VA virtual accounts, OT online transfers, WA wallets, NT and ET token accounts by token type.',
  includeLinkedTransactions: 'true adds the payments that reference a found payment or that it references.',
  shortId: 'The payment\u2019s short id, dddd.dddd.dddd (ShortId of the reconciliation records).',
};
const reportNotes: Record<string, string> = {
  'date.from': 'First settlement date (UTC).',
  'date.to': 'Last settlement date (UTC); at most 31 days from date.from, both counted.',
  sortValue: 'What the list is sorted by: the settlement date of aggregations, the transaction time of records.',
  sortOrder: 'Ascending (default) or descending.',
};

/** Every operation of the gateway, in the order of the reference. */
export const operations: Operation[] = [
  {
    method: 'post',
    path: '/v1/payments',
    operationId: 'createPayment',
    tag: 'Payments',
    summary: 'Server-to-server payment (PA, DB, CD)',
    description: 'A preauthorization, debit or credit with one account: card, bank account, virtual account, token account or a wallet. Asynchronous methods (3-D Secure, online transfer, PayPal) answer pending with redirect.',
    credential: 'access token',
    body: api([{ name: 'PaymentRequest', title: 'Payment', schema: initialPaymentRequest, account: true }]),
    idempotent: true,
    responses: {
      '200': json('Approved (000.100.110 in test, 000.000.000 in live), or pending with redirect (000.200.000).', 'PaymentResponse', replayed),
      '400': json('Declined (the payment response with the decline code), or invalid parameters (result.parameterErrors).', ['PaymentResponse', 'ErrorResponse'], replayed),
      '409': inFlight,
    },
  },
  {
    method: 'post',
    path: '/v1/payments/{id}',
    operationId: 'referencePayment',
    tag: 'Payments',
    summary: 'Referencing payment: capture (CP), reversal (RV), refund (RF), rebill (RB)',
    credential: 'access token',
    id: paymentId,
    body: api([{ name: 'ReferencingRequest', title: 'Referencing payment', schema: referencingRequest, rules: referencingAmountRule }]),
    idempotent: true,
    responses: {
      '200': json('Done.', 'PaymentResponse', replayed),
      '400': json('Refused by the rules of referencing payments (700.x), declined, or invalid parameters.', ['PaymentResponse', 'ErrorResponse'], replayed),
      '404': json('No payment with this id for this entity (700.400.580).', 'ErrorResponse'),
      '409': inFlight,
    },
  },
  {
    method: 'get',
    path: '/v1/payments/{id}',
    operationId: 'readPayment',
    tag: 'Payments',
    summary: 'Read a payment',
    credential: 'access token',
    id: paymentId,
    query: [entityIdQuery],
    responses: {
      '200': json('The payment, whatever its own result.', 'PaymentResponse'),
      '400': json('An id no payment can have, named (200.300.404); a checkout\u2019s id says where its payment is read.', 'ErrorResponse'),
      '404': json('No payment with this id for this entity (700.400.580).', 'ErrorResponse'),
    },
  },
  {
    method: 'post',
    path: '/v1/registrations',
    operationId: 'createRegistration',
    tag: 'Registrations',
    summary: 'Store an account as a registration (token)',
    credential: 'access token',
    body: api([{ name: 'RegistrationRequest', title: 'Registration', schema: registrationRequest, account: true }]),
    idempotent: true,
    responses: {
      '200': json('Stored.', 'RegistrationResponse', replayed),
      '400': json('Invalid parameters, or the account is refused.', ['RegistrationResponse', 'ErrorResponse'], replayed),
      '409': inFlight,
    },
  },
  {
    method: 'delete',
    path: '/v1/registrations/{id}',
    operationId: 'deleteRegistration',
    tag: 'Registrations',
    summary: 'Delete a registration',
    credential: 'access token',
    id: registrationId,
    query: [entityIdQuery],
    responses: {
      '200': json('Deleted.', 'RegistrationResponse'),
      '400': json('Already deleted (100.150.202).', ['RegistrationResponse', 'ErrorResponse']),
      '404': unknownId('registration'),
    },
  },
  {
    method: 'post',
    path: '/v1/registrations/{id}/payments',
    operationId: 'payWithRegistration',
    tag: 'Registrations',
    summary: 'Pay with a registration (PA, DB, CD)',
    credential: 'access token',
    id: registrationId,
    body: api([{ name: 'RegistrationPaymentRequest', title: 'Registration payment', schema: registrationPaymentRequest }]),
    idempotent: true,
    responses: {
      '200': json('Approved, or pending with redirect.', 'PaymentResponse', replayed),
      '400': json('Declined, or invalid parameters.', ['PaymentResponse', 'ErrorResponse'], replayed),
      '404': unknownId('registration'),
      '409': inFlight,
    },
  },
  {
    method: 'post',
    path: '/v1/checkouts',
    operationId: 'createCheckout',
    tag: 'Checkouts',
    summary: 'Prepare a checkout for the payment widget',
    description: 'integrity=true adds the sha384 integrity of paymentWidgets.js for the script tag. A checkout lives 30 minutes.',
    credential: 'access token',
    body: api([{ name: 'CheckoutRequest', title: 'Checkout', schema: checkoutRequest }]),
    idempotent: true,
    responses: {
      '200': json('Created (000.200.100).', 'CheckoutResponse', replayed),
      '400': invalid,
      '409': inFlight,
      '503': notBuilt,
    },
  },
  {
    method: 'post',
    path: '/v1/checkouts/{id}',
    operationId: 'updateCheckout',
    tag: 'Checkouts',
    summary: 'Update an open checkout',
    description: 'Send only what changes; a group sent replaces that group whole.',
    credential: 'access token',
    id: checkoutId,
    body: api([{ name: 'CheckoutUpdate', title: 'Checkout update', schema: checkoutUpdate }]),
    idempotent: true,
    responses: {
      '200': json('Updated (000.200.101).', 'CheckoutResponse', replayed),
      '400': json('Invalid parameters, or the checkout is no longer open (its state\u2019s code).', ['CheckoutState', 'ErrorResponse']),
      '404': unknownId('checkout'),
      '409': json('A payment of the checkout is under way (000.200.000), or another request with this Idempotency-Key is still running.', ['CheckoutState', 'ErrorResponse']),
      '503': notBuilt,
    },
  },
  {
    method: 'delete',
    path: '/v1/checkouts/{id}',
    operationId: 'cancelCheckout',
    tag: 'Checkouts',
    summary: 'Cancel an open checkout',
    credential: 'access token',
    id: checkoutId,
    query: [entityIdQuery],
    responses: {
      '200': json('Cancelled (000.200.102).', 'CheckoutResponse'),
      '400': json('The checkout is no longer open (its state\u2019s code).', 'CheckoutState'),
      '404': unknownId('checkout'),
      '409': json('A payment of the checkout is under way (000.200.000).', 'CheckoutState'),
    },
  },
  {
    method: 'get',
    path: '/v1/checkouts/{id}/payment',
    operationId: 'readCheckoutPayment',
    tag: 'Checkouts',
    summary: 'The checkout\u2019s payment, for the merchant',
    description: 'Paid: the payment response. Open: 000.200.000. Cancelled: 100.396.101. Expired (30 minutes after its creation, or at its 10th declined payment attempt): 100.396.103. After an asynchronous attempt that ended unsuccessfully: that payment\u2019s response.',
    credential: 'access token',
    id: checkoutId,
    query: [entityIdQuery],
    responses: {
      '200': json('The payment, or the checkout\u2019s state.', ['PaymentResponse', 'CheckoutState']),
      '404': unknownId('checkout'),
    },
  },
  {
    method: 'get',
    path: '/v1/checkouts/{id}/registration',
    operationId: 'readCheckoutRegistration',
    tag: 'Checkouts',
    summary: 'The registration the checkout\u2019s payment created',
    credential: 'access token',
    id: checkoutId,
    query: [entityIdQuery],
    responses: {
      '200': json('The registration, or the checkout\u2019s state.', ['RegistrationResponse', 'CheckoutState']),
      '404': json('No such checkout, or it was paid without creating a registration (100.150.200).', ['ErrorResponse', 'CheckoutState']),
    },
  },
  {
    method: 'get',
    path: '/v1/checkouts/{id}/form',
    operationId: 'readCheckoutForm',
    tag: 'Payment form',
    summary: 'What the payment form shows (called by the widget)',
    description: 'CORS for any origin.',
    credential: 'checkout id',
    id: checkoutId,
    responses: {
      '200': json('The form data: amount, currency, brands, masked registrations.', 'CheckoutForm'),
      '400': json('The checkout is not open (its state\u2019s code).', 'CheckoutState'),
      '404': noCheckout,
      '409': json('A payment of the checkout is under way (000.200.000).', 'CheckoutState'),
      '429': json('Throttled (the widget calls of the entity).', 'ThrottledResponse', RETRY_AFTER),
    },
  },
  {
    method: 'post',
    path: '/v1/checkouts/{id}/payment',
    operationId: 'payCheckout',
    tag: 'Payment form',
    summary: 'Pay the checkout (called by the widget)',
    description:
      'CORS for any origin. Amount, currency and payment type come from the checkout. Either an account (card, bankAccount, virtualAccount, or a wallet\u2019s encrypted token: applePay.paymentToken, googlePay.paymentToken or samsungPay.paymentToken with the wallet\u2019s brand, which the checkout\u2019s entity must offer) or one of the checkout\u2019s registrations; customParameters names must start with SHOPPER_. createRegistration=true (the shopper ticked \u201cSave for future payments\u201d) stores a card or bank account as the checkout\u2019s own createRegistration would; the page cannot withdraw the checkout\u2019s. A checkout takes 10 declined attempts (a payment declined at once, or one whose 3-D Secure or provider step ended without paying): the 10th ends it as expired, and the next attempt is refused with 100.396.103. A refusal of invalid parameters is no attempt.',
    credential: 'checkout id',
    id: checkoutId,
    body: {
      variants: [
        { name: 'CheckoutPaymentWithAccount', title: 'With an account', schema: pageAccountPayment },
        { name: 'CheckoutPaymentWithRegistration', title: 'With a registration', schema: pageRegistrationPayment },
      ],
      entityId: false,
      closed: true,
      json: true,
    },
    idempotent: true,
    responses: {
      '200': json('Approved or pending: redirect says where the shopper goes next.', 'PagePaymentResponse', replayed),
      '400': json('Declined, invalid parameters, already paid (with the paid payment\u2019s code and redirect), or not open (cancelled 100.396.101; expired 100.396.103, also after the checkout\u2019s 10th declined attempt).', ['PagePaymentResponse', 'CheckoutState', 'ErrorResponse'], replayed),
      '404': noCheckout,
      '409': json('Another payment attempt of the checkout is under way (000.200.000).', ['CheckoutState', 'ErrorResponse']),
      '429': json('Throttled (the widget calls of the entity).', 'ThrottledResponse', RETRY_AFTER),
    },
  },
  {
    method: 'post',
    path: '/v1/checkouts/{id}/applePaySession',
    operationId: 'applePayMerchantSession',
    tag: 'Payment form',
    summary: 'Apple Pay merchant validation (called by the widget)',
    description:
      'CORS for any origin. The widget sends the merchantvalidation event\u2019s validationURL; the answer\u2019s merchantSession goes to event.complete(). The shop page\u2019s Origin is the validated domain. Test environment: a simulated session. Live: refused (600.200.201), this gateway has no connection to Apple Pay.',
    credential: 'checkout id',
    id: checkoutId,
    body: { variants: [{ name: 'MerchantSessionRequest', title: 'Validation URL', schema: merchantSessionRequest }], entityId: false, closed: true, json: true },
    responses: {
      '200': json('The merchant session.', 'MerchantSessionResponse'),
      '400': json('The entity does not offer APPLEPAY, or live (600.200.201); validationUrl not Apple\u2019s (200.300.404); the checkout is not open (its state\u2019s code).', ['ErrorResponse', 'CheckoutState']),
      '404': noCheckout,
      '409': json('A payment of the checkout is under way (000.200.000).', 'CheckoutState'),
      '429': json('Throttled (the widget calls of the entity).', 'ThrottledResponse', RETRY_AFTER),
    },
  },
  {
    method: 'get',
    path: '/v1/checkouts/{id}/result',
    operationId: 'checkoutResultHop',
    tag: 'Payment form',
    summary: 'On to the shopperResultUrl, when it is too long for redirect.url',
    description:
      'A paid checkout\u2019s redirect.url is shopperResultUrl with id and resourcePath; when that would exceed 2048 characters, it is this URL, which sends the shopper on to it.',
    credential: 'checkout id',
    id: checkoutId,
    responses: {
      '303': { description: 'To shopperResultUrl with id and resourcePath.', content: 'none' },
      '404': json('No such checkout, or it has no shopperResultUrl (200.300.404).', 'ErrorResponse'),
    },
  },
  {
    method: 'get',
    path: '/v1/checkouts/{id}/page',
    operationId: 'checkoutPage',
    tag: 'Payment form',
    summary: 'The hosted payment page, for apps\u2019 webviews',
    credential: 'checkout id',
    id: checkoutId,
    responses: {
      '200': html('The page with the payment form (its own strict CSP).'),
      '400': json('The checkout has no shopperResultUrl.', 'ErrorResponse'),
      '404': noCheckout,
      '429': json('Throttled (the widget calls of the entity).', 'ThrottledResponse', RETRY_AFTER),
      '503': notBuilt,
    },
  },
  {
    method: 'post',
    path: '/v1/threeDSecure',
    operationId: 'authenticate',
    tag: '3-D Secure',
    summary: 'Standalone 3-D Secure authentication (no payment)',
    credential: 'access token',
    body: api([{ name: 'AuthenticationRequest', title: 'Authentication', schema: authenticationRequest }]),
    idempotent: true,
    responses: {
      '200': json('Authenticated (000.400.110), or pending with redirect for a challenge.', 'AuthenticationResponse', replayed),
      '400': json('Refused, or invalid parameters.', ['AuthenticationResponse', 'ErrorResponse'], replayed),
      '409': inFlight,
    },
  },
  {
    method: 'get',
    path: '/v1/threeDSecure/{id}',
    operationId: 'readAuthentication',
    tag: '3-D Secure',
    summary: 'Read a standalone authentication',
    credential: 'access token',
    id: { description: 'The authentication id.', pattern: ID },
    query: [entityIdQuery],
    responses: {
      '200': json('The authentication, whatever its result.', 'AuthenticationResponse'),
      '404': unknownId('authentication'),
    },
  },
  {
    method: 'get',
    path: '/v1/query/{id}',
    operationId: 'queryPayment',
    tag: 'Transactions and reports',
    summary: 'One payment, with its linked payments on request',
    credential: 'access token',
    id: paymentId,
    query: [entityIdQuery, ...queryOf(chargebackQuery, queryNotes, ['includeLinkedTransactions'])],
    responses: {
      '200': json('payments: the payment, then (includeLinkedTransactions=true) the payments linked to it.', 'QueryResponse'),
      '404': json('No payment with this id for this entity (700.400.580).', 'ErrorResponse'),
    },
  },
  {
    method: 'get',
    path: '/v1/query',
    operationId: 'queryPayments',
    tag: 'Transactions and reports',
    summary: 'Search the entity\u2019s payments',
    description: 'By merchantTransactionId, by a time frame (date.from and date.to), by shortId or by chargebackResultCode (at least one), narrowed by paymentTypes and paymentMethods. merchantTransactionId with a time frame is refused naming the three parameters.',
    credential: 'access token',
    query: [entityIdQuery, ...queryOf(chargebackQuery, queryNotes)],
    responses: { '200': json('The payments found, oldest first (possibly none).', 'QueryResponse') },
  },
  {
    method: 'get',
    path: '/reports/v1/reconciliations/aggregations',
    operationId: 'reconciliationAggregations',
    tag: 'Transactions and reports',
    summary: 'Settlements of a period: one aggregation per settlement date and currency',
    description: 'The simulated clearing institute settles a day\u2019s successful DB, CP, RB, CD and RF payments on the next day (UTC), a reversed payment not; a settlement date is reported once it has begun.',
    credential: 'access token',
    query: [entityIdQuery, ...queryOf(reportingParameters, reportNotes)],
    responses: { '200': json('The aggregations (possibly none).', 'ReconciliationAggregations') },
  },
  {
    method: 'get',
    path: '/reports/v1/reconciliations/aggregations/{id}',
    operationId: 'reconciliationRecords',
    tag: 'Transactions and reports',
    summary: 'The reconciliation records of an aggregation, as JSON or as the spec\u2019s CSV file',
    description: 'Accept: text/csv answers the CSV file: semicolon-separated, a header line in the spec\u2019s column order, CRLF line ends, values holding ; " or a line break quoted.',
    credential: 'access token',
    id: { description: 'The aggregation id (id of an aggregation).', pattern: ID },
    query: [entityIdQuery, ...queryOf(reportingParameters, reportNotes, ['sortValue', 'sortOrder'])],
    responses: {
      '200': { ...json('The records under their API names.', 'ReconciliationRecords'), csv: 'The reconciliation file (Accept: text/csv).' },
      '404': json('No aggregation with this id for this entity (200.300.404 naming id).', 'ErrorResponse'),
    },
  },
  {
    method: 'get',
    path: '/v1/resultcodes',
    operationId: 'resultCodes',
    tag: 'Reference',
    summary: 'The result-code catalogue and its group patterns',
    credential: 'none',
    responses: { '200': json('Every code with its description and groups, and the group patterns.', 'ResultCodesResponse') },
  },
  {
    method: 'get',
    path: '/health/live',
    operationId: 'live',
    tag: 'Operations',
    summary: 'Whether this process answers',
    credential: 'none',
    responses: { '200': { description: '{"status":"live"}', content: 'json' } },
  },
  {
    method: 'get',
    path: '/health/ready',
    operationId: 'ready',
    tag: 'Operations',
    summary: 'Whether this process should be sent requests: its database answers within 2 s and it is not stopping',
    description: 'A live gateway answers it also over plain HTTP (its TLS proxy\u2019s probes). `widget` says whether the checkout widget is built (the API works without it).',
    credential: 'none',
    responses: {
      '200': { description: '{"status":"ready","database":"sqlite"|"postgres","widget":"built"|"not built"}', content: 'json' },
      '503': { description: '{"status":"not ready","reason":"…","widget":…}: the database failed or is slow, or the process is stopping.', content: 'json' },
    },
  },
  {
    method: 'get',
    path: '/v1/openapi.json',
    operationId: 'openapi',
    tag: 'Reference',
    summary: 'This document',
    credential: 'none',
    responses: { '200': { description: 'The OpenAPI 3.1 document (CORS *).', content: 'json' }, '304': { description: 'Not modified (If-None-Match).', content: 'none' } },
  },
  {
    method: 'get',
    path: '/v1/paymentWidgets.js',
    operationId: 'widgetScript',
    tag: 'Widget files',
    summary: 'The checkout script for the shop\u2019s page',
    credential: 'none',
    query: [{ name: 'checkoutId', required: false, description: 'The checkout the form pays; the script reads it from its own src.', schema: { type: 'string', pattern: CHECKOUT_ID.source } }],
    responses: { ...script('The script'), '400': json('checkoutId is not a checkout id.', 'ErrorResponse') },
  },
  { method: 'get', path: '/v1/frames/secure-frame.js', operationId: 'secureFrameScript', tag: 'Widget files', summary: 'The card frames\u2019 script', credential: 'none', responses: script('The script') },
  {
    method: 'get',
    path: '/v1/locales/{file}',
    operationId: 'widgetTexts',
    tag: 'Widget files',
    summary: 'The widget\u2019s texts in one locale other than English',
    description: 'A JSON array of strings, one per text of the widget; the widget fetches its shopper\u2019s locale with the integrity its build holds.',
    credential: 'none',
    id: { name: 'file', description: 'The locale\u2019s file: its language code, with the script or region some locales have, and .json, such as de.json or zh-Hant.json.', pattern: /^[a-z]{2,3}(-[A-Z][a-z]{3}|-[A-Z]{2})?\.json$/ },
    responses: {
      '200': { description: 'The texts: the exact bytes whose sha384 the manifest holds; CORS *; cached for a year (immutable) at the URL of its version (?v=), revalidated (no-cache, ETag) at any other (the plain one, ?checkoutId=).', content: 'json' },
      '304': { description: 'Not modified (If-None-Match).', content: 'none' },
      '404': json('No locale of the widget has this file.', 'ErrorResponse'),
      '503': notBuilt,
    },
  },
  {
    method: 'get',
    path: '/v1/frames/card',
    operationId: 'cardFrame',
    tag: 'Widget files',
    summary: 'The card-number or security-code frame page',
    credential: 'none',
    query: [
      { name: 'field', required: true, description: 'Which field the frame holds.', schema: { type: 'string', enum: [...FIELDS] } },
      { name: 'channel', required: true, description: 'The per-instance key of the messages between page and frame.', schema: { type: 'string', pattern: CHANNEL.source } },
      { name: 'origin', required: true, description: 'The http(s) origin of the page that holds the frame, such as https://shop.example.', schema: { type: 'string' } },
      { name: 'locale', required: false, description: 'Language of the frame (default en).', schema: { type: 'string', pattern: LOCALE.source } },
      { name: 'checkoutId', required: false, description: 'The checkout the number frame pays.', schema: { type: 'string', pattern: CHECKOUT_ID.source } },
    ],
    responses: { '200': html('The frame page (its own strict CSP, script with SRI).'), '400': invalid, '503': notBuilt },
  },
  { method: 'get', path: '/v1/webview.js', operationId: 'webviewScript', tag: 'Widget files', summary: 'The webview page\u2019s script', credential: 'none', responses: script('The script') },
  { method: 'get', path: '/v1/sw.js', operationId: 'serviceWorker', tag: 'Widget files', summary: 'The webview page\u2019s service worker (no-cache, Service-Worker-Allowed: /v1/)', credential: 'none', responses: script('The worker') },
  { method: 'get', path: '/v1/frames/threeds.js', operationId: 'threedsScript', tag: 'Widget files', summary: 'The 3-D Secure pages\u2019 script', credential: 'none', responses: script('The script') },
  {
    method: 'get',
    path: '/v1/frames/pages.css',
    operationId: 'pagesStylesheet',
    tag: 'Widget files',
    summary: 'The stylesheet of the gateway\u2019s pages',
    credential: 'none',
    responses: { '200': { description: 'The stylesheet.', content: 'css' } },
  },
  {
    method: 'post',
    path: '/v1/threeds/{id}/authenticate',
    operationId: 'threedsAuthenticate',
    tag: 'Shopper pages',
    summary: 'The authentication page: redirect.url of a pending card payment',
    description: 'The shopper\u2019s browser POSTs redirect.parameters here. The page runs the issuer\u2019s method URL, then the challenge or the end.',
    credential: 'redirect token',
    id: stepId,
    body: page('ThreedsAuthenticateForm', 'Redirect', shopperBodies.authenticate),
    responses: { '200': html('The authentication page, or the challenge request.'), '303': { description: 'To /complete: the authentication already ended.', content: 'none' }, ...stepPages('token'), '503': notBuilt },
  },
  {
    method: 'post',
    path: '/v1/threeds/{id}/method',
    operationId: 'threedsMethod',
    tag: 'Shopper pages',
    summary: 'The simulated issuer\u2019s method URL (hidden frame)',
    credential: 'redirect token',
    id: stepId,
    body: page('ThreedsMethodForm', 'Method', shopperBodies.method),
    responses: { '200': html('The method page; it notifies the gateway when done.'), ...stepPages('token'), '503': notBuilt },
  },
  {
    method: 'post',
    path: '/v1/threeds/{id}/method/notify',
    operationId: 'threedsMethodNotify',
    tag: 'Shopper pages',
    summary: 'The method notification URL',
    credential: 'redirect token',
    id: stepId,
    body: page('ThreedsMethodNotifyForm', 'Method notification', shopperBodies.method),
    responses: { '200': html('<html data-threeds-method="done">, no script.'), ...stepPages('token') },
  },
  {
    method: 'post',
    path: '/v1/threeds/{id}/continue',
    operationId: 'threedsContinue',
    tag: 'Shopper pages',
    summary: 'After the method step: the challenge, or the end',
    credential: 'redirect token',
    id: stepId,
    body: page('ThreedsContinueForm', 'Continue', shopperBodies.continue),
    responses: { '200': html('The challenge request page.'), '303': { description: 'To /complete: frictionless, or already ended.', content: 'none' }, ...stepPages('token'), '503': notBuilt },
  },
  {
    method: 'post',
    path: '/v1/threeds/{id}/challenge',
    operationId: 'threedsChallenge',
    tag: 'Shopper pages',
    summary: 'The simulated issuer\u2019s challenge page, and its answer',
    credential: 'redirect token',
    id: stepId,
    body: page('ThreedsChallengeForm', 'Challenge', shopperBodies.challenge),
    responses: {
      '200': html('The challenge page: approve, fail or cancel (plain forms, no script).'),
      '303': { description: 'To /complete: the answer ended the authentication.', content: 'none' },
      ...stepPages('threeDSSessionData'),
      '409': json('The authentication has not reached its challenge yet.', 'ErrorResponse'),
    },
  },
  {
    method: 'post',
    path: '/v1/threeds/{id}/cancel',
    operationId: 'threedsCancel',
    tag: 'Shopper pages',
    summary: 'The shopper leaves the authentication (the widget\u2019s Cancel under its challenge frame)',
    credential: 'redirect token',
    id: stepId,
    body: page('ThreedsCancelForm', 'Cancel', shopperBodies.authenticate),
    responses: { '303': { description: 'To /complete: the authentication ended as cancelled (100.396.101), or had already ended.', content: 'none' }, ...stepPages('token') },
  },
  {
    method: 'get',
    path: '/v1/threeds/{id}/complete',
    operationId: 'threedsComplete',
    tag: 'Shopper pages',
    summary: 'The end of an authentication: sends the top-level page to the result',
    credential: 'none',
    id: stepId,
    responses: { '200': html('The completion page (data-result-url).'), '409': html('Still being decided: the page reloads itself.'), ...stepPages('token') },
  },
  {
    method: 'get',
    path: '/v1/threeds/{id}/result',
    operationId: 'threedsResult',
    tag: 'Shopper pages',
    summary: 'The gateway\u2019s result page (no shopperResultUrl)',
    credential: 'none',
    id: stepId,
    responses: { '200': html('The result (data-result-code).'), '409': html('Still being decided: the page reloads itself.'), ...stepPages('token') },
  },
  {
    method: 'post',
    path: '/v1/providers/{id}/pay',
    operationId: 'providerPay',
    tag: 'Shopper pages',
    summary: 'The simulated provider\u2019s page (online transfer, PayPal), and its answer',
    credential: 'redirect token',
    id: stepId,
    body: page('ProviderPayForm', 'Provider', shopperBodies.providerPay),
    responses: { '200': html('Approve or cancel (refuses to be framed).'), '303': { description: 'To /complete.', content: 'none' }, ...stepPages('token') },
  },
  {
    method: 'get',
    path: '/v1/providers/{id}/complete',
    operationId: 'providerComplete',
    tag: 'Shopper pages',
    summary: 'The end of a provider step',
    credential: 'none',
    id: stepId,
    responses: { '303': { description: 'To the result URL.', content: 'none' }, '409': html('Still being decided: the page reloads itself.'), ...stepPages('token') },
  },
  {
    method: 'get',
    path: '/v1/providers/{id}/result',
    operationId: 'providerResult',
    tag: 'Shopper pages',
    summary: 'The gateway\u2019s result page (no shopperResultUrl)',
    credential: 'none',
    id: stepId,
    responses: { '200': html('The result (data-result-code).'), '409': html('Still being decided: the page reloads itself.'), ...stepPages('token') },
  },
];

const webhookId = { description: 'The webhook id (id of POST /v1/webhooks, or of GET /v1/webhooks).', pattern: ID };

/** GET, POST /v1/webhooks and DELETE /v1/webhooks/{id}. */
operations.push(
  {
    method: 'get',
    path: '/v1/webhooks',
    operationId: 'listWebhooks',
    tag: 'Webhooks',
    summary: 'The entity\u2019s webhooks',
    credential: 'access token',
    query: [entityIdQuery],
    responses: { '200': json('The webhooks of the merchants file and of the API, secrets masked.', 'WebhookListResponse') },
  },
  {
    method: 'post',
    path: '/v1/webhooks',
    operationId: 'createWebhook',
    tag: 'Webhooks',
    summary: 'Register a webhook',
    description: 'Notifications of the entity\u2019s payments (PAYMENT CREATED, UPDATED) and registrations (REGISTRATION CREATED, DELETED) are POSTed to url, encrypted with secret (AES-256-GCM). Without a secret one is generated: the answer is the only place it is shown. A URL the entity already has is refused, so a retry never registers twice (Idempotency-Key is not used here).',
    credential: 'access token',
    body: api([{ name: 'WebhookRequest', title: 'Webhook', schema: webhookRequest }]),
    responses: { '200': json('Registered: the answer carries the whole secret, once.', 'WebhookResponse') },
  },
  {
    method: 'delete',
    path: '/v1/webhooks/{id}',
    operationId: 'deleteWebhook',
    tag: 'Webhooks',
    summary: 'Delete a webhook',
    credential: 'access token',
    id: webhookId,
    query: [entityIdQuery],
    responses: {
      '200': json('Deleted; its notifications not yet delivered are cancelled.', 'WebhookDeletedResponse'),
      '400': json('A webhook of the merchants file: it is changed there.', 'ErrorResponse'),
      '404': unknownId('webhook'),
    },
  },
);

const scheduleId = { description: 'The schedule id (id of POST /scheduling/v1/schedules).', pattern: ID };

/** POST /scheduling/v1/schedules, GET and DELETE /scheduling/v1/schedules/{id}. */
operations.push(
  {
    method: 'post',
    path: '/scheduling/v1/schedules',
    operationId: 'createSchedule',
    tag: 'Schedules',
    summary: 'Schedule payments with a registration',
    description:
      'At each occurrence of the schedule (job.expression, or the separate job.* fields with the spec\u2019s defaults; UTC; between job.startDate and job.endDate) the gateway pays amount and currency with the registration, as a standingInstruction RECURRING SUBSCRIPTION, REPEATED, MIT payment. The registration must be this entity\u2019s and active; a schedule that would never fire is refused.',
    credential: 'access token',
    body: api([{ name: 'ScheduleRequest', title: 'Schedule', schema: scheduleRequest }]),
    idempotent: true,
    responses: { '200': json('Scheduled.', 'ScheduleResponse', replayed), '400': json('Invalid parameters, an unknown or deleted registration, or a schedule that never fires.', 'ErrorResponse', replayed), '409': inFlight },
  },
  {
    method: 'get',
    path: '/scheduling/v1/schedules/{id}',
    operationId: 'readSchedule',
    tag: 'Schedules',
    summary: 'Read a schedule',
    credential: 'access token',
    id: scheduleId,
    query: [entityIdQuery],
    responses: { '200': json('The schedule, its state, next and last firing.', 'ScheduleResponse'), '404': unknownId('schedule') },
  },
  {
    method: 'delete',
    path: '/scheduling/v1/schedules/{id}',
    operationId: 'deleteSchedule',
    tag: 'Schedules',
    summary: 'Cancel a schedule',
    credential: 'access token',
    id: scheduleId,
    query: [entityIdQuery],
    responses: { '200': json('Cancelled: no occurrence fires any more (a schedule already cancelled or ended is answered as it is).', 'ScheduleResponse'), '404': unknownId('schedule') },
  },
);

const TAGS: Array<{ name: string; description: string }> = [
  { name: 'Payments', description: 'Server-to-server payments and their follow-ups. Access token.' },
  { name: 'Registrations', description: 'Stored accounts (tokens) and payments with them. Access token.' },
  { name: 'Checkouts', description: 'The merchant\u2019s side of the payment widget. Access token.' },
  { name: 'Payment form', description: 'The widget\u2019s calls from the shopper\u2019s browser: no token, the checkout id is the credential.' },
  { name: '3-D Secure', description: 'Standalone authentication. Access token.' },
  { name: 'Transactions and reports', description: 'The transaction query and the settlement (reconciliation) reports. Access token.' },
  { name: 'Reference', description: 'Public: this document and the result-code catalogue.' },
  { name: 'Widget files', description: 'Public scripts and frame pages of the widget.' },
  { name: 'Webhooks', description: 'Where an entity\u2019s notifications go (components.schemas.WebhookNotification). Access token.' },
  { name: 'Schedules', description: 'Payments with a registration on a schedule (job.*), fired by the gateway. Access token.' },
  { name: 'Operations', description: 'Public: whether this process is alive and ready for requests, for load balancers and orchestrators.' },
  { name: 'Shopper pages', description: 'Pages of pending payments, posted by the gateway\u2019s own pages and the shopper\u2019s browser; the redirect token is the credential.' },
];

const CREDENTIALS: Record<Credential, string> = {
  'access token': 'Authorization: Bearer <access token>, and entityId.',
  'checkout id': 'No token: the checkout id in the path is the credential.',
  'redirect token': 'No token: the redirect token of the pending payment (redirect.parameters) is the credential.',
  none: 'Public.',
};

const MEDIA: Record<Exclude<Content, 'none'>, string> = {
  json: 'application/json',
  html: 'text/html',
  javascript: 'application/javascript',
  css: 'text/css',
};

const ref = (name: string, kind = 'schemas') => ({ $ref: `#/components/${kind}/${name}` });

function description(env: GatewayEnv): string {
  return `Payment gateway: server-to-server payments, registrations, checkouts for the payment widget, 3-D Secure, the transaction query and settlement reports.

**Authentication.** Every merchant request carries \`Authorization: Bearer <access token>\` and names the entity it acts for with \`entityId\` (32 lowercase hexadecimal characters): in the body of a POST, in the query of a GET or DELETE. A missing or malformed header answers 401, an unknown token or an entity the token may not act for 403 (800.900.300, 800.900.301). The payment form's calls (tag *Payment form*) need no token: the checkout id is the credential. Operations with \`security: []\` are public; \`x-credential\` says what each one needs.

**Environments.** Test and live gateways have their own base address; this document is served by a **${env}** gateway and its server URL is relative to it. In test, payments go to the simulator (\`testMode\` INTERNAL, the default, or EXTERNAL); \`testMode\` in live is refused with 600.200.701.

**Parameters.** Bodies are \`application/x-www-form-urlencoded; charset=UTF-8\` (also \`multipart/form-data\`, or JSON with the same flat names or nested objects) with flat names: dots for groups (\`card.number\`), \`[n]\` for indexed groups from 0 to ${MAX_INDEX} (\`cart.items[0].name\`), \`[key]\` for named entries (\`customParameters[ORDER_REF]\`). Indexed and keyed names are listed under \`patternProperties\`, each with \`x-flatName\` (\`cart.items[n].name\`). \`x-requiredWith\` names the part of the request whose parameters bring a required one along (\`card.number\` with any \`card.*\`); \`dependentRequired\` lists those and the rules across fields (\`customer.givenName\` and \`customer.surname\` with any other \`customer.*\` but \`browser.*\` and \`app.*\`). Unknown parameters and a parameter sent twice are refused; so are a \`Content-Encoding\` other than identity, a charset other than UTF-8, values whose bytes are not UTF-8 (a multipart part's bytes are read as UTF-8 whatever charset it names; file parts are refused), single headers sent twice, and query parameters but \`entityId\` on a POST or DELETE (400 naming them). POSTs may carry an \`Idempotency-Key\` (up to 255 characters): a retry with the same key gets the first answer.

**Answers.** JSON with \`result.code\`, \`result.description\`, \`buildNumber\`, \`timestamp\`, \`ndc\`. Invalid parameters: HTTP 400 with \`result.parameterErrors\` naming every one. Throttled: HTTP 429, 800.120.100; a process that is stopping answers a request it has not begun HTTP 503 with the same code (send it again). Unknown resource: 404. A method the path does not take: 405 (200.300.403) with \`Allow\`. Result codes: \`components.schemas.ResultCode\` and \`GET /v1/resultcodes\`; classify them with the group patterns (\`x-groups\`).`;
}

/** What a JSON body may hold beyond its schemas' strings (params.ts › readJson, flattenJson). */
const JSON_BODY =
  'Flat names, nested objects, or both mixed; a JSON number or boolean is taken as its text as written ({"amount":92.00} is "92.00", true is "true"), null as not sent; a name given twice (in one object, or nested and flat) is refused.';

/** A request body's components (flat form and nested JSON) and its requestBody object. */
function requestBody(body: Body, components: Record<string, JsonSchema>): JsonSchema {
  for (const variant of body.variants) {
    const nested = nestedJsonSchema(variant.schema);
    const params = flattenJsonSchema(nested);
    if (body.entityId) {
      params.unshift({ name: 'entityId', group: '', required: true, schema: { ...entityIdQuery.schema, description: entityIdQuery.description } });
      nested.properties = { entityId: { ...entityIdQuery.schema, description: entityIdQuery.description }, ...(nested.properties as JsonSchema) };
      nested.required = ['entityId', ...((nested.required as string[] | undefined) ?? [])];
    }
    const dependencies = crossFieldDependencies(params.map((p) => p.name));
    const flat = flatBodySchema(params, { closed: body.closed, dependencies });
    addNestedDependencies(nested, dependencies);
    const account = variant.account ? accountRule(params) : undefined;
    const described = account ? { description: account.description } : {};
    components[variant.name] = { title: variant.title, ...described, ...flat, ...account?.flat, ...variant.rules };
    if (body.json) components[`${variant.name}Json`] = { title: `${variant.title} (nested JSON)`, ...described, ...nested, ...account?.nested, ...variant.rules };
  }
  const one = (suffix: string) => (body.variants.length === 1 ? ref(`${body.variants[0]!.name}${suffix}`) : { oneOf: body.variants.map((v) => ref(`${v.name}${suffix}`)) });
  const form = { schema: one('') };
  return {
    required: true,
    content: {
      'application/x-www-form-urlencoded': form,
      'multipart/form-data': form,
      ...(body.json ? { 'application/json': { schema: { description: JSON_BODY, anyOf: [one(''), one('Json')] } } } : {}),
    },
  };
}

function response(spec: ResponseSpec): JsonSchema {
  const out: JsonSchema = { description: spec.description };
  if (spec.headers) out.headers = Object.fromEntries(Object.entries(spec.headers).map(([name, schema]) => [name, { description: schema.description, schema: { ...schema, description: undefined } }]));
  if (spec.content && spec.content !== 'none') {
    const schema = spec.json === undefined ? { type: spec.content === 'json' ? 'object' : 'string' } : Array.isArray(spec.json) ? { anyOf: spec.json.map((name) => ref(name)) } : ref(spec.json);
    out.content = { [MEDIA[spec.content]]: { schema } };
  }
  if (spec.csv) (out.content as Record<string, unknown>)['text/csv'] = { schema: { type: 'string', description: spec.csv } };
  return JSON.parse(JSON.stringify(out)) as JsonSchema;
}

/** The responses every operation of its kind has, added where the operation does not say otherwise. */
function commonResponses(op: Operation): Record<string, ResponseSpec> {
  const out: Record<string, ResponseSpec> = {};
  if (op.credential === 'access token') {
    out['400'] = invalid;
    out['401'] = json('No Authorization header, or not "Bearer <access token>" (800.900.300).', 'ErrorResponse');
    out['403'] = json('Unknown access token (800.900.300), or an entityId the token may not act for (800.900.301).', 'ErrorResponse');
    out['429'] = json('Throttled (800.120.100).', 'ThrottledResponse', RETRY_AFTER);
  }
  return out;
}

export interface DocumentOptions {
  env: GatewayEnv;
}

const built = new Map<GatewayEnv, JsonSchema>();

/** The whole document, built once per environment (the schemas do not change while the process runs). Treat it as read-only. */
export function openapiDocument(options: DocumentOptions): JsonSchema {
  let document = built.get(options.env);
  if (!document) built.set(options.env, (document = buildDocument(options)));
  return document;
}

function buildDocument(options: DocumentOptions): JsonSchema {
  const schemas: Record<string, JsonSchema> = {};
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of operations) {
    const parameters: JsonSchema[] = [];
    if (op.id) parameters.push({ name: op.id.name ?? 'id', in: 'path', required: true, description: op.id.description, schema: { type: 'string', ...(op.id.pattern ? { pattern: op.id.pattern.source } : {}) } });
    for (const q of op.query ?? []) parameters.push(q === entityIdQuery ? ref('EntityId', 'parameters') : { name: q.name, in: 'query', required: q.required, description: q.description, schema: q.schema });
    if (op.idempotent) parameters.push(ref('IdempotencyKey', 'parameters'));
    const responses = Object.fromEntries(
      Object.entries({ ...commonResponses(op), ...op.responses })
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([status, spec]) => [status, response(spec)]),
    );
    paths[op.path] ??= {};
    paths[op.path]![op.method] = {
      operationId: op.operationId,
      tags: [op.tag],
      summary: op.summary,
      description: [op.description, CREDENTIALS[op.credential]].filter(Boolean).join('\n\n'),
      ...(op.credential === 'access token' ? {} : { security: [] }),
      'x-credential': op.credential,
      ...(parameters.length ? { parameters } : {}),
      ...(op.body ? { requestBody: requestBody(op.body, schemas) } : {}),
      responses,
    };
  }
  for (const [name, schema] of Object.entries(responseSchemas)) {
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any', reused: 'inline' }) as JsonSchema;
    delete json.$schema;
    schemas[name] = json;
  }
  const codes = Object.keys(catalogue) as ResultCode[];
  schemas.ResultCode = {
    type: 'string',
    description: 'The result-code catalogue: every code the gateway answers today. New codes may appear: classify a code with the group patterns (x-groups), not by listing codes.',
    enum: codes,
    'x-enumDescriptions': Object.fromEntries(codes.map((code) => [code, catalogue[code]])),
    'x-enumGroups': Object.fromEntries(codes.map((code) => [code, groupsOf(code)])),
    'x-groups': Object.fromEntries(Object.entries(groups).map(([name, pattern]) => [name, pattern.source])),
  };
  return {
    openapi: '3.1.1',
    info: {
      title: 'Payment gateway API',
      version: packageJson.version,
      description: description(options.env),
    },
    servers: [{ url: '/', description: `This gateway (${options.env} environment)` }],
    security: [{ bearer: [] }],
    tags: TAGS,
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The merchant\u2019s access token; entityId names the entity it acts for.' },
      },
      parameters: {
        EntityId: { name: 'entityId', in: 'query', required: true, description: entityIdQuery.description, schema: entityIdQuery.schema },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Any text of 1 to 255 characters, new for each payment: a retry with the same key and the same parameters gets the first answer (kept 24 hours); with other parameters it is refused.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      },
      schemas,
    },
  };
}
