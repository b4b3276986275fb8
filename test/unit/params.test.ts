import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { flatName, flattenJson, nest, parseForm, readJson } from '../../server/http/params.ts';

describe('nest', () => {
  it('nests dotted names into groups', () => {
    const { value, errors } = nest({ amount: '92.00', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'customer.browser.language': 'de' });
    assert.deepEqual(errors, []);
    assert.deepEqual(value, {
      amount: '92.00',
      card: { number: '4200000000000000', expiryMonth: '05' },
      customer: { browser: { language: 'de' } },
    });
  });

  it('nests [n] indexes into arrays in index order', () => {
    const { value, errors } = nest({ 'cart.items[1].name': 'second', 'cart.items[0].name': 'first', 'cart.items[0].quantity': '2' });
    assert.deepEqual(errors, []);
    assert.deepEqual(value, { cart: { items: [{ name: 'first', quantity: '2' }, { name: 'second' }] } });
  });

  it('nests an index directly followed by a value', () => {
    const { value, errors } = nest({ 'tags[0]': 'a', 'tags[1]': 'b' });
    assert.deepEqual(errors, []);
    assert.deepEqual(value, { tags: ['a', 'b'] });
  });

  it('keeps [key] names of customParameters whole, dots and underscores included', () => {
    const { value, errors } = nest({ 'customParameters[SHOPPER_x.y]': 'v1', 'customParameters[plain]': 'v2' });
    assert.deepEqual(errors, []);
    assert.deepEqual(value, { customParameters: { 'SHOPPER_x.y': 'v1', plain: 'v2' } });
  });

  it('keeps [key] names of a nested keyed group such as threeDSecure.schemeData[CB-ITEMSNB]', () => {
    const { value, errors } = nest({ 'threeDSecure.schemeData[CB-ITEMSNB]': '3', 'threeDSecure.eci': '05' });
    assert.deepEqual(errors, []);
    assert.deepEqual(value, { threeDSecure: { schemeData: { 'CB-ITEMSNB': '3' }, eci: '05' } });
  });

  it('keeps a numeric-looking [key] of a keyed group as a name, not an index', () => {
    const { value, errors } = nest({ 'customParameters[123]': 'x' });
    assert.deepEqual(errors, []);
    assert.deepEqual(value, { customParameters: { '123': 'x' } });
    assert.equal(Array.isArray((value as { customParameters: unknown }).customParameters), false);
  });

  it('accepts index 999, the highest allowed', () => {
    const { value, errors } = nest({ 'cart.items[999].name': 'last' });
    assert.deepEqual(errors, []);
    const items = (value as { cart: { items: unknown[] } }).cart.items;
    assert.equal(items.length, 1000);
    assert.deepEqual(items[999], { name: 'last' });
  });

  it('refuses an index above 999 and names the parameter', () => {
    const { value, errors } = nest({ 'cart.items[1000].name': 'x' });
    assert.deepEqual(value, {});
    assert.deepEqual(errors, [{ name: 'cart.items[1000].name', value: 'x', message: 'cart.items[1000].name has an index above 999' }]);
  });

  it('refuses a name nested deeper than 12 levels, before recursing into it', () => {
    const twelve = `a${'.b'.repeat(11)}`;
    assert.deepEqual(nest({ [twelve]: 'x' }).errors, []);
    const deep = `a${'.b'.repeat(20_000)}`;
    const { value, errors } = nest({ [deep]: 'x', [`c${'[0]'.repeat(5000)}`]: 'y' });
    assert.deepEqual(value, {});
    assert.deepEqual(
      errors.map((e) => e.message.slice(e.name.length)),
      [' is nested deeper than 12 levels', ' is nested deeper than 12 levels'],
    );
  });

  it('refuses a five-digit index', () => {
    const { errors } = nest({ 'cart.items[10000].name': 'x' });
    assert.deepEqual(errors, [{ name: 'cart.items[10000].name', value: 'x', message: 'cart.items[10000].name has an index that is not a number' }]);
  });

  it('refuses a non-numeric or negative index of a group that is not keyed', () => {
    for (const name of ['cart.items[x].name', 'cart.items[-1].name', 'cart.items[1.5].name', 'cart.items[].name']) {
      const { value, errors } = nest({ [name]: 'x' });
      assert.deepEqual(value, {}, name);
      assert.deepEqual(errors, [{ name, value: 'x', message: `${name} has an index that is not a number` }], name);
    }
  });

  it('refuses an empty [key] of a keyed group', () => {
    const { errors } = nest({ 'customParameters[]': 'x' });
    assert.deepEqual(errors, [{ name: 'customParameters[]', value: 'x', message: 'customParameters[] has an empty [key]' }]);
  });

  it('refuses malformed names: empty segments, leading dot, unbalanced brackets, empty name', () => {
    for (const name of ['card..number', '.card', 'card.', 'card[', 'card]', 'card.[0]', '']) {
      const { value, errors } = nest({ [name]: 'x' });
      assert.deepEqual(value, {}, name);
      assert.deepEqual(errors, [{ name, value: 'x', message: `${name} is not a valid parameter name` }], JSON.stringify(name));
    }
  });

  it('refuses __proto__, constructor and prototype anywhere in a name and leaves Object.prototype untouched', () => {
    const names = [
      '__proto__.polluted',
      '__proto__[0]',
      'card.__proto__.polluted',
      'constructor.prototype.polluted',
      'customer.constructor',
      'customParameters[__proto__]',
      'customParameters[constructor]',
      'risk.parameters[prototype]',
    ];
    const { value, errors } = nest(Object.fromEntries(names.map((name) => [name, 'yes'])));
    assert.deepEqual(value, {});
    assert.deepEqual(
      errors.map((e) => e.name),
      names,
    );
    for (const e of errors) assert.equal(e.message, `${e.name} is not a valid parameter name`);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.hasOwn(Object.prototype, 'polluted'), false);
  });

  it('never writes through inherited members such as toString or hasOwnProperty', () => {
    const { value, errors } = nest({ 'toString.polluted': 'x', 'hasOwnProperty.polluted': 'y', 'card.valueOf.polluted': 'z' });
    assert.deepEqual(errors, []);
    assert.equal((Object.prototype.toString as unknown as Record<string, unknown>).polluted, undefined);
    assert.equal((Object.prototype.hasOwnProperty as unknown as Record<string, unknown>).polluted, undefined);
    assert.equal((Object.prototype.valueOf as unknown as Record<string, unknown>).polluted, undefined);
    // They become ordinary (unknown) parameters that the schema then names.
    assert.deepEqual(JSON.parse(JSON.stringify(value)), {
      toString: { polluted: 'x' },
      hasOwnProperty: { polluted: 'y' },
      card: { valueOf: { polluted: 'z' } },
    });
  });

  it('keeps a parameter named like an inherited member as a value', () => {
    const { value, errors } = nest({ valueOf: 'x' });
    assert.deepEqual(errors, []);
    assert.equal(Object.hasOwn(value, 'valueOf'), true);
    assert.equal(value.valueOf, 'x');
  });

  it('reports a value sent where a group follows (card=x with card.number=y)', () => {
    const { value, errors } = nest({ card: 'x', 'card.number': 'y' });
    assert.deepEqual(value, { card: 'x' });
    assert.deepEqual(errors, [{ name: 'card.number', value: 'y', message: 'card.number conflicts with another parameter of the same name' }]);
  });

  it('reports a value sent after its group (card.number=y then card=x)', () => {
    const { value, errors } = nest({ 'card.number': 'y', card: 'x' });
    assert.deepEqual(value, { card: { number: 'y' } });
    assert.deepEqual(errors, [{ name: 'card', value: 'x', message: 'card conflicts with another parameter of the same name' }]);
  });

  it('reports a group used both as a list and as named fields', () => {
    const { errors } = nest({ 'cart.items[0].name': 'a', 'cart.items.name': 'b' });
    assert.deepEqual(errors, [{ name: 'cart.items.name', value: 'b', message: 'cart.items.name conflicts with another parameter of the same name' }]);
  });

  it('reports two spellings of the same index (items[1] and items[01])', () => {
    const { errors } = nest({ 'cart.items[1].name': 'a', 'cart.items[01].name': 'b' });
    assert.deepEqual(errors, [{ name: 'cart.items[01].name', value: 'b', message: 'cart.items[01].name conflicts with another parameter of the same name' }]);
  });

  it('reports every bad name, not just the first', () => {
    const { value, errors } = nest({ amount: '1.00', 'a[x]': '1', 'b[1000]': '2', '__proto__.c': '3' });
    assert.deepEqual(value, { amount: '1.00' });
    assert.deepEqual(
      errors.map((e) => e.name),
      ['a[x]', 'b[1000]', '__proto__.c'],
    );
  });
});

