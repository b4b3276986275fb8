import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decideReference, type ReferenceAsk, type ReferenceDecision } from '../../server/payments/rules.ts';
import type { PaymentRecord } from '../../server/store/payments.ts';
import { paymentRecord } from '../support/records.ts';

const HOUR_MS = 60 * 60 * 1000;
const CUTOFF_MS = 24 * HOUR_MS;
const CREATED_AT = Date.UTC(2026, 2, 15, 12, 0, 0);
const SOON = CREATED_AT + 60_000;

/** A stored payment: a successful EUR 100.00 card PA unless told otherwise. */
function payment(overrides: Partial<PaymentRecord> = {}): PaymentRecord {
  return paymentRecord({ paymentType: 'PA', amountMinor: 10_000, createdAt: CREATED_AT, updatedAt: CREATED_AT, ...overrides });
}

/** A successful payment of `type` referencing `of`. */
function reference(of: PaymentRecord, type: string, amountMinor: number, overrides: Partial<PaymentRecord> = {}): PaymentRecord {
  return payment({ paymentType: type, amountMinor, referencedId: of.id, createdAt: SOON, updatedAt: SOON, ...overrides });
}

function decide(referenced: PaymentRecord, existing: PaymentRecord[], ask: ReferenceAsk, now = SOON): ReferenceDecision {
  return decideReference(referenced, existing, ask, now, CUTOFF_MS);
}

const refusedWith = (code: string): ReferenceDecision => ({ ok: false, code } as ReferenceDecision);
const allowed = (amountMinor: number): ReferenceDecision => ({ ok: true, amountMinor });

describe('decideReference: state of the referenced payment', () => {
  it('refuses to capture a payment that is still pending with 700.400.570', () => {
    const pa = payment({ status: 'pending', resultCode: '000.200.000' });
    assert.deepEqual(decide(pa, [], { paymentType: 'CP', amountMinor: 1000, currency: 'EUR' }), refusedWith('700.400.570'));
  });

  it('refuses to reverse or refund a pending payment with 700.400.570', () => {
    const db = payment({ paymentType: 'DB', status: 'pending', resultCode: '000.200.000' });
    assert.deepEqual(decide(db, [], { paymentType: 'RV' }), refusedWith('700.400.570'));
    assert.deepEqual(decide(db, [], { paymentType: 'RF', amountMinor: 1000, currency: 'EUR' }), refusedWith('700.400.570'));
  });

  it('refuses to capture a rejected PA with 700.300.200', () => {
    const pa = payment({ status: 'rejected', resultCode: '800.100.151' });
    assert.deepEqual(decide(pa, [], { paymentType: 'CP', amountMinor: 1000, currency: 'EUR' }), refusedWith('700.300.200'));
  });

  it('refuses to reverse or refund a rejected DB with 700.300.200', () => {
    const db = payment({ paymentType: 'DB', status: 'rejected', resultCode: '800.100.151' });
    assert.deepEqual(decide(db, [], { paymentType: 'RV' }), refusedWith('700.300.200'));
    assert.deepEqual(decide(db, [], { paymentType: 'RF', amountMinor: 1000, currency: 'EUR' }), refusedWith('700.300.200'));
  });
});

