// Every parameter group over HTTP: a payment carrying it is accepted, stored and echoed (in the
// answer and by GET), its secrets masked; a malformed value is refused with the group's own code
// naming the parameter; the spec's conditional rules hold on real requests. job.* is carried by no
// request yet (no scheduling endpoint): its rules are pinned in test/unit/schema-groups.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { nest } from '../../server/http/params.ts';
import { POS_MERCHANT_ID } from '../../server/simulator/simulator.ts';
import { pageCard, prepareCheckout, Shopper } from '../support/checkouts.ts';
import { visaFacts } from '../support/cardFacts.ts';
import { cardDebit, sepaDebit, shopA, startGateway, type Client, type Reply, type TestGateway } from '../support/gateway.ts';
import { customer, groupSamples } from '../support/groups.ts';
import { billingAddress, browserData, cards, ShopperBrowser } from '../support/threeds.ts';

type Params = Record<string, string>;

/** The flat parameters as the nested structure a response carries. */
const nested = (params: Params) => nest(params).value as Record<string, unknown>;


const withoutCvv = (params: Params): Params => {
  const { 'card.cvv': _cvv, ...rest } = params;
  return rest;
};

function assertApproved(reply: Reply): void {
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  assert.equal(reply.body.result.code, '000.100.110', JSON.stringify(reply.body.result));
}

function assertRefused(reply: Reply, code: string, errors: Array<{ name: string; value: string }>): void {
  assert.equal(reply.status, 400, JSON.stringify(reply.body));
  assert.equal(reply.body.result.code, code, JSON.stringify(reply.body.result));
  assert.deepEqual(reply.body.result.parameterErrors.map(({ name, value }: { name: string; value: string }) => ({ name, value })), errors);
}

