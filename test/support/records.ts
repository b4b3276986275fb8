// Stored records for tests that exercise code below the HTTP layer (rules, reports, the store).
import type { PaymentRecord } from '../../server/store/payments.ts';

let serial = 0;

/** A stored payment: a successful 92.00 EUR VISA card debit of Shop A's main entity with a fresh id, unless told otherwise. */
export function paymentRecord(overrides: Partial<PaymentRecord> = {}): PaymentRecord {
  serial += 1;
  const id = serial.toString(16).padStart(32, '0');
  return {
    id,
    entityId: '8a8294174b7ecb28014b9699220015ca',
    paymentType: 'DB',
    method: 'CC',
    paymentBrand: 'VISA',
    amountMinor: 9200,
    currency: 'EUR',
    status: 'success',
    resultCode: '000.100.110',
    referencedId: null,
    registrationId: null,
    sequence: null,
    numberOfCaptures: null,
    merchantTransactionId: null,
    ndc: `ndc-${id}`,
    details: {},
    acquirer: {},
    testMode: null,
    createdAt: 1_700_000_000_000 + serial,
    updatedAt: 1_700_000_000_000 + serial,
    ...overrides,
  };
}
