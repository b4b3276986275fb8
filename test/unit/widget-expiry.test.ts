// The card form's expiry field (src/core/format.ts, src/core/expiry.ts): what typing shows, and
// what is refused with which problem.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkExpiry, holderProblem } from '../../src/core/expiry.ts';
import { formatExpiryInput } from '../../src/core/format.ts';

describe('expiry input', () => {
  it('puts the slash in by itself and keeps a one-digit month closed with a separator', () => {
    const shown = Object.fromEntries(['0', '1', '4', '05', '053', '0534', '052034', '1/', '1/3', '1/30', '9-29', '1 30', '12/30', '٠٥٣٤', '05/34/77', '534', '５３４', '92034', '0/', '0/5'].map((typed) => [typed, formatExpiryInput(typed)]));
    assert.deepEqual(shown, {
      '0': '0',
      '1': '1',
      '4': '04',
      '05': '05',
      '053': '05/3',
      '0534': '05/34',
      '052034': '05/2034',
      '1/': '01',
      '1/3': '01/3',
      '1/30': '01/30',
      '9-29': '09/29',
      '1 30': '01/30',
      '12/30': '12/30',
      '٠٥٣٤': '05/34',
      '05/34/77': '05/3477',
      // Pasted, or an IME's text committed whole: as typed key by key.
      '534': '05/34',
      '５３４': '05/34',
      '92034': '09/2034',
      // No month 0: a 0 closed with a slash is the start of a month still.
      '0/': '0',
      '0/5': '05',
    });
    // Typing on after the field showed "01": the next digit starts the year.
    assert.equal(formatExpiryInput(`${formatExpiryInput('1/')}3`), '01/3');
    assert.equal(formatExpiryInput(`${formatExpiryInput('4')}5`), '04/5');
  });

  it('says whether the date is malformed, past, or further ahead than cards are issued for', () => {
    const now = new Date(2026, 10, 24);
    assert.deepEqual(checkExpiry('11/26', now), { month: '11', year: '2026' });
    assert.deepEqual(checkExpiry('01/30', now), { month: '01', year: '2030' });
    assert.deepEqual(checkExpiry('10/2045', now), { month: '10', year: '2045' });
    assert.deepEqual(checkExpiry('10/26', now), { problem: 'expired' });
    assert.deepEqual(checkExpiry('12/46', now), { problem: 'year' });
    assert.deepEqual(checkExpiry('13/30', now), { problem: 'format' });
    assert.deepEqual(checkExpiry('0530', now), { month: '05', year: '2030' });
    assert.deepEqual(checkExpiry('5', now), { problem: 'format' });
  });

  it('judges the month in UTC, as the gateway does, whatever the shopper\'s time zone', () => {
    const zone = process.env.TZ;
    try {
      // 30 November 2026, 12:00 UTC is 1 December in Kiritimati (UTC+14): the gateway still takes 11/26.
      process.env.TZ = 'Pacific/Kiritimati';
      assert.deepEqual(checkExpiry('11/26', new Date(Date.UTC(2026, 10, 30, 12))), { month: '11', year: '2026' });
      // 1 December 2026, 03:00 UTC is still 30 November in Los Angeles: the gateway refuses 11/26 already.
      process.env.TZ = 'America/Los_Angeles';
      assert.deepEqual(checkExpiry('11/26', new Date(Date.UTC(2026, 11, 1, 3))), { problem: 'expired' });
      assert.deepEqual(checkExpiry('12/26', new Date(Date.UTC(2026, 11, 1, 3))), { month: '12', year: '2026' });
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});

describe('holder input', () => {
  it('tells a holder of the right characters but fewer than 3 the least it must have, anything else to enter the name', () => {
    const told = Object.fromEntries(['Jo', ' Al ', 'J', 'Ål', '', '   ', 'J0', 'J0hn', 'Jo & Ann', 'a'.repeat(129), '...', "-'-", '.J', 'Jon', ' Jane Jones ', "O'Neil-Ó. Ng"].map((typed) => [typed, holderProblem(typed)]));
    assert.deepEqual(told, {
      Jo: 'eMin3',
      ' Al ': 'eMin3',
      J: 'eMin3',
      Ål: 'eMin3',
      '': 'eHolder',
      '   ': 'eHolder',
      J0: 'eHolder',
      J0hn: 'eHolder',
      'Jo & Ann': 'eHolder',
      ['a'.repeat(129)]: 'eHolder',
      // No letter names no one, as the gateway says; one letter is a short name.
      '...': 'eHolder',
      "-'-": 'eHolder',
      '.J': 'eMin3',
      Jon: undefined,
      ' Jane Jones ': undefined,
      "O'Neil-Ó. Ng": undefined,
    });
  });
});
