// The JSON answers of the gateway as zod schemas, for the OpenAPI document: the spec's payment
// response table, the error envelope, the throttling body, and the answers of checkouts,
// registrations, authentications and the catalogue. Clients must accept new fields at any time,
// so every answer but the throttling body is an open object. test/api/openapi.test.ts checks real
// answers against them.
import { z } from 'zod';
import { CHECKOUT_ID } from '../checkouts/checkouts.ts';
import { paymentTypes } from '../schema/basic.ts';
import { ECHOED_WITHOUT_SECRETS, NOT_ECHOED } from '../schema/echo.ts';
import { initialPaymentRequest, registrationRequest } from '../schema/requests.ts';
import { BILLING_FIELDS } from '../threeds/policy.ts';
import { ID } from '../ids.ts';

const hex32 = z.string().regex(ID);
const checkoutId = z.string().regex(CHECKOUT_ID).describe('Checkout id: 32 lowercase hexadecimal characters, a dot and the node name (34 to 48 characters).');
const amount = z.string().regex(/^\d{1,10}\.\d{2}$/);
const currency = z.string().regex(/^[A-Z]{3}$/);

/** Every JSON answer ends with these. */
const envelope = {
  buildNumber: z.string().max(255).describe('Build of the gateway, for support.'),
  timestamp: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+0000$/)
    .describe('When the answer was made, UTC: yyyy-MM-dd HH:mm:ss+0000.'),
  ndc: z
    .string()
    .regex(/^[A-Za-z0-9.-]{1,69}$/)
    .describe("The request's unique reference; a checkout's answers carry the checkout id."),
};

export const parameterError = z
  .object({
    name: z.string().describe('The parameter as it was sent (card.number, cart.items[3].name), or a header (Authorization, Idempotency-Key), path, body.'),
    value: z.string().describe('The value sent; card numbers keep only their last four digits, security codes are masked whole.'),
    message: z.string().describe('What is wrong, for a developer.'),
  });

export const resultCode = z
  .string()
  .regex(/^\d{3}\.\d{3}\.\d{3}$/)
  .describe('A code of the result-code catalogue (components.schemas.ResultCode, GET /v1/resultcodes). Classify codes with the group patterns, since new codes may appear.');

export const result = z
  .looseObject({
    code: resultCode,
    description: z.string().max(255).describe('The text of the code.'),
    avsResponse: z.enum(['A', 'Z', 'N', 'U', 'F']).optional().describe('Address check: A address matches, zip does not; Z zip matches, address does not; N neither; U not applicable or technical error; F both match.'),
    cvvResponse: z.enum(['M', 'N', 'P', 'S', 'U']).optional().describe('Security code check: M match; N no match; P not processed; S should be on the card but is not; U unsupported by the issuer.'),
    parameterErrors: z.array(parameterError).optional().describe('Every parameter that failed validation (HTTP 400).'),
  });

export const errorResponse = z
  .looseObject({ result, ...envelope })
  .describe('A refusal: validation errors (with result.parameterErrors), authentication, unknown resource, a state that refuses the change.');

export const throttledResponse = z
  .strictObject({ buildNumber: envelope.buildNumber, id: hex32, ndc: envelope.ndc, result, timestamp: envelope.timestamp })
  .describe('HTTP 429, result.code 800.120.100: too many requests for this operation, try later. Only these five fields.');

export const notBuiltResponse = z
  .looseObject({ result, message: z.string().describe('What to build: npm run build.'), ...envelope })
  .describe('HTTP 503, 999.999.999: the widget files are not built or do not match their manifest.');

const redirect = z
  .looseObject({
    url: z.string().min(6).max(2048).describe('Where the shopper must go: POST the parameters there from the shopper’s browser.'),
    parameters: z.array(z.looseObject({ name: z.string().min(1).max(255), value: z.string().min(1).max(255) })).optional().describe('Form fields to send with the redirect (none when the redirect is the result URL).'),
  });

