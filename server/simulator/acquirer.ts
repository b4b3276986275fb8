// The interface every acquirer connector implements; the simulator is one of them.
import type { ResultCode } from '../results.ts';
import type { Pos, PosResponse } from '../schema/pos.ts';

export interface AccountData {
  method: 'CC' | 'DD' | 'VA' | 'TA' | 'OT' | 'WA';
  brand: string;
  /** Card or token number, in clear only in memory for the length of the call. */
  number?: string;
  expiryMonth?: string;
  expiryYear?: string;
  cvv?: string;
  holder?: string;
  iban?: string;
  accountId?: string;
  /** A wallet's encrypted payment token (applePay, googlePay, samsungPay): the connector decrypts it. */
  walletToken?: string;
}

export interface AuthorizationRequest {
  paymentId: string;
  paymentType: 'PA' | 'DB' | 'CD';
  amountMinor: number;
  currency: string;
  account: AccountData;
  billing?: { street1?: string; postcode?: string; country?: string };
  riskCheck: boolean;
  /** EXTERNAL sends test payments to the connector's own test system. */
  testMode?: 'EXTERNAL' | 'INTERNAL';
  /** 3-D Secure proof (eci, verificationId, authenticationStatus, …): the gateway's own, or an external server's unchanged. */
  threeDSecure?: Record<string, string>;
  /** The shopper approved the payment at the provider's page (asynchronous methods: a second call). */
  providerApproved?: boolean;
  /** A point-of-sale terminal's data (pos.*): the answer then carries the terminal's response fields. */
  pos?: Pos;
}

export interface ReferenceRequest {
  paymentId: string;
  referencedId: string;
  amountMinor: number;
  currency: string;
}

export interface AcquirerOutcome {
  approved: boolean;
  /** Code of a decline; approvals are coded by the gateway (test or live). */
  declineCode?: ResultCode;
  avsResponse?: 'A' | 'Z' | 'N' | 'U' | 'F';
  cvvResponse?: 'M' | 'N' | 'P' | 'S' | 'U';
  riskScore?: string;
  /**
   * The method is asynchronous: the shopper must approve at the provider first (the gateway sends
   * them there and calls again with providerApproved once they did). Not an approval, not a decline.
   */
  pending?: boolean;
  /** Bank-specific details, shown only to entities with showConnectorDetails. */
  connectorDetails: Record<string, string>;
  /** The card scheme's reference of an approved card authorization (15 digits): what later merchant-initiated payments name. */
  schemeTransactionId?: string;
  /** The answer for a point-of-sale terminal (pos.* of the response), when the request came from one. */
  pos?: PosResponse;
}

/** What the connector's BIN data says of a card (card.* of the response); each field may be missing. */
export interface CardFacts {
  issuer?: { bank?: string; phone?: string; website?: string };
  /** CREDIT, DEBIT or PREPAID. */
  type?: string;
  /** Product level, four digits. */
  level?: string;
  /** 'true' when the issuer is regulated (interchange cap), 'false' otherwise. */
  regulatedFlag?: 'true' | 'false';
}

export interface Acquirer {
  /**
   * The BIN data of a card number, asked for every card payment (pending and refused ones too);
   * undefined for a range it does not know. Optional: not every connector has BIN data.
   */
  cardFacts?(number: string): Promise<CardFacts | undefined>;
  authorize(request: AuthorizationRequest): Promise<AcquirerOutcome>;
  credit(request: AuthorizationRequest): Promise<AcquirerOutcome>;
  /**
   * The references. Each may be asked again with the same paymentId when no answer came (the
   * gateway stopped, an error, a timeout: payments/reference.ts): a connector must take that as the
   * same operation, done at most once, and answer its outcome.
   */
  capture(request: ReferenceRequest): Promise<AcquirerOutcome>;
  /**
   * Also names authorizations the gateway did not record as approved (their answer was lost or
   * came late: payments/unanswered.ts): a connector releases one that stands, and declines when
   * there is none.
   */
  reverse(request: ReferenceRequest): Promise<AcquirerOutcome>;
  refund(request: ReferenceRequest): Promise<AcquirerOutcome>;
  /** Charges again what an earlier refund gave back. */
  rebill(request: ReferenceRequest): Promise<AcquirerOutcome>;
}
