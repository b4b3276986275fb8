// The simulated 3-D Secure 2 directory server and issuer (ACS), as pure functions: which path a
// card takes, what each step answers, and the threeDSecure.* fields and result codes of every
// outcome (docs/threeds-protocol.md, "Outcomes"). Random identifiers come in as parameters.
import { randomBytes, randomUUID } from 'node:crypto';
import type { ResultCode } from '../results.ts';
import { FLOW_PARAMETER, FLOWS, type Flow } from '../schema/threeDSecure.ts';
import { testCardByNumber } from '../simulator/testCards.ts';

export type Path = 'none' | Flow;
export type Status = 'Y' | 'A' | 'I' | 'N' | 'U';

/** The protocol version the simulated directory server speaks. */
export const VERSION = '2.2.0';

/** Exemption fields of the request (echoed in the answer when sent). */
export interface Exemptions {
  challengeIndicator?: string;
  exemptionFlag?: string;
}

/** challengeIndicator 04: the requestor mandates a challenge. */
export const CHALLENGE_MANDATED = '04';

/** The path of a card: customParameters[3DS2_flow] when sent, else the test card's, else none (unknown cards). */
export function pathOf(cardNumber: string | undefined, customParameters?: Record<string, string>): Path {
  const forced = customParameters?.[FLOW_PARAMETER];
  if (forced !== undefined && (FLOWS as readonly string[]).includes(forced)) return forced as Flow;
  const card = cardNumber === undefined ? undefined : testCardByNumber.get(cardNumber);
  return card?.threeDSecure ?? 'none';
}

/**
 * What the directory server and ACS answer an authentication request:
 * - authenticated: frictionless, at once (Y; A for an attempt; I when an exemption was accepted);
 * - refused: the directory server answers U (error) or N (card not enrolled);
 * - method: the shopper's browser must run the ACS's method URL first, then afterMethod decides.
 */
export type FirstAnswer = { kind: 'authenticated'; status: 'Y' | 'A' | 'I' } | { kind: 'refused'; status: 'U' | 'N'; code: ResultCode } | { kind: 'method' };

export function firstAnswer(path: Flow, exemptions: Exemptions): FirstAnswer {
  const mandated = exemptions.challengeIndicator === CHALLENGE_MANDATED;
  switch (path) {
    case 'frictionless':
      return mandated ? { kind: 'method' } : { kind: 'authenticated', status: 'Y' };
    case 'attempt':
      // The issuer does not take part (an attempt): it can challenge no one.
      return { kind: 'authenticated', status: 'A' };
    case 'challenge':
      return exemptions.exemptionFlag !== undefined && !mandated ? { kind: 'authenticated', status: 'I' } : { kind: 'method' };
    case 'error':
      return { kind: 'refused', status: 'U', code: '000.400.103' };
    case 'notEnrolled':
      return { kind: 'refused', status: 'N', code: '000.400.109' };
    case 'methodTimeout':
      return { kind: 'method' };
  }
}

/** threeDSCompInd: Y the method finished, N it did not within 10 s, U there was none. */
export type MethodCompletion = 'Y' | 'N' | 'U';

/** After the method: a challenge, or frictionless (the method-timeout card, unless a challenge is mandated). */
export function afterMethod(path: Flow, exemptions: Exemptions): 'challenge' | { kind: 'authenticated'; status: 'Y' } {
  if (path === 'methodTimeout' && exemptions.challengeIndicator !== CHALLENGE_MANDATED) return { kind: 'authenticated', status: 'Y' };
  return 'challenge';
}

/** Whether the ACS's method page tells the gateway it finished (the method-timeout card's never does). */
export function methodSignals(path: string): boolean {
  return path !== 'methodTimeout';
}

export type ChallengeAction = 'approve' | 'fail' | 'cancel';
export const CHALLENGE_ACTIONS: readonly ChallengeAction[] = ['approve', 'fail', 'cancel'];

/** The end of an authentication. */
export type Outcome =
  | { kind: 'authenticated'; status: 'Y' | 'A' | 'I'; challenged: boolean }
  | { kind: 'refused'; status: 'U' | 'N'; code: ResultCode }
  | { kind: 'failed' }
  | { kind: 'cancelled' }
  | { kind: 'abandoned' };

export function challengeOutcome(action: ChallengeAction): Outcome {
  switch (action) {
    case 'approve':
      return { kind: 'authenticated', status: 'Y', challenged: true };
    case 'fail':
      return { kind: 'failed' };
    case 'cancel':
      return { kind: 'cancelled' };
  }
}

