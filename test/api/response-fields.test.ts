// Response fields the gateway adds of its own (card BIN data, brandResult, MerchantAdviceCode,
// merchant.bankAccount), and request parameters of the spec's basic, card, bank account, token
// account, registration, asynchronous and risk tables sent through POST /v1/payments: valid
// values accepted and echoed, each kind of invalid value refused naming the parameter.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { paymentResponse } from '../../server/http/responseSchemas.ts';
import { masterFacts, visaFacts } from '../support/cardFacts.ts';
import { fakeDist } from '../support/checkouts.ts';
import { cardDebit, sepaDebit, shopA, shopB, startGateway, type Client, type Reply, type TestGateway } from '../support/gateway.ts';
import { billingAddress, browserData, cards, ShopperBrowser } from '../support/threeds.ts';

/** Shop A's entity for bank transfers: BANKTRANSFER among its brands, its own account in merchants.json. */
const TRANSFER_ENTITY = '8a8294174b7ecb28014b969922001a01';
const MERCHANT_ACCOUNT = { holder: 'Test Shop A GmbH', number: 'DE89370400440532013000', bic: 'COBADEFFXXX', country: 'DE' };

const masked = (number: string) => ({ bin: number.slice(0, 6), last4Digits: number.slice(-4), holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034' });

/** The answer matches the OpenAPI document's PaymentResponse (responseSchemas.ts), which must stay in step. */
function documented(reply: Reply): any {
  const parsed = paymentResponse.safeParse(reply.body);
  assert.ok(parsed.success, `not a documented PaymentResponse: ${parsed.success ? '' : JSON.stringify(parsed.error.issues)}\n${JSON.stringify(reply.body)}`);
  return reply.body;
}

/** A payment and the GET of it, both documented; GET must answer the same fields. */
async function payAndRead(client: Client, params: Record<string, string>, status = 200): Promise<{ body: any; read: any }> {
  const reply = await client.post('/v1/payments', params);
  assert.equal(reply.status, status, JSON.stringify(reply.body));
  const read = await client.get(`/v1/payments/${reply.body.id}`);
  assert.equal(read.status, 200);
  return { body: documented(reply), read: documented(read) };
}

function withoutCvv(params: Record<string, string>): Record<string, string> {
  const { 'card.cvv': _cvv, ...rest } = params;
  return rest;
}


const tokenDebit = (overrides: Record<string, string> = {}): Record<string, string> => ({
  amount: '12.00',
  currency: 'EUR',
  paymentBrand: 'VISA',
  paymentType: 'DB',
  'tokenAccount.number': '4895370012003478',
  'tokenAccount.type': 'NETWORK',
  ...overrides,
});

/** Refused with HTTP 400 and `code`, naming exactly `names` (in any order). */
function assertRefused(reply: Reply, code: string, names: string[]): void {
  assert.equal(reply.status, 400, JSON.stringify(reply.body));
  assert.equal(reply.body.result.code, code, JSON.stringify(reply.body.result));
  const named = reply.body.result.parameterErrors.map((e: { name: string }) => e.name).sort();
  assert.deepEqual(named, [...names].sort());
  for (const e of reply.body.result.parameterErrors) assert.ok(e.message.startsWith(e.name), e.message);
}

describe('response fields', () => {
  let gw: TestGateway;
  let transfers: Client;
  // The 3-D Secure pages need the widget's build files; a stand-in is enough.
  const dist = fakeDist({ later: true });
  before(async () => {
    gw = await startGateway({ distDir: dist.dir });
    transfers = gw.clientFor(shopA.token, TRANSFER_ENTITY);
  });
  after(async () => {
    await gw.close();
    rmSync(dist.dir, { recursive: true, force: true });
  });

  describe('card.issuer.bank / .phone / .website, card.type, card.level, card.regulatedFlag (BIN data of the simulator)', () => {
    // Each documented range, written out: the simulator's BIN table must answer exactly this.
    const expected: Array<[string, string, object]> = [
      ['4200000000000000', 'VISA', visaFacts],
      ['4200000000000091', 'VISA', visaFacts],
      ['4200000000000109', 'VISA', visaFacts],
      ['4200000000000042', 'VISA', visaFacts],
      ['5200000000000007', 'MASTER', masterFacts],
      ['5200000000000023', 'MASTER', masterFacts],
      ['5200000000000015', 'MASTER', masterFacts],
      ['4012001037461114', 'VISA', { issuer: { bank: 'Simulator Savings Bank', phone: '+1 212 555 0130', website: 'https://savings.simulator-bank.example' }, type: 'DEBIT', level: '0001', regulatedFlag: 'true' }],
      ['4012001037141112', 'VISA', { issuer: { bank: 'Simulator Savings Bank', phone: '+1 212 555 0130', website: 'https://savings.simulator-bank.example' }, type: 'DEBIT', level: '0001', regulatedFlag: 'true' }],
      ['5434580000000006', 'MASTER', { issuer: { bank: 'Simulator Savings Bank', phone: '+1 212 555 0130', website: 'https://savings.simulator-bank.example' }, type: 'DEBIT', level: '0001', regulatedFlag: 'true' }],
      ['5457350076543210', 'MASTER', { issuer: { bank: 'Simulator Business Bank', phone: '+49 30 901820 40', website: 'https://business.simulator-bank.example' }, type: 'CREDIT', level: '0004', regulatedFlag: 'false' }],
    ];

    it('answers the BIN data of every documented test card in card.*, and GET answers the same', async () => {
      // Shop A's main entity does not authenticate, so every 3-D Secure test card is authorized at once.
      for (const [number, brand, facts] of expected) {
        const { body, read } = await payAndRead(gw.client, cardDebit({ paymentBrand: brand, 'card.number': number }));
        assert.deepEqual(body.card, { ...masked(number), ...facts }, number);
        assert.deepEqual(read.card, body.card, number);
        assert.equal(JSON.stringify(body).includes(number), false);
      }
    });

    it('answers the BIN data of the AMEX card and of a declined card', async () => {
      const amex = await payAndRead(gw.client, cardDebit({ paymentBrand: 'AMEX', 'card.number': '377777777777770', 'card.cvv': '1234' }));
      assert.deepEqual(amex.body.card, {
        ...masked('377777777777770'),
        issuer: { bank: 'Simulator Charge Card Company', phone: '+1 212 555 0150', website: 'https://charge.simulator-bank.example' },
        type: 'CREDIT',
        level: '0003',
        regulatedFlag: 'false',
      });
      const declined = await payAndRead(gw.client, cardDebit({ 'card.number': '4000000000000002' }), 400);
      assert.equal(declined.body.result.code, '800.100.152');
      const prepaid = { issuer: { bank: 'Simulator Prepaid Bank', phone: '+44 20 7946 0060', website: 'https://prepaid.simulator-bank.example' }, type: 'PREPAID', level: '0005', regulatedFlag: 'false' };
      assert.deepEqual(declined.body.card, { ...masked('4000000000000002'), ...prepaid });
      assert.deepEqual(declined.read.card, declined.body.card);
    });

    it('answers them while a 3-D Secure challenge is pending, and after it', async () => {
      const merchant = gw.clientFor(shopA.token, shopA.threeDSecureEntityId);
      const params = cardDebit({ 'card.number': cards.challenge.VISA, shopperResultUrl: 'https://shop.example/result', ...browserData, ...billingAddress });
      const { body, read } = await payAndRead(merchant, params);
      assert.equal(body.result.code, '000.200.000');
      assert.deepEqual(body.card, { ...masked(cards.challenge.VISA), ...visaFacts });
      assert.deepEqual(read.card, body.card);
      assert.equal(body.brandResult, 'VISA');
      const browser = new ShopperBrowser(gw.base);
      await browser.finish(await browser.toChallenge(body.redirect), 'approve');
      const paid = documented(await merchant.get(`/v1/payments/${body.id}`));
      assert.equal(paid.result.code, '000.100.110');
      assert.deepEqual(paid.card, body.card);
      assert.equal(paid.brandResult, 'VISA');
    });

    it('leaves them out for a card range the BIN data does not know', async () => {
      const { body, read } = await payAndRead(gw.client, cardDebit({ 'card.number': '4111111111111111' }));
      assert.deepEqual(body.card, masked('4111111111111111'));
      assert.deepEqual(read.card, masked('4111111111111111'));
      for (const field of ['issuer', 'type', 'level', 'regulatedFlag']) assert.equal(field in body.card, false, field);
    });

    it('answers a capture with the card of its preauthorization, BIN data included', async () => {
      const pa = await payAndRead(gw.client, cardDebit({ paymentType: 'PA' }));
      const cp = await gw.client.post(`/v1/payments/${pa.body.id}`, { paymentType: 'CP', amount: '92.00', currency: 'EUR' });
      assert.equal(cp.status, 200, JSON.stringify(cp.body));
      assert.deepEqual(documented(cp).card, { ...masked('4200000000000000'), ...visaFacts });
    });

    it('answers them for a payment with a registration (the number comes from the vault)', async () => {
      const stored = await gw.client.post('/v1/registrations', { paymentBrand: 'MASTER', 'card.number': '5200000000000007', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034' });
      assert.equal(stored.status, 200, JSON.stringify(stored.body));
      // The registration's own answer is the stored account only.
      assert.deepEqual(stored.body.card, masked('5200000000000007'));
      const paid = await gw.client.post(`/v1/registrations/${stored.body.id}/payments`, { amount: '10.00', currency: 'EUR', paymentType: 'DB' });
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      assert.deepEqual(documented(paid).card, { ...masked('5200000000000007'), ...masterFacts });
      assert.equal(paid.body.brandResult, 'MASTER');
    });
  });

  describe('brandResult (the brand detected from the card number)', () => {
    it('answers the detected brand for every card payment, paymentBrand sent or not, and GET the same', async () => {
      const sent = await payAndRead(gw.client, cardDebit());
      assert.equal(sent.body.brandResult, 'VISA');
      assert.equal(sent.read.brandResult, 'VISA');
      const detected = cardDebit({ 'card.number': '5200000000000007' });
      delete (detected as Record<string, string | undefined>).paymentBrand;
      const master = await payAndRead(gw.client, detected);
      assert.equal(master.body.paymentBrand, 'MASTER');
      assert.equal(master.body.brandResult, 'MASTER');
      const amex = await payAndRead(gw.client, cardDebit({ paymentBrand: 'AMEX', 'card.number': '377777777777770', 'card.cvv': '1234' }));
      assert.equal(amex.body.brandResult, 'AMEX');
      const declined = await payAndRead(gw.client, cardDebit({ amount: '100.51' }), 400);
      assert.equal(declined.body.brandResult, 'VISA');
    });

    it('names the card under a wallet brand: a decrypted wallet card paid as APPLEPAY has brandResult VISA', async () => {
      const wallets = gw.clientFor(shopA.token, shopA.walletEntityId);
      const params = withoutCvv(cardDebit({ paymentBrand: 'APPLEPAY', 'applePay.source': 'app', 'threeDSecure.eci': '05', 'threeDSecure.verificationId': 'AAACAgSRBklmQCFgMpEGAAAAAAA=' }));
      const { body, read } = await payAndRead(wallets, params);
      assert.equal(body.paymentBrand, 'APPLEPAY');
      assert.equal(body.brandResult, 'VISA');
      assert.equal(read.brandResult, 'VISA');
    });

    it('is absent for accounts that are not cards, and for referencing payments (no number was sent)', async () => {
      const direct = await payAndRead(gw.client, sepaDebit());
      assert.equal(direct.body.brandResult, undefined);
      const token = await payAndRead(gw.client, tokenDebit());
      assert.equal(token.body.brandResult, undefined);
      const pa = await payAndRead(gw.client, cardDebit({ paymentType: 'PA' }));
      const cp = await gw.client.post(`/v1/payments/${pa.body.id}`, { paymentType: 'CP', amount: '92.00', currency: 'EUR' });
      assert.equal(cp.status, 200);
      assert.equal(cp.body.brandResult, undefined);
    });
  });

  describe('resultDetails.MerchantAdviceCode', () => {
    // The simulator's documented mapping: decline amount → code → advice.
    const advice: Array<[string, string, string]> = [
      ['100.51', '800.100.151', '01'],
      ['100.57', '800.100.157', '01'],
      ['100.52', '800.100.152', '02'],
      ['100.53', '800.100.153', '02'],
      ['100.55', '800.100.155', '02'],
      ['100.62', '800.100.162', '02'],
      ['100.40', '800.400.100', '02'],
      ['100.59', '800.100.159', '03'],
      ['100.60', '800.100.160', '03'],
      ['100.65', '800.100.165', '03'],
      ['100.71', '800.100.171', '03'],
      ['100.70', '800.100.170', '21'],
    ];

    it('answers the advice code of each decline to an entity with showConnectorDetails, and GET the same', async () => {
      for (const [amount, code, adviceCode] of advice) {
        const { body, read } = await payAndRead(gw.client, cardDebit({ amount }), 400);
        assert.equal(body.result.code, code);
        assert.equal(body.resultDetails.MerchantAdviceCode, adviceCode, code);
        assert.match(body.resultDetails.MerchantAdviceCode, /^\d{2}$/);
        assert.equal(read.resultDetails.MerchantAdviceCode, adviceCode, code);
      }
      const card = await payAndRead(gw.client, cardDebit({ 'card.number': '4000000000000069' }), 400);
      assert.equal(card.body.result.code, '800.100.159');
      assert.equal(card.body.resultDetails.MerchantAdviceCode, '03');
    });

    it('is absent from approvals', async () => {
      const { body } = await payAndRead(gw.client, cardDebit());
      assert.equal(body.resultDetails.AcquirerResponse, '00');
      assert.equal('MerchantAdviceCode' in body.resultDetails, false);
    });

    it('is absent, with all of resultDetails, for an entity without showConnectorDetails', async () => {
      const hidden = gw.clientFor(shopB.token, shopB.entityId);
      const { body, read } = await payAndRead(hidden, cardDebit({ amount: '100.59' }), 400);
      assert.equal(body.result.code, '800.100.159');
      assert.equal(body.resultDetails, undefined);
      assert.equal(read.resultDetails, undefined);
      assert.equal(JSON.stringify(body).includes('MerchantAdviceCode'), false);
    });
  });

  describe('merchant.bankAccount.holder / .number / .bic / .country', () => {
    it('answers the merchant\'s account for a bank transfer debit, next to the merchant.* sent, and GET the same', async () => {
      const { body, read } = await payAndRead(transfers, sepaDebit({ paymentBrand: 'BANKTRANSFER', 'merchant.name': 'Shop A*Order 17' }));
      assert.equal(body.result.code, '000.100.110');
      assert.deepEqual(body.merchant, { name: 'Shop A*Order 17', bankAccount: MERCHANT_ACCOUNT });
      assert.deepEqual(read.merchant, body.merchant);
      const plain = await payAndRead(transfers, sepaDebit({ paymentBrand: 'BANKTRANSFER' }));
      assert.deepEqual(plain.body.merchant, { bankAccount: MERCHANT_ACCOUNT });
    });

    it('is absent from every other payment: direct debits, cards, a bank transfer credit, other entities', async () => {
      const direct = await payAndRead(transfers, sepaDebit());
      assert.equal(direct.body.merchant, undefined);
      const card = await payAndRead(transfers, cardDebit({ 'merchant.name': 'Shop A' }));
      assert.deepEqual(card.body.merchant, { name: 'Shop A' });
      const credit = await payAndRead(transfers, sepaDebit({ paymentBrand: 'BANKTRANSFER', paymentType: 'CD' }));
      assert.equal(credit.body.merchant, undefined);
      const otherEntity = await payAndRead(gw.client, sepaDebit());
      assert.equal(otherEntity.body.merchant, undefined);
    });
  });
});

describe('request parameters through POST /v1/payments', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startGateway();
  });
  after(() => gw.close());

  describe('basic payment request fields', () => {
    const valid = {
      descriptor: 'Shop A order 17 / thank you',
      merchantInvoiceId: 'INV-2026-000017',
      merchantMemo: 'memo for the monthly report',
      transactionCategory: 'MOTO',
      promotionCode: 'SUMMER2026',
      locale: 'de-DE',
      transactionPurposeCode: 'ISACCT',
      integrationType: 'SERVER',
      transactionBai: 'PP',
      transactionTti: 'WT1',
      transactionProcessingCode: 'FUNDING',
      lifecycleId: 'LC-0123456789-0123456789-012345678',
      transactionPurposeAccount: 'CRYPTOCURRENCY_PURCHASE',
    };

    it('accepts the spec\'s values and echoes them as sent, GET the same', async () => {
      const { body, read } = await payAndRead(gw.client, cardDebit(valid));
      for (const [name, value] of Object.entries(valid)) {
        assert.equal(body[name], value, name);
        assert.equal(read[name], value, name);
      }
      const longest = await payAndRead(gw.client, cardDebit({ descriptor: 'd'.repeat(127), merchantInvoiceId: 'i'.repeat(255), merchantMemo: 'm'.repeat(8), lifecycleId: 'l'.repeat(35) }));
      assert.equal(longest.body.descriptor, 'd'.repeat(127));
      assert.equal(longest.body.merchantInvoiceId, 'i'.repeat(255));
      for (const processing of ['PURCHASE', 'PAYMENT']) {
        assert.equal((await payAndRead(gw.client, cardDebit({ transactionProcessingCode: processing }))).body.transactionProcessingCode, processing);
      }
      for (const category of ['EC', 'MO', 'TO', 'PO', 'PM']) {
        assert.equal((await payAndRead(gw.client, cardDebit({ transactionCategory: category }))).body.transactionCategory, category);
      }
    });

    it('refuses too long values with 200.300.404, naming every parameter', async () => {
      const tooLong = {
        descriptor: 'd'.repeat(128),
        merchantInvoiceId: 'i'.repeat(256),
        merchantMemo: 'm'.repeat(256),
        promotionCode: 'P'.repeat(16),
        locale: 'de-DE-x-abc',
        transactionPurposeCode: 'C'.repeat(13),
        integrationType: 'I'.repeat(11),
        transactionBai: 'PPP',
        transactionTti: 'WT12',
        lifecycleId: 'l'.repeat(36),
        referenceUuid: 'a'.repeat(33),
        transactionPurposeAccount: 'A'.repeat(256),
      };
      assertRefused(await gw.client.post('/v1/payments', cardDebit(tooLong)), '200.300.404', Object.keys(tooLong));
    });

    it('refuses too short values, wrong characters and values not listed', async () => {
      const bad = {
        merchantInvoiceId: 'INV-17',
        merchantMemo: 'short',
        descriptor: '',
        locale: '',
        promotionCode: 'SUMMER-26',
        referenceUuid: '0a1b2c3d-4e5f-6071-8293-a4b5c6d7',
        transactionCategory: 'ECOM',
        transactionProcessingCode: 'purchase',
      };
      assertRefused(await gw.client.post('/v1/payments', cardDebit(bad)), '200.300.404', Object.keys(bad));
    });
  });

  describe('transactionPurposeCode on transfers to Argentina, Bangladesh, Chile, Colombia, Egypt, India', () => {
    it('is required for a funding or payout transfer to a recipient there, naming it; not for a purchase or another country', async () => {
      for (const [processing, country] of [['PAYMENT', 'IND'], ['FUNDING', 'ARG'], ['PAYMENT', 'BGD'], ['FUNDING', 'CHL'], ['PAYMENT', 'COL'], ['FUNDING', 'EGY']]) {
        const transfer = cardDebit({ paymentType: 'CD', transactionProcessingCode: processing!, 'recipient.country': country! });
        const refused = await gw.client.post('/v1/payments', transfer);
        assertRefused(refused, '200.300.404', ['transactionPurposeCode']);
        assert.equal(refused.body.result.parameterErrors[0].message, `transactionPurposeCode is required for a ${processing} transfer to a recipient in ${country}`);
        assert.equal((await gw.client.post('/v1/payments', { ...transfer, transactionPurposeCode: 'ISACCT' })).body.result.code, '000.100.110');
      }
      for (const others of [{ transactionProcessingCode: 'PURCHASE', 'recipient.country': 'IND' }, { transactionProcessingCode: 'PAYMENT', 'recipient.country': 'DEU' }, { transactionProcessingCode: 'PAYMENT' }] as Array<Record<string, string>>) {
        assert.equal((await gw.client.post('/v1/payments', cardDebit({ paymentType: 'CD', ...others }))).body.result.code, '000.100.110', JSON.stringify(others));
      }
    });
  });

  describe('card.numberType', () => {
    it('accepts PAN and DPAN, refuses other values naming card.numberType', async () => {
      for (const numberType of ['PAN', 'DPAN']) {
        const reply = await gw.client.post('/v1/payments', cardDebit({ 'card.numberType': numberType }));
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        // Not part of the masked card: the answer shows what identifies the card for the merchant.
        assert.deepEqual(documented(reply).card, { ...masked('4200000000000000'), ...visaFacts });
      }
      for (const numberType of ['pan', 'TOKEN', '']) {
        assertRefused(await gw.client.post('/v1/payments', cardDebit({ 'card.numberType': numberType })), '200.300.404', ['card.numberType']);
      }
    });
  });

  describe('bankAccount.bankName and bankAccount.country', () => {
    it('accepts and echoes them in bankAccount', async () => {
      const { body, read } = await payAndRead(gw.client, sepaDebit({ 'bankAccount.bankName': 'Commerzbank Frankfurt', 'bankAccount.country': 'DE' }));
      assert.equal(body.bankAccount.bankName, 'Commerzbank Frankfurt');
      assert.equal(body.bankAccount.country, 'DE');
      assert.deepEqual(read.bankAccount, body.bankAccount);
      assert.equal((await payAndRead(gw.client, sepaDebit({ 'bankAccount.bankName': 'B'.repeat(255) }))).body.bankAccount.bankName, 'B'.repeat(255));
    });

    it('refuses a bank name over 255 characters (100.100.101) and a country that is not two letters (100.200.100)', async () => {
      assertRefused(await gw.client.post('/v1/payments', sepaDebit({ 'bankAccount.bankName': 'B'.repeat(256) })), '100.100.101', ['bankAccount.bankName']);
      assertRefused(await gw.client.post('/v1/payments', sepaDebit({ 'bankAccount.bankName': '' })), '100.100.101', ['bankAccount.bankName']);
      for (const country of ['DEU', 'D', 'D1', '276', '']) {
        assertRefused(await gw.client.post('/v1/payments', sepaDebit({ 'bankAccount.country': country })), '100.200.100', ['bankAccount.country']);
      }
    });
  });

  describe('tokenAccount.expiryMonth, expiryYear, cryptogram, dtvc', () => {
    it('accepts them; the answer keeps the expiry and never the cryptogram or dtvc', async () => {
      const cryptogram = 'AAABAWFlmQAAAABjRWWZEEFgFz+=';
      const { body, read } = await payAndRead(gw.client, tokenDebit({ 'tokenAccount.expiryMonth': '12', 'tokenAccount.expiryYear': '2031', 'tokenAccount.cryptogram': cryptogram, 'tokenAccount.dtvc': '123' }));
      assert.deepEqual(body.tokenAccount, { type: 'NETWORK', last4Digits: '3478', expiryMonth: '12', expiryYear: '2031' });
      assert.deepEqual(read.tokenAccount, body.tokenAccount);
      assert.equal(JSON.stringify(body).includes(cryptogram), false);
      assert.equal((await payAndRead(gw.client, tokenDebit({ 'tokenAccount.cryptogram': 'A'.repeat(32), 'tokenAccount.dtvc': '1234' }))).body.result.code, '000.100.110');
    });

    it('refuses each malformed value with 100.100.101, masking the cryptogram and the dtvc', async () => {
      const bad: Array<[string, string]> = [
        ['tokenAccount.expiryMonth', '13'],
        ['tokenAccount.expiryMonth', '1'],
        ['tokenAccount.expiryMonth', '00'],
        ['tokenAccount.expiryYear', '31'],
        ['tokenAccount.expiryYear', '20311'],
        ['tokenAccount.expiryYear', '203A'],
        ['tokenAccount.cryptogram', 'A'.repeat(27)],
        ['tokenAccount.cryptogram', 'A'.repeat(33)],
        ['tokenAccount.cryptogram', `${'A'.repeat(27)}!`],
        ['tokenAccount.dtvc', '12'],
        ['tokenAccount.dtvc', '12345'],
        ['tokenAccount.dtvc', '12a'],
      ];
      for (const [name, value] of bad) {
        const reply = await gw.client.post('/v1/payments', tokenDebit({ [name]: value }));
        assertRefused(reply, '100.100.101', [name]);
        const shown = reply.body.result.parameterErrors[0].value;
        if (name.endsWith('cryptogram') || name.endsWith('dtvc')) assert.equal(shown, '*'.repeat(value.length), name);
        else assert.equal(shown, value, name);
      }
    });
  });

  describe('overrideHolder (registration payments)', () => {
    const pay = (id: string, params: Record<string, string> = {}) => gw.client.post(`/v1/registrations/${id}/payments`, { amount: '10.00', currency: 'EUR', paymentType: 'DB', ...params });
    const register = async (holder?: string) => {
      const stored = await gw.client.post('/v1/registrations', { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034', ...(holder ? { 'card.holder': holder } : {}) });
      assert.equal(stored.status, 200, JSON.stringify(stored.body));
      return stored.body.id as string;
    };

    it('with true, card.holder fills an empty holder of the registration for this payment only, GET the same', async () => {
      const id = await register();
      const paid = await pay(id, { overrideHolder: 'true', 'card.holder': 'Jane Jones' });
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      assert.deepEqual(documented(paid).card, { ...masked('4200000000000000'), ...visaFacts });
      assert.equal((await gw.client.get(`/v1/payments/${paid.body.id}`)).body.card.holder, 'Jane Jones');
      const next = await pay(id);
      assert.equal(next.status, 200);
      assert.equal(next.body.card.holder, undefined, 'the registration itself keeps no holder');
      assert.equal(next.body.overrideHolder, undefined, 'an instruction, not echoed');
    });

    it('with true, a registration that has a holder keeps it; false and no override leave the holder alone', async () => {
      const id = await register('Jane Jones');
      const kept = await pay(id, { overrideHolder: 'true', 'card.holder': 'John Doe' });
      assert.equal(kept.status, 200, JSON.stringify(kept.body));
      assert.equal(kept.body.card.holder, 'Jane Jones');
      for (const overrideHolder of ['true', 'false']) {
        const plain = await pay(id, { overrideHolder });
        assert.equal(plain.status, 200, JSON.stringify(plain.body));
        assert.equal(documented(plain).card.holder, 'Jane Jones');
      }
    });

    it('refuses a holder without overrideHolder=true, a holder of the other kind of account, and values other than true/false', async () => {
      const id = await register();
      assertRefused(await pay(id, { 'card.holder': 'Jane Jones' }), '200.300.404', ['card.holder']);
      assertRefused(await pay(id, { overrideHolder: 'false', 'card.holder': 'Jane Jones' }), '200.300.404', ['card.holder']);
      assertRefused(await pay(id, { overrideHolder: 'true', 'bankAccount.holder': 'Jane Jones' }), '200.300.404', ['bankAccount.holder']);
      assertRefused(await pay(id, { overrideHolder: 'true', 'card.holder': 'J1' }), '100.100.402', ['card.holder']);
      for (const overrideHolder of ['TRUE', 'yes', '1', '']) {
        assertRefused(await pay(id, { overrideHolder }), '200.300.404', ['overrideHolder']);
      }
    });
  });

  describe('notificationUrl', () => {
    it('accepts an absolute URL of 6 to 2048 characters and echoes it', async () => {
      const url = 'https://shop.example/notify?order=17';
      const { body, read } = await payAndRead(gw.client, cardDebit({ notificationUrl: url }));
      assert.equal(body.notificationUrl, url);
      assert.equal(read.notificationUrl, url);
      const longest = `https://shop.example/${'n'.repeat(2048 - 21)}`;
      assert.equal((await payAndRead(gw.client, cardDebit({ notificationUrl: longest }))).body.notificationUrl, longest);
    });

    it('refuses a URL over 2048 characters, under 6, or not absolute', async () => {
      for (const value of [`https://shop.example/${'n'.repeat(2048 - 20)}`, 'a://b', '/notify', 'shop.example/notify', 'not a url']) {
        assertRefused(await gw.client.post('/v1/payments', cardDebit({ notificationUrl: value })), '200.300.404', ['notificationUrl']);
      }
    });
  });

  describe('risk.serviceId, risk.orderTimestamp, risk.brand, risk.merchantWebsite, risk.accountToken', () => {
    const valid = { 'risk.serviceId': 'S', 'risk.orderTimestamp': '2026-02-28 23:59:59', 'risk.brand': 'VISA', 'risk.merchantWebsite': 'https://shop.example', 'risk.accountToken': 'acct-tok-0123456789' };

    it('accepts and echoes them in risk, next to the score', async () => {
      const { body, read } = await payAndRead(gw.client, cardDebit(valid));
      assert.match(body.risk.score, /^[+-]\d{5}$/);
      assert.deepEqual(body.risk, { serviceId: 'S', orderTimestamp: '2026-02-28 23:59:59', brand: 'VISA', merchantWebsite: 'https://shop.example', accountToken: 'acct-tok-0123456789', score: body.risk.score });
      assert.deepEqual(read.risk, body.risk);
    });

    it('sets risk.orderTimestamp to the request\u2019s time (UTC) when a risk check is asked for without it, as the spec\u2019s default', async () => {
      const expected = gw.clock.now().toISOString().slice(0, 19).replace('T', ' ');
      const { body, read } = await payAndRead(gw.client, cardDebit({ 'risk.channelId': 'web' }));
      assert.deepEqual(body.risk, { channelId: 'web', orderTimestamp: expected, score: body.risk.score });
      assert.deepEqual(read.risk, body.risk);
      // A payment without risk.* asks for no check, and has no risk group to set it in.
      assert.equal((await gw.client.post('/v1/payments', cardDebit())).body.risk, undefined);
    });

    it('refuses too long values and a timestamp that is not yyyy-MM-dd HH:mm:ss of a real moment', async () => {
      const tooLong = { 'risk.serviceId': 's'.repeat(256), 'risk.brand': 'b'.repeat(256), 'risk.merchantWebsite': `https://${'w'.repeat(53)}`, 'risk.accountToken': 't'.repeat(65) };
      assertRefused(await gw.client.post('/v1/payments', cardDebit(tooLong)), '200.300.404', Object.keys(tooLong));
      for (const timestamp of ['2026-02-29 10:00:00', '2026-02-28T10:00:00', '2026-02-28 24:00:00', '2026-02-28', '28.02.2026 10:00:00']) {
        assertRefused(await gw.client.post('/v1/payments', cardDebit({ 'risk.orderTimestamp': timestamp })), '200.300.404', ['risk.orderTimestamp']);
      }
      assertRefused(await gw.client.post('/v1/payments', cardDebit({ 'risk.serviceId': '', 'risk.accountToken': '' })), '200.300.404', ['risk.serviceId', 'risk.accountToken']);
    });
  });
});
