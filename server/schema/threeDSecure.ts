// 3D Secure (threeDSecure.*), in the spec's order: the authentication-message fields, the fields
// of the payment transaction (proof from an external 3-D Secure server), the exemption fields of
// either message, disable, and the domestic scheme's schemeData[...].
import { z } from 'zod';
import { amount, an, bool, countryCode, currency, oneOf, twoDigitRange } from './common.ts';
import { paramError, type CodedParamError } from './errors.ts';

/**
 * The six scheme names of v2.<scheme>.requestorId / requestorName (the spec's <schemeA> to <schemeF>):
 * the scheme that assigns the first requestor ids, the other international schemes, the
 * diners/discover family, and a domestic scheme (the one of schemeData[CB-…]).
 */
export const REQUESTOR_SCHEMES = ['visa', 'mastercard', 'amex', 'diners', 'jcb', 'cartesBancaires'] as const;

const requestor = z.strictObject({ requestorId: an(100).optional(), requestorName: an(100).optional() });

const twoDigits = (from: number, to: number, what: string) =>
  z.string().regex(new RegExp(`^(?:${twoDigitRange(from, to)})$`), `must be ${what}, two digits from ${String(from).padStart(2, '0')} to ${String(to).padStart(2, '0')}`);

/** The message fields of an authentication (POST /v1/threeDSecure; accepted but not needed in payments). */
export const authenticationMessageFields = {
  amount: amount(9).optional(),
  currency: currency.optional(),
  deviceInfo: an(65536).optional(),
  merchant: z
    .strictObject({
      name: an(100).optional(),
      url: an(2048).optional(),
      country: countryCode(/^[A-Z]{2,3}$/, 'must be two or three uppercase letters (ISO 3166-1)', ['alpha2', 'alpha3']).optional(),
    })
    .optional(),
  v2: z.strictObject(Object.fromEntries(REQUESTOR_SCHEMES.map((scheme) => [scheme, requestor.optional()])) as Record<(typeof REQUESTOR_SCHEMES)[number], z.ZodOptional<typeof requestor>>).optional(),
  channel: twoDigits(1, 99, 'a channel').optional(),
  npa: bool.optional(),
  decoupled: bool.optional(),
  threeRIInd: oneOf(['RECURRING', 'SPLIT_SHIPMENT', 'DELAYED_SHIPMENT']).optional(),
  // The spec lists "_DELAYED_SHIPMENT"; both spellings are taken.
  authenticationInd: oneOf(['PAYMENT', 'RECURRING', 'INSTALLMENT', 'ADD_CARD', 'MAINTAIN_CARD', 'EMV_ID', 'BILLING_AGREEMENT', 'SPLIT_SHIPMENT', 'DELAYED_SHIPMENT', '_DELAYED_SHIPMENT', 'SPLIT_PAYMENT']).optional(),
  disable: bool.optional(),
};

/** Proof from an external 3-D Secure server, passed through to the acquirer unchanged. */
export const transactionFields = {
  eci: twoDigits(1, 8, 'an electronic commerce indicator').optional(),
  verificationId: z.string().length(28, 'must be exactly 28 characters (CAVV or AAV)').optional(),
  authenticationStatus: oneOf(['Y', 'I', 'A', 'U', 'N']).optional(),
  dsTransactionId: z.string().length(36, 'must be exactly 36 characters').optional(),
  acsTransactionId: z.string().length(36, 'must be exactly 36 characters').optional(),
  challengeMandatedIndicator: oneOf(['Y', 'N']).optional(),
  version: z.string().regex(/^[12]\.\d\.\d$/, 'must be digit.digit.digit with major version 1 or 2, such as 2.2.0').optional(),
  authType: twoDigits(1, 4, 'an authentication type').optional(),
  // N2: at most two digits, as the spec's notation reads (an external server's value passes as sent).
  transactionStatusReason: z.string().regex(/^\d{1,2}$/, 'must be one or two digits').optional(),
};

/** Exemption requests, for either message (3-D Secure 2.2 and later). */
export const exemptionFields = {
  challengeIndicator: twoDigits(1, 9, 'a challenge indicator').optional(),
  exemptionFlag: twoDigits(1, 4, 'an exemption flag').optional(),
};

/** The domestic scheme's data: number of items, the merchant's score, the use case. */
const schemeData = z.strictObject({
  'CB-ITEMSNB': z.string().regex(/^\d{1,2}$/, 'must be a number of up to two digits').optional(),
  'CB-SCORE_MERCHANT': z.string().regex(/^[A-Za-z0-9\s+:]{1,20}$/, 'must be 1 to 20 letters, digits, spaces, plus signs or colons').optional(),
  'CB-USECASE': z.string().regex(/^\d{1,2}$/, 'must be one or two digits').optional(),
});

export const threeDSecure = z.strictObject({
  ...authenticationMessageFields,
  ...transactionFields,
  ...exemptionFields,
  schemeData: schemeData.optional(),
});
export type ThreeDSecure = z.infer<typeof threeDSecure>;

/** eci, verificationId or dsTransactionId present: an external 3-D Secure server authenticated the shopper. */
export function hasExternalProof(t: ThreeDSecure | undefined): boolean {
  return t !== undefined && (t.eci !== undefined || t.verificationId !== undefined || t.dsTransactionId !== undefined);
}

/** customParameters[3DS2_flow]: the path the simulated directory server takes, whatever the card. */
export const FLOW_PARAMETER = '3DS2_flow';
export const FLOWS = ['frictionless', 'attempt', 'challenge', 'error', 'notEnrolled', 'methodTimeout'] as const;
export type Flow = (typeof FLOWS)[number];

/** The external server's answer besides its proof: meaningful only beside eci, verificationId or dsTransactionId. */
const RESULT_FIELDS = Object.keys(transactionFields).filter((name) => !['eci', 'verificationId', 'dsTransactionId'].includes(name)) as Array<keyof typeof transactionFields>;

/**
 * Rules that span the group: an exemption flags both fields; an external server's result comes
 * with its proof (alone it would pass for an authentication that never ran, or mix into the
 * gateway's own); the flow parameter names a known flow.
 */
export function checkThreeDSecure(t: ThreeDSecure | undefined, customParameters: Record<string, string> | undefined): CodedParamError[] {
  const errors: CodedParamError[] = [];
  if (t && !hasExternalProof(t)) {
    for (const name of RESULT_FIELDS) {
      if (t[name] !== undefined) errors.push(paramError(`threeDSecure.${name}`, t[name], 'is the result of an external 3-D Secure server: send it with that authentication\'s threeDSecure.eci, verificationId or dsTransactionId'));
    }
  }
  if (t?.exemptionFlag !== undefined && t.challengeIndicator === undefined) {
    errors.push(paramError('threeDSecure.challengeIndicator', undefined, 'is required with threeDSecure.exemptionFlag: an exemption request flags both'));
  }
  const flow = customParameters?.[FLOW_PARAMETER];
  if (flow !== undefined && !(FLOWS as readonly string[]).includes(flow)) {
    errors.push(paramError(`customParameters[${FLOW_PARAMETER}]`, flow, `must be one of ${FLOWS.join(', ')}`));
  }
  return errors;
}
