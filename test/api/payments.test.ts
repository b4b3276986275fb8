import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { visaFacts } from '../support/cardFacts.ts';
import { cardDebit, sepaDebit, shopA, startGateway, type TestGateway } from '../support/gateway.ts';
import { ShopperBrowser } from '../support/threeds.ts';
import { pageCard, prepareCheckout, Shopper } from '../support/checkouts.ts';

describe('initial payments', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway();
  });
  after(() => gw.close());

  it('debits a card and answers with the masked card and the test-mode success code', async () => {
    const { status, body } = await gw.client.post('/v1/payments', cardDebit());
    assert.equal(status, 200);
    assert.match(body.id, /^[0-9a-f]{32}$/);
    assert.equal(body.result.code, '000.100.110');
    assert.equal(body.paymentType, 'DB');
    assert.equal(body.amount, '92.00');
    assert.equal(body.currency, 'EUR');
    assert.deepEqual(body.card, { bin: '420000', last4Digits: '0000', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034', ...visaFacts });
    assert.match(body.timestamp, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+0000$/);
    assert.match(body.ndc, /^[0-9a-f-]{36}$/);
    assert.equal(body.buildNumber, 'test-build');
    assert.equal(JSON.stringify(body).includes('4200000000000000'), false);
  });

  it('accepts the main amount without decimals and answers it with two', async () => {
    const { body } = await gw.client.post('/v1/payments', cardDebit({ amount: '15' }));
    assert.equal(body.amount, '15.00');
  });

  it('detects the brand from the number when paymentBrand is left out', async () => {
    const params = cardDebit({ 'card.number': '5200000000000007' });
    delete (params as Record<string, string | undefined>).paymentBrand;
    const { body } = await gw.client.post('/v1/payments', params);
    assert.equal(body.paymentBrand, 'MASTER');
  });

  it('takes a 4-digit security code for AMEX', async () => {
    const { status, body } = await gw.client.post('/v1/payments', cardDebit({ paymentBrand: 'AMEX', 'card.number': '377777777777770', 'card.cvv': '1234' }));
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.result.cvvResponse, 'M');
  });

  it('declines the documented decline amounts with HTTP 400 and the bank code', async () => {
    const { status, body } = await gw.client.post('/v1/payments', cardDebit({ amount: '100.51' }));
    assert.equal(status, 400);
    assert.equal(body.result.code, '800.100.151');
    assert.match(body.id, /^[0-9a-f]{32}$/);
    const stored = await gw.client.get(`/v1/payments/${body.id}`);
    assert.equal(stored.status, 200);
    assert.equal(stored.body.result.code, '800.100.151');
  });

  it('declines a documented decline card', async () => {
    const { body } = await gw.client.post('/v1/payments', cardDebit({ 'card.number': '4000000000000002' }));
    assert.equal(body.result.code, '800.100.152');
  });

  it('reports the address and security-code checks', async () => {
    const { body } = await gw.client.post('/v1/payments', cardDebit({ 'billing.postcode': '22222', 'billing.street1': 'Main Street 1', 'billing.country': 'DE', 'billing.city': 'Berlin' }));
    assert.equal(body.result.avsResponse, 'Z');
    assert.equal(body.result.cvvResponse, 'M');
    assert.deepEqual(body.billing, { street1: 'Main Street 1', postcode: '22222', country: 'DE', city: 'Berlin' });
    const noCvv = await gw.client.post('/v1/payments', cardDebit({ 'card.cvv': '' }));
    assert.equal(noCvv.status, 400, 'an empty security code is malformed, not absent');
    const params = cardDebit();
    delete (params as Record<string, string | undefined>)['card.cvv'];
    const without = await gw.client.post('/v1/payments', params);
    assert.equal(without.body.result.cvvResponse, 'P');
    assert.equal(without.body.result.avsResponse, 'U');
  });

  it('returns a risk score only when risk checks are asked for', async () => {
    const plain = await gw.client.post('/v1/payments', cardDebit());
    assert.equal(plain.body.risk, undefined);
    const checked = await gw.client.post('/v1/payments', cardDebit({ 'risk.channelId': 'web' }));
    assert.match(checked.body.risk.score, /^[+-]\d{5}$/);
    assert.equal(checked.body.risk.channelId, 'web');
  });

  it('shows connector details only to entities that enabled them', async () => {
    const shown = await gw.client.post('/v1/payments', cardDebit());
    assert.equal(shown.body.resultDetails.AcquirerResponse, '00');
    const hidden = await gw.clientFor(shopA.token, shopA.throttledEntityId).post('/v1/payments', cardDebit());
    assert.equal(hidden.status, 200);
    assert.equal(hidden.body.resultDetails, undefined);
  });

  it('echoes customParameters and merchant references', async () => {
    const { body } = await gw.client.post('/v1/payments', cardDebit({ 'customParameters[SHOPPER_order]': 'A-17', merchantTransactionId: 'order-12345', descriptor: 'Shop A order 17' }));
    assert.deepEqual(body.customParameters, { SHOPPER_order: 'A-17' });
    assert.equal(body.merchantTransactionId, 'order-12345');
    assert.equal(body.descriptor, 'Shop A order 17');
  });

  it('debits a SEPA bank account with IBAN and BIC', async () => {
    const { status, body } = await gw.client.post('/v1/payments', sepaDebit({ 'bankAccount.country': 'DE' }));
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.bankAccount.iban, 'DE89370400440532013000');
    assert.equal(body.result.avsResponse, undefined);
  });

  it('refuses a preauthorization of a bank account', async () => {
    const { status, body } = await gw.client.post('/v1/payments', {
      amount: '20.00', currency: 'EUR', paymentBrand: 'DIRECTDEBIT_SEPA', paymentType: 'PA',
      'bankAccount.holder': 'Jane Jones', 'bankAccount.iban': 'DE89370400440532013000', 'bankAccount.bic': 'COBADEFFXXX',
    });
    assert.equal(status, 400);
    assert.equal(body.result.code, '600.200.310');
  });

  it('pays with a virtual account: PAYPAL is pending until the shopper approves at the provider\'s page', async () => {
    const { status, body } = await gw.client.post('/v1/payments', { amount: '12.00', currency: 'EUR', paymentBrand: 'PAYPAL', paymentType: 'DB', 'virtualAccount.accountId': 'jane@example.com', shopperResultUrl: 'https://shop.example/result' });
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.result, { code: '000.200.000', description: 'transaction pending' });
    assert.deepEqual(body.virtualAccount, { accountId: 'jane@example.com' });
    assert.match(body.redirect.url, new RegExp(`^${gw.base}/v1/providers/[0-9a-f]{32}/pay$`));
    assert.deepEqual(body.redirect.parameters.map((p: { name: string }) => p.name), ['token']);
    const browser = new ShopperBrowser(gw.base);
    const result = await browser.finish(await browser.open(body.redirect), 'approve');
    assert.equal(result, `https://shop.example/result?id=${body.id}&resourcePath=%2Fv1%2Fpayments%2F${body.id}`);
    const read = await gw.client.get(`/v1/payments/${body.id}`);
    assert.equal(read.body.result.code, '000.100.110');
    assert.equal(read.body.resultDetails.AcquirerResponse, '00');
  });

  it('refuses PAYPAL without shopperResultUrl (400 naming it): the shopper must come back from the provider\'s page', async () => {
    const { status, body } = await gw.client.post('/v1/payments', { amount: '12.00', currency: 'EUR', paymentBrand: 'PAYPAL', paymentType: 'DB', 'virtualAccount.accountId': 'jane@example.com' });
    assert.equal(status, 400);
    assert.equal(body.result.code, '200.300.404');
    assert.deepEqual(body.result.parameterErrors, [{ name: 'shopperResultUrl', value: '', message: "shopperResultUrl is required for PAYPAL, an asynchronous method: the shopper comes back there from the provider's page" }]);
    assert.equal(body.id, undefined);
  });

  it('pays with a network token account and never echoes its number or cryptogram', async () => {
    const { status, body } = await gw.client.post('/v1/payments', {
      amount: '12.00', currency: 'EUR', paymentBrand: 'VISA', paymentType: 'DB',
      'tokenAccount.number': '4895370012345678', 'tokenAccount.type': 'NETWORK', 'tokenAccount.expiryMonth': '12', 'tokenAccount.expiryYear': '2030',
      'tokenAccount.cryptogram': 'AgAAAAAABk4DWZ4C28yUQAAAAAA=',
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.tokenAccount, { type: 'NETWORK', last4Digits: '5678', expiryMonth: '12', expiryYear: '2030' });
    assert.equal(JSON.stringify(body).includes('AgAAAAAABk4DWZ4C28yUQAAAAAA='), false);
  });

  it('refuses an expired token account as an expired card (100.100.303), and stores no registration of it', async () => {
    const token = { amount: '12.00', currency: 'EUR', paymentBrand: 'VISA', paymentType: 'DB', 'tokenAccount.number': '4895370012345678', 'tokenAccount.type': 'NETWORK' };
    for (const [expiry, message] of [
      [{ 'tokenAccount.expiryMonth': '01', 'tokenAccount.expiryYear': '2020' }, 'tokenAccount.expiryYear with tokenAccount.expiryMonth 01 is in the past: the token has expired'],
      [{ 'tokenAccount.expiryYear': '0001' }, 'tokenAccount.expiryYear is in the past: the token has expired'],
    ] as const) {
      const { status, body } = await gw.client.post('/v1/payments', { ...token, ...expiry, createRegistration: 'true' });
      assert.equal(status, 400, JSON.stringify(body));
      assert.equal(body.result.code, '100.100.303');
      assert.deepEqual(body.result.parameterErrors, [{ name: 'tokenAccount.expiryYear', value: expiry['tokenAccount.expiryYear'], message }]);
      assert.equal(body.registrationId, undefined);
    }
    const stored = await gw.client.post('/v1/registrations', { paymentBrand: 'VISA', 'tokenAccount.number': '4895370012345678', 'tokenAccount.type': 'NETWORK', 'tokenAccount.expiryMonth': '01', 'tokenAccount.expiryYear': '2020' });
    assert.equal(stored.status, 400, JSON.stringify(stored.body));
    assert.equal(stored.body.result.code, '100.100.303');
  });

  it('refuses a brand the entity is not configured for', async () => {
    const { status, body } = await gw.client.post('/v1/payments', cardDebit({ paymentBrand: 'JCB', 'card.number': '3530111333300000' }));
    assert.equal(status, 400);
    assert.equal(body.result.code, '600.200.201');
    assert.equal(body.result.parameterErrors[0].name, 'paymentBrand');
  });

  it('credits a card (CD)', async () => {
    const { status, body } = await gw.client.post('/v1/payments', cardDebit({ paymentType: 'CD', amount: '5.00' }));
    assert.equal(status, 200);
    assert.equal(body.paymentType, 'CD');
  });
});