describe('parameter groups over HTTP', () => {
  let gw: TestGateway;
  let wallets: Client;
  let threeds: Client;
  before(async () => {
    gw = await startGateway();
    wallets = gw.clientFor(shopA.token, shopA.walletEntityId);
    threeds = gw.clientFor(shopA.token, shopA.threeDSecureEntityId);
  });
  after(() => gw.close());

  /** Pays, and checks that GET answers the same echo. */
  async function payAndRead(client: Client, params: Params): Promise<Reply> {
    const paid = await client.post('/v1/payments', params);
    assertApproved(paid);
    const read = await client.get(`/v1/payments/${paid.body.id}`);
    assert.equal(read.status, 200);
    const { timestamp: _t1, buildNumber: _b1, ...answered } = paid.body;
    const { timestamp: _t2, buildNumber: _b2, ...stored } = read.body;
    assert.deepEqual(stored, answered, 'GET answers what the payment answered');
    return paid;
  }

  describe('a payment carrying the group is accepted and echoed', () => {
    const plain = ['forex', 'customer', 'billing', 'shipping', 'corporate', 'sender', 'recipient', 'merchant', 'cart', 'marketPlace', 'airline', 'threeDSecure', 'customParameters', 'standingInstruction'];
    for (const group of plain) {
      it(`${group}.*`, async () => {
        const sample = groupSamples[group]!;
        const paid = await payAndRead(gw.client, cardDebit(sample));
        // An approved INITIAL payment of an agreement also answers the scheme's reference.
        const { initialTransactionId, ...echoed } = paid.body[group];
        assert.deepEqual(echoed, nested(sample)[group]);
        if (group === 'standingInstruction') assert.match(initialTransactionId, /^\d{15}$/);
        else assert.equal(initialTransactionId, undefined);
      });
    }

    it('risk.* (with the score of the risk check)', async () => {
      const paid = await payAndRead(gw.client, cardDebit(groupSamples.risk));
      assert.deepEqual(paid.body.risk, { channelId: 'web', parameters: { USER_DATA1: 'x' }, orderTimestamp: paid.body.risk.orderTimestamp, score: paid.body.risk.score });
      assert.match(paid.body.risk.orderTimestamp, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      assert.match(paid.body.risk.score, /^[+-]\d{5}$/);
    });

    it('customer.*: every field at its edge (longest, shortest, each device field), echoed as sent', async () => {
      const sent: Params = {
        ...customer,
        'customer.merchantCustomerId': 'C'.repeat(255),
        'customer.middleName': 'Jo',
        'customer.sex': 'M',
        'customer.birthDate': '2000-02-29',
        'customer.workPhone': '0'.repeat(25),
        'customer.companyName': 'J'.repeat(60),
        'customer.identificationDocType': 'TAXSTATEMENT',
        'customer.identificationDocId': 'DE123456',
        'customer.ip': '2001:db8::17',
        'customer.merchantReference': 'r'.repeat(255),
        'customer.salutation': 'MX',
        'customer.category': 'COMPANY',
        'customer.status': 'NEW',
        'customer.browserFingerprint.id': 'i'.repeat(255),
        'customer.browserFingerprint.value': 'v'.repeat(4096),
        'customer.browser.deviceId': 'd'.repeat(32),
        'customer.app.deviceId': 'a'.repeat(40),
      };
      const paid = await payAndRead(gw.client, cardDebit(sent));
      assert.deepEqual(paid.body.customer, nested(sent).customer);
    });

    it('threeDSecure.*: every field at its edge beside the external proof, echoed as sent', async () => {
      const requestors = Object.fromEntries(['visa', 'mastercard', 'amex', 'diners', 'jcb', 'cartesBancaires'].flatMap((scheme) => [[`threeDSecure.v2.${scheme}.requestorId`, 'I'.repeat(100)], [`threeDSecure.v2.${scheme}.requestorName`, `${scheme} requestor`]]));
      const sent: Params = {
        ...groupSamples.threeDSecure,
        'threeDSecure.amount': '999999999.99',
        'threeDSecure.currency': 'EUR',
        'threeDSecure.deviceInfo': 'eyJEViI6IjEuMCJ9'.repeat(64),
        'threeDSecure.merchant.name': 'M'.repeat(100),
        'threeDSecure.merchant.url': `https://shop.example/${'p'.repeat(2048 - 21)}`,
        'threeDSecure.merchant.country': 'DEU',
        ...requestors,
        'threeDSecure.channel': '99',
        'threeDSecure.npa': 'false',
        'threeDSecure.decoupled': 'true',
        'threeDSecure.threeRIInd': 'DELAYED_SHIPMENT',
        'threeDSecure.authenticationInd': 'SPLIT_PAYMENT',
        'threeDSecure.disable': 'false',
        'threeDSecure.dsTransactionId': 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
        'threeDSecure.acsTransactionId': '3a2d1c6e-8e4f-4a1b-9c0d-5e6f7a8b9c0d',
        'threeDSecure.challengeMandatedIndicator': 'N',
        'threeDSecure.authType': '04',
        'threeDSecure.transactionStatusReason': '99',
        'threeDSecure.challengeIndicator': '09',
        'threeDSecure.exemptionFlag': '04',
        'threeDSecure.schemeData[CB-ITEMSNB]': '99',
        'threeDSecure.schemeData[CB-SCORE_MERCHANT]': 'Score 12:+ab CD 3456',
        'threeDSecure.schemeData[CB-USECASE]': '01',
      };
      const paid = await payAndRead(gw.client, cardDebit(sent));
      assert.deepEqual(paid.body.threeDSecure, nested(sent).threeDSecure);
    });

    it('every group at once, in one payment', async () => {
      const all: Params = Object.assign({}, ...Object.values(groupSamples));
      const paid = await payAndRead(gw.client, cardDebit(all));
      const expected = nested(all);
      for (const group of ['shipping', 'corporate', 'merchant', 'cart', 'marketPlace', 'airline', 'recipient']) assert.deepEqual(paid.body[group], expected[group], group);
    });

    it('giftCard.*: the pin is left out, the number masked to its last four', async () => {
      const paid = await payAndRead(gw.client, cardDebit(groupSamples.giftCard));
      assert.deepEqual(paid.body.giftCard, { number: '************7890', holder: 'Jane Jones', message: 'Happy birthday', type: 'BIRTHDAY' });
      const row = await gw.running.store.db.selectFrom('payments').select('details').where('id', '=', paid.body.id).executeTakeFirstOrThrow();
      assert.equal(row.details.includes('6036281234567890'), false);
      assert.equal(row.details.includes('4711'), false);
    });

    it('sender.* and recipient.*: an account number that is a card number shows its last four digits only', async () => {
      const paid = await payAndRead(
        gw.client,
        cardDebit({ 'sender.name': 'Jane Jones', 'sender.accountNumber': '5200000000000007', 'sender.accountNumberType': 'CARD_ACCOUNT', 'recipient.surname': 'Smith', 'recipient.accountNumber': '4200000000000000' }),
      );
      assert.deepEqual(paid.body.sender, { name: 'Jane Jones', accountNumber: '************0007', accountNumberType: 'CARD_ACCOUNT' });
      assert.deepEqual(paid.body.recipient, { surname: 'Smith', accountNumber: '************0000' });
      const row = await gw.running.store.db.selectFrom('payments').select('details').where('id', '=', paid.body.id).executeTakeFirstOrThrow();
      assert.equal(row.details.includes('5200000000000007'), false);
    });

    it('bankAccount.mandate.* and transactionDueDate with a direct debit', async () => {
      const mandate = { 'bankAccount.mandate.id': 'MANDATE-2020-0001', 'bankAccount.mandate.dateOfSignature': '2020-01-02', transactionDueDate: '2030-01-31' };
      const paid = await payAndRead(gw.client, sepaDebit(mandate));
      assert.deepEqual(paid.body.bankAccount.mandate, { id: 'MANDATE-2020-0001', dateOfSignature: '2020-01-02' });
      assert.equal(paid.body.transactionDueDate, '2030-01-31');
    });

    it('a mandate signed, or a migrated registration first requested, on a day still ahead is refused naming the date', async () => {
      const ahead = new Date(gw.clock.now().getTime() + 14 * 3_600_000 + 86_400_000).toISOString().slice(0, 10);
      const debit = await gw.client.post('/v1/payments', sepaDebit({ 'bankAccount.mandate.id': 'MANDATE-1', 'bankAccount.mandate.dateOfSignature': ahead }));
      assertRefused(debit, '200.300.404', [{ name: 'bankAccount.mandate.dateOfSignature', value: ahead }]);
      const registration = await gw.client.post('/v1/registrations', { paymentBrand: 'DIRECTDEBIT_SEPA', 'bankAccount.holder': 'Jane Jones', 'bankAccount.iban': 'DE89370400440532013000', 'bankAccount.mandate.dateOfSignature': ahead });
      assertRefused(registration, '200.300.404', [{ name: 'bankAccount.mandate.dateOfSignature', value: ahead }]);
      const migrated = await gw.client.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'recurringMigration.paymentType': 'DB', 'recurringMigration.requestTimestamp': `${ahead} 00:00:00` });
      assertRefused(migrated, '200.300.404', [{ name: 'recurringMigration.requestTimestamp', value: `${ahead} 00:00:00` }]);
    });

    it('pos.*: the terminal fields are echoed without PIN block, encrypted card data or ARQC, and the acquirer\'s pos.* answer is added', async () => {
      const paid = await payAndRead(
        gw.client,
        cardDebit({
          'pos.terminalId': '12345678',
          'pos.entryMode': 'ICC',
          'pos.deviceId': '998877',
          'pos.encryptedPin.data': 'A1B2C3D4E5F60718',
          'pos.encryptedPin.ksn': 'FFFF9876543210E00001',
          'pos.encryptedSred.data': 'c2VjcmV0LWNhcmQtZGF0YQ==',
          'pos.iccDataRequest': '9F2608A1B2C3D4E5F60718',
          'pos.location.latitude': '52.52',
          'pos.location.longitude': '13.405',
          'pos.pinEntryCapability': 'PIN_ENTRY_AVAILABLE',
          'pos.transactionSource': 'POS',
          transactionCategory: 'PO',
        }),
      );
      const { clearing, iccDataResponse, timestamp, ...rest } = paid.body.pos;
      assert.deepEqual(rest, {
        terminalId: '12345678',
        entryMode: 'ICC',
        deviceId: '998877',
        location: { latitude: '52.52', longitude: '13.405' },
        pinEntryCapability: 'PIN_ENTRY_AVAILABLE',
        transactionSource: 'POS',
        merchantId: POS_MERCHANT_ID,
        statusText: 'APPROVED',
      });
      assert.deepEqual(Object.keys(clearing), ['authorizationAcquirerCode', 'authorizationIssuerCode', 'identifier']);
      assert.match(clearing.authorizationAcquirerCode, /^[0-9A-F]{6}$/);
      assert.match(clearing.authorizationIssuerCode, /^[0-9A-F]{6}$/);
      assert.equal(clearing.identifier, paid.body.resultDetails.ConnectorTxID1);
      assert.match(iccDataResponse, /^910A[0-9A-F]{16}3030$/);
      assert.equal(timestamp, paid.body.timestamp.slice(0, 19));
      for (const secret of ['A1B2C3D4E5F60718', 'c2VjcmV0LWNhcmQtZGF0YQ==', '9F2608A1B2C3D4E5F60718']) assert.equal(JSON.stringify(paid.body).includes(secret), false, secret);
    });

    it('pos.*: a declined terminal payment gets no authorization codes and DECLINED', async () => {
      const { status, body } = await gw.client.post('/v1/payments', cardDebit({ amount: '100.52', 'pos.terminalId': '12345678', 'pos.entryMode': 'MANUAL' }));
      assert.equal(status, 400);
      assert.equal(body.result.code, '800.100.152');
      assert.deepEqual(body.pos, { terminalId: '12345678', entryMode: 'MANUAL', clearing: { identifier: body.resultDetails.ConnectorTxID1 }, merchantId: POS_MERCHANT_ID, statusText: 'DECLINED', timestamp: body.timestamp.slice(0, 19) });
    });

    it('pos.*: a terminal payment approved at a provider\u2019s page (PAYPAL) ends with the acquirer\u2019s pos.* answer, as a synchronous one', async () => {
      const { status, body } = await gw.client.post('/v1/payments', {
        amount: '10.00', currency: 'EUR', paymentBrand: 'PAYPAL', paymentType: 'DB', 'virtualAccount.accountId': 'jane@example.com',
        shopperResultUrl: 'https://shop.example/result', 'pos.terminalId': '12345678', 'pos.entryMode': 'MANUAL',
      });
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.result.code, '000.200.000');
      assert.deepEqual(body.pos, { terminalId: '12345678', entryMode: 'MANUAL' });
      const browser = new ShopperBrowser(gw.base);
      await browser.finish(await browser.open(body.redirect), 'approve');
      const read = (await gw.client.get(`/v1/payments/${body.id}`)).body;
      assert.equal(read.result.code, '000.100.110');
      const { clearing, timestamp, ...rest } = read.pos;
      assert.deepEqual(rest, { terminalId: '12345678', entryMode: 'MANUAL', merchantId: POS_MERCHANT_ID, statusText: 'APPROVED' });
      assert.deepEqual(Object.keys(clearing), ['authorizationAcquirerCode', 'authorizationIssuerCode', 'identifier']);
      assert.equal(clearing.identifier, read.resultDetails.ConnectorTxID1);
      assert.match(timestamp, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    });

    for (const [wallet, brand] of [['applePay', 'APPLEPAY'], ['googlePay', 'GOOGLEPAY'], ['samsungPay', 'SAMSUNGPAY']] as const) {
      it(`${wallet}.paymentToken: an account of its own, paid as ${brand}, the token never echoed`, async () => {
        const token = `{"version":"EC_v1","data":"${wallet}-encrypted"}`;
        const extra: Params = wallet === 'applePay' ? { 'applePay.cardNetwork': 'Visa', 'applePay.cardType': 'debit' } : {};
        const paid = await payAndRead(wallets, { amount: '15.00', currency: 'EUR', paymentType: 'DB', [`${wallet}.paymentToken`]: token, ...extra });
        assert.equal(paid.body.paymentBrand, brand);
        assert.deepEqual(paid.body[wallet], wallet === 'applePay' ? { cardNetwork: 'Visa', cardType: 'debit' } : undefined);
        assert.equal(paid.body.card, undefined);
        assert.equal(JSON.stringify(paid.body).includes('encrypted'), false);
      });

      it(`${wallet}.source: the decrypted card with its 3-D Secure proof, paid as ${brand} or as the card`, async () => {
        const decrypted = { [`${wallet}.source`]: 'app', 'threeDSecure.eci': '05', 'threeDSecure.verificationId': 'AAACAgSRBklmQCFgMpEGAAAAAAA=' };
        const asWallet = await payAndRead(wallets, withoutCvv(cardDebit({ paymentBrand: brand, ...decrypted })));
        assert.equal(asWallet.body.paymentBrand, brand);
        assert.deepEqual(asWallet.body[wallet], { source: 'app' });
        assert.deepEqual(asWallet.body.card, { bin: '420000', last4Digits: '0000', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034', ...visaFacts });
        assert.deepEqual(asWallet.body.threeDSecure, { eci: '05', verificationId: 'AAACAgSRBklmQCFgMpEGAAAAAAA=' });
        const asCard = await payAndRead(wallets, withoutCvv(cardDebit(decrypted)));
        assert.equal(asCard.body.paymentBrand, 'VISA');
        // A bad eci is named; the verificationId sent beside it is not called missing.
        const badEci = await wallets.post('/v1/payments', withoutCvv(cardDebit({ paymentBrand: brand, ...decrypted, 'threeDSecure.eci': '09' })));
        assertRefused(badEci, '200.300.404', [{ name: 'threeDSecure.eci', value: '09' }]);
      });
    }

    it('recurringMigration.* on a registration', async () => {
      const migration = { 'recurringMigration.paymentType': 'DB', 'recurringMigration.amount': '19.99', 'recurringMigration.requestTimestamp': '2020-01-02 03:04:05', 'recurringMigration.connectorTxId1': 'OLD-TX-1' };
      const { status, body } = await gw.client.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034', ...migration });
      assert.equal(status, 200, JSON.stringify(body));
      assert.deepEqual(body.recurringMigration, { paymentType: 'DB', amount: '19.99', requestTimestamp: '2020-01-02 03:04:05', connectorTxId1: 'OLD-TX-1' });
    });

    it('a checkout keeps the merchant\'s groups for its payment, without their secrets', async () => {
      const groups: Params = {
        ...groupSamples.customer,
        ...groupSamples.billing,
        ...groupSamples.shipping,
        ...groupSamples.cart,
        ...groupSamples.merchant,
        ...groupSamples.giftCard,
        'sender.accountNumber': '4200000000000000',
        'sender.accountNumberType': 'CARD_ACCOUNT',
        'standingInstruction.mode': 'INITIAL',
        'standingInstruction.type': 'UNSCHEDULED',
      };
      const id = await prepareCheckout(gw.client, groups);
      const stored = await gw.running.store.db.selectFrom('checkouts').select('request').where('id', '=', id).executeTakeFirstOrThrow();
      for (const secret of ['4711', '6036281234567890', '4200000000000000']) assert.equal(stored.request.includes(secret), false, secret);
      const paid = await new Shopper(gw.base).pay(id, pageCard());
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      const read = await gw.client.get(`/v1/checkouts/${id}/payment`);
      assert.equal(read.body.result.code, '000.100.110');
      const expected = nested(groups);
      for (const group of ['customer', 'billing', 'shipping', 'cart', 'merchant']) assert.deepEqual(read.body[group], expected[group], group);
      const { initialTransactionId, ...standingInstruction } = read.body.standingInstruction;
      assert.deepEqual(standingInstruction, expected.standingInstruction);
      assert.match(initialTransactionId, /^\d{15}$/);
      assert.deepEqual(read.body.giftCard, { number: '************7890', holder: 'Jane Jones', message: 'Happy birthday', type: 'BIRTHDAY' });
      assert.deepEqual(read.body.sender, { accountNumber: '************0000', accountNumberType: 'CARD_ACCOUNT' });
    });
  });

  describe('a malformed value of each group is refused with its code, naming the parameter', () => {
    const cases: Array<[string, Params, string, Array<{ name: string; value: string }>]> = [
      ['forex.amount', { 'forex.amount': '100' }, '100.550.303', [{ name: 'forex.amount', value: '100' }]],
      ['forex.currency', { 'forex.currency': 'usd' }, '100.550.401', [{ name: 'forex.currency', value: 'usd' }]],
      ['customer.mobile', { 'customer.givenName': 'Jane', 'customer.surname': 'Jones', 'customer.mobile': 'call me' }, '100.900.300', [{ name: 'customer.mobile', value: 'call me' }]],
      ['billing.country', { 'billing.country': 'de' }, '100.800.501', [{ name: 'billing.country', value: 'de' }]],
      ['shipping.postcode', { 'shipping.postcode': '101 15' }, '100.800.202', [{ name: 'shipping.postcode', value: '101 15' }]],
      ['shipping.customer.email', { 'shipping.customer.givenName': 'J', 'shipping.customer.surname': 'J', 'shipping.customer.email': 'john at example' }, '100.900.101', [{ name: 'shipping.customer.email', value: 'john at example' }]],
      ['corporate.phone', { 'corporate.phone': '+49 30 1' }, '100.900.200', [{ name: 'corporate.phone', value: '+49 30 1' }]],
      ['sender.birthDate', { 'sender.birthDate': '1990-02-30' }, '100.900.450', [{ name: 'sender.birthDate', value: '1990-02-30' }]],
      ['sender.accountNumber', { 'sender.accountNumber': '4'.repeat(33) }, '200.300.404', [{ name: 'sender.accountNumber', value: `${'*'.repeat(29)}4444` }]],
      ['recipient.country', { 'recipient.country': 'GB' }, '100.800.501', [{ name: 'recipient.country', value: 'GB' }]],
      ['merchant.customerContactPhone', { 'merchant.customerContactPhone': '0'.repeat(26) }, '100.900.200', [{ name: 'merchant.customerContactPhone', value: '0'.repeat(26) }]],
      ['merchant.billing.city', { 'merchant.billing.city': 'B'.repeat(81) }, '100.800.302', [{ name: 'merchant.billing.city', value: 'B'.repeat(81) }]],
      ['merchant.shipping.email', { 'merchant.shipping.email': 'shop@' }, '100.900.101', [{ name: 'merchant.shipping.email', value: 'shop@' }]],
      ['cart.items[n].price', { 'cart.items[0].name': 'Shoe', 'cart.items[1].price': '9.9' }, '100.550.303', [{ name: 'cart.items[1].price', value: '9.9' }]],
      ['cart.items[n].currency', { 'cart.items[0].currency': 'EURO' }, '100.550.401', [{ name: 'cart.items[0].currency', value: 'EURO' }]],
      ['cart.items[n].quantity', { 'cart.items[0].quantity': 'two' }, '200.300.404', [{ name: 'cart.items[0].quantity', value: 'two' }]],
      ['cart.payments[n].status', { 'cart.payments[0].status': 'PAID' }, '200.300.404', [{ name: 'cart.payments[0].status', value: 'PAID' }]],
      ['marketPlace.sellers[n].amount', { 'marketPlace.sellers[0].amount': '60' }, '100.550.303', [{ name: 'marketPlace.sellers[0].amount', value: '60' }]],
      ['airline.passengers[n].legs[n].departureDate', { 'airline.passengers[0].legs[1].departureDate': '2030-13-01', 'airline.passengers[0].legs[0].flightNumber': 'LH1' }, '200.300.404', [{ name: 'airline.passengers[0].legs[1].departureDate', value: '2030-13-01' }]],
      ['giftCard.pin', { 'giftCard.pin': '1' }, '200.300.404', [{ name: 'giftCard.pin', value: '*' }]],
      ['giftCard.type', { 'giftCard.type': 'BIRTHDAYS' }, '200.300.404', [{ name: 'giftCard.type', value: 'BIRTHDAYS' }]],
      ['standingInstruction.frequency', { 'standingInstruction.frequency': '30 days' }, '200.300.404', [{ name: 'standingInstruction.frequency', value: '30 days' }]],
      ['pos.entryMode', { 'pos.terminalId': '1', 'pos.entryMode': 'CHIP' }, '200.300.404', [{ name: 'pos.entryMode', value: 'CHIP' }]],
      ['pos.terminalId', { 'pos.entryMode': 'ICC' }, '200.300.404', [{ name: 'pos.terminalId', value: '' }]],
      ['pos.encryptedPin.data', { 'pos.terminalId': '1', 'pos.entryMode': 'ICC', 'pos.encryptedPin.data': 'A1-B2' }, '200.300.404', [{ name: 'pos.encryptedPin.data', value: '*****' }]],
      ['bankAccount.mandate.id', { 'bankAccount.mandate.id': 'MANDATE_1' }, '200.300.404', [{ name: 'bankAccount.mandate.id', value: 'MANDATE_1' }]],
      ['transactionDueDate', { transactionDueDate: '31.01.2030' }, '200.300.404', [{ name: 'transactionDueDate', value: '31.01.2030' }]],
      ['threeDSecure.eci', { 'threeDSecure.eci': '5' }, '200.300.404', [{ name: 'threeDSecure.eci', value: '5' }]],
      ['risk.amount', { 'risk.amount': '1' }, '100.550.303', [{ name: 'risk.amount', value: '1' }]],
      // The registration payment's and the checkout's; on a new account it did nothing, silently.
      ['overrideHolder', { overrideHolder: 'true' }, '200.300.404', [{ name: 'overrideHolder', value: 'true' }]],
    ];
    for (const [name, params, code, errors] of cases) {
      it(`${name} → ${code}`, async () => {
        const base = name.startsWith('bankAccount') || name === 'transactionDueDate' ? sepaDebit(params) : cardDebit(params);
        assertRefused(await gw.client.post('/v1/payments', base), code, errors);
      });
    }

    it('a virtual account with a card, bank account or wallet brand → 100.100.501 naming paymentBrand, for payments and registrations', async () => {
      const virtual = { amount: '10.00', currency: 'EUR', paymentType: 'DB', 'virtualAccount.accountId': 'jane@example.com' };
      for (const brand of ['VISA', 'DIRECTDEBIT_SEPA', 'ONLINE_TRANSFER']) {
        assertRefused(await gw.client.post('/v1/payments', { ...virtual, paymentBrand: brand }), '100.100.501', [{ name: 'paymentBrand', value: brand }]);
      }
      assertRefused(await wallets.post('/v1/payments', { ...virtual, paymentBrand: 'APPLEPAY' }), '100.100.501', [{ name: 'paymentBrand', value: 'APPLEPAY' }]);
      assertRefused(await gw.client.post('/v1/registrations', { paymentBrand: 'VISA', 'virtualAccount.accountId': 'jane@example.com' }), '100.100.501', [{ name: 'paymentBrand', value: 'VISA' }]);
      const paypal = await gw.client.post('/v1/payments', { ...virtual, paymentBrand: 'PAYPAL', shopperResultUrl: 'https://shop.example/result' });
      assert.equal(paypal.status, 200, JSON.stringify(paypal.body));
      assert.equal(paypal.body.result.code, '000.200.000');
    });

    it('applePay.paymentToken of more than 64 KiB → 100.100.101, the token masked', async () => {
      const token = 'x'.repeat(65537);
      const reply = await wallets.post('/v1/payments', { amount: '15.00', currency: 'EUR', paymentType: 'DB', 'applePay.paymentToken': token });
      assertRefused(reply, '100.100.101', [{ name: 'applePay.paymentToken', value: '*'.repeat(65537) }]);
    });

    it('recurringMigration.paymentType → 200.300.404 on a registration', async () => {
      const reply = await gw.client.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'recurringMigration.paymentType': 'RF' });
      assertRefused(reply, '200.300.404', [{ name: 'recurringMigration.paymentType', value: 'RF' }]);
    });

    it('a checkout refuses a malformed group as a payment does (shipping.cost → 100.550.303)', async () => {
      const reply = await gw.client.post('/v1/checkouts', { amount: '92.00', currency: 'EUR', paymentType: 'DB', 'shipping.cost': '4.9' });
      assertRefused(reply, '100.550.303', [{ name: 'shipping.cost', value: '4.9' }]);
    });
  });

  describe('other amounts in a currency without minor units (ISO 4217 exponent 0)', () => {
    const JPY: Params = { amount: '1000', currency: 'JPY' };
    const fractions: Array<[string, Params]> = [
      ['shipping.cost', { 'shipping.cost': '500.50' }],
      ['taxAmount', { taxAmount: '10.50' }],
      ['discountAmount', { discountAmount: '0.01' }],
      ['cart.items[0].price', { 'cart.items[0].price': '100.50', 'cart.items[0].currency': 'JPY' }],
      ['cart.items[0].totalDiscountAmount', { 'cart.items[0].totalDiscountAmount': '0.10' }],
      ['cart.payments[0].amount', { 'cart.payments[0].amount': '1.50' }],
      ['marketPlace.sellers[0].amount', { 'marketPlace.sellers[0].amount': '0.50' }],
      ['risk.amount', { 'risk.amount': '1.50' }],
      ['airline.totalFareAmount', { 'airline.totalFareAmount': '1.50' }],
      ['airline.passengers[0].legs[0].departureTaxAmount', { 'airline.passengers[0].legs[0].departureTaxAmount': '1.50' }],
      ['forex.amount', { 'forex.amount': '1.50' }],
      ['threeDSecure.amount', { 'threeDSecure.amount': '1000.50' }],
    ];
    for (const [name, params] of fractions) {
      it(`refuses a fraction in ${name} with 100.550.303, naming it`, async () => {
        const reply = await gw.client.post('/v1/payments', cardDebit({ ...JPY, ...params }));
        assertRefused(reply, '100.550.303', [{ name, value: params[name]! }]);
      });
    }

    it('judges a cart item, a cart payment, forex and threeDSecure by their own currency when they name one, else the payment’s', async () => {
      const own = await gw.client.post('/v1/payments', cardDebit({ amount: '10.00', currency: 'EUR', 'cart.items[0].price': '100.50', 'cart.items[0].currency': 'JPY', 'cart.items[1].price': '0.50', 'cart.payments[0].amount': '1.50', 'cart.payments[0].currency': 'KRW', 'forex.currency': 'ISK', 'forex.tax': '0.50', 'threeDSecure.currency': 'CLP', 'threeDSecure.amount': '9.99' }));
      assertRefused(own, '100.550.303', [
        { name: 'forex.tax', value: '0.50' },
        { name: 'threeDSecure.amount', value: '9.99' },
        { name: 'cart.items[0].price', value: '100.50' },
        { name: 'cart.payments[0].amount', value: '1.50' },
      ]);
      const other = await gw.client.post('/v1/payments', cardDebit({ ...JPY, 'cart.items[0].price': '100.50', 'cart.items[0].currency': 'EUR', 'cart.payments[0].amount': '1.50', 'cart.payments[0].currency': 'EUR', 'forex.currency': 'EUR', 'forex.amount': '7.50', 'threeDSecure.currency': 'EUR', 'threeDSecure.amount': '7.50' }));
      assert.equal(other.status, 200, JSON.stringify(other.body));
    });

    it('takes whole amounts (.00) in JPY, and fractions in a currency with minor units', async () => {
      const whole = { 'shipping.cost': '500.00', taxAmount: '10.00', discountAmount: '0.00', 'cart.items[0].price': '100.00', 'marketPlace.sellers[0].amount': '1000.00', 'threeDSecure.amount': '1000.00' };
      const paid = await gw.client.post('/v1/payments', cardDebit({ ...JPY, ...whole }));
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      const eur = await gw.client.post('/v1/payments', cardDebit({ 'shipping.cost': '50.50', taxAmount: '10.50', 'cart.items[0].price': '100.50', 'marketPlace.sellers[0].amount': '0.50' }));
      assert.equal(eur.status, 200, JSON.stringify(eur.body));
    });

    it('taxAmount and shipping.cost are included in amount: either above it, or both together, is refused with 100.550.301 naming it', async () => {
      for (const [sent, name, value] of [
        [{ taxAmount: '92.01' }, 'taxAmount', '92.01'],
        [{ 'shipping.cost': '100.00' }, 'shipping.cost', '100.00'],
        [{ taxAmount: '50.00', 'shipping.cost': '42.01' }, 'shipping.cost', '42.01'],
      ] as const) {
        assertRefused(await gw.client.post('/v1/payments', cardDebit(sent)), '100.550.301', [{ name, value }]);
      }
      assert.equal((await gw.client.post('/v1/payments', cardDebit({ taxAmount: '50.00', 'shipping.cost': '42.00' }))).status, 200);
      assertRefused(await gw.client.post('/v1/checkouts', { amount: '10.00', currency: 'EUR', paymentType: 'DB', taxAmount: '10.01' }), '100.550.301', [{ name: 'taxAmount', value: '10.01' }]);
    });

    it('a checkout refuses them as a payment does, on creation and as updated (a new currency judges the stored amounts)', async () => {
      const created = await gw.client.post('/v1/checkouts', { ...JPY, paymentType: 'DB', 'shipping.cost': '500.50' });
      assertRefused(created, '100.550.303', [{ name: 'shipping.cost', value: '500.50' }]);
      const open = await gw.client.post('/v1/checkouts', { amount: '10.00', currency: 'EUR', paymentType: 'DB', 'cart.items[0].price': '100.50' });
      assert.equal(open.status, 200, JSON.stringify(open.body));
      const updated = await gw.client.post(`/v1/checkouts/${open.body.id}`, { amount: '1000', currency: 'JPY' });
      assertRefused(updated, '100.550.303', [{ name: 'cart.items[0].price', value: '100.50' }]);
    });

    it('a registration payment refuses them too', async () => {
      const registered = await gw.client.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
      assert.equal(registered.status, 200, JSON.stringify(registered.body));
      const reply = await gw.client.post(`/v1/registrations/${registered.body.id}/payments`, { ...JPY, paymentType: 'DB', taxAmount: '10.50' });
      assertRefused(reply, '100.550.303', [{ name: 'taxAmount', value: '10.50' }]);
    });
  });

  describe('conditional rules', () => {
    it('customer.givenName and customer.surname are required when another customer parameter is sent', async () => {
      const reply = await gw.client.post('/v1/payments', cardDebit({ 'customer.email': 'jane@example.com' }));
      assertRefused(reply, '100.700.200', [{ name: 'customer.givenName', value: '' }, { name: 'customer.surname', value: '' }]);
      assert.equal(reply.body.result.parameterErrors[0].message, 'customer.givenName is required when other customer parameters are sent, such as customer.email');
    });

    it('a birth date must have come: one still ahead is refused with 100.900.450 naming it, in every group that carries one', async () => {
      const DAY = 86_400_000;
      const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      const now = gw.clock.now().getTime();
      // The day at UTC+14 has begun for someone already; the one after it for no one.
      const latest = dayOf(now + 14 * 3_600_000);
      const ahead = dayOf(now + 14 * 3_600_000 + DAY);
      const groups: Array<[string, Params]> = [
        ['customer.birthDate', { 'customer.givenName': 'Jane', 'customer.surname': 'Jones' }],
        ['shipping.customer.birthDate', { 'shipping.customer.givenName': 'Jane', 'shipping.customer.surname': 'Jones' }],
        ['sender.birthDate', groupSamples.sender!],
        ['recipient.birthDate', groupSamples.recipient!],
      ];
      for (const [name, group] of groups) {
        for (const future of [ahead, '2099-01-01']) {
          const reply = await gw.client.post('/v1/payments', cardDebit({ ...group, [name]: future }));
          assertRefused(reply, '100.900.450', [{ name, value: future }]);
          assert.equal(reply.body.result.parameterErrors[0].message, `${name} is in the future: it must be a date that has come`);
        }
        for (const past of [latest, dayOf(now), '1985-04-12']) assertApproved(await gw.client.post('/v1/payments', cardDebit({ ...group, [name]: past })));
      }
      // A checkout is refused likewise, before any shopper sees it.
      const checkout = await gw.client.post('/v1/checkouts', { amount: '10.00', currency: 'EUR', paymentType: 'DB', 'customer.givenName': 'Jane', 'customer.surname': 'Jones', 'customer.birthDate': ahead });
      assertRefused(checkout, '100.900.450', [{ name: 'customer.birthDate', value: ahead }]);
    });

    it('shipping.customer.givenName and surname are required likewise, with the rule\'s message', async () => {
      const reply = await gw.client.post('/v1/payments', cardDebit({ 'shipping.customer.phone': '+49 30 123' }));
      assertRefused(reply, '100.700.200', [{ name: 'shipping.customer.givenName', value: '' }, { name: 'shipping.customer.surname', value: '' }]);
      assert.equal(reply.body.result.parameterErrors[1].message, 'shipping.customer.surname is required when other shipping.customer parameters are sent, such as phone');
    });

    it('street1 plus street2 must not be digits only (100.800.102), in every address', async () => {
      for (const prefix of ['billing', 'shipping', 'merchant.billing', 'merchant.shipping']) {
        const reply = await gw.client.post('/v1/payments', cardDebit({ [`${prefix}.street1`]: '12', [`${prefix}.street2`]: '34' }));
        assertRefused(reply, '100.800.102', [{ name: `${prefix}.street1`, value: '12' }]);
      }
      assertApproved(await gw.client.post('/v1/payments', cardDebit({ 'billing.street1': '221b', 'billing.street2': 'Baker Street' })));
    });

    it('houseNumber2 requires houseNumber1', async () => {
      const reply = await gw.client.post('/v1/payments', cardDebit({ 'shipping.houseNumber2': 'b' }));
      assertRefused(reply, '100.800.101', [{ name: 'shipping.houseNumber2', value: 'b' }]);
    });

    describe('standingInstruction', () => {
      it('INITIAL with a security code is accepted; without one or 3-D Secure it is refused naming standingInstruction.mode', async () => {
        assertApproved(await gw.client.post('/v1/payments', cardDebit({ 'standingInstruction.mode': 'INITIAL', 'standingInstruction.type': 'RECURRING' })));
        const reply = await gw.client.post('/v1/payments', withoutCvv(cardDebit({ 'standingInstruction.mode': 'INITIAL', 'standingInstruction.type': 'RECURRING' })));
        assertRefused(reply, '200.300.404', [{ name: 'standingInstruction.mode', value: 'INITIAL' }]);
        assert.equal(reply.body.result.parameterErrors[0].message, "standingInstruction.mode INITIAL must carry the shopper's authentication: send card.cvv (a token's tokenAccount.dtvc or cryptogram) or 3-D Secure data");
      });

      it('INITIAL on a token counts its dtvc or cryptogram as the security code, on an encrypted wallet token its cryptogram; a bare token is refused', async () => {
        const token = { amount: '12.00', currency: 'EUR', paymentBrand: 'VISA', paymentType: 'DB', 'tokenAccount.number': '4895370012345678', 'tokenAccount.type': 'NETWORK', 'standingInstruction.mode': 'INITIAL', 'standingInstruction.source': 'CIT' };
        assertApproved(await gw.client.post('/v1/payments', { ...token, 'tokenAccount.dtvc': '123' }));
        assertApproved(await gw.client.post('/v1/payments', { ...token, 'tokenAccount.cryptogram': 'AAACAgSRBklmQCFgMpEGAAAAAAA=' }));
        const bare = await gw.client.post('/v1/payments', token);
        assertRefused(bare, '200.300.404', [{ name: 'standingInstruction.mode', value: 'INITIAL' }]);
        assert.equal(bare.body.result.parameterErrors[0].message, "standingInstruction.mode INITIAL must carry the shopper's authentication: send card.cvv (a token's tokenAccount.dtvc or cryptogram) or 3-D Secure data");
        assertApproved(await wallets.post('/v1/payments', { amount: '15.00', currency: 'EUR', paymentType: 'DB', 'applePay.paymentToken': '{"version":"EC_v1","data":"x"}', 'standingInstruction.mode': 'INITIAL', 'standingInstruction.source': 'CIT' }));
      });

      it('INITIAL without a security code is accepted with external 3-D Secure proof, or when the gateway authenticates the card', async () => {
        assertApproved(await gw.client.post('/v1/payments', withoutCvv(cardDebit({ 'standingInstruction.mode': 'INITIAL', ...groupSamples.threeDSecure }))));
        const authenticated = await threeds.post('/v1/payments', withoutCvv(cardDebit({ 'card.number': cards.frictionless.VISA, 'standingInstruction.mode': 'INITIAL', shopperResultUrl: 'https://shop.example/result', ...browserData, ...billingAddress })));
        assertApproved(authenticated);
        assert.equal(authenticated.body.threeDSecure.authenticationStatus, 'Y');
      });

      it('INSTALLMENT with 3-D Secure needs numberOfInstallments', async () => {
        const sent = { 'standingInstruction.mode': 'INITIAL', 'standingInstruction.type': 'INSTALLMENT', ...groupSamples.threeDSecure };
        assertRefused(await gw.client.post('/v1/payments', cardDebit(sent)), '200.300.404', [{ name: 'standingInstruction.numberOfInstallments', value: '' }]);
        assertApproved(await gw.client.post('/v1/payments', cardDebit({ ...sent, 'standingInstruction.numberOfInstallments': '12' })));
      });

      it('REPEATED carries no shopper authentication: a security code or 3-D Secure data is refused', async () => {
        const repeated = { 'standingInstruction.mode': 'REPEATED', 'standingInstruction.source': 'MIT', 'standingInstruction.initialTransactionId': '123456789012345' };
        assertRefused(await gw.client.post('/v1/payments', cardDebit(repeated)), '200.300.404', [{ name: 'standingInstruction.mode', value: 'REPEATED' }]);
        assertRefused(await gw.client.post('/v1/payments', withoutCvv(cardDebit({ ...repeated, ...groupSamples.threeDSecure }))), '200.300.404', [{ name: 'standingInstruction.mode', value: 'REPEATED' }]);
        assertApproved(await gw.client.post('/v1/payments', withoutCvv(cardDebit(repeated))));
      });

      it('an external server\'s result without its proof is refused: REPEATED with authenticationStatus, a result beside the gateway\'s own authentication', async () => {
        const repeated = { 'standingInstruction.mode': 'REPEATED', 'standingInstruction.source': 'MIT', 'standingInstruction.initialTransactionId': '123456789012345' };
        const reply = await gw.client.post('/v1/payments', withoutCvv(cardDebit({ ...repeated, 'threeDSecure.authenticationStatus': 'Y' })));
        assertRefused(reply, '200.300.404', [{ name: 'threeDSecure.authenticationStatus', value: 'Y' }]);
        assert.equal(reply.body.result.parameterErrors[0].message, "threeDSecure.authenticationStatus is the result of an external 3-D Secure server: send it with that authentication's threeDSecure.eci, verificationId or dsTransactionId");
        const mixed = await threeds.post('/v1/payments', cardDebit({ 'card.number': cards.frictionless.VISA, shopperResultUrl: 'https://shop.example/result', ...browserData, ...billingAddress, 'threeDSecure.authType': '02', 'threeDSecure.acsTransactionId': '1'.repeat(36) }));
        assertRefused(mixed, '200.300.404', [{ name: 'threeDSecure.acsTransactionId', value: '1'.repeat(36) }, { name: 'threeDSecure.authType', value: '02' }]);
        // With its proof, passed through unchanged.
        const external = await gw.client.post('/v1/payments', cardDebit({ ...groupSamples.threeDSecure, 'threeDSecure.authType': '02' }));
        assertApproved(external);
        assert.deepEqual(external.body.threeDSecure, { eci: '05', verificationId: 'AAACAgSRBklmQCFgMpEGAAAAAAA=', authenticationStatus: 'Y', version: '2.2.0', authType: '02' });
      });

      it('N2 fields of 3-D Secure take one or two digits (the spec\'s notation: the number is the maximum length), passed through as sent', async () => {
        const sent = { ...groupSamples.threeDSecure, 'threeDSecure.transactionStatusReason': '1', 'threeDSecure.schemeData[CB-USECASE]': '2', 'threeDSecure.schemeData[CB-ITEMSNB]': '5' };
        const reply = await gw.client.post('/v1/payments', cardDebit(sent));
        assertApproved(reply);
        assert.equal(reply.body.threeDSecure.transactionStatusReason, '1');
        assert.deepEqual(reply.body.threeDSecure.schemeData, { 'CB-USECASE': '2', 'CB-ITEMSNB': '5' });
        assertRefused(await gw.client.post('/v1/payments', cardDebit({ ...sent, 'threeDSecure.transactionStatusReason': '100' })), '200.300.404', [{ name: 'threeDSecure.transactionStatusReason', value: '100' }]);
        assertRefused(await gw.client.post('/v1/payments', cardDebit({ ...sent, 'threeDSecure.schemeData[CB-USECASE]': '1a' })), '200.300.404', [{ name: 'threeDSecure.schemeData[CB-USECASE]', value: '1a' }]);
      });

      it('REPEATED is not authenticated by the gateway, even on an entity that authenticates a card that would be challenged', async () => {
        const reply = await threeds.post('/v1/payments', withoutCvv(cardDebit({ 'card.number': cards.challenge.VISA, 'standingInstruction.mode': 'REPEATED', 'standingInstruction.source': 'MIT', 'standingInstruction.agreementId': 'AGREEMENT-1' })));
        assertApproved(reply);
        assert.equal(reply.body.redirect, undefined);
        assert.equal(reply.body.threeDSecure, undefined);
      });

      it('an MIT names its initial transaction, unless the card is a registration of this gateway', async () => {
        const mit = { 'standingInstruction.mode': 'REPEATED', 'standingInstruction.source': 'MIT' };
        assertRefused(await gw.client.post('/v1/payments', withoutCvv(cardDebit(mit))), '200.300.404', [{ name: 'standingInstruction.initialTransactionId', value: '' }]);
        const registered = await gw.client.post('/v1/payments', cardDebit({ createRegistration: 'true', 'standingInstruction.mode': 'INITIAL', 'standingInstruction.source': 'CIT' }));
        assertApproved(registered);
        const repeated = await gw.client.post(`/v1/registrations/${registered.body.registrationId}/payments`, { amount: '9.99', currency: 'EUR', paymentType: 'DB', ...mit });
        assertApproved(repeated);
        assert.deepEqual(repeated.body.standingInstruction, { mode: 'REPEATED', source: 'MIT' });
        const withCvv = await gw.client.post(`/v1/registrations/${registered.body.registrationId}/payments`, { amount: '9.99', currency: 'EUR', paymentType: 'DB', 'card.cvv': '123', ...mit });
        assertRefused(withCvv, '200.300.404', [{ name: 'standingInstruction.mode', value: 'REPEATED' }]);
      });

      it('an approved INITIAL cardholder-initiated payment answers the scheme\'s initialTransactionId, which the MITs on the card in full then name', async () => {
        const initial = await gw.client.post('/v1/payments', cardDebit({ 'standingInstruction.mode': 'INITIAL', 'standingInstruction.source': 'CIT', 'standingInstruction.type': 'RECURRING' }));
        assertApproved(initial);
        const { initialTransactionId, ...sent } = initial.body.standingInstruction;
        assert.deepEqual(sent, { mode: 'INITIAL', source: 'CIT', type: 'RECURRING' });
        assert.match(initialTransactionId, /^\d{15}$/);
        assert.equal((await gw.client.get(`/v1/payments/${initial.body.id}`)).body.standingInstruction.initialTransactionId, initialTransactionId);
        // A second INITIAL is another transaction of the scheme; a declined one, or one without card-on-file, has none.
        const second = await gw.client.post('/v1/payments', cardDebit({ 'standingInstruction.mode': 'INITIAL' }));
        assert.match(second.body.standingInstruction.initialTransactionId, /^\d{15}$/);
        assert.notEqual(second.body.standingInstruction.initialTransactionId, initialTransactionId);
        const declined = await gw.client.post('/v1/payments', cardDebit({ amount: '100.51', 'standingInstruction.mode': 'INITIAL' }));
        assert.deepEqual(declined.body.standingInstruction, { mode: 'INITIAL' });
        assert.equal((await gw.client.post('/v1/payments', cardDebit())).body.standingInstruction, undefined);
        const mit = await gw.client.post('/v1/payments', withoutCvv(cardDebit({ 'standingInstruction.mode': 'REPEATED', 'standingInstruction.source': 'MIT', 'standingInstruction.type': 'RECURRING', 'standingInstruction.initialTransactionId': initialTransactionId })));
        assertApproved(mit);
        assert.deepEqual(mit.body.standingInstruction, { mode: 'REPEATED', source: 'MIT', type: 'RECURRING', initialTransactionId });
        // After a challenge, too.
        const challenged = await threeds.post('/v1/payments', withoutCvv(cardDebit({ 'card.number': cards.challenge.VISA, 'standingInstruction.mode': 'INITIAL', shopperResultUrl: 'https://shop.example/result', ...browserData, ...billingAddress })));
        const browser = new ShopperBrowser(gw.base);
        await browser.finish(await browser.toChallenge(challenged.body.redirect), 'approve');
        assert.match((await threeds.get(`/v1/payments/${challenged.body.id}`)).body.standingInstruction.initialTransactionId, /^\d{15}$/);
      });

      it('the agreement\'s limits hold: no authorization after standingInstruction.expiry, and installments allow one at least', async () => {
        const registered = await gw.client.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
        const repeat = (extra: Record<string, string>) =>
          gw.client.post(`/v1/registrations/${registered.body.id}/payments`, { amount: '9.99', currency: 'EUR', paymentType: 'DB', 'standingInstruction.mode': 'REPEATED', 'standingInstruction.source': 'MIT', ...extra });
        // The gateway's own clock, which the tests move by hand.
        const today = gw.clock.now().toISOString().slice(0, 10);
        const yesterday = new Date(gw.clock.now().getTime() - 86_400_000).toISOString().slice(0, 10);
        assertRefused(await repeat({ 'standingInstruction.expiry': yesterday }), '200.300.404', [{ name: 'standingInstruction.expiry', value: yesterday }]);
        assertApproved(await repeat({ 'standingInstruction.expiry': today }));
        const installments = { 'standingInstruction.type': 'INSTALLMENT' };
        for (const none of ['0', '000']) {
          const reply = await repeat({ ...installments, 'standingInstruction.numberOfInstallments': none });
          assertRefused(reply, '200.300.404', [{ name: 'standingInstruction.numberOfInstallments', value: none }]);
          assert.equal(reply.body.result.parameterErrors[0].message, 'standingInstruction.numberOfInstallments must be at least 1: it is the most authorizations the installments allow');
        }
        assertApproved(await repeat({ ...installments, 'standingInstruction.numberOfInstallments': '1' }));
      });

      it('numberOfInstallments is for INSTALLMENT only (the spec: "omitted otherwise"), refused naming it beside another type or none', async () => {
        for (const type of ['RECURRING', 'UNSCHEDULED', undefined]) {
          const reply = await gw.client.post('/v1/payments', cardDebit({ ...(type ? { 'standingInstruction.type': type } : {}), 'standingInstruction.mode': 'INITIAL', 'standingInstruction.source': 'CIT', 'standingInstruction.numberOfInstallments': '12' }));
          assertRefused(reply, '200.300.404', [{ name: 'standingInstruction.numberOfInstallments', value: '12' }]);
          assert.equal(reply.body.result.parameterErrors[0].message, `standingInstruction.numberOfInstallments is only for standingInstruction.type INSTALLMENT${type ? `, not ${type}` : ''}`);
        }
      });
    });

    it('transactionDueDate is the due date of a direct debit: refused with a card', async () => {
      const reply = await gw.client.post('/v1/payments', cardDebit({ transactionDueDate: '2030-01-31' }));
      assertRefused(reply, '200.300.404', [{ name: 'transactionDueDate', value: '2030-01-31' }]);
    });

    describe('wallets', () => {
      it('a paymentToken pays with its wallet\'s brand only', async () => {
        const reply = await wallets.post('/v1/payments', { amount: '15.00', currency: 'EUR', paymentType: 'DB', paymentBrand: 'VISA', 'googlePay.paymentToken': '{"x":1}' });
        assertRefused(reply, '100.100.501', [{ name: 'paymentBrand', value: 'VISA' }]);
      });

      it('a paymentToken next to a card, or two wallets, are refused', async () => {
        assertRefused(await wallets.post('/v1/payments', cardDebit({ 'applePay.paymentToken': '{"x":1}' })), '200.300.404', [{ name: 'card.number', value: '************0000' }]);
        assertRefused(
          await wallets.post('/v1/payments', { amount: '15.00', currency: 'EUR', paymentType: 'DB', 'applePay.paymentToken': '{"x":1}', 'samsungPay.paymentToken': '{"x":2}' }),
          '200.300.404',
          [{ name: 'samsungPay', value: '' }],
        );
      });

      it('the decrypted form needs threeDSecure.verificationId and threeDSecure.eci', async () => {
        const reply = await wallets.post('/v1/payments', cardDebit({ 'applePay.source': 'web' }));
        assertRefused(reply, '200.300.404', [{ name: 'threeDSecure.verificationId', value: '' }, { name: 'threeDSecure.eci', value: '' }]);
      });

      it('a wallet payment cannot create a registration', async () => {
        const reply = await wallets.post('/v1/payments', { amount: '15.00', currency: 'EUR', paymentType: 'DB', 'applePay.paymentToken': '{"x":1}', createRegistration: 'true' });
        assertRefused(reply, '200.300.404', [{ name: 'createRegistration', value: 'true' }]);
      });

      it('an entity without the wallet\'s brand refuses it with 600.200.201', async () => {
        const reply = await gw.client.post('/v1/payments', { amount: '15.00', currency: 'EUR', paymentType: 'DB', 'applePay.paymentToken': '{"x":1}' });
        assertRefused(reply, '600.200.201', [{ name: 'paymentBrand', value: 'APPLEPAY' }]);
      });
    });
  });
});