describe('decideReference: which payment types may be referenced', () => {
  const wrongTypes: Array<[ReferenceAsk['paymentType'], string]> = [
    ['CP', 'DB'],
    ['CP', 'CD'],
    ['CP', 'CP'],
    ['CP', 'RF'],
    ['CP', 'RV'],
    ['RF', 'PA'],
    ['RF', 'RF'],
    ['RF', 'RV'],
    ['RV', 'CP'],
    ['RV', 'RF'],
    ['RV', 'RV'],
    ['RB', 'PA'],
    ['RB', 'CD'],
    ['RB', 'RF'],
  ];
  for (const [ask, referencedType] of wrongTypes) {
    it(`refuses a ${ask} of a ${referencedType} with 700.300.100`, () => {
      const referenced = payment({ paymentType: referencedType });
      const decision = decide(referenced, [], { paymentType: ask, amountMinor: ask === 'RV' ? undefined : 1000, currency: 'EUR' });
      assert.deepEqual(decision, refusedWith('700.300.100'));
    });
  }

  it('captures a PA', () => {
    assert.deepEqual(decide(payment(), [], { paymentType: 'CP', amountMinor: 2500, currency: 'EUR' }), allowed(2500));
  });

  it('reverses a PA, a DB and a CD for their whole amount', () => {
    for (const type of ['PA', 'DB', 'CD']) {
      assert.deepEqual(decide(payment({ paymentType: type, amountMinor: 4321 }), [], { paymentType: 'RV' }), allowed(4321), type);
    }
  });

  it('refunds a DB, a CD and a CP', () => {
    for (const type of ['DB', 'CD', 'CP']) {
      assert.deepEqual(decide(payment({ paymentType: type }), [], { paymentType: 'RF', amountMinor: 1500, currency: 'EUR' }), allowed(1500), type);
    }
  });

  it('rebills a refunded DB and a refunded CP', () => {
    for (const type of ['DB', 'CP']) {
      const referenced = payment({ paymentType: type });
      const refunds = [reference(referenced, 'RF', 3000)];
      assert.deepEqual(decide(referenced, refunds, { paymentType: 'RB', amountMinor: 3000, currency: 'EUR' }), allowed(3000), type);
    }
  });
});

describe('decideReference: currency', () => {
  it('refuses a capture in another currency than the PA with 700.100.500', () => {
    assert.deepEqual(decide(payment({ currency: 'EUR' }), [], { paymentType: 'CP', amountMinor: 1000, currency: 'USD' }), refusedWith('700.100.500'));
  });

  it('refuses a refund in another currency than the DB with 700.100.500', () => {
    const db = payment({ paymentType: 'DB', currency: 'GBP' });
    assert.deepEqual(decide(db, [], { paymentType: 'RF', amountMinor: 1000, currency: 'EUR' }), refusedWith('700.100.500'));
  });

  it('refuses a reversal that names another currency with 700.100.500', () => {
    assert.deepEqual(decide(payment(), [], { paymentType: 'RV', currency: 'CHF' }), refusedWith('700.100.500'));
  });

  it('accepts a reversal that names no currency', () => {
    assert.deepEqual(decide(payment({ currency: 'JPY', amountMinor: 500 }), [], { paymentType: 'RV' }), allowed(500));
  });
});

describe('decideReference: after a reversal', () => {
  it('refuses every further reference to a reversed payment with 700.300.300', () => {
    const pa = payment();
    const reversed = [reference(pa, 'RV', 10_000)];
    assert.deepEqual(decide(pa, reversed, { paymentType: 'CP', amountMinor: 100, currency: 'EUR' }), refusedWith('700.300.300'));
    assert.deepEqual(decide(pa, reversed, { paymentType: 'RV' }), refusedWith('700.300.300'));
  });

  it('refuses to refund or rebill a reversed DB with 700.300.300', () => {
    const db = payment({ paymentType: 'DB' });
    const existing = [reference(db, 'RF', 1000), reference(db, 'RV', 9000)];
    assert.deepEqual(decide(db, existing, { paymentType: 'RF', amountMinor: 100, currency: 'EUR' }), refusedWith('700.300.300'));
    assert.deepEqual(decide(db, existing, { paymentType: 'RB', amountMinor: 100, currency: 'EUR' }), refusedWith('700.300.300'));
  });
});

