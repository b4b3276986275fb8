// What the shopper's typing becomes, held as properties over generated input (fast-check): the card
// number's groups and caret (src/core/format.ts, src/core/card.ts, used by the number frame), the
// expiry as typed and pasted, holder and postcode; and that what the page takes as valid is what
// the gateway takes (server/schema/card.ts, billing.ts, requests.ts › checkCard).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { addressProblem, billingParams } from '../../src/core/address.ts';
import { accountHolderValid } from '../../src/core/bank.ts';
import { cardInfo } from '../../src/core/card.ts';
import { checkExpiry, holderProblem } from '../../src/core/expiry.ts';
import { caretAfterDigits, digitsOf, formatExpiryInput, groupDigits, holderText, parseExpiry } from '../../src/core/format.ts';
import { bankAccount } from '../../server/schema/bankAccount.ts';
import { billing } from '../../server/schema/billing.ts';
import { card } from '../../server/schema/card.ts';
import { luhn } from '../../server/schema/cardNumber.ts';
import { checkCard, hasExpired } from '../../server/schema/requests.ts';

const RUNS = { numRuns: 2000 };

/** ASCII digits written in one of the scripts the fields take: Arabic-Indic, Extended Arabic-Indic, full-width. */
const script = (digits: string, base: number) => (base === 0x30 ? digits : [...digits].map((d) => String.fromCharCode(base + Number(d))).join(''));
const digitScript = fc.constantFrom(0x30, 0x660, 0x6f0, 0xff10);

/** Prefixes of every brand card-validator knows (and some it does not), so that each brand's rules are reached. */
const PREFIXES = [
  '4', '51', '55', '2221', '2720', '34', '37', '300', '305', '36', '38', '39', '6011', '644', '65', '3528', '3589', '62', '81',
  '50', '56', '58', '63', '67', '6304', '401178', '438935', '504175', '506699', '650031', '2200', '2204', '637095', '606282',
  '9792', '506099', '589562', '1', '7', '9', '0',
];

/** A card number as a shopper may have one: a known prefix, 1 to 19 digits, half of them with a right check digit. */
const cardNumber = fc
  .tuple(fc.constantFrom(...PREFIXES), fc.integer({ min: 1, max: 19 }), fc.stringMatching(/^\d{19}$/), fc.boolean())
  .map(([prefix, length, rest, fixLuhn]) => {
    const body = (prefix + rest).slice(0, length);
    if (!fixLuhn || body.length < 2) return body;
    const stem = body.slice(0, -1);
    return stem + [...'0123456789'].find((d) => luhn(stem + d))!;
  });

/** The length of each group the shopper sees. */
const groupsOf = (formatted: string) => formatted.split(' ').map((group) => group.length);

