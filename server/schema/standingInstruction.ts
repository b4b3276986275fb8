// Card-on-file (standingInstruction.*), in the spec's order. The rules about shopper
// authentication look at card.cvv and threeDSecure.*, so they live in checkStandingInstruction.
import { z } from 'zod';
import { an, date, digits, oneOf } from './common.ts';
import { paramError, type CodedParamError } from './errors.ts';

export const standingInstruction = z.strictObject({
  type: oneOf(['UNSCHEDULED', 'INSTALLMENT', 'RECURRING']).optional(),
  recurringType: oneOf(['STANDING_ORDER', 'SUBSCRIPTION']).optional(),
  mode: oneOf(['INITIAL', 'REPEATED']).optional(),
  source: oneOf(['CIT', 'MIT']).optional(),
  initialTransactionId: an(255).optional(),
  industryPractice: oneOf(['INCREMENTAL_AUTH', 'RESUBMISSION', 'REAUTHORIZATION', 'DELAYED_CHARGES', 'NO_SHOW']).optional(),
  expiry: date.optional(),
  frequency: digits(4).optional(),
  numberOfInstallments: digits(3).optional(),
  agreementId: an(35).optional(),
});
export type StandingInstruction = z.infer<typeof standingInstruction>;

export interface ShopperAuthentication {
  /** card.cvv was sent. */
  hasCvv: boolean;
  /** The account's own verification was sent: a token's tokenAccount.dtvc or cryptogram, a wallet's encrypted token (its cryptogram). It counts for INITIAL as card.cvv does. */
  hasTokenVerification?: boolean;
  /** The payment carries 3-D Secure: external proof (threeDSecure.eci, verificationId, dsTransactionId) or an authentication run by the gateway. */
  hasThreeDSecure: boolean;
  /** The card is a registration of this gateway; when false, an MIT needs initialTransactionId. Unknown: not checked. */
  tokenized?: boolean;
}

/**
 * INITIAL carries a security code or 3-D Secure data, REPEATED carries neither; INSTALLMENT with
 * 3-D Secure needs numberOfInstallments; an MIT on a card not tokenized here names the initial
 * transaction.
 */
export function checkStandingInstruction(si: StandingInstruction | undefined, auth: ShopperAuthentication): CodedParamError[] {
  if (!si) return [];
  const errors: CodedParamError[] = [];
  if (si.mode === 'INITIAL' && !auth.hasCvv && !auth.hasTokenVerification && !auth.hasThreeDSecure) {
    errors.push(paramError('standingInstruction.mode', si.mode, 'INITIAL must carry the shopper\'s authentication: send card.cvv (a token\'s tokenAccount.dtvc or cryptogram) or 3-D Secure data'));
  }
  if (si.mode === 'REPEATED' && (auth.hasCvv || auth.hasThreeDSecure)) {
    const sent = [auth.hasCvv ? 'card.cvv' : undefined, auth.hasThreeDSecure ? '3-D Secure data' : undefined].filter(Boolean).join(' and ');
    errors.push(paramError('standingInstruction.mode', si.mode, `REPEATED must not carry shopper authentication data: leave out ${sent}`));
  }
  if (si.type === 'INSTALLMENT' && auth.hasThreeDSecure && si.numberOfInstallments === undefined) {
    errors.push(paramError('standingInstruction.numberOfInstallments', undefined, 'is required for an INSTALLMENT with 3-D Secure'));
  }
  if (si.source === 'MIT' && auth.tokenized === false && si.initialTransactionId === undefined && si.agreementId === undefined) {
    errors.push(paramError('standingInstruction.initialTransactionId', undefined, 'is required for an MIT on a card that is not a registration of this gateway'));
  }
  return errors;
}

/** The agreement's own limits: no authorization after its expiry; installments, and only they, allow one at least. */
export function checkAgreement(si: StandingInstruction | undefined, now: Date): CodedParamError[] {
  if (!si) return [];
  const errors: CodedParamError[] = [];
  if (si.expiry !== undefined && si.expiry < now.toISOString().slice(0, 10)) {
    errors.push(paramError('standingInstruction.expiry', si.expiry, 'is in the past: the agreement allows no authorization after it'));
  }
  if (si.numberOfInstallments !== undefined && si.type !== 'INSTALLMENT') {
    // The spec's row: "required when type=INSTALLMENT with EMV 3D; omitted otherwise".
    errors.push(paramError('standingInstruction.numberOfInstallments', si.numberOfInstallments, `is only for standingInstruction.type INSTALLMENT${si.type ? `, not ${si.type}` : ''}`));
  } else if (si.numberOfInstallments !== undefined && Number(si.numberOfInstallments) < 1) {
    errors.push(paramError('standingInstruction.numberOfInstallments', si.numberOfInstallments, 'must be at least 1: it is the most authorizations the installments allow'));
  }
  return errors;
}