describe('decideReference: captures (CP)', () => {
  it('refuses a capture after a capture with sequence=FINAL with 700.300.300', () => {
    const pa = payment();
    const existing = [reference(pa, 'CP', 2000, { sequence: 'FINAL' })];
    assert.deepEqual(decide(pa, existing, { paymentType: 'CP', amountMinor: 1000, currency: 'EUR' }), refusedWith('700.300.300'));
  });

  it('allows a further capture after a capture without sequence=FINAL', () => {
    const pa = payment();
    const existing = [reference(pa, 'CP', 2000)];
    assert.deepEqual(decide(pa, existing, { paymentType: 'CP', amountMinor: 1000, currency: 'EUR' }), allowed(1000));
  });

  it('refuses a capture once numberOfCaptures captures were made with 700.400.100, even with amount left', () => {
    const pa = payment({ numberOfCaptures: 2 });
    const existing = [reference(pa, 'CP', 1000), reference(pa, 'CP', 1000)];
    assert.deepEqual(decide(pa, existing, { paymentType: 'CP', amountMinor: 1000, currency: 'EUR' }), refusedWith('700.400.100'));
  });

  it('allows the last capture numberOfCaptures permits', () => {
    const pa = payment({ numberOfCaptures: 2 });
    const existing = [reference(pa, 'CP', 1000)];
    assert.deepEqual(decide(pa, existing, { paymentType: 'CP', amountMinor: 1000, currency: 'EUR' }), allowed(1000));
  });

  it('refuses a second capture when numberOfCaptures is 1', () => {
    const pa = payment({ numberOfCaptures: 1 });
    assert.deepEqual(decide(pa, [reference(pa, 'CP', 100)], { paymentType: 'CP', amountMinor: 100, currency: 'EUR' }), refusedWith('700.400.100'));
  });

  it('takes the limit from the first capture that states numberOfCaptures when the PA set none; the PA\u2019s own wins', () => {
    const pa = payment();
    assert.deepEqual(decide(pa, [], { paymentType: 'CP', amountMinor: 100, currency: 'EUR', numberOfCaptures: 1 }), allowed(100));
    const stated = [reference(pa, 'CP', 100, { numberOfCaptures: 1 })];
    assert.deepEqual(decide(pa, stated, { paymentType: 'CP', amountMinor: 100, currency: 'EUR' }), refusedWith('700.400.100'));
    // Stated on the third capture, after two: that third is one too many.
    const two = [reference(pa, 'CP', 100), reference(pa, 'CP', 100)];
    assert.deepEqual(decide(pa, two, { paymentType: 'CP', amountMinor: 100, currency: 'EUR', numberOfCaptures: 2 }), refusedWith('700.400.100'));
    const limited = payment({ numberOfCaptures: 3 });
    assert.deepEqual(decide(limited, [reference(limited, 'CP', 100)], { paymentType: 'CP', amountMinor: 100, currency: 'EUR', numberOfCaptures: 1 }), allowed(100));
  });

  it('refuses a single capture above the authorized amount with 700.400.100', () => {
    assert.deepEqual(decide(payment({ amountMinor: 10_000 }), [], { paymentType: 'CP', amountMinor: 10_001, currency: 'EUR' }), refusedWith('700.400.100'));
  });

  it('refuses captures whose sum exceeds the authorized amount with 700.400.100', () => {
    const pa = payment({ amountMinor: 10_000 });
    const existing = [reference(pa, 'CP', 6000), reference(pa, 'CP', 3000)];
    assert.deepEqual(decide(pa, existing, { paymentType: 'CP', amountMinor: 1001, currency: 'EUR' }), refusedWith('700.400.100'));
  });

  it('allows captures that add up to exactly the authorized amount', () => {
    const pa = payment({ amountMinor: 10_000 });
    const existing = [reference(pa, 'CP', 6000), reference(pa, 'CP', 3000)];
    assert.deepEqual(decide(pa, existing, { paymentType: 'CP', amountMinor: 1000, currency: 'EUR' }), allowed(1000));
  });

  it('allows a single capture of exactly the authorized amount', () => {
    assert.deepEqual(decide(payment({ amountMinor: 10_000 }), [], { paymentType: 'CP', amountMinor: 10_000, currency: 'EUR' }), allowed(10_000));
  });

  it('counts a capture still waiting for the acquirer against the authorization', () => {
    const pa = payment({ amountMinor: 10_000 });
    const existing = [reference(pa, 'CP', 9000, { status: 'pending', resultCode: '000.200.000' })];
    assert.deepEqual(decide(pa, existing, { paymentType: 'CP', amountMinor: 1001, currency: 'EUR' }), refusedWith('700.400.100'));
  });

  it('does not count refunds of the PA’s captures as captures', () => {
    const pa = payment({ amountMinor: 10_000 });
    const existing = [reference(pa, 'CP', 5000), reference(pa, 'RF', 5000)];
    assert.deepEqual(decide(pa, existing, { paymentType: 'CP', amountMinor: 5000, currency: 'EUR' }), allowed(5000));
  });

  it('allows a capture after the reversal cut-off (the cut-off applies to reversals only)', () => {
    assert.deepEqual(decide(payment(), [], { paymentType: 'CP', amountMinor: 500, currency: 'EUR' }, CREATED_AT + CUTOFF_MS + HOUR_MS), allowed(500));
  });
});

