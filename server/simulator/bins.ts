// The simulated acquirer's BIN data: what the issuer of a card range publishes about it (issuer,
// card type, product level, whether the issuer is regulated), answered in card.* of the payment
// response. Only the ranges of the published test cards (testCards.ts) are known; for any other
// number the connector knows nothing and the fields are left out, as real BIN data has gaps.
import type { CardFacts } from './acquirer.ts';

/**
 * Product levels (card.level, N4): 0001 classic/standard, 0002 gold, 0003 platinum/premium,
 * 0004 business, 0005 prepaid. regulatedFlag is 'true' for debit ranges of issuers under an
 * interchange cap (the card is "regulated"), 'false' otherwise.
 */
export const binTable: Readonly<Record<string, CardFacts>> = {
  // 4200000000000000 and the VISA 3-D Secure cards 4200000000000091 / 0109 / 0042.
  '420000': {
    issuer: { bank: 'Simulator Bank Visa', phone: '+44 20 7946 0010', website: 'https://visa.simulator-bank.example' },
    type: 'CREDIT',
    level: '0001',
    regulatedFlag: 'false',
  },
  // 5200000000000007 / 0023 / 0015: the MASTER 3-D Secure cards.
  '520000': {
    issuer: { bank: 'Simulator Bank Mastercard', phone: '+44 20 7946 0020', website: 'https://mastercard.simulator-bank.example' },
    type: 'CREDIT',
    level: '0002',
    regulatedFlag: 'false',
  },
  // 4012001037461114 (3-D Secure error) and 4012001037141112 (not enrolled).
  '401200': {
    issuer: { bank: 'Simulator Savings Bank', phone: '+1 212 555 0130', website: 'https://savings.simulator-bank.example' },
    type: 'DEBIT',
    level: '0001',
    regulatedFlag: 'true',
  },
  // 5434580000000006 (3-D Secure error).
  '543458': {
    issuer: { bank: 'Simulator Savings Bank', phone: '+1 212 555 0130', website: 'https://savings.simulator-bank.example' },
    type: 'DEBIT',
    level: '0001',
    regulatedFlag: 'true',
  },
  // 5457350076543210 (3-D Secure not enrolled).
  '545735': {
    issuer: { bank: 'Simulator Business Bank', phone: '+49 30 901820 40', website: 'https://business.simulator-bank.example' },
    type: 'CREDIT',
    level: '0004',
    regulatedFlag: 'false',
  },
  // 377777777777770 (AMEX).
  '377777': {
    issuer: { bank: 'Simulator Charge Card Company', phone: '+1 212 555 0150', website: 'https://charge.simulator-bank.example' },
    type: 'CREDIT',
    level: '0003',
    regulatedFlag: 'false',
  },
  // 4000000000000002 / 0069 / 0119: the decline cards.
  '400000': {
    issuer: { bank: 'Simulator Prepaid Bank', phone: '+44 20 7946 0060', website: 'https://prepaid.simulator-bank.example' },
    type: 'PREPAID',
    level: '0005',
    regulatedFlag: 'false',
  },
};

/** The BIN data of a card number (its first six digits), or undefined for a range the simulator does not know. */
export function cardFactsOf(number: string): CardFacts | undefined {
  const facts = binTable[number.slice(0, 6)];
  // A copy: callers keep it with the payment.
  return facts && { ...facts, ...(facts.issuer ? { issuer: { ...facts.issuer } } : {}) };
}