describe('card number as the number frame shows it', () => {
  it('keeps every digit, in order, and groups them as the brand prints them: AMEX 4-6-5, others 4-4-4-4(-3)', () => {
    fc.assert(
      fc.property(cardNumber, (typed) => {
        // As the frame does: no more digits than the brand's longest number.
        const digits = typed.slice(0, cardInfo(typed).maxLength);
        const info = cardInfo(digits);
        const shown = groupDigits(digits, info.gaps);
        assert.equal(digitsOf(shown), digits, 'no digit lost or invented');
        assert.match(shown, /^\d+( \d+)*$/, 'single spaces between digits only');
        assert.equal(groupDigits(digitsOf(shown), cardInfo(digitsOf(shown)).gaps), shown, 'grouping again changes nothing');
        const groups = groupsOf(shown);
        const expected = info.brand === 'AMEX' ? [4, 6, 5] : info.brand === 'DINERS' ? [4, 6] : [4, 4, 4, 4, 3];
        // Every group but the last is full; the last is no longer than its place allows.
        groups.slice(0, -1).forEach((length, i) => assert.equal(length, expected[i] ?? length, `${shown}: group ${i + 1}`));
        assert.ok(groups.at(-1)! <= (expected[groups.length - 1] ?? Infinity), `${shown}: last group`);
      }),
      RUNS,
    );
  });

  it('groups a 19-digit number 4-4-4-4-3, not with a last group of 7', () => {
    assert.equal(groupDigits('4000000000000000006', cardInfo('4000000000000000006').gaps), '4000 0000 0000 0000 006');
    assert.equal(groupDigits('6212345678901234567', cardInfo('6212345678901234567').gaps), '6212 3456 7890 1234 567');
    assert.equal(groupDigits('378282246310005', cardInfo('378282246310005').gaps), '3782 822463 10005');
  });

  it('puts the caret right after the same number of digits as before', () => {
    fc.assert(
      fc.property(cardNumber, fc.nat(), (digits, seed) => {
        const shown = groupDigits(digits, cardInfo(digits).gaps);
        const count = seed % (digits.length + 1);
        const caret = caretAfterDigits(shown, count);
        assert.equal(digitsOf(shown.slice(0, caret)).length, count);
        assert.ok(caret === 0 || /\d/.test(shown[caret - 1]!), 'right after a digit, never after a space');
      }),
      RUNS,
    );
  });

  it('reads digits of other scripts as the same number', () => {
    fc.assert(
      fc.property(cardNumber, digitScript, (digits, base) => {
        assert.equal(digitsOf(script(digits, base)), digits);
        assert.equal(digitsOf(script(digits, base).replace(/(\d|.)(?=.)/gu, '$1 - ')), digits);
      }),
      RUNS,
    );
  });

  it('calls a number valid exactly when the gateway takes it, with the brand the gateway detects', () => {
    const now = new Date('2026-01-15T12:00:00Z');
    fc.assert(
      fc.property(cardNumber, (digits) => {
        const info = cardInfo(digits);
        const server = checkCard({ number: digits, expiryMonth: '12', expiryYear: '2030' }, undefined, now);
        const refused = server.errors.some((e) => e.name === 'card.number' || e.name === 'paymentBrand') || !card.shape.number.safeParse(digits).success;
        assert.equal(info.valid, !refused, `${digits}: ${JSON.stringify(server.errors)}`);
        if (info.valid) assert.equal(info.brand, server.brand);
        assert.ok(!info.complete || info.valid);
        assert.ok(digits.length <= info.maxLength || !info.valid);
      }),
      RUNS,
    );
  });
});

describe('expiry as typed and pasted', () => {
  /** What a shopper may type into the expiry field: digits of any script, separators, stray letters. */
  const keys = fc.array(fc.constantFrom(...'0123456789012345678901234567890123456789/-. ', '٠', '٥', '۳', '０', '５', 'a'), { maxLength: 10 }).map((chars) => chars.join(''));

  it('is shown the same when formatted again (idempotent)', () => {
    fc.assert(
      fc.property(keys, (typed) => {
        const shown = formatExpiryInput(typed);
        assert.equal(formatExpiryInput(shown), shown, JSON.stringify(typed));
        assert.match(shown, /^(\d{0,2}|\d\d\/\d{1,4})$/);
      }),
      RUNS,
    );
  });

  it('keeps the digits typed, in order: at most a 0 before a one-digit month, and nothing past MM/YYYY', () => {
    fc.assert(
      fc.property(keys, (typed) => {
        const digits = digitsOf(typed);
        const shown = digitsOf(formatExpiryInput(typed));
        // A month typed as one digit gets its 0: the rest are the digits typed, in their order.
        const kept = shown === digits.slice(0, 6) || (shown.startsWith('0') && shown.slice(1) === digits.slice(0, 5));
        assert.ok(kept, `${JSON.stringify(typed)} → ${formatExpiryInput(typed)}`);
      }),
      RUNS,
    );
  });

  it('shows what is typed key by key at the end as it shows the whole pasted at once', () => {
    fc.assert(
      // Starting with a digit and without letters: a separator or a letter typed alone vanishes at
      // once, so the keys after it meet another value than in the paste.
      fc.property(keys.filter((typed) => digitsOf(typed.slice(0, 1)) !== '' && !typed.includes('a')), (typed) => {
        let shown = '';
        for (const key of typed) shown = formatExpiryInput(shown + key);
        assert.equal(shown, formatExpiryInput(typed), JSON.stringify(typed));
      }),
      RUNS,
    );
  });

  it('takes the pasted forms of a date: "05/2034", "5/34", "0534", "05-34", in any digit script', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 2026, max: 2045 }), digitScript, fc.constantFrom('MM/YYYY', 'M/YY', 'MMYY', 'MM-YY', 'MM / YY', 'M/YYYY', 'MM.YY'), (month, year, base, form) => {
        const mm = String(month).padStart(2, '0');
        const pasted = form
          .replace('MM', mm)
          .replace('M', String(month))
          .replace('YYYY', String(year))
          .replace('YY', String(year).slice(2));
        const shown = formatExpiryInput(pasted.replace(/[0-9]/g, (d) => script(d, base)));
        assert.deepEqual(parseExpiry(shown), { month: mm, year: String(year) }, `${pasted} → ${shown}`);
      }),
      RUNS,
    );
  });

  it('takes an expiry exactly when the gateway would (month 01-12, year 19xx/20xx, not past), bar years too far ahead', () => {
    const now = new Date('2026-06-10T12:00:00Z');
    fc.assert(
      fc.property(keys, (typed) => {
        const checked = checkExpiry(formatExpiryInput(typed), now);
        if ('problem' in checked) {
          if (checked.problem !== 'expired') return;
          const parsed = parseExpiry(formatExpiryInput(typed))!;
          assert.ok(hasExpired(parsed.month, parsed.year, now));
          return;
        }
        const server = card.safeParse({ number: '4200000000000000', expiryMonth: checked.month, expiryYear: checked.year });
        assert.ok(server.success, JSON.stringify(checked));
        assert.equal(hasExpired(checked.month, checked.year, now), false);
      }),
      RUNS,
    );
  });
});