describe('decideReference: reversals (RV)', () => {
  it('refuses a reversal after the cut-off with 700.300.700', () => {
    const db = payment({ paymentType: 'DB' });
    assert.deepEqual(decide(db, [], { paymentType: 'RV' }, CREATED_AT + CUTOFF_MS + 1), refusedWith('700.300.700'));
  });

  it('allows a reversal of a PA just before the cut-off', () => {
    const pa = payment({ amountMinor: 7700 });
    assert.deepEqual(decide(pa, [], { paymentType: 'RV' }, CREATED_AT + CUTOFF_MS - 1), allowed(7700));
  });

  it('allows a reversal of a PA at exactly the cut-off', () => {
    const pa = payment({ amountMinor: 7700 });
    assert.deepEqual(decide(pa, [], { paymentType: 'RV' }, CREATED_AT + CUTOFF_MS), allowed(7700));
  });

  it('reverses a DB or CD only until the end of its day (UTC), when it settles, even within the cut-off', () => {
    const endOfDay = Date.UTC(2026, 2, 16);
    for (const paymentType of ['DB', 'CD']) {
      const p = payment({ paymentType, amountMinor: 7700 });
      assert.deepEqual(decide(p, [], { paymentType: 'RV' }, endOfDay - 1), allowed(7700), paymentType);
      assert.deepEqual(decide(p, [], { paymentType: 'RV' }, endOfDay), refusedWith('700.300.700'), paymentType);
    }
    // A PA settles nothing: its cut-off is the entity's.
    assert.deepEqual(decide(payment({ amountMinor: 7700 }), [], { paymentType: 'RV' }, endOfDay + HOUR_MS), allowed(7700));
  });

  it('refuses to reverse a PA while an increment of it waits for its answer with 700.400.570, and reverses it with the increment after', () => {
    const pa = payment({ amountMinor: 5000 });
    const increment = (status: 'pending' | 'success') =>
      reference(pa, 'PA', 2000, { status, details: { standingInstruction: { industryPractice: 'INCREMENTAL_AUTH' } } });
    assert.deepEqual(decide(pa, [increment('pending')], { paymentType: 'RV' }), refusedWith('700.400.570'));
    assert.deepEqual(decide(pa, [increment('success')], { paymentType: 'RV' }), allowed(7000));
    // A reauthorization waiting for its answer holds the reversal back as well.
    const reauthorization = reference(pa, 'PA', 2000, { status: 'pending', details: { standingInstruction: { industryPractice: 'REAUTHORIZATION' } } });
    assert.deepEqual(decide(pa, [reauthorization], { paymentType: 'RV' }), refusedWith('700.400.570'));
    // One left pending by a process that died holds it back for a redirect step's life only.
    assert.deepEqual(decide(pa, [increment('pending')], { paymentType: 'RV' }, SOON + 30 * 60_000), allowed(5000));
  });

  it('refuses a final capture while an increment waits for its answer with 700.400.570; a partial capture goes on', () => {
    const pa = payment({ amountMinor: 5000 });
    const waiting = reference(pa, 'PA', 2000, { status: 'pending', details: { standingInstruction: { industryPractice: 'INCREMENTAL_AUTH' } } });
    assert.deepEqual(decide(pa, [waiting], { paymentType: 'CP', amountMinor: 5000, currency: 'EUR', final: true }), refusedWith('700.400.570'));
    assert.deepEqual(decide(pa, [waiting], { paymentType: 'CP', amountMinor: 5000, currency: 'EUR' }), allowed(5000));
  });

  it('measures the cut-off from the referenced payment’s creation', () => {
    const pa = payment({ createdAt: CREATED_AT + 10 * HOUR_MS });
    assert.deepEqual(decide(pa, [], { paymentType: 'RV' }, CREATED_AT + 30 * HOUR_MS), allowed(10_000));
    assert.deepEqual(decide(pa, [], { paymentType: 'RV' }, CREATED_AT + 35 * HOUR_MS), refusedWith('700.300.700'));
  });

  it('refuses to reverse a fully captured PA with 700.400.300', () => {
    const pa = payment({ amountMinor: 10_000 });
    const existing = [reference(pa, 'CP', 4000), reference(pa, 'CP', 6000)];
    assert.deepEqual(decide(pa, existing, { paymentType: 'RV' }), refusedWith('700.400.300'));
  });

  it('reverses the uncaptured remainder of a partially captured PA', () => {
    const pa = payment({ amountMinor: 10_000 });
    const existing = [reference(pa, 'CP', 2500), reference(pa, 'CP', 1500)];
    assert.deepEqual(decide(pa, existing, { paymentType: 'RV' }), allowed(6000));
  });

  it('accepts a reversal amount equal to the uncaptured remainder', () => {
    const pa = payment({ amountMinor: 10_000 });
    assert.deepEqual(decide(pa, [reference(pa, 'CP', 2500)], { paymentType: 'RV', amountMinor: 7500, currency: 'EUR' }), allowed(7500));
  });

  it('refuses a reversal amount of the whole PA once part of it was captured with 700.100.200', () => {
    const pa = payment({ amountMinor: 10_000 });
    assert.deepEqual(decide(pa, [reference(pa, 'CP', 2500)], { paymentType: 'RV', amountMinor: 10_000, currency: 'EUR' }), refusedWith('700.100.200'));
  });

  it('refuses to reverse a DB that was partly refunded with 700.400.300', () => {
    const db = payment({ paymentType: 'DB', amountMinor: 10_000 });
    assert.deepEqual(decide(db, [reference(db, 'RF', 100)], { paymentType: 'RV' }), refusedWith('700.400.300'));
  });

  it('refuses a reversal whose amount is not the amount left with 700.100.200', () => {
    const db = payment({ paymentType: 'DB', amountMinor: 10_000 });
    assert.deepEqual(decide(db, [], { paymentType: 'RV', amountMinor: 5000, currency: 'EUR' }), refusedWith('700.100.200'));
    assert.deepEqual(decide(db, [], { paymentType: 'RV', amountMinor: 10_001, currency: 'EUR' }), refusedWith('700.100.200'));
  });

  it('accepts a reversal whose amount is the whole DB', () => {
    const db = payment({ paymentType: 'DB', amountMinor: 10_000 });
    assert.deepEqual(decide(db, [], { paymentType: 'RV', amountMinor: 10_000, currency: 'EUR' }), allowed(10_000));
  });
});