const maskedCard = z.looseObject({
  bin: z.string().regex(/^\d{6}$/).optional().describe('First six digits of the card number.'),
  last4Digits: z.string().length(4).optional().describe('Last four digits of the card number.'),
  holder: z.string().max(128).optional().describe('Holder of the card account, as sent in card.holder.'),
  expiryMonth: z.string().regex(/^\d{2}$/).optional(),
  expiryYear: z.string().regex(/^\d{4}$/).optional(),
  issuer: z
    .looseObject({ bank: z.string().max(2048).optional(), phone: z.string().max(2048).optional(), website: z.string().max(2048).optional() })
    .optional()
    .describe("The card's issuer, from the connector's BIN data (payments only; left out for a range it does not know)."),
  type: z.string().max(2048).optional().describe('CREDIT, DEBIT or PREPAID, from the BIN data.'),
  level: z.string().regex(/^\d{1,4}$/).optional().describe('Product level from the BIN data, four digits.'),
  regulatedFlag: z.enum(['true', 'false']).optional().describe('Whether the issuer is regulated, from the BIN data.'),
});

const declaredAnswer = {
  id: hex32.describe('The payment id: use it in POST /v1/payments/{id} and GET /v1/payments/{id}.'),
  paymentType: z.enum(paymentTypes).describe('Echo of the request type.'),
  paymentBrand: z.string().max(32).optional(),
  amount: amount.optional().describe('Amount approved by the acquirer or method.'),
  currency: currency.optional(),
  descriptor: z.string().max(127).optional(),
  merchantTransactionId: z.string().max(255).optional(),
  result,
  redirect: redirect.optional().describe('Present when the payment is pending (000.200.000) and the shopper must go to 3-D Secure or the provider.'),
  resultDetails: z
    .record(z.string().regex(/^[A-Za-z0-9._]{3,64}$/), z.string().max(2048))
    .optional()
    .describe('Connector details, only for entities with showConnectorDetails: AcquirerResponse (the acquirer\'s code), ConnectorTxID1, and on declines MerchantAdviceCode (two digits: 01 new account information, 02 try again later, 03 do not try again, 21 payment cancellation).'),
  card: maskedCard.optional(),
  sequence: initialPaymentRequest.shape.sequence.describe('Echo of sequence: FINAL marks the last capture of an authorization.'),
  numberOfCaptures: initialPaymentRequest.shape.numberOfCaptures.describe('Echo of numberOfCaptures: the partial captures an authorization allows.'),
  // The gateway's own fields beside the echo of the request's group (schema/echo.ts).
  merchant: initialPaymentRequest.shape.merchant
    .unwrap()
    .extend({
      bankAccount: z
        .looseObject({
          holder: z.string().min(4).max(128),
          number: z.string().min(3).max(64).optional(),
          bic: z.string().regex(/^([A-Za-z0-9]{8}|[A-Za-z0-9]{11})$/).optional(),
          country: z.string().length(2).optional(),
        })
        .optional()
        .describe("The merchant's account a bank transfer (paymentBrand BANKTRANSFER, DB) must be paid to: holder, IBAN as number, BIC, country."),
    })
    .optional()
    .describe('Echo of the accepted merchant.* parameters, and the account a bank transfer is paid to.'),
  risk: initialPaymentRequest.shape.risk
    .unwrap()
    .extend({ score: z.string().regex(/^[+-]?\d{1,5}$/).optional().describe('-99999 to +99999, for payments with risk checks (any risk.* parameter).') })
    .optional()
    .describe('Echo of the accepted risk.* parameters, and the score of the risk check.'),
  threeDSecure: z.looseObject({}).optional().describe('The outcome of 3-D Secure (eci, verificationId, authenticationStatus, dsTransactionId, acsTransactionId, version) and the 3-D Secure parameters sent.'),
  customParameters: z.record(z.string(), z.string()).optional().describe('Echo of customParameters[key].'),
  registrationId: hex32.optional().describe('The registration made with createRegistration=true.'),
  referencedId: hex32.optional().describe('The referenced payment of a capture or refund; in webhook notifications only.'),
  brandResult: z.string().regex(/^[A-Z]{1,16}$/).optional().describe('The brand detected from the card number, for every card payment whose brand the number shows.'),
  ...envelope,
};

