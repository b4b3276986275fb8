// The hot path's shortcuts must agree with what they stand in for: the compiled acceptor with
// zod, isCalendarDate with the calendar, isAbsoluteUrl with the URL parser, the cached response
// timestamp with the clock.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { z } from 'zod';
import { responseTimestamp } from '../../server/clock.ts';
import { nest, type Flat } from '../../server/http/params.ts';
import { acceptor } from '../../server/schema/accept.ts';
import { isAbsoluteUrl, isCalendarDate } from '../../server/schema/common.ts';
import { initialPaymentRequest } from '../../server/schema/requests.ts';
import { cardDebit } from '../support/gateway.ts';
import { fullCardDebit, groupSamples } from '../support/groups.ts';

const accepts = acceptor(initialPaymentRequest);

function nested(flat: Flat) {
  const { value, errors } = nest(flat);
  assert.deepEqual(errors, []);
  return value;
}

describe('acceptor (zod fast path)', () => {
  it('accepts the full card debit and every group sample, exactly as zod parses them', () => {
    const requests = [fullCardDebit(), ...Object.entries(groupSamples).map(([, sample]) => ({ ...cardDebit(), ...sample }))];
    for (const request of requests) {
      const input = nested(request);
      const parsed = initialPaymentRequest.safeParse(input);
      assert.equal(parsed.success, true, JSON.stringify(parsed.error?.issues));
      assert.equal(accepts(input), true, `not accepted: ${Object.keys(request).join(' ')}`);
      assert.deepEqual(parsed.data, input);
    }
  });

  it('never accepts what zod refuses or changes (3,000 mutated requests)', () => {
    const base = fullCardDebit({ ...groupSamples.merchant, ...groupSamples.airline, ...groupSamples.customParameters });
    const names = Object.keys(base);
    const junk = fc.oneof(
      fc.constantFrom('', ' ', 'x', '0', '-1', '1e3', '10.5', '10.555', '2024-02-30', '2024-02-29', '1900-02-29', 'https://', 'http://1.2.3.999/', 'ftp://a.b', 'VISA', 'EUR', 'eur', 'true', 'TRUE', 'ÄÖÜ', '😀', 'a@b', 'a@b.c'),
      fc.string({ maxLength: 12 }),
      fc.nat({ max: 3000 }).map((n) => 'a'.repeat(n)),
      fc.stringMatching(/^[0-9]{1,14}$/),
    );
    const edit = fc.oneof(
      fc.tuple(fc.constant('set' as const), fc.constantFrom(...names), junk),
      fc.tuple(fc.constant('drop' as const), fc.constantFrom(...names), fc.constant('')),
      fc.tuple(fc.constant('add' as const), fc.constantFrom('customer.unknown', 'cart.items[11].name', 'cart.items[10].name', 'billing.street2', 'customParameters[ab]', 'customParameters[SHOPPER_x]', 'shipping.customer.email', 'risk.score', 'foo'), junk),
    );
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 4 }), (edits) => {
        const request: Flat = { ...base };
        for (const [kind, name, value] of edits) {
          if (kind === 'drop') delete request[name];
          else request[name] = value;
        }
        const { value: input, errors } = nest(request);
        if (errors.length) return;
        const parsed = initialPaymentRequest.safeParse(input);
        if (accepts(input)) {
          accepted++;
          assert.equal(parsed.success, true, `accepted what zod refuses: ${JSON.stringify(edits)}`);
          assert.deepEqual(parsed.data, input, `accepted what zod changes: ${JSON.stringify(edits)}`);
        } else {
          refused++;
        }
      }),
      { numRuns: 3_000, seed: 20261122 },
    );
    // Both answers were exercised, so the property was tested on each side.
    assert.ok(accepted > 300 && refused > 300, `accepted ${accepted}, refused ${refused}`);
  });

  it('asks zod (answers false) for what it cannot decide or zod would change', () => {
    assert.equal(acceptor(z.string().trim())(' a '), false);
    assert.equal(acceptor(z.string().trim())('a'), true);
    assert.equal(acceptor(z.string().transform((v) => v.length))('a'), false);
    assert.equal(acceptor(z.string().default('x'))('a'), false);
    assert.equal(acceptor(z.coerce.string())('a'), false);
    assert.equal(acceptor(z.string().refine(async () => true))('a'), false);
    assert.equal(acceptor(z.object({ a: z.string() }))({ a: 'x', b: 'y' }), false, 'zod strips b: output differs');
    assert.equal(acceptor(z.object({ a: z.string() }))({ a: 'x' }), true);
    assert.equal(acceptor(z.strictObject({ a: z.string() }))({ a: 'x', b: 'y' }), false);
    assert.equal(acceptor(z.looseObject({ a: z.string() }))({ a: 'x', b: 'y' }), true);
    assert.equal(acceptor(z.strictObject({ a: z.string(), b: z.string().optional() }))({ b: 'y' }), false, 'a is required');
    assert.equal(acceptor(z.array(z.string()).max(2))(['a', 'b', 'c']), false);
    assert.equal(acceptor(z.array(z.string()))([, 'b']), false, 'a hole is undefined');
    assert.equal(acceptor(z.record(z.string().regex(/^[a-z]{3,}$/), z.string()))({ abc: 'x' }), true);
    assert.equal(acceptor(z.record(z.string().regex(/^[a-z]{3,}$/), z.string()))({ ab: 'x' }), false);
    assert.equal(acceptor(z.record(z.enum(['a', 'b']), z.string()))({ a: 'x', b: 'y' }), false);
    assert.equal(acceptor(z.string().max(3))('😀😀😀'), true, 'zod counts code points');
    assert.equal(acceptor(z.string().max(3))('😀😀😀😀'), false);
    assert.equal(acceptor(z.union([z.literal('a'), z.enum(['b'])]))('b'), true);
    assert.equal(acceptor(z.union([z.literal('a'), z.enum(['b'])]))('c'), false);
  });
});

