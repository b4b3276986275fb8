// What the simulator's BIN data answers in card.* of a payment for the test cards' ranges, written
// out here (not read from server/simulator/bins.ts) so that a change to the table fails the tests.
export const visaFacts = {
  issuer: { bank: 'Simulator Bank Visa', phone: '+44 20 7946 0010', website: 'https://visa.simulator-bank.example' },
  type: 'CREDIT',
  level: '0001',
  regulatedFlag: 'false',
} as const;

export const masterFacts = {
  issuer: { bank: 'Simulator Bank Mastercard', phone: '+44 20 7946 0020', website: 'https://mastercard.simulator-bank.example' },
  type: 'CREDIT',
  level: '0002',
  regulatedFlag: 'false',
} as const;