/**
 * What a payment answers back of its request (schema/echo.ts): each parameter and group as it
 * was accepted, so with the request's own schema; a group with secrets is answered without them.
 */
const echoedAnswer = Object.fromEntries(
  Object.entries(initialPaymentRequest.shape)
    .filter(([name]) => !NOT_ECHOED.has(name) && !(name in declaredAnswer))
    .map(([name, schema]) => [
      name,
      ECHOED_WITHOUT_SECRETS.has(name)
        ? z.looseObject({}).optional().describe(`Echo of the accepted ${name}.* parameters, without their secrets (PINs, tokens, encrypted data left out; card numbers masked to their last four).`)
        : (schema as z.ZodType).optional(),
    ]),
);

export const paymentResponse = z
  .looseObject({ ...declaredAnswer, ...echoedAnswer })
  .describe('The payment response (also the payload of webhooks): the outcome, and the request\'s accepted parameters and groups as nested objects.');

export const registrationResponse = z
  .looseObject({
    id: hex32.describe('The registration id: use it in POST /v1/registrations/{id}/payments.'),
    paymentBrand: z.string().max(32),
    result,
    card: maskedCard.optional(),
    bankAccount: z.looseObject({}).optional(),
    virtualAccount: registrationRequest.shape.virtualAccount,
    tokenAccount: z
      .looseObject({ type: z.enum(['EXTERNAL', 'NETWORK']), last4Digits: z.string().length(4), expiryMonth: z.string().regex(/^\d{2}$/).optional(), expiryYear: z.string().regex(/^\d{4}$/).optional() })
      .optional()
      .describe('The token, masked: its type, last four digits and expiry.'),
    customParameters: z.record(z.string(), z.string()).optional().describe('Echo of customParameters[key].'),
    recurringMigration: registrationRequest.shape.recurringMigration.describe('Echo of the accepted recurringMigration.* parameters.'),
    ...envelope,
  });

export const checkoutResponse = z
  .looseObject({
    result,
    id: checkoutId,
    integrity: z.string().regex(/^sha384-[A-Za-z0-9+/]{64}$/).optional().describe('Subresource integrity of paymentWidgets.js, when integrity=true was sent.'),
    ...envelope,
  })
  .describe('A checkout created (000.200.100), updated (000.200.101) or cancelled (000.200.102), or its state when the change is refused.');

export const checkoutState = z
  .looseObject({ result, id: checkoutId, ...envelope })
  .describe('A checkout not paid yet: 000.200.000 open, 100.396.101 cancelled, 100.396.103 expired.');

export const checkoutForm = z
  .looseObject({
    result,
    id: checkoutId,
    amount,
    currency,
    paymentType: z.enum(['PA', 'DB']),
    brands: z.array(z.string()).describe("The entity's brands."),
    registrations: z
      .array(
        z.looseObject({
          id: hex32,
          paymentBrand: z.string(),
          card: z.looseObject({ last4Digits: z.string().optional(), expiryMonth: z.string().optional(), expiryYear: z.string().optional(), holder: z.string().optional() }).optional(),
          bankAccount: z.looseObject({ holder: z.string().optional(), last4Digits: z.string().optional() }).optional(),
        }),
      )
      .describe('Registrations offered for one-click payment, masked.'),
    billing: z
      .array(z.enum(BILLING_FIELDS))
      .describe('billing.* fields the page asks the shopper for: those 3-D Secure 2 needs that the checkout does not carry, when its card payments are authenticated; empty otherwise.'),
    createRegistration: z
      .boolean()
      .describe('The checkout stores the card or bank account (createRegistration=true): the form then asks no shopper whether to save it (wpwlOptions.registrations.askToSave).'),
    overrideHolder: z
      .boolean()
      .describe('The checkout takes a holder for a saved card or bank account that has none (overrideHolder=true): the form asks the shopper for it, for this payment only.'),
    wallet: z
      .looseObject({
        merchantName: z.string().describe('Shown on the wallet\u2019s payment sheet.'),
        country: z.string().length(2).describe('The merchant\u2019s country (countryCode of Apple Pay and Google Pay).'),
        gatewayMerchantId: hex32.describe('Google Pay\u2019s gatewayMerchantId, Samsung Pay\u2019s userId: the entity id.'),
        gateway: z.string().describe('Google Pay\u2019s tokenization gateway: this gateway.'),
        appleMerchantId: z.string().describe('Apple Pay\u2019s merchantIdentifier: this gateway\u2019s, which validates merchants.'),
        samsungServiceId: z.string().describe('Samsung Pay\u2019s productId (service id).'),
        environment: z.enum(['TEST']).describe('The providers\u2019 test environment (no `wallet` is answered in live until the gateway is registered with the providers).'),
      })
      .optional()
      .describe('What the wallets\u2019 Payment Request needs, when the entity offers APPLEPAY, GOOGLEPAY or SAMSUNGPAY.'),
    expiresAt: envelope.timestamp.describe('When the checkout expires (30 minutes after its creation).'),
    ...envelope,
  })
  .describe('What the payment form needs, and nothing more.');