/** The calendar check as it was written first, through Date. */
function calendarDateByDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

describe('isCalendarDate', () => {
  it('agrees with Date on every month 00-13 and day 00-32 of the years 0000-0400 and 1880-2420, and of every 13th year else', () => {
    const pad = (n: number, width: number) => String(n).padStart(width, '0');
    let checked = 0;
    for (let y = 0; y <= 9999; y += y <= 400 || (y >= 1880 && y <= 2420) ? 1 : 13)
      for (let m = 0; m <= 13; m++)
        for (let d = 0; d <= 32; d++) {
          const value = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
          assert.equal(isCalendarDate(value), calendarDateByDate(value), value);
          checked++;
        }
    assert.ok(checked > 600_000);
    assert.equal(isCalendarDate('2024-02-29'), true);
    assert.equal(isCalendarDate('2100-02-29'), false);
  });

  it('refuses anything that is not exactly yyyy-MM-dd', () => {
    for (const value of ['2024-02-29x', ' 2024-02-29', '2024-2-29', '２０２４-02-29', '2024/02/29', '', '2024-02-2a', '+202-02-29', '20240229']) {
      assert.equal(isCalendarDate(value), false, value);
      assert.equal(calendarDateByDate(value), false, value);
    }
  });
});

describe('isAbsoluteUrl', () => {
  const byParser = (value: string) => {
    try {
      const url = new URL(value);
      return url.protocol.length > 1 && !!url.host;
    } catch {
      return false;
    }
  };

  it('agrees with the URL parser (20,000 generated addresses)', () => {
    const part = fc.stringMatching(/^[a-zA-Z0-9.\-:@/?#%[\]\\^|{} _~!$&'()*+,;=]{0,12}$/);
    const url = fc
      .tuple(fc.constantFrom('http://', 'https://', 'HTTPS://', 'ftp://', 'http:/', 'http:', 'x://', ''), part, fc.constantFrom('', '.com', '.1', ':80', ':99999', ':65535', ':0'), part)
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(url, (value) => isAbsoluteUrl(value) === byParser(value)),
      { numRuns: 20_000, seed: 20261122 },
    );
  });

  it('takes the usual shop addresses and refuses the ones the parser refuses', () => {
    for (const value of ['https://shop.example/products/1?x=1#top', 'http://localhost:8080/result', 'https://xn--bcher-kva.example/']) assert.equal(isAbsoluteUrl(value), true, value);
    for (const value of ['https://999.1.1.1/', 'http://localhost:65536/', '/relative/path', 'shop.example/x']) {
      assert.equal(isAbsoluteUrl(value), false, value);
      assert.equal(byParser(value), false, value);
    }
  });
});

describe('responseTimestamp', () => {
  it('formats each moment in UTC, also when the second changes between calls or goes back', () => {
    const moments = ['2026-11-22T03:59:59.999Z', '2026-11-22T04:00:00.000Z', '2026-11-22T04:00:00.500Z', '1999-12-31T23:59:59.000Z', '2026-11-22T04:00:01.000Z'];
    assert.deepEqual(
      moments.map((m) => responseTimestamp(new Date(m))),
      ['2026-11-22 03:59:59+0000', '2026-11-22 04:00:00+0000', '2026-11-22 04:00:00+0000', '1999-12-31 23:59:59+0000', '2026-11-22 04:00:01+0000'],
    );
  });
});