describe('environments', () => {
  it('answers 000.000.000 in live and refuses testMode there with 600.200.701', async () => {
    const live = await startGateway({ env: 'live' });
    try {
      const ok = await live.client.post('/v1/payments', cardDebit());
      assert.equal(ok.body.result.code, '000.000.000');
      const refused = await live.client.post('/v1/payments', cardDebit({ testMode: 'INTERNAL' }));
      assert.equal(refused.status, 400);
      assert.equal(refused.body.result.code, '600.200.701');
      assert.equal(refused.body.result.parameterErrors[0].name, 'testMode');
    } finally {
      await live.close();
    }
  });

  it('declines testMode in live with 600.200.701 wherever it is sent: a DELETE\u2019s body, a GET\u2019s or a POST\u2019s query string', async () => {
    const live = await startGateway({ env: 'live' });
    try {
      const auth = { authorization: `Bearer ${shopA.token}` };
      const registered = await live.client.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
      assert.equal(registered.status, 200);
      const deleted = await fetch(`${live.base}/v1/registrations/${registered.body.id}`, {
        method: 'DELETE',
        headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ entityId: shopA.entityId, testMode: 'INTERNAL' }),
      });
      const deletedBody = (await deleted.json()) as any;
      assert.equal(deleted.status, 400);
      assert.equal(deletedBody.result.code, '600.200.701');
      assert.deepEqual(deletedBody.result.parameterErrors.map((e: { name: string }) => e.name), ['testMode']);
      // The registration was not deleted: it still pays.
      const paid = await live.client.post(`/v1/registrations/${registered.body.id}/payments`, { paymentType: 'DB', amount: '1.00', currency: 'EUR' });
      assert.equal(paid.body.result.code, '000.000.000');

      const read = await live.client.get(`/v1/payments/${paid.body.id}?testMode=EXTERNAL`);
      assert.equal(read.status, 400);
      assert.equal(read.body.result.code, '600.200.701');
      const posted = await fetch(`${live.base}/v1/payments?testMode=INTERNAL`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ entityId: shopA.entityId, ...cardDebit() }),
      });
      assert.equal(posted.status, 400);
      assert.equal(((await posted.json()) as any).result.code, '600.200.701');
      // The shopper's page calls too: the form's read and the payment.
      const checkout = await prepareCheckout(live.client);
      const shopper = new Shopper(live.base);
      for (const answer of [await shopper.get(`/v1/checkouts/${checkout}/form?testMode=INTERNAL`), await shopper.pay(checkout, pageCard({ testMode: 'INTERNAL' }))]) {
        assert.equal(answer.status, 400);
        assert.equal(answer.body.result.code, '600.200.701');
        assert.deepEqual(answer.body.result.parameterErrors.map((e: { name: string }) => e.name), ['testMode']);
      }
    } finally {
      await live.close();
    }
  });

  it('answers 000.100.112 for EXTERNAL test mode in test', async () => {
    const gw = await startGateway();
    try {
      const { body } = await gw.client.post('/v1/payments', cardDebit({ testMode: 'EXTERNAL' }));
      assert.equal(body.result.code, '000.100.112');
    } finally {
      await gw.close();
    }
  });
});