describe('decideReference: refunds (RF)', () => {
  it('refuses a refund above the debited amount with 700.400.200', () => {
    const db = payment({ paymentType: 'DB', amountMinor: 10_000 });
    assert.deepEqual(decide(db, [], { paymentType: 'RF', amountMinor: 10_001, currency: 'EUR' }), refusedWith('700.400.200'));
  });

  it('refuses refunds whose sum exceeds the debited amount with 700.400.200', () => {
    const db = payment({ paymentType: 'DB', amountMinor: 10_000 });
    const existing = [reference(db, 'RF', 4000), reference(db, 'RF', 4000)];
    assert.deepEqual(decide(db, existing, { paymentType: 'RF', amountMinor: 2001, currency: 'EUR' }), refusedWith('700.400.200'));
  });

  it('allows refunds that add up to exactly the debited amount', () => {
    const db = payment({ paymentType: 'DB', amountMinor: 10_000 });
    const existing = [reference(db, 'RF', 4000), reference(db, 'RF', 4000)];
    assert.deepEqual(decide(db, existing, { paymentType: 'RF', amountMinor: 2000, currency: 'EUR' }), allowed(2000));
  });

  it('refuses a refund above a captured amount with 700.400.200', () => {
    const cp = payment({ paymentType: 'CP', amountMinor: 3000 });
    assert.deepEqual(decide(cp, [reference(cp, 'RF', 2000)], { paymentType: 'RF', amountMinor: 1001, currency: 'EUR' }), refusedWith('700.400.200'));
  });

  it('refuses a refund after a refund with sequence=FINAL with 700.300.300', () => {
    const db = payment({ paymentType: 'DB', amountMinor: 10_000 });
    const existing = [reference(db, 'RF', 1000, { sequence: 'FINAL' })];
    assert.deepEqual(decide(db, existing, { paymentType: 'RF', amountMinor: 1000, currency: 'EUR' }), refusedWith('700.300.300'));
  });

  it('allows refunding again what a rebill charged back', () => {
    const db = payment({ paymentType: 'DB', amountMinor: 10_000 });
    const existing = [reference(db, 'RF', 10_000), reference(db, 'RB', 3000)];
    assert.deepEqual(decide(db, existing, { paymentType: 'RF', amountMinor: 3000, currency: 'EUR' }), allowed(3000));
    assert.deepEqual(decide(db, existing, { paymentType: 'RF', amountMinor: 3001, currency: 'EUR' }), refusedWith('700.400.200'));
  });
});

