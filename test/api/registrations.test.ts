import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { visaFacts } from '../support/cardFacts.ts';
import { cardDebit, databaseUrl, pgSkip, shopA, shopB, startGateway, TestClock, type Client, type TestGateway } from '../support/gateway.ts';

const ID = /^[0-9a-f]{32}$/;

const visaCard = {
  paymentBrand: 'VISA',
  'card.number': '4200000000000000',
  'card.holder': 'Jane Jones',
  'card.expiryMonth': '05',
  'card.expiryYear': '2034',
};
const maskedVisa = { bin: '420000', last4Digits: '0000', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034' };
// A payment's card also has the BIN data (a registration's own answer has not).
const paidVisa = { ...maskedVisa, ...visaFacts };

const sepaAccount = {
  paymentBrand: 'DIRECTDEBIT_SEPA',
  'bankAccount.holder': 'Jane Jones',
  'bankAccount.iban': 'DE89370400440532013000',
  'bankAccount.bic': 'COBADEFFXXX',
};

const payment = (overrides: Record<string, string> = {}) => ({ amount: '25.00', currency: 'EUR', paymentType: 'DB', ...overrides });

describe('registrations', () => {
  let gw: TestGateway;
  let shopBClient: Client;
  before(async () => {
    gw = await startGateway();
    shopBClient = gw.clientFor(shopB.token, shopB.entityId);
  });
  after(() => gw.close());

  async function register(params: Record<string, string> = visaCard): Promise<string> {
    const { status, body } = await gw.client.post('/v1/registrations', params);
    assert.equal(status, 200, JSON.stringify(body));
    return body.id as string;
  }

  describe('createRegistration=true on an initial payment', () => {
    it('a successful debit answers with a 32-hex registrationId that can be paid with', async () => {
      const { status, body } = await gw.client.post('/v1/payments', cardDebit({ createRegistration: 'true' }));
      assert.equal(status, 200);
      assert.equal(body.result.code, '000.100.110');
      assert.match(body.registrationId, ID);
      assert.notEqual(body.registrationId, body.id);

      const read = await gw.client.get(`/v1/payments/${body.id}`);
      assert.equal(read.status, 200);
      assert.equal(read.body.registrationId, body.registrationId);

      const paid = await gw.client.post(`/v1/registrations/${body.registrationId}/payments`, payment({ 'card.cvv': '123' }));
      assert.equal(paid.status, 200);
      assert.equal(paid.body.result.code, '000.100.110');
      assert.equal(paid.body.registrationId, body.registrationId);
      assert.deepEqual(paid.body.card, paidVisa);
    });

    it('a declined debit (amount 100.51) stores no registration and answers without registrationId', async () => {
      const countBefore = (await gw.running.store.db.selectFrom('registrations').select('id').execute()).length;
      const { status, body } = await gw.client.post('/v1/payments', cardDebit({ amount: '100.51', createRegistration: 'true' }));
      assert.equal(status, 400);
      assert.equal(body.result.code, '800.100.151');
      assert.equal('registrationId' in body, false);
      const read = await gw.client.get(`/v1/payments/${body.id}`);
      assert.equal(read.body.result.code, '800.100.151');
      assert.equal('registrationId' in read.body, false);
      const countAfter = (await gw.running.store.db.selectFrom('registrations').select('id').execute()).length;
      assert.equal(countAfter, countBefore);
    });

    it('a debit without createRegistration answers without registrationId', async () => {
      const { status, body } = await gw.client.post('/v1/payments', cardDebit());
      assert.equal(status, 200);
      assert.equal('registrationId' in body, false);
    });
  });

  describe('POST /v1/registrations', () => {
    it('stores a card and answers with the id, the brand, the masked card and the success code', async () => {
      const { status, body } = await gw.client.post('/v1/registrations', visaCard);
      assert.equal(status, 200);
      assert.match(body.id, ID);
      assert.equal(body.paymentBrand, 'VISA');
      assert.equal(body.result.code, '000.100.110');
      assert.deepEqual(body.card, maskedVisa);
      assert.equal(JSON.stringify(body).includes('4200000000000000'), false);
      assert.match(body.ndc, /\S/);
      assert.equal(body.buildNumber, 'test-build');
    });

    it('refuses a card with a bad check digit (100.100.101) and stores nothing', async () => {
      const before = await gw.running.store.db.selectFrom('registrations').select('id').execute();
      const { status, body } = await gw.client.post('/v1/registrations', { ...visaCard, 'card.number': '4200000000000001' });
      assert.equal(status, 400);
      assert.equal(body.result.code, '100.100.101');
      assert.deepEqual(
        body.result.parameterErrors.map((e: { name: string; value: string }) => [e.name, e.value]),
        [['card.number', '************0001']],
      );
      const afterRows = await gw.running.store.db.selectFrom('registrations').select('id').execute();
      assert.equal(afterRows.length, before.length);
    });
  });

  describe('POST /v1/registrations/{id}/payments', () => {
    it('pays with a stored card: 000.100.110, masked card and registrationId echoed, the security code reaches the acquirer', async () => {
      const id = await register();
      const { status, body } = await gw.client.post(`/v1/registrations/${id}/payments`, payment({ amount: '12.34', 'card.cvv': '123' }));
      assert.equal(status, 200);
      assert.equal(body.result.code, '000.100.110');
      assert.equal(body.result.cvvResponse, 'M');
      assert.match(body.id, ID);
      assert.notEqual(body.id, id);
      assert.equal(body.paymentType, 'DB');
      assert.equal(body.paymentBrand, 'VISA');
      assert.equal(body.amount, '12.34');
      assert.equal(body.currency, 'EUR');
      assert.equal(body.registrationId, id);
      assert.deepEqual(body.card, paidVisa);

      const read = await gw.client.get(`/v1/payments/${body.id}`);
      assert.equal(read.status, 200);
      assert.equal(read.body.registrationId, id);
      assert.deepEqual(read.body.card, paidVisa);
      assert.equal(read.body.amount, '12.34');
    });

    it('pays with a stored card without a security code (cvvResponse P)', async () => {
      const id = await register();
      const { status, body } = await gw.client.post(`/v1/registrations/${id}/payments`, payment());
      assert.equal(status, 200);
      assert.equal(body.result.code, '000.100.110');
      assert.equal(body.result.cvvResponse, 'P');
      assert.equal(body.registrationId, id);
    });

    it('a preauthorization on a registration can be captured', async () => {
      const id = await register();
      const pa = await gw.client.post(`/v1/registrations/${id}/payments`, payment({ paymentType: 'PA', amount: '40.00' }));
      assert.equal(pa.status, 200);
      assert.equal(pa.body.paymentType, 'PA');
      const cp = await gw.client.post(`/v1/payments/${pa.body.id}`, { paymentType: 'CP', amount: '40.00', currency: 'EUR' });
      assert.equal(cp.status, 200);
      assert.equal(cp.body.result.code, '000.100.110');
      assert.equal(cp.body.registrationId, id);
      assert.deepEqual(cp.body.card, paidVisa);
    });

    it('a decline amount on a registration is declined with its code and keeps the registration usable', async () => {
      const id = await register();
      const declined = await gw.client.post(`/v1/registrations/${id}/payments`, payment({ amount: '100.51' }));
      assert.equal(declined.status, 400);
      assert.equal(declined.body.result.code, '800.100.151');
      assert.equal(declined.body.registrationId, id);
      const ok = await gw.client.post(`/v1/registrations/${id}/payments`, payment());
      assert.equal(ok.status, 200);
      assert.equal(ok.body.result.code, '000.100.110');
    });
  });

  describe('DELETE /v1/registrations/{id}', () => {
    it('deletes a registration; paying with it afterwards is refused with 100.150.202', async () => {
      const id = await register();
      const deleted = await gw.client.delete(`/v1/registrations/${id}`);
      assert.equal(deleted.status, 200);
      assert.equal(deleted.body.id, id);
      assert.equal(deleted.body.result.code, '000.100.110');

      const paid = await gw.client.post(`/v1/registrations/${id}/payments`, payment({ 'card.cvv': '123' }));
      assert.equal(paid.status, 400);
      assert.equal(paid.body.result.code, '100.150.202');
      assert.equal(paid.body.result.description, 'registration is already deregistered');
    });

    it('deleting an already deleted registration is refused with 100.150.202', async () => {
      const id = await register();
      assert.equal((await gw.client.delete(`/v1/registrations/${id}`)).status, 200);
      const again = await gw.client.delete(`/v1/registrations/${id}`);
      assert.equal(again.status, 400);
      assert.equal(again.body.result.code, '100.150.202');
    });

    it('a registration created by createRegistration=true can be deleted', async () => {
      const debit = await gw.client.post('/v1/payments', cardDebit({ createRegistration: 'true' }));
      const id = debit.body.registrationId as string;
      assert.equal((await gw.client.delete(`/v1/registrations/${id}`)).status, 200);
      const paid = await gw.client.post(`/v1/registrations/${id}/payments`, payment());
      assert.equal(paid.body.result.code, '100.150.202');
    });
  });

  describe('unknown registrations', () => {
    const unknown = '0123456789abcdef0123456789abcdef';

    it('paying with an unknown registration answers 404 with 100.150.200', async () => {
      const { status, body } = await gw.client.post(`/v1/registrations/${unknown}/payments`, payment({ 'card.cvv': '123' }));
      assert.equal(status, 404);
      assert.equal(body.result.code, '100.150.200');
      assert.equal(body.result.description, 'registration does not exist');
    });

    it('deleting an unknown registration answers 404 with 100.150.200', async () => {
      const { status, body } = await gw.client.delete(`/v1/registrations/${unknown}`);
      assert.equal(status, 404);
      assert.equal(body.result.code, '100.150.200');
    });
  });

  describe("another merchant's registration", () => {
    it("shop B can neither pay with nor delete shop A's registration (404, 100.150.200), and shop A still can pay", async () => {
      const id = await register();
      const paid = await shopBClient.post(`/v1/registrations/${id}/payments`, payment({ 'card.cvv': '123' }));
      assert.equal(paid.status, 404);
      assert.equal(paid.body.result.code, '100.150.200');

      const deleted = await shopBClient.delete(`/v1/registrations/${id}`);
      assert.equal(deleted.status, 404);
      assert.equal(deleted.body.result.code, '100.150.200');

      const row = await gw.running.store.db.selectFrom('registrations').select(['status', 'entity_id']).where('id', '=', id).executeTakeFirstOrThrow();
      assert.deepEqual(row, { status: 'active', entity_id: shopA.entityId });

      const ownPayment = await gw.client.post(`/v1/registrations/${id}/payments`, payment());
      assert.equal(ownPayment.status, 200);
      assert.equal(ownPayment.body.result.code, '000.100.110');
    });

    it("shop A's token may not act for shop B's entity (403)", async () => {
      const id = await register();
      const sneaky = gw.clientFor(shopA.token, shopB.entityId);
      const paid = await sneaky.post(`/v1/registrations/${id}/payments`, payment());
      assert.equal(paid.status, 403);
      assert.equal(paid.body.result.code, '800.900.301');
    });
  });

  describe('bank account (SEPA) registrations', () => {
    const bankAccount = { holder: 'Jane Jones', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' };

    it('stores a SEPA account and answers with the id, the brand and the bank account', async () => {
      const { status, body } = await gw.client.post('/v1/registrations', sepaAccount);
      assert.equal(status, 200);
      assert.match(body.id, ID);
      assert.equal(body.paymentBrand, 'DIRECTDEBIT_SEPA');
      assert.equal(body.result.code, '000.100.110');
      assert.deepEqual(body.bankAccount, bankAccount);
      assert.equal('card' in body, false);

      const row = await gw.running.store.db.selectFrom('registrations').select(['method', 'payment_brand', 'secret']).where('id', '=', body.id).executeTakeFirstOrThrow();
      assert.deepEqual(row, { method: 'DD', payment_brand: 'DIRECTDEBIT_SEPA', secret: null });
    });

    it('pays a direct debit with a SEPA registration: 000.100.110, bank account and registrationId echoed', async () => {
      const id = await register(sepaAccount);
      const { status, body } = await gw.client.post(`/v1/registrations/${id}/payments`, payment({ amount: '19.99' }));
      assert.equal(status, 200);
      assert.equal(body.result.code, '000.100.110');
      assert.equal(body.paymentType, 'DB');
      assert.equal(body.paymentBrand, 'DIRECTDEBIT_SEPA');
      assert.equal(body.amount, '19.99');
      assert.equal(body.registrationId, id);
      assert.deepEqual(body.bankAccount, bankAccount);
      assert.equal('card' in body, false);
    });

    it('createRegistration=true on a SEPA debit returns a registrationId that pays', async () => {
      const debit = await gw.client.post('/v1/payments', { ...sepaAccount, ...payment(), createRegistration: 'true' });
      assert.equal(debit.status, 200, JSON.stringify(debit.body));
      assert.match(debit.body.registrationId, ID);
      const paid = await gw.client.post(`/v1/registrations/${debit.body.registrationId}/payments`, payment());
      assert.equal(paid.status, 200);
      assert.equal(paid.body.registrationId, debit.body.registrationId);
      assert.deepEqual(paid.body.bankAccount, bankAccount);
    });

    it('a SEPA registration cannot be preauthorized (600.200.310) and can be deleted', async () => {
      const id = await register(sepaAccount);
      const pa = await gw.client.post(`/v1/registrations/${id}/payments`, payment({ paymentType: 'PA' }));
      assert.equal(pa.status, 400);
      assert.equal(pa.body.result.code, '600.200.310');
      assert.equal((await gw.client.delete(`/v1/registrations/${id}`)).status, 200);
      const paid = await gw.client.post(`/v1/registrations/${id}/payments`, payment());
      assert.equal(paid.body.result.code, '100.150.202');
    });
  });
});

describe('registration payments against the stored card', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway({ clock: new TestClock(new Date('2026-03-15T12:00:00Z')) });
  });
  after(() => gw.close());

  it('refuses a brand other than the registration\'s with 100.100.700, naming paymentBrand; the same brand is taken', async () => {
    const id = (await gw.client.post('/v1/registrations', visaCard)).body.id as string;
    for (const brand of ['MASTER', 'PAYPAL']) {
      const other = await gw.client.post(`/v1/registrations/${id}/payments`, payment({ paymentBrand: brand }));
      assert.equal(other.status, 400);
      assert.equal(other.body.result.code, '100.100.700');
      assert.deepEqual(other.body.result.parameterErrors, [{ name: 'paymentBrand', value: brand, message: 'paymentBrand does not match the registration, which is VISA' }]);
    }
    const same = await gw.client.post(`/v1/registrations/${id}/payments`, payment({ paymentBrand: 'VISA' }));
    assert.equal(same.body.result.code, '000.100.110');
  });

  it('refuses a security code of the wrong length for the stored card\u2019s brand (100.100.601), as for the card sent in full', async () => {
    const visa = (await gw.client.post('/v1/registrations', visaCard)).body.id as string;
    const amex = (await gw.client.post('/v1/registrations', { ...visaCard, paymentBrand: 'AMEX', 'card.number': '377777777777770' })).body.id as string;
    for (const [id, cvv, message] of [
      [visa, '1234', 'card.cvv must be 3 digits for VISA'],
      [amex, '123', 'card.cvv must be 4 digits for AMEX'],
    ] as const) {
      const { status, body } = await gw.client.post(`/v1/registrations/${id}/payments`, payment({ 'card.cvv': cvv }));
      assert.equal(status, 400, JSON.stringify(body));
      assert.equal(body.result.code, '100.100.601');
      assert.deepEqual(body.result.parameterErrors, [{ name: 'card.cvv', value: '*'.repeat(cvv.length), message }]);
      assert.equal(body.id, undefined);
    }
    assert.equal((await gw.client.post(`/v1/registrations/${amex}/payments`, payment({ 'card.cvv': '1234' }))).body.result.code, '000.100.110');
  });

  it('refuses a stored card once its expiry month has passed with 100.100.303, as the card sent in full would be', async () => {
    const id = (await gw.client.post('/v1/registrations', { ...visaCard, 'card.expiryMonth': '04', 'card.expiryYear': '2026' })).body.id as string;
    gw.clock.current = new Date('2026-04-30T23:59:00Z');
    assert.equal((await gw.client.post(`/v1/registrations/${id}/payments`, payment())).body.result.code, '000.100.110');
    gw.clock.current = new Date('2026-05-01T00:00:00Z');
    const expired = await gw.client.post(`/v1/registrations/${id}/payments`, payment());
    assert.equal(expired.status, 400);
    assert.equal(expired.body.result.code, '100.100.303');
    const inFull = await gw.client.post('/v1/payments', cardDebit({ 'card.expiryMonth': '04', 'card.expiryYear': '2026' }));
    assert.equal(inFull.body.result.code, '100.100.303');
  });

  it('refuses a stored token once its expiry has passed, a year alone at its end, as the token sent in full would be', async () => {
    gw.clock.current = new Date('2026-06-15T12:00:00Z');
    const token = { paymentBrand: 'VISA', 'tokenAccount.number': '4895370012345678', 'tokenAccount.type': 'NETWORK', 'tokenAccount.expiryYear': '2026' };
    const stored = await gw.client.post('/v1/registrations', token);
    assert.equal(stored.status, 200, JSON.stringify(stored.body));
    gw.clock.current = new Date('2026-12-31T23:59:00Z');
    assert.equal((await gw.client.post(`/v1/registrations/${stored.body.id}/payments`, payment())).body.result.code, '000.100.110');
    gw.clock.current = new Date('2027-01-01T00:00:00Z');
    const expired = await gw.client.post(`/v1/registrations/${stored.body.id}/payments`, payment());
    assert.equal(expired.status, 400);
    assert.equal(expired.body.result.code, '100.100.303');
    const sent = await gw.client.post('/v1/payments', { amount: '9.99', currency: 'EUR', paymentType: 'DB', ...token });
    assert.equal(sent.body.result.code, '100.100.303');
  });
});

/** Paths naming ids no registration can have (a U+0000, upper case, too long): unknown on every store, never a 500. */
function pathIdSuite(options: { databaseUrl?: string }) {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway(options);
  });
  after(() => gw.close());

  it('pays with and deletes them as unknown registrations: 404, 100.150.200', async () => {
    for (const id of ['abc%00', `0123456789abcdef%000123456789abcde`, '0123456789ABCDEF0123456789ABCDEF', 'a'.repeat(40)]) {
      for (const reply of [await gw.client.post(`/v1/registrations/${id}/payments`, payment({ 'card.cvv': '123' })), await gw.client.delete(`/v1/registrations/${id}`)]) {
        assert.equal(reply.status, 404, `${id}: ${JSON.stringify(reply.body)}`);
        assert.equal(reply.body.result.code, '100.150.200');
      }
    }
  });
}

describe('registration ids no registration can have, on SQLite', () => pathIdSuite({}));
describe('registration ids no registration can have, on PostgreSQL', { skip: pgSkip }, () => pathIdSuite({ databaseUrl }));
