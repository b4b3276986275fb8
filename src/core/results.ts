// What a gateway result code means for the shopper. The patterns are the catalogue's group
// patterns (server/results.ts), those with the same message merged into one; every code, also
// ones added later, falls into a group and so gets a clear message. test/unit/widget-results.test.ts
// checks the whole catalogue and sample codes of every group against the server's patterns.
import type { MessageKey } from './i18n.ts';

// success, successReview
const SUCCESS = /^000\.(000\.|100\.1|[36]|400\.(1[12]0|0[^3]|100))/;
// pending, pendingExtended
const PENDING = /^(000\.200|800\.400\.5|100\.400\.500)/;

export const isSuccess = (code: string): boolean => SUCCESS.test(code);
export const isPending = (code: string): boolean => PENDING.test(code);

/**
 * In order, the first pattern a code matches decides the message of a failed payment: first codes
 * whose own message is clearer than their group's, then the groups (named as in server/results.ts).
 */
const GROUPS: readonly [RegExp, MessageKey][] = [
  [/^(100\.100\.303|800\.100\.157)/, 'eExpired'],
  [/^(100\.100\.601|800\.100\.153)/, 'rCvv'],
  [/^800\.100\.1(55|62)/, 'rFunds'],
  [/^100\.396\.103/, 'rSession'],
  // the shopper failed the issuer's 3-D Secure challenge
  [/^100\.380\.401/, 'r3ds'],
  // throttled: not a decline
  [/^800\.120\.100/, 'rSystem'],
  // rejected3ds, softDecline
  [/^(000\.400\.(1\d[1-9]|2)|300\.100\.100)/, 'r3ds'],
  // externalBankReject, chargeback
  [/^(800\.[17]00|800\.800\.[123]|000\.100\.2)/, 'rDeclined'],
  // asyncWorkflowError
  [/^100\.39[765]/, 'rCancelled'],
  // riskBlacklist, riskValidation, riskManagement: the shopper is not told which rule
  [/^(800\.[32]|800\.1[1-6]0|100\.380\.([23]|101))/, 'rDeclined'],
  // communicationError, systemError, referenceValidation, jobValidation, amountValidation
  [/^(900\.[1-4]00|000\.400\.030|800\.[56]|999\.|600\.1|800\.800\.[84]|700\.[1345][05]0|100\.(250|360|55))/, 'rSystem'],
  // configurationValidation, and an invalid brand
  [/^(600\.[23]|500\.[12]|800\.121|100\.100\.501)/, 'rConfig'],
  // registrationValidation
  [/^100\.[13]50/, 'rSaved'],
  // addressValidation, contactValidation, accountValidation, formatValidation
  [/^(100\.(800|[97]00|100|2[01]|[53][07]|[69]00\.500)|200\.[123]|800\.900)/, 'rInput'],
];

/** The message for a result code; '' (no answer at all) is a network failure. */
export function resultMessageKey(code: string): MessageKey {
  if (code === '') return 'rNetwork';
  return GROUPS.find(([pattern]) => pattern.test(code))?.[1] ?? 'rUnknown';
}