describe('flatName', () => {
  it('writes dotted names for nested fields', () => {
    assert.equal(flatName(['card', 'number']), 'card.number');
    assert.equal(flatName(['customer', 'browser', 'screenHeight']), 'customer.browser.screenHeight');
    assert.equal(flatName(['amount']), 'amount');
  });

  it('writes [n] for indexes', () => {
    assert.equal(flatName(['cart', 'items', 0, 'name']), 'cart.items[0].name');
    assert.equal(flatName(['tags', 12]), 'tags[12]');
  });

  it('writes [key] for the names of keyed groups', () => {
    assert.equal(flatName(['customParameters', 'SHOPPER_x.y']), 'customParameters[SHOPPER_x.y]');
    assert.equal(flatName(['threeDSecure', 'schemeData', 'CB-ITEMSNB']), 'threeDSecure.schemeData[CB-ITEMSNB]');
    assert.equal(flatName(['risk', 'parameters', 'USER_DATA1']), 'risk.parameters[USER_DATA1]');
    assert.equal(flatName(['overridePaymentType', 'VISA']), 'overridePaymentType[VISA]');
  });

  it('gives back the name nest() read, for every shape of name', () => {
    const names = [
      'card.number',
      'cart.items[0].name',
      'cart.items[12].tax.amount',
      'customParameters[SHOPPER_x.y]',
      'threeDSecure.schemeData[CB-ITEMSNB]',
      'risk.parameters[USER_DATA1]',
      'merchant.data[key.with.dots]',
      'matrix[1][2]',
    ];
    const { value, errors } = nest(Object.fromEntries(names.map((n) => [n, n])));
    assert.deepEqual(errors, []);
    const seen: string[] = [];
    const walk = (node: unknown, path: PropertyKey[]) => {
      if (typeof node === 'string') {
        assert.equal(flatName(path), node);
        seen.push(node);
      } else if (Array.isArray(node)) node.forEach((child, i) => child !== undefined && walk(child, [...path, i]));
      else for (const [k, child] of Object.entries(node as object)) walk(child, [...path, k]);
    };
    walk(value, []);
    assert.deepEqual(seen.sort(), [...names].sort());
  });
});