describe('holder and postcode', () => {
  const nameChars = fc.constantFrom('a', 'Z', 'é', 'Ø', 'ß', '李', 'ا', '\u0301', ' ', '.', "'", '-', '0', '&', '\t', '\u00a0', '\n', '𝒜', '𠮷');

  it('calls a holder (card or bank account) fine exactly when the gateway takes the name the page sends, counted in characters', () => {
    fc.assert(
      fc.property(fc.array(nameChars, { maxLength: 140 }).map((c) => c.join('')), (typed) => {
        const server = card.shape.holder.safeParse(holderText(typed)).success;
        assert.equal(holderProblem(typed) === undefined, server, JSON.stringify(typed));
      }),
      RUNS,
    );
    fc.assert(
      fc.property(fc.array(nameChars, { maxLength: 140 }).map((c) => c.join('')), (typed) => {
        const server = bankAccount.shape.holder.safeParse(holderText(typed)).success && /\p{L}/u.test(typed);
        assert.equal(accountHolderValid(typed), server, `bank account: ${JSON.stringify(typed)}`);
      }),
      RUNS,
    );
    // A name of two characters outside the BMP (the 𠮷 of the surname 𠮷田 is one): 3 UTF-16 units, 2 characters.
    assert.equal(holderProblem('𠮷田'), 'eMin3');
    assert.equal(accountHolderValid('𠮷田 A'), true);
    assert.equal(accountHolderValid('𠮷田A'), false);
    // A name pasted with a tab or a no-break space (copied from a document) is sent with plain spaces.
    assert.equal(holderText(' Jane\u00a0\tJones\n'), 'Jane Jones');
    assert.equal(holderProblem('Jane\u00a0Jones'), undefined);
    assert.equal(accountHolderValid('Jane\tJones'), true);
  });

  it('calls a postcode fine exactly when the gateway takes what the page sends (spaces and dashes dropped, ASCII digits)', () => {
    const postcodeChars = fc.constantFrom('1', '0', '9', 'A', 'k', ' ', '-', '－', 'ー', '‐', '−', '٣', '۵', '５', '/', 'Ä');
    fc.assert(
      fc.property(fc.array(postcodeChars, { maxLength: 20 }).map((c) => c.join('')), (typed) => {
        const sent = billingParams(['postcode'], () => typed)['billing.postcode']!;
        const server = billing.safeParse({ postcode: sent }).success && sent !== '';
        assert.equal(addressProblem('postcode', typed) === undefined, server, JSON.stringify(typed));
      }),
      RUNS,
    );
  });
});

describe('postcode typed with a Japanese IME', () => {
  it('reads full-width digits and the dash key, which kana mode types as ー (１００－０００１, １００ー０００１)', () => {
    for (const typed of ['１００－０００１', '１００ー０００１', '100ー0001', '١٠١١٥', 'SW1A 1AA']) assert.equal(addressProblem('postcode', typed), undefined, typed);
    assert.equal(billingParams(['postcode'], () => '１００ー０００１')['billing.postcode'], '1000001');
  });
});
