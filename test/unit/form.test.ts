// The form body reader (server/http/params.ts formPairs) reads exactly what URLSearchParams reads,
// malformed escapes, plus signs, question marks and invalid UTF-8 included; it only reads faster.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { formPairs, parseForm } from '../../server/http/params.ts';

const byte = fc.integer({ min: 0, max: 255 }).map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`);
const piece = fc.oneof(
  fc.constantFrom('a', 'card.number', 'cart.items%5B0%5D.name', '+', '%', '%2', '%zz', '%E0%A4%A', '%ED%A0%80', '%C3%A9', '%F0%9F%98%80', '?', '=', '&', '&&', '%26', '%3D', '%2B', 'é', '😀', '\u0000'),
  byte,
  fc.string({ maxLength: 6 }),
);
const body = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''));

describe('form bodies', () => {
  it('reads every body as URLSearchParams does', () => {
    fc.assert(
      fc.property(body, (text) => {
        assert.deepEqual(formPairs(text), [...new URLSearchParams(text)]);
      }),
      { numRuns: 3000, seed: 4711 },
    );
  });

  it('reads the same body twice alike (decoded names are kept)', () => {
    const text = 'cart.items%5B0%5D.name=Shoe+red&amount=92.00&amount=1.00&%zz=1';
    assert.deepEqual(formPairs(text), [...new URLSearchParams(text)]);
    assert.deepEqual(formPairs(text), [...new URLSearchParams(text)]);
    assert.deepEqual(parseForm(text).errors, [{ name: 'amount', value: '1.00', message: 'amount was sent more than once' }]);
  });

  it('keeps a ? that starts a later pair as part of its name', () => {
    assert.deepEqual(formPairs('?a=1&?b=%zz'), [['a', '1'], ['?b', '%zz']]);
  });
});