describe('parseForm', () => {
  it('reads a form body into flat parameters, decoding + and percent escapes as UTF-8', () => {
    const { value, errors } = parseForm('amount=92.00&card.holder=Zo%C3%AB+Jones&customParameters%5BSHOPPER_x%5D=a%26b');
    assert.deepEqual(errors, []);
    assert.deepEqual(value, { amount: '92.00', 'card.holder': 'Zoë Jones', 'customParameters[SHOPPER_x]': 'a&b' });
  });

  it('keeps an empty value as the empty string', () => {
    assert.deepEqual(parseForm('descriptor=&amount=1.00').value, { descriptor: '', amount: '1.00' });
  });

  it('reports a name sent twice instead of overwriting it', () => {
    const { value, errors } = parseForm('amount=92.00&currency=EUR&amount=1.00');
    assert.deepEqual(value, { amount: '92.00', currency: 'EUR' });
    assert.deepEqual(errors, [{ name: 'amount', value: '1.00', message: 'amount was sent more than once' }]);
  });

  it('reports each repetition of a name', () => {
    const { errors } = parseForm('a=1&a=2&a=3');
    assert.deepEqual(errors, [
      { name: 'a', value: '2', message: 'a was sent more than once' },
      { name: 'a', value: '3', message: 'a was sent more than once' },
    ]);
  });

  it('reads names that match Object.prototype members as plain parameters', () => {
    const { value, errors } = parseForm('toString=1&__proto__=2&constructor=3');
    assert.deepEqual(errors, []);
    assert.deepEqual(Object.keys(value), ['toString', '__proto__', 'constructor']);
    assert.equal(value['__proto__'], '2');
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    // Kept, so that nest() can refuse it by name rather than it vanishing.
    assert.deepEqual(
      nest(value).errors.filter((e) => e.name === '__proto__'),
      [{ name: '__proto__', value: '2', message: '__proto__ is not a valid parameter name' }],
    );
  });

  it('reads an empty body as no parameters', () => {
    assert.deepEqual(parseForm(''), { value: {}, errors: [] });
  });
});

describe('readJson', () => {
  it('takes a number as written, as a form value: 92.00 stays "92.00" and 1.0000000000000001 is not rounded to 1', () => {
    const { value, errors } = readJson('{"amount":92.00,"card":{"number":4200000000000000},"cart":{"items":[{"quantity":12.50}]},"a":1.0000000000000001,"b":1e2,"c":-5,"d":9007199254740993}');
    assert.deepEqual(errors, []);
    assert.deepEqual(value, { amount: '92.00', 'card.number': '4200000000000000', 'cart.items[0].quantity': '12.50', a: '1.0000000000000001', b: '1e2', c: '-5', d: '9007199254740993' });
  });

  it('leaves numbers inside strings alone, escaped quotes and backslashes included', () => {
    const { value, errors } = readJson(String.raw`{"s":"1.5 \" 2.5","t":"x\\","u":[7, 0.5],"v":"\\\"1.5"}`);
    assert.deepEqual(errors, []);
    assert.deepEqual(value, { s: '1.5 " 2.5', t: 'x\\', 'u[0]': '7', 'u[1]': '0.5', v: '\\"1.5' });
  });

  it('reads only valid JSON: what quoting a number would mend is still refused, without quoting the body', () => {
    for (const text of ['{1.5:"x"}', '{"a":1.2.3}', '{"a":01}', '{"card.number":"4200000000000000"', '{"a":.5}']) {
      assert.deepEqual(readJson(text), { value: {}, errors: [{ name: 'body', value: '', message: 'body is not valid JSON' }] }, text);
    }
    assert.deepEqual(readJson(''), { value: {}, errors: [] });
  });
});