/** Brands whose electronic commerce indicators are those of the Mastercard family; all others use the Visa family's. */
const MASTERCARD_FAMILY = new Set(['MASTER', 'MAESTRO']);

/** Electronic commerce indicator of an authentication status, per brand family. */
export function eciOf(brand: string, status: Status): string {
  const mastercard = MASTERCARD_FAMILY.has(brand);
  switch (status) {
    case 'Y':
      return mastercard ? '02' : '05';
    case 'A':
      return mastercard ? '01' : '06';
    case 'I':
      return mastercard ? '06' : '07';
    case 'N':
    case 'U':
      return mastercard ? '00' : '07';
  }
}

/** Identifiers of one authentication, drawn when it starts. */
export interface AuthenticationIds {
  dsTransactionId: string;
  acsTransactionId: string;
  /** CAVV/AAV: base64 of 20 random bytes, 28 characters. */
  verificationId: string;
}

export function newAuthenticationIds(): AuthenticationIds {
  return { dsTransactionId: randomUUID(), acsTransactionId: randomUUID(), verificationId: randomBytes(20).toString('base64') };
}

/**
 * The threeDSecure.* fields an outcome adds to the answer: an authenticated shopper has an eci, a
 * verificationId, the status and both transaction ids; a refusal by the directory server has no
 * ACS transaction (and no proof); a failed challenge has status N and no proof; a cancelled or
 * abandoned challenge has the transaction ids only. The exemption fields sent are echoed.
 */
export function threeDSecureFields(outcome: Outcome | 'pending', brand: string, ids: AuthenticationIds, exemptions: Exemptions): Record<string, string> {
  const fields: Record<string, string> = {};
  const echo = () => {
    if (exemptions.challengeIndicator !== undefined) fields.challengeIndicator = exemptions.challengeIndicator;
    if (exemptions.exemptionFlag !== undefined) fields.exemptionFlag = exemptions.exemptionFlag;
    return fields;
  };
  if (outcome === 'pending' || outcome.kind === 'cancelled' || outcome.kind === 'abandoned') {
    Object.assign(fields, { dsTransactionId: ids.dsTransactionId, acsTransactionId: ids.acsTransactionId, version: VERSION });
    return echo();
  }
  if (outcome.kind === 'authenticated') {
    Object.assign(fields, {
      eci: eciOf(brand, outcome.status),
      verificationId: ids.verificationId,
      authenticationStatus: outcome.status,
      dsTransactionId: ids.dsTransactionId,
      acsTransactionId: ids.acsTransactionId,
      version: VERSION,
    });
    return echo();
  }
  if (outcome.kind === 'refused') {
    Object.assign(fields, { eci: eciOf(brand, outcome.status), authenticationStatus: outcome.status, dsTransactionId: ids.dsTransactionId, version: VERSION });
    return echo();
  }
  Object.assign(fields, { eci: eciOf(brand, 'N'), authenticationStatus: 'N', dsTransactionId: ids.dsTransactionId, acsTransactionId: ids.acsTransactionId, version: VERSION });
  return echo();
}

/**
 * The code of an outcome that ends without an authorization: a refusal's own, a failed challenge
 * 100.380.401, a cancel 100.396.101, an abandoned one 100.396.103. Undefined when authenticated
 * (a payment's code then comes from the acquirer; a standalone authentication's from standaloneCode).
 */
export function failureCode(outcome: Outcome): ResultCode | undefined {
  switch (outcome.kind) {
    case 'authenticated':
      return undefined;
    case 'refused':
      return outcome.code;
    case 'failed':
      return '100.380.401';
    case 'cancelled':
      return '100.396.101';
    case 'abandoned':
      return '100.396.103';
  }
}

/**
 * The code of a standalone authentication: frictionless 000.400.110 (Y, A or I without a
 * challenge), after an approved challenge the environment's success code; otherwise failureCode.
 */
export function standaloneCode(outcome: Outcome, success: ResultCode): ResultCode {
  if (outcome.kind === 'authenticated') return outcome.challenged ? success : '000.400.110';
  return failureCode(outcome)!;
}

/** A standalone authentication of a card the directory server does not know. */
export const UNKNOWN_CARD: Outcome = { kind: 'refused', status: 'N', code: '000.400.108' };
