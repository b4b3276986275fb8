// The INTERNAL test-mode acquirer: deterministic answers from the test cards and amounts.
import { createHash } from 'node:crypto';
import { newId } from '../ids.ts';
import { fromMinor } from '../money.ts';
import type { Acquirer, AcquirerOutcome, AuthorizationRequest, ReferenceRequest } from './acquirer.ts';
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

function authorizeSync(request: AuthorizationRequest): AcquirerOutcome {
  const { account } = request;
  if (PROVIDER_BRANDS.has(account.brand) && !request.providerApproved) {
    return { approved: false, pending: true, connectorDetails: { ConnectorTxID1: connectorTxId() } };
  }
  const card = account.number ? testCardByNumber.get(account.number) : undefined;
  const declineCode = declineAmounts[fromMinor(request.amountMinor)] ?? card?.declineCode;
  const isCard = account.method === 'CC' || account.method === 'TA';
  const postcode = request.billing?.postcode;
  const avsResponse = isCard ? (postcode === undefined ? 'U' : (avsPostcodes[postcode] ?? 'F')) : undefined;
  const cvvResponse = account.method === 'CC' ? (declineCode === '800.100.153' ? 'N' : account.cvv ? 'M' : 'P') : undefined;
  return {
    approved: declineCode === undefined,
    declineCode,
    avsResponse,
    cvvResponse,
    riskScore: request.riskCheck ? riskScore(request) : undefined,
    connectorDetails: {
      ConnectorTxID1: connectorTxId(),
      AcquirerResponse: declineCode ? (ACQUIRER_CODES[declineCode] ?? '05') : '00',
      ...(declineCode ? { MerchantAdviceCode: '01' } : {}),
      ExtendedDescription: declineCode ? 'Declined by the simulator' : 'Approved by the simulator',
    },
  };
}

function referenceSync(_request: ReferenceRequest): AcquirerOutcome {
  return { approved: true, connectorDetails: { ConnectorTxID1: connectorTxId(), AcquirerResponse: '00' } };
}

export function createSimulator(): Acquirer {
  return {
    authorize: async (request) => authorizeSync(request),
    credit: async (request) => authorizeSync(request),
    capture: async (request) => referenceSync(request),
    reverse: async (request) => referenceSync(request),
    refund: async (request) => referenceSync(request),
    rebill: async (request) => referenceSync(request),
  };
}