describe('decideReference: refunds of a charged-back payment', () => {
  const settlementDay = Date.UTC(2026, 2, 16);
  for (const paymentType of ['DB', 'CP']) {
    it(`refuses to refund a ${paymentType} of a chargeback amount with 700.400.200 once its settlement day came, when it was charged back`, () => {
      const chargedBack = payment({ paymentType, amountMinor: 10_020 });
      assert.deepEqual(decide(chargedBack, [], { paymentType: 'RF', amountMinor: 10_020, currency: 'EUR' }, settlementDay - 1), allowed(10_020));
      assert.deepEqual(decide(chargedBack, [], { paymentType: 'RF', amountMinor: 100, currency: 'EUR' }, settlementDay), refusedWith('700.400.200'));
      // Any other amount is not charged back and stays refundable.
      const kept = payment({ paymentType, amountMinor: 10_023 });
      assert.deepEqual(decide(kept, [], { paymentType: 'RF', amountMinor: 100, currency: 'EUR' }, settlementDay + HOUR_MS), allowed(100));
    });
  }
});

describe('decideReference: rebills (RB)', () => {
  it('refuses a rebill of a DB that was never refunded with 700.400.550', () => {
    assert.deepEqual(decide(payment({ paymentType: 'DB' }), [], { paymentType: 'RB', amountMinor: 100, currency: 'EUR' }), refusedWith('700.400.550'));
  });

  it('refuses a rebill above the refunded amount with 700.100.300', () => {
    const db = payment({ paymentType: 'DB', amountMinor: 10_000 });
    assert.deepEqual(decide(db, [reference(db, 'RF', 3000)], { paymentType: 'RB', amountMinor: 3001, currency: 'EUR' }), refusedWith('700.100.300'));
  });

  it('refuses rebills whose sum exceeds the refunded amount with 700.100.300', () => {
    const db = payment({ paymentType: 'DB', amountMinor: 10_000 });
    const existing = [reference(db, 'RF', 3000), reference(db, 'RB', 2000)];
    assert.deepEqual(decide(db, existing, { paymentType: 'RB', amountMinor: 1001, currency: 'EUR' }), refusedWith('700.100.300'));
    assert.deepEqual(decide(db, existing, { paymentType: 'RB', amountMinor: 1000, currency: 'EUR' }), allowed(1000));
  });
});
