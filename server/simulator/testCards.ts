// The simulator's published test data (listed on the demo playground).
import type { ResultCode } from '../results.ts';

export type ThreeDSecurePath = 'none' | 'frictionless' | 'attempt' | 'challenge' | 'error' | 'notEnrolled';

export interface TestCard {
  number: string;
  brand: string;
  threeDSecure: ThreeDSecurePath;
  declineCode?: ResultCode;
  description: string;
}

export const testCards: TestCard[] = [
  { number: '4200000000000000', brand: 'VISA', threeDSecure: 'none', description: 'approved, no 3-D Secure' },
  { number: '4200000000000091', brand: 'VISA', threeDSecure: 'frictionless', description: '3-D Secure frictionless (Y)' },
  { number: '5200000000000007', brand: 'MASTER', threeDSecure: 'frictionless', description: '3-D Secure frictionless (Y)' },
  { number: '4200000000000109', brand: 'VISA', threeDSecure: 'attempt', description: '3-D Secure attempt (A)' },
  { number: '5200000000000023', brand: 'MASTER', threeDSecure: 'attempt', description: '3-D Secure attempt (A)' },
  { number: '4200000000000042', brand: 'VISA', threeDSecure: 'challenge', description: '3-D Secure challenge' },
  { number: '5200000000000015', brand: 'MASTER', threeDSecure: 'challenge', description: '3-D Secure challenge' },
  { number: '4012001037461114', brand: 'VISA', threeDSecure: 'error', description: '3-D Secure error (U)' },
  { number: '5434580000000006', brand: 'MASTER', threeDSecure: 'error', description: '3-D Secure error (U)' },
  { number: '4012001037141112', brand: 'VISA', threeDSecure: 'notEnrolled', description: '3-D Secure not enrolled (N)' },
  { number: '5457350076543210', brand: 'MASTER', threeDSecure: 'notEnrolled', description: '3-D Secure not enrolled (N)' },
  { number: '377777777777770', brand: 'AMEX', threeDSecure: 'none', description: 'approved, 4-digit security code' },
  { number: '4000000000000002', brand: 'VISA', threeDSecure: 'none', declineCode: '800.100.152', description: 'declined by the authorization system' },
  { number: '4000000000000069', brand: 'VISA', threeDSecure: 'none', declineCode: '800.100.159', description: 'declined: stolen card' },
  { number: '4000000000000119', brand: 'VISA', threeDSecure: 'none', declineCode: '800.100.165', description: 'declined: card lost' },
];

/** Amounts that decline whatever the account, so every method can be tried. */
export const declineAmounts: Record<string, ResultCode> = {
  '100.51': '800.100.151',
  '100.52': '800.100.152',
  '100.53': '800.100.153',
  '100.55': '800.100.155',
  '100.57': '800.100.157',
  '100.59': '800.100.159',
  '100.60': '800.100.160',
  '100.62': '800.100.162',
  '100.65': '800.100.165',
  '100.70': '800.100.170',
  '100.71': '800.100.171',
  '100.40': '800.400.100',
};

/**
 * Amounts of a debit or capture that the simulated clearing institute charges back: the payment
 * settles, and the same settlement file carries a CHARGEBACK record with this reason.
 */
export const chargebackAmounts: Record<string, ResultCode> = {
  '100.20': '000.100.220',
  '100.21': '000.100.221',
  '100.22': '000.100.222',
};

/** Billing postcodes that steer the address check; any other postcode matches fully (F). */
export const avsPostcodes: Record<string, 'A' | 'Z' | 'N' | 'U'> = {
  '00000': 'N',
  '11111': 'A',
  '22222': 'Z',
  '99999': 'U',
};

export const testCardByNumber = new Map(testCards.map((card) => [card.number, card]));