export const merchantSessionResponse = z
  .looseObject({
    result,
    id: checkoutId,
    merchantSession: z.looseObject({}).describe('The opaque Apple Pay merchant session, for the merchantvalidation event\u2019s complete().'),
    ...envelope,
  })
  .describe('An Apple Pay merchant session (simulated in the test environment).');

export const pagePaymentResponse = z
  .looseObject({
    result,
    id: checkoutId,
    paymentBrand: z.string().max(32).optional(),
    redirect: redirect.optional().describe('The 3-D Secure or provider step, or shopperResultUrl with id and resourcePath.'),
    ...envelope,
  })
  .describe('The answer to the payment form: no payment id, no account data.');

export const authenticationResponse = z
  .looseObject({
    id: hex32,
    paymentBrand: z.string().max(32).optional(),
    amount: z.string().optional(),
    currency: currency.optional(),
    result,
    redirect: redirect.optional(),
    threeDSecure: z.looseObject({}).optional(),
    ...envelope,
  })
  .describe('A standalone 3-D Secure authentication: 000.400.110 frictionless, pending with a redirect for a challenge.');

export const resultCodesResponse = z
  .looseObject({
    result,
    resultCodes: z.array(z.looseObject({ code: resultCode, description: z.string(), groups: z.array(z.string()) })),
    groups: z.record(z.string(), z.string()).describe('Group name to regular expression.'),
    ...envelope,
  });

const webhook = z.looseObject({
  id: hex32.describe('The webhook id: DELETE /v1/webhooks/{id}.'),
  url: z.string().min(6).max(2048).describe('Where notifications are POSTed.'),
  wrapper: z.enum(['none', 'json']).describe('none: the body is the hex ciphertext (text/plain); json: {"encryptedBody":"<hex>"} (application/json).'),
  source: z.enum(['api', 'config']).describe('api: registered with POST /v1/webhooks; config: from the merchants file (not deletable here).'),
  secret: z
    .string()
    .regex(/^[0-9A-Fa-f*]{64}$/)
    .describe('The AES-256-GCM key, 64 hexadecimal characters: whole only in the answer of the POST that made the webhook, otherwise masked but for its last four.'),
});

export const webhookResponse = webhook.extend({ ...envelope, result }).describe('A webhook: the answer of POST /v1/webhooks carries its whole secret, once.');

export const webhookListResponse = z
  .looseObject({ webhooks: z.array(webhook).describe('The entity\u2019s webhooks, secrets masked.'), result, ...envelope })
  .describe('The webhooks of the entity, from the merchants file and the API.');

export const webhookDeletedResponse = z.looseObject({ id: hex32, result, ...envelope }).describe('The webhook is deleted; its notifications not yet delivered are cancelled.');

