// The INTERNAL test-mode acquirer: deterministic answers from the test cards and amounts.
import { createHash } from 'node:crypto';
import { systemClock, type Clock } from '../clock.ts';
import { newId } from '../ids.ts';
import { fromMinor } from '../money.ts';
import type { ResultCode } from '../results.ts';
import type { PosResponse } from '../schema/pos.ts';
import type { Acquirer, AcquirerOutcome, AuthorizationRequest, ReferenceRequest } from './acquirer.ts';
import { cardFactsOf } from './bins.ts';
import { avsPostcodes, declineAmounts, testCardByNumber } from './testCards.ts';

const ACQUIRER_CODES: Record<string, string> = {
  '800.100.151': '14',
  '800.100.152': '05',
  '800.100.153': 'N7',
  '800.100.155': '51',
  '800.100.157': '54',
  '800.100.159': '43',
  '800.100.160': '62',
  '800.100.162': '61',
  '800.100.165': '41',
  '800.100.170': '57',
  '800.100.171': '04',
  '800.400.100': '05',
};

/**
 * resultDetails.MerchantAdviceCode (N2) of a decline: what the merchant should do next.
 * 01 new account information available (ask the shopper for the new card or expiry, or use an
 * account updater), 02 cannot approve at this time, try again later, 03 do not try again (lost,
 * stolen, blocked, pick up), 21 payment cancellation (the shopper stopped payments to this
 * merchant: cancel the card-on-file agreement). Declines not listed carry no advice.
 */
export const MERCHANT_ADVICE_CODES: Partial<Record<ResultCode, '01' | '02' | '03' | '21'>> = {
  '800.100.151': '01',
  '800.100.157': '01',
  '800.100.152': '02',
  '800.100.153': '02',
  '800.100.155': '02',
  '800.100.162': '02',
  '800.400.100': '02',
  '800.100.159': '03',
  '800.100.160': '03',
  '800.100.165': '03',
  '800.100.171': '03',
  '800.100.170': '21',
};

function connectorTxId(): string {
  // From the gateway's pooled random ids: a call to randomBytes per payment costs more than the rest of the simulator.
  return newId().slice(0, 16).toUpperCase();
}

/** A stable score from -99999 to +99999: optional sign and five digits. */
function riskScore(request: AuthorizationRequest): string {
  const digest = createHash('sha256').update(`${request.account.brand}:${request.amountMinor}:${request.currency}`).digest();
  const score = (digest.readUInt32BE(0) % 200) - 50;
  return `${score < 0 ? '-' : '+'}${String(Math.abs(score)).padStart(5, '0')}`;
}

/** Brands whose payments the shopper approves at the provider's page (simulated by the gateway). */
export const PROVIDER_BRANDS = new Set(['PAYPAL', 'ONLINE_TRANSFER']);

/** The simulated acquirer's merchant id for its terminals (pos.merchantId). */
export const POS_MERCHANT_ID = 'SIMMERCHANT0001';

const pad = (n: number) => String(n).padStart(2, '0');

/** The scheme's 15-digit transaction reference, derived from the connector's id (no second random draw). */
const schemeTransactionId = (txId: string) => (BigInt(`0x${txId}`) % 10n ** 15n).toString().padStart(15, '0');

/**
 * What a terminal gets back (pos.* of the response): the authorization codes for its receipt when
 * approved, the clearing identifier, the acquirer's merchant id, an ARPC for the card when the
 * terminal sent an ARQC (iccDataRequest), a receipt text and the acquirer's time. Letters and
 * digits only, as the spec types them.
 */
function posAnswer(request: AuthorizationRequest, approved: boolean, identifier: string, now: Date): PosResponse {
  const digest = createHash('sha256').update(`${request.paymentId}:${request.pos!.terminalId}`).digest('hex').toUpperCase();
  const arpc = request.pos!.iccDataRequest === undefined ? undefined : `910A${createHash('sha256').update(request.pos!.iccDataRequest).digest('hex').slice(0, 16).toUpperCase()}${approved ? '3030' : '3035'}`;
  return {
    clearing: {
      ...(approved ? { authorizationAcquirerCode: digest.slice(0, 6), authorizationIssuerCode: digest.slice(6, 12) } : {}),
      identifier,
    },
    merchantId: POS_MERCHANT_ID,
    ...(arpc ? { iccDataResponse: arpc } : {}),
    statusText: approved ? 'APPROVED' : 'DECLINED',
    timestamp: `${now.getUTCFullYear()}-${pad(now.getUTCMonth() + 1)}-${pad(now.getUTCDate())} ${pad(now.getUTCHours())}:${pad(now.getUTCMinutes())}:${pad(now.getUTCSeconds())}`,
  };
}

function authorizeSync(request: AuthorizationRequest, clock: Clock): AcquirerOutcome {
  const { account } = request;
  if (PROVIDER_BRANDS.has(account.brand) && !request.providerApproved) {
    return { approved: false, pending: true, connectorDetails: { ConnectorTxID1: connectorTxId() } };
  }
  const card = account.number ? testCardByNumber.get(account.number) : undefined;
  const declineCode = declineAmounts[fromMinor(request.amountMinor)] ?? card?.declineCode;
  const isCard = account.method === 'CC' || account.method === 'TA' || account.method === 'WA';
  const postcode = request.billing?.postcode;
  const avsResponse = isCard ? (postcode === undefined ? 'U' : (avsPostcodes[postcode] ?? 'F')) : undefined;
  const cvvResponse = account.method === 'CC' ? (declineCode === '800.100.153' ? 'N' : account.cvv ? 'M' : 'P') : undefined;
  const txId = connectorTxId();
  return {
    approved: declineCode === undefined,
    ...(declineCode === undefined && isCard ? { schemeTransactionId: schemeTransactionId(txId) } : {}),
    declineCode,
    avsResponse,
    cvvResponse,
    riskScore: request.riskCheck ? riskScore(request) : undefined,
    ...(request.pos ? { pos: posAnswer(request, declineCode === undefined, txId, clock()) } : {}),
    connectorDetails: {
      ConnectorTxID1: txId,
      AcquirerResponse: declineCode ? (ACQUIRER_CODES[declineCode] ?? '05') : '00',
      ...(declineCode && MERCHANT_ADVICE_CODES[declineCode] ? { MerchantAdviceCode: MERCHANT_ADVICE_CODES[declineCode] } : {}),
      ExtendedDescription: declineCode ? 'Declined by the simulator' : 'Approved by the simulator',
    },
  };
}

function referenceSync(_request: ReferenceRequest): AcquirerOutcome {
  return { approved: true, connectorDetails: { ConnectorTxID1: connectorTxId(), AcquirerResponse: '00' } };
}

export function createSimulator(clock: Clock = systemClock): Acquirer {
  return {
    cardFacts: async (number) => cardFactsOf(number),
    authorize: async (request) => authorizeSync(request, clock),
    credit: async (request) => authorizeSync(request, clock),
    capture: async (request) => referenceSync(request),
    reverse: async (request) => referenceSync(request),
    refund: async (request) => referenceSync(request),
    rebill: async (request) => referenceSync(request),
  };
}