describe('flattenJson', () => {
  it('refuses a body nesting deeper than 12 levels once, without overflowing the stack', () => {
    let object: unknown = 'x';
    for (let i = 0; i < 50_000; i++) object = i % 2 ? { a: object } : [object];
    const { errors } = flattenJson({ amount: '1.00', deep: object });
    assert.deepEqual(errors, [{ name: 'body', value: '', message: 'body nests parameters deeper than 12 levels' }]);
  });

  it('keeps flat dotted names as they are', () => {
    const { value, errors } = flattenJson({ amount: '92.00', 'card.number': '4200000000000000', 'customParameters[SHOPPER_x.y]': 'v' });
    assert.deepEqual(errors, []);
    assert.deepEqual(value, { amount: '92.00', 'card.number': '4200000000000000', 'customParameters[SHOPPER_x.y]': 'v' });
  });

  it('flattens nested objects, arrays and keyed groups into the flat names of a form', () => {
    const { value, errors } = flattenJson({
      card: { number: '4200000000000000', expiryMonth: '05' },
      cart: { items: [{ name: 'a' }, { name: 'b' }] },
      customParameters: { 'SHOPPER_x.y': 'v' },
      threeDSecure: { schemeData: { 'CB-ITEMSNB': '3' } },
    });
    assert.deepEqual(errors, []);
    assert.deepEqual(value, {
      'card.number': '4200000000000000',
      'card.expiryMonth': '05',
      'cart.items[0].name': 'a',
      'cart.items[1].name': 'b',
      'customParameters[SHOPPER_x.y]': 'v',
      'threeDSecure.schemeData[CB-ITEMSNB]': '3',
    });
  });

  it('turns numbers and booleans into their text and leaves out null', () => {
    const { value, errors } = flattenJson({ amount: 92, createRegistration: true, numberOfCaptures: 2, descriptor: null });
    assert.deepEqual(errors, []);
    assert.deepEqual(value, { amount: '92', createRegistration: 'true', numberOfCaptures: '2' });
  });

  it('refuses a body that is not an object of parameters', () => {
    for (const body of [[1, 2], 'text', 42, null, true]) {
      assert.deepEqual(flattenJson(body), { value: {}, errors: [{ name: 'body', value: '', message: 'the JSON body must be an object of parameters' }] }, JSON.stringify(body));
    }
  });

  it('reports a parameter sent both nested and flat instead of keeping one silently', () => {
    const { value, errors } = flattenJson({ card: { number: '4200000000000000' }, 'card.number': '5200000000000007' });
    assert.deepEqual(value, { 'card.number': '4200000000000000' });
    assert.deepEqual(errors, [{ name: 'card.number', value: '', message: 'card.number was sent more than once' }]);
  });

  it('gives nest() back the same structure it was given', () => {
    const body = { card: { number: '4200000000000000', cvv: '123' }, cart: { items: [{ name: 'a', quantity: '1' }] }, customParameters: { 'SHOPPER_x.y': 'v' } };
    const flat = flattenJson(body);
    const nested = nest(flat.value);
    assert.deepEqual(nested.errors, []);
    assert.deepEqual(nested.value, body);
  });

  it('keeps a JSON "__proto__" value as a parameter instead of dropping it', () => {
    const flat = flattenJson(JSON.parse('{"__proto__":"x","amount":"1.00"}') as unknown);
    assert.deepEqual(flat.errors, []);
    assert.deepEqual(Object.keys(flat.value), ['__proto__', 'amount']);
    assert.equal(Object.getPrototypeOf(flat.value), Object.prototype);
    assert.deepEqual(nest(flat.value).errors, [{ name: '__proto__', value: 'x', message: '__proto__ is not a valid parameter name' }]);
  });

  it('passes a JSON __proto__ key on as a name that nest() refuses', () => {
    const body = JSON.parse('{"__proto__":{"polluted":"yes"},"amount":"1.00"}') as unknown;
    const flat = flattenJson(body);
    assert.deepEqual(flat.value, { '__proto__.polluted': 'yes', amount: '1.00' });
    const nested = nest(flat.value);
    assert.deepEqual(nested.value, { amount: '1.00' });
    assert.deepEqual(nested.errors, [{ name: '__proto__.polluted', value: 'yes', message: '__proto__.polluted is not a valid parameter name' }]);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});