export const webhookNotification = z
  .looseObject({
    type: z.enum(['PAYMENT', 'REGISTRATION']),
    action: z.enum(['CREATED', 'UPDATED', 'DELETED']),
    payload: z.looseObject({}).describe('The payment response as GET /v1/payments/{id} answers it (with referencedId for captures, reversals, refunds and rebills), or the registration response.'),
    presentationAmount: amount.optional().describe('Payments: the amount, N10.N2.'),
    presentationCurrency: currency.optional().describe('Payments: the currency.'),
  })
  .describe(
    'A webhook notification, once decrypted: AES-256-GCM under the webhook\u2019s secret, IV in X-Initialization-Vector and tag in X-Authentication-Tag (hex); the body is the hex ciphertext, or {"encryptedBody":"<hex>"}. Answer any 2xx within 30 s; otherwise it is sent again after 1, 2, 4, 8, 15, 30 minutes, 1 hour, then daily for 30 days.',
  );

// The transaction query and the settlement reports (server/reports/).
export const queryResponse = z
  .looseObject({
    payments: z.array(paymentResponse).describe('The payments found, oldest first, then (includeLinkedTransactions=true) the payments linked to them. Empty when nothing matches.'),
    result,
    ...envelope,
  })
  .describe('The transaction query: 000.000.100 whether or not anything was found.');

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const sum = z.string().regex(/^\d+\.\d{2}$/);

export const reconciliationAggregation = z
  .looseObject({
    id: hex32.describe('The aggregation id, for GET /reports/v1/reconciliations/aggregations/{id}.'),
    settlementDate: day.describe('The settlement date (UTC, the clearing institute\u2019s zone), yyyy-MM-dd.'),
    currency,
    numberOfRecords: z.number().int().min(1),
    // Sums, not amounts: a day's may have more than an amount's 10 integer digits.
    totalPositiveAmount: sum.describe('Sum of the POS records (settled debits).'),
    totalNegativeAmount: sum.describe('Sum of the NEG records (credits, refunds, chargebacks).'),
    totalFee: sum.describe('Sum of the records\u2019 fees.'),
    netAmount: z.string().regex(/^-?\d+\.\d{2}$/).describe('totalPositiveAmount - totalNegativeAmount - totalFee; negative with a leading minus.'),
  })
  .describe('The settlement of one date and currency.');

export const reconciliationAggregations = z
  .looseObject({ aggregations: z.array(reconciliationAggregation).describe('One per settlement date and currency with records, by settlement date (sortOrder).'), result, ...envelope });

export const reconciliationRecord = z
  .looseObject({
    recordType: z.enum(['SETTLED', 'CHARGEBACK', 'CHARGEBACK REVERSAL', 'FEE']),
    transactionType: z.enum(['DEBIT', 'CREDIT', 'REFUND', 'BATCH', 'MONTHLY', 'SUBMERCHANT', 'PAYMENT_FACILITATOR', 'AUTH_FEE', 'CAPTURE_FEE', 'CANCEL_FEE', 'REFUND_FEE']),
    settlement: z.looseObject({
      cashflow: z.enum(['POS', 'NEG']),
      id: z.string().max(64).optional(),
      amount,
      currency,
      fee: amount.optional(),
      fxRate: z.string().regex(/^\d{1,13}(\.\d+)?$/),
      date: day,
      status: z.enum(['SUCCESS', 'FAILED']),
      format: z.string().max(32),
    }),
    clearingInstitute: z.looseObject({ merchantId: z.string().min(5).max(64), name: z.string().max(64), txId1: z.string().max(64).optional(), txId2: z.string().max(64).optional(), txId3: z.string().max(64).optional() }),
    merchantAccount: z.looseObject({ id: z.string().max(32), name: z.string().max(32).optional() }),
    pspEntityId: z.string().max(32),
    divisionEntityId: z.string().max(32).optional(),
    merchantEntityId: z.string().max(32),
    payment: z.looseObject({ id: hex32 }).optional(),
    shortId: z.string().max(14).optional(),
    merchantTransactionId: z.string().max(255).optional(),
    merchantInvoiceId: z.string().max(255).optional(),
    amount,
    currency,
    paymentBrand: z.string().max(32).optional(),
    presentmentDate: z.string().optional().describe('The payment\u2019s time, yyyy-MM-dd HH:mm:ss UTC.'),
    descriptor: z.string().max(128).optional(),
    card: z.looseObject({ last4Digits: z.string().max(4).optional(), holder: z.string().max(128).optional() }).optional(),
    bankAccount: z.looseObject({ last4Digits: z.string().max(4).optional(), bankCode: z.string().max(12).optional(), holder: z.string().max(128).optional() }).optional(),
    result: z.looseObject({ code: resultCode, description: z.string().max(128) }).optional().describe('Chargebacks only: the reason.'),
    matchedTransactions: z.looseObject({ status: z.enum(['MATCHED', 'MULTIPLE_MATCHES', 'NOT_MATCHED']), payment: z.array(z.looseObject({ id: hex32 })) }).optional(),
    chargeback: z.looseObject({ id: z.string().max(32) }).optional().describe('Chargebacks only.'),
  })
  .describe('A reconciliation record under the spec\u2019s API names (the CSV file has the same values in the spec\u2019s column order).');

