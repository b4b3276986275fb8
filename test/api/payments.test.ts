import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cardDebit, startGateway, type TestGateway } from '../support/gateway.ts';

describe('card payments', () => {
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
    assert.equal(body.amount, '92.00');
    assert.deepEqual(body.card, { bin: '420000', last4Digits: '0000', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034' });
    assert.match(body.timestamp, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+0000$/);
    assert.equal(body.buildNumber, 'test-build');
    assert.equal(JSON.stringify(body).includes('4200000000000000'), false);
  });
});
