// The widget's messages for gateway result codes (src/core/results.ts) against the server's
// catalogue and group patterns (server/results.ts): every code gets its group's message.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogue, groupsOf, isPending as serverPending, isSuccess as serverSuccess, type ResultGroup } from '../../server/results.ts';
import type { MessageKey } from '../../src/core/locales/en.ts';
import { isPending, isSuccess, resultMessageKey } from '../../src/core/results.ts';

/** The message each failure group shows (groups that share a message share a key). */
const BY_GROUP: Partial<Record<ResultGroup, MessageKey>> = {
  rejected3ds: 'r3ds',
  softDecline: 'r3ds',
  externalBankReject: 'rDeclined',
  chargeback: 'rDeclined',
  riskBlacklist: 'rDeclined',
  riskValidation: 'rDeclined',
  riskManagement: 'rDeclined',
  asyncWorkflowError: 'rCancelled',
  communicationError: 'rSystem',
  systemError: 'rSystem',
  referenceValidation: 'rSystem',
  jobValidation: 'rSystem',
  amountValidation: 'rSystem',
  configurationValidation: 'rConfig',
  registrationValidation: 'rSaved',
  addressValidation: 'rInput',
  contactValidation: 'rInput',
  accountValidation: 'rInput',
  formatValidation: 'rInput',
};

/** Codes with a clearer message of their own. */
const SPECIFIC: Record<string, MessageKey> = {
  '100.100.303': 'eExpired',
  '800.100.157': 'eExpired',
  '100.100.601': 'rCvv',
  '800.100.153': 'rCvv',
  '800.100.155': 'rFunds',
  '800.100.162': 'rFunds',
  '100.100.501': 'rConfig',
  '800.120.100': 'rSystem',
  '100.396.103': 'rSession',
  // In no group of the catalogue: a failed 3-D Secure challenge.
  '100.380.401': 'r3ds',
};

/** Codes not (yet) in the catalogue, one or more per group pattern. */
const SAMPLES = [
  '000.000.100', '000.100.105', '000.300.000', '000.600.000', '000.400.110', '000.400.000', '000.400.100', '000.200.001', '800.400.500', '100.400.500',
  '000.400.101', '000.400.199', '000.400.200', '300.100.100', '800.700.100', '800.800.102', '000.100.201', '100.397.101', '100.395.501',
  '800.300.101', '800.200.159', '800.110.100', '800.160.100', '100.380.201', '100.380.101', '900.200.100', '900.400.100', '000.400.030',
  '800.500.100', '800.600.100', '999.999.888', '600.100.100', '800.800.800', '800.800.400', '700.150.100', '700.500.100', '100.250.100',
  '100.360.201', '100.550.310', '600.300.100', '500.100.201', '500.200.101', '800.121.100', '100.350.100', '100.150.300', '100.800.200',
  '100.900.300', '100.700.500', '100.210.101', '100.200.200', '200.100.101', '200.300.405', '100.530.100', '100.370.100', '800.900.101',
  '100.600.500', '100.900.500',
];

describe('widget messages for gateway result codes', () => {
  const codes = [...Object.keys(catalogue), ...SAMPLES];

  it('agrees with the server on success and pending', () => {
    for (const code of codes) {
      assert.equal(isSuccess(code), serverSuccess(code), `${code} success`);
      assert.equal(isPending(code), serverPending(code), `${code} pending`);
    }
  });

  it('gives every failure code its group’s message (or its own clearer one)', () => {
    let checked = 0;
    for (const code of codes) {
      if (serverSuccess(code) || serverPending(code)) continue;
      const groups = groupsOf(code);
      const fromGroup = groups.map((g) => BY_GROUP[g]).find((key) => key !== undefined);
      const expected = SPECIFIC[code] ?? fromGroup ?? 'rUnknown';
      assert.equal(resultMessageKey(code), expected, `${code} (${groups.join(', ') || 'no group'})`);
      if (groups.length) assert.notEqual(resultMessageKey(code), 'rUnknown', `${code} has a group but no message`);
      checked++;
    }
    assert.ok(checked > 60, `only ${checked} codes checked`);
  });

  it('covers every group of the catalogue', () => {
    const covered = new Set(codes.flatMap((code) => groupsOf(code)));
    for (const group of Object.keys(BY_GROUP)) assert.ok(covered.has(group as ResultGroup), `no sample code for ${group}`);
  });

  it('calls a missing answer a network failure', () => {
    assert.equal(resultMessageKey(''), 'rNetwork');
    assert.equal(resultMessageKey('123.456.789'), 'rUnknown');
  });
});