export const reconciliationRecords = z
  .looseObject({ aggregation: reconciliationAggregation, records: z.array(reconciliationRecord).describe('In SettlementTxDate order (sortOrder).'), result, ...envelope });

// Schedules (job.*): POST, GET and DELETE /scheduling/v1/schedules[/{id}].
const dateTime = z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

export const scheduleResponse = z
  .looseObject({
    id: hex32.describe('The schedule id, for GET and DELETE /scheduling/v1/schedules/{id}.'),
    registrationId: hex32,
    paymentType: z.enum(['PA', 'DB']),
    amount,
    currency,
    job: z.looseObject({ expression: z.string().max(256).describe('The Quartz expression the schedule runs on: job.expression, or the one the separate job.* fields make.') }).describe('job.* as sent, with the expression in effect.'),
    state: z.enum(['ACTIVE', 'CANCELLED', 'ENDED']).describe('ENDED: no occurrence is left before job.endDate.'),
    nextFiringTime: dateTime.optional().describe('The next occurrence, UTC, yyyy-MM-dd HH:mm:ss; absent once cancelled or ended.'),
    firings: z.number().int().min(0).describe('Occurrences fired so far.'),
    lastFiring: z
      .looseObject({ time: dateTime, paymentId: hex32.optional().describe('The payment it made (GET /v1/payments/{id}).'), resultCode: resultCode.optional() })
      .optional()
      .describe('The last occurrence fired: its time, the payment it made, and that payment\u2019s result code (or the code it was refused with).'),
    result,
    ...envelope,
  })
  .describe('A schedule: a registration paid at each occurrence of job.* as a repeated merchant-initiated payment.');

/** The answer schemas, by their name in components.schemas. */
export const responseSchemas = {
  ErrorResponse: errorResponse,
  ThrottledResponse: throttledResponse,
  NotBuiltResponse: notBuiltResponse,
  PaymentResponse: paymentResponse,
  RegistrationResponse: registrationResponse,
  CheckoutResponse: checkoutResponse,
  CheckoutState: checkoutState,
  CheckoutForm: checkoutForm,
  PagePaymentResponse: pagePaymentResponse,
  MerchantSessionResponse: merchantSessionResponse,
  AuthenticationResponse: authenticationResponse,
  ResultCodesResponse: resultCodesResponse,
  QueryResponse: queryResponse,
  ReconciliationAggregations: reconciliationAggregations,
  ReconciliationRecords: reconciliationRecords,
  WebhookResponse: webhookResponse,
  WebhookListResponse: webhookListResponse,
  WebhookDeletedResponse: webhookDeletedResponse,
  WebhookNotification: webhookNotification,
  ScheduleResponse: scheduleResponse,
} as const;
export type ResponseName = keyof typeof responseSchemas;
