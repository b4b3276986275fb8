// Settlement reports: a day with a debit, a preauthorization and its capture, a refund, a
// reversed debit, a credit, a direct debit, a decline and a chargeback trigger, settled the next
// day by the simulated clearing institute; the aggregations, the records as JSON, and every
// column of the spec's CSV pinned by value; sort order, parameters, isolation; SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { shortIdOf } from '../../server/reports/shortId.ts';
import { answerChecker } from '../support/answers.ts';
import { cardDebit, databaseUrl, pgSkip, shopA, shopB, startGateway, TestClock, type Client, type Reply, type TestGateway } from '../support/gateway.ts';

const DAY = '2026-03-10';
const SETTLEMENT_DAY = '2026-03-11';
const NEXT_DAY = '2026-03-12';

/** The spec's column order, written out here so that the file is held against the spec, not against the code. */
const SPEC_COLUMNS =
  'ReconciliationType;PaymentType;Cashflow;ClearingInstituteMerchantId;MerchantAccountId;MerchantAccountName;PspId;DivisionId;MerchantId;SettlementTxId;UniqueID;ShortId;ConnectorTxId1;ConnectorTxId2;ConnectorTxId3;Amount;Currency;Brand;TxRequestTime;SettlementAmount;SettlementCurrency;SettlementFee;SettlementFxRate;SettlementDate;SettlementStatus;Descriptor;AccountNumberLast4;BankCode;AccountHolder;ReasonCode;ReasonDesc;SettlementFileFormat;ClearingInsitituteName;MatchingStatus;MatchedTransactions;ChargebackId';

type Name = 'dbA' | 'paA' | 'cpA' | 'rfA' | 'rvDb' | 'cbA' | 'cdA' | 'sepaA' | 'declined' | 'usdA' | 'dbB' | 'lateRv' | 'dbNext';

interface Fixture {
  gw: TestGateway;
  a: Client;
  b: Client;
  ids: Record<Name, string>;
  /** ConnectorTxID1 of each payment, as its answer showed it (shop A shows connector details). */
  tx: Record<string, string>;
}

/** A semicolon-separated file read back: quoted values may hold ; " and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let value = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (value += '"'), i++;
      else if (c === '"') quoted = false;
      else value += c;
    } else if (c === '"') quoted = true;
    else if (c === ';') row.push(value), (value = '');
    else if (c === '\r' && text[i + 1] === '\n') {
      row.push(value), rows.push(row), (row = []), (value = ''), i++;
    } else value += c;
  }
  assert.equal(value, '', 'the file ends with CRLF');
  return rows;
}

async function getCsv(client: Client, path: string, accept = 'text/csv'): Promise<{ status: number; type: string | null; disposition: string | null; text: string }> {
  const response = await fetch(`${client.base}${path}${path.includes('?') ? '&' : '?'}entityId=${client.entityId}`, { headers: { authorization: `Bearer ${client.token}`, accept } });
  return { status: response.status, type: response.headers.get('content-type'), disposition: response.headers.get('content-disposition'), text: await response.text() };
}

/** A refusal: HTTP 400, 200.300.404, and exactly these parameters named. */
function refusedNaming(reply: Reply, ...names: string[]) {
  assert.equal(reply.status, 400, JSON.stringify(reply.body));
  assert.equal(reply.body.result.code, '200.300.404');
  assert.deepEqual(reply.body.result.parameterErrors.map((e: { name: string }) => e.name).sort(), [...names].sort());
}

async function setUp(options: { databaseUrl?: string }): Promise<Fixture> {
  const clock = new TestClock(new Date(`${DAY}T09:00:00Z`));
  const gw = await startGateway({ clock, databaseUrl: options.databaseUrl });
  const a = gw.client;
  const b = gw.clientFor(shopB.token, shopB.entityId);
  const tx: Record<string, string> = {};
  const pay = async (client: Client, path: string, params: Record<string, string>, status = 200) => {
    const r = await client.post(path, params);
    assert.equal(r.status, status, JSON.stringify(r.body));
    if (r.body.resultDetails) tx[r.body.id] = r.body.resultDetails.ConnectorTxID1;
    clock.advance(1000);
    return r.body.id as string;
  };
  const dbA = await pay(a, '/v1/payments', cardDebit({ merchantTransactionId: 'order-db-0001', merchantInvoiceId: 'invoice-0001', descriptor: 'Shop A; "spring" sale' }));
  const paA = await pay(a, '/v1/payments', cardDebit({ paymentType: 'PA', amount: '50.00', merchantTransactionId: 'order-pa-0002' }));
  const cpA = await pay(a, `/v1/payments/${paA}`, { paymentType: 'CP', amount: '30.00', currency: 'EUR' });
  const rfA = await pay(a, `/v1/payments/${dbA}`, { paymentType: 'RF', amount: '10.00', currency: 'EUR' });
  const rvDb = await pay(a, '/v1/payments', cardDebit({ amount: '40.00' }));
  await pay(a, `/v1/payments/${rvDb}`, { paymentType: 'RV' });
  const cbA = await pay(a, '/v1/payments', cardDebit({ amount: '100.20', merchantTransactionId: 'order-cb-0003' }));
  const cdA = await pay(a, '/v1/payments', cardDebit({ paymentType: 'CD', amount: '15.00' }));
  const sepaA = await pay(a, '/v1/payments', {
    amount: '20.00', currency: 'EUR', paymentBrand: 'DIRECTDEBIT_SEPA', paymentType: 'DB',
    'bankAccount.holder': 'Max Mustermann', 'bankAccount.iban': 'DE89370400440532013000', 'bankAccount.bic': 'COBADEFFXXX', 'bankAccount.bankCode': '37040044', 'bankAccount.country': 'DE',
  });
  const declined = await pay(a, '/v1/payments', cardDebit({ amount: '100.51' }), 400);
  const usdA = await pay(a, '/v1/payments', cardDebit({ amount: '12.34', currency: 'USD' }));
  const dbB = await pay(b, '/v1/payments', cardDebit());
  const lateRv = await pay(a, '/v1/payments', cardDebit({ amount: '60.00' }));
  // The next day, 01:00: lateRv's day's file was cut, so its reversal is refused, and a new debit is made.
  clock.current = new Date(`${SETTLEMENT_DAY}T01:00:00Z`);
  await pay(a, `/v1/payments/${lateRv}`, { paymentType: 'RV' }, 400);
  const dbNext = await pay(a, '/v1/payments', cardDebit({ amount: '5.00' }));
  return { gw, a, b, ids: { dbA, paA, cpA, rfA, rvDb, cbA, cdA, sepaA, declined, usdA, dbB, lateRv, dbNext }, tx };
}

function reportSuite(options: { databaseUrl?: string }) {
  let f: Fixture;
  let eurId: string;
  /** The CSV rows of the EUR aggregation, keyed `${ReconciliationType}:${UniqueID}`, each as column → value. */
  let rows: Map<string, Record<string, string>>;
  let csvText: string;
  const row = (type: 'SETTLED' | 'CHARGEBACK', name: Name) => {
    const r = rows.get(`${type}:${f.ids[name]}`);
    assert.ok(r, `no ${type} row of ${name}`);
    return r;
  };

  before(async () => {
    f = await setUp(options);
    // The EUR aggregation's id, known before any test so that one failing test does not fail the others.
    const list = await f.a.get(`/reports/v1/reconciliations/aggregations?date.from=${SETTLEMENT_DAY}&date.to=${SETTLEMENT_DAY}`);
    eurId = list.body.aggregations.find((a: { currency: string }) => a.currency === 'EUR').id;
  });
  after(async () => {
    await f?.gw.close();
  });

  describe('aggregations', () => {
    it('reports nothing for a settlement date that has not begun', async () => {
      const r = await f.a.get(`/reports/v1/reconciliations/aggregations?date.from=${SETTLEMENT_DAY}&date.to=${NEXT_DAY}`);
      assert.equal(r.status, 200);
      assert.equal(r.body.result.code, '000.000.100');
      // 01:00 of the settlement day: the day has begun, so its file exists.
      assert.equal(r.body.aggregations.length, 2);
      f.gw.clock.current = new Date(`${DAY}T12:00:00Z`);
      const before = await f.a.get(`/reports/v1/reconciliations/aggregations?date.from=${DAY}&date.to=${NEXT_DAY}`);
      assert.deepEqual(before.body.aggregations, []);
      f.gw.clock.current = new Date(`${SETTLEMENT_DAY}T10:00:00Z`);
    });

    it('answers one aggregation per settlement date and currency with exact totals as decimal strings', async () => {
      const r = await f.a.get(`/reports/v1/reconciliations/aggregations?date.from=${DAY}&date.to=${NEXT_DAY}`);
      assert.equal(r.status, 200);
      const [eur, usd] = r.body.aggregations;
      assert.equal(r.body.aggregations.length, 2);
      assert.match(eur.id, /^[0-9a-f]{32}$/);
      assert.notEqual(eur.id, usd.id);
      assert.deepEqual(eur, {
        id: eur.id,
        settlementDate: SETTLEMENT_DAY,
        currency: 'EUR',
        numberOfRecords: 8,
        totalPositiveAmount: '302.20',
        totalNegativeAmount: '125.20',
        totalFee: '10.12',
        netAmount: '166.88',
      });
      assert.deepEqual(usd, { id: usd.id, settlementDate: SETTLEMENT_DAY, currency: 'USD', numberOfRecords: 1, totalPositiveAmount: '12.34', totalNegativeAmount: '0.00', totalFee: '0.48', netAmount: '11.86' });
      assert.equal(eur.id, eurId);
    });

    it('keeps entities apart: shop B sees its own debit only, and shop A\u2019s aggregation id is unknown to it', async () => {
      const r = await f.b.get(`/reports/v1/reconciliations/aggregations?date.from=${SETTLEMENT_DAY}&date.to=${SETTLEMENT_DAY}`);
      assert.equal(r.body.aggregations.length, 1);
      assert.equal(r.body.aggregations[0].numberOfRecords, 1);
      assert.equal(r.body.aggregations[0].totalPositiveAmount, '92.00');
      assert.notEqual(r.body.aggregations[0].id, eurId);
      const foreign = await f.b.get(`/reports/v1/reconciliations/aggregations/${eurId}`);
      assert.equal(foreign.status, 404);
      assert.equal(foreign.body.result.code, '200.300.404');
      assert.deepEqual(foreign.body.result.parameterErrors.map((e: { name: string }) => e.name), ['id']);
      const records = await f.b.get(`/reports/v1/reconciliations/aggregations/${r.body.aggregations[0].id}`);
      assert.deepEqual(records.body.records.map((x: { payment: { id: string } }) => x.payment.id), [f.ids.dbB]);
    });

    it('answers 404 naming id for an id of no aggregation', async () => {
      for (const id of ['0123456789abcdef0123456789abcdef', `${eurId.slice(0, 31)}${eurId.endsWith('0') ? '1' : '0'}`, 'not-an-id']) {
        const r = await f.a.get(`/reports/v1/reconciliations/aggregations/${id}`);
        assert.equal(r.status, 404, id);
        assert.equal(r.body.result.parameterErrors[0].name, 'id');
      }
    });

    it('sortOrder orders aggregations by settlement date: ASC (default), DESC, asc, desc', async () => {
      f.gw.clock.current = new Date(`${NEXT_DAY}T10:00:00Z`);
      const key = (r: Reply) => r.body.aggregations.map((x: { settlementDate: string; currency: string }) => `${x.settlementDate} ${x.currency}`);
      const asc = [`${SETTLEMENT_DAY} EUR`, `${SETTLEMENT_DAY} USD`, `${NEXT_DAY} EUR`];
      assert.deepEqual(key(await f.a.get(`/reports/v1/reconciliations/aggregations?date.from=${DAY}&date.to=${NEXT_DAY}`)), asc);
      assert.deepEqual(key(await f.a.get(`/reports/v1/reconciliations/aggregations?date.from=${DAY}&date.to=${NEXT_DAY}&sortValue=SettlementTxDate&sortOrder=ASC`)), asc);
      assert.deepEqual(key(await f.a.get(`/reports/v1/reconciliations/aggregations?date.from=${DAY}&date.to=${NEXT_DAY}&sortOrder=asc`)), asc);
      assert.deepEqual(key(await f.a.get(`/reports/v1/reconciliations/aggregations?date.from=${DAY}&date.to=${NEXT_DAY}&sortOrder=DESC`)), [...asc].reverse());
      assert.deepEqual(key(await f.a.get(`/reports/v1/reconciliations/aggregations?date.from=${DAY}&date.to=${NEXT_DAY}&sortOrder=desc`)), [...asc].reverse());
      // The next day's file has the debit made after midnight, nothing else.
      const next = await f.a.get(`/reports/v1/reconciliations/aggregations?date.from=${NEXT_DAY}&date.to=${NEXT_DAY}`);
      const records = await f.a.get(`/reports/v1/reconciliations/aggregations/${next.body.aggregations[0].id}`);
      assert.deepEqual(records.body.records.map((x: { payment: { id: string } }) => x.payment.id), [f.ids.dbNext]);
      f.gw.clock.current = new Date(`${SETTLEMENT_DAY}T10:00:00Z`);
    });

    it('refuses missing or malformed dates, date.to before date.from, a period over 31 days, naming the parameter', async () => {
      const agg = (q: string) => f.a.get(`/reports/v1/reconciliations/aggregations${q}`);
      refusedNaming(await agg(''), 'date.from', 'date.to');
      refusedNaming(await agg(`?date.to=${DAY}`), 'date.from');
      refusedNaming(await agg(`?date.from=${DAY}`), 'date.to');
      refusedNaming(await agg(`?date.from=2026-3-10&date.to=${DAY}`), 'date.from');
      refusedNaming(await agg(`?date.from=${DAY}&date.to=2026-02-30`), 'date.to');
      refusedNaming(await agg(`?date.from=${DAY}%2000:00:00&date.to=${DAY}`), 'date.from');
      refusedNaming(await agg(`?date.from=${DAY}&date.to=2026-03-09`), 'date.to');
      refusedNaming(await agg(`?date.from=2026-03-01&date.to=2026-04-01`), 'date.to');
      assert.equal((await agg(`?date.from=2026-03-01&date.to=2026-03-31`)).status, 200);
    });

    it('refuses a sortValue or sortOrder outside the spec\u2019s values, unknown and repeated parameters, naming each', async () => {
      const agg = (q: string) => f.a.get(`/reports/v1/reconciliations/aggregations?date.from=${DAY}&date.to=${DAY}${q}`);
      refusedNaming(await agg('&sortValue=Amount'), 'sortValue');
      refusedNaming(await agg('&sortOrder=up'), 'sortOrder');
      refusedNaming(await agg('&sortOrder=Asc'), 'sortOrder');
      refusedNaming(await agg('&limit=100'), 'limit');
      refusedNaming(await agg(`&date.from=${DAY}`), 'date.from');
      const records = (q: string) => f.a.get(`/reports/v1/reconciliations/aggregations/${eurId}?${q}`);
      refusedNaming(await records('sortOrder=sideways'), 'sortOrder');
      refusedNaming(await records(`date.from=${DAY}`), 'date.from');
    });

    it('answers any mix of its parameters with junk or valid values with 200, 400 or 404 and a result code, never a 5xx', async () => {
      const names = ['date.from', 'date.to', 'sortValue', 'sortOrder', 'date', 'limit', 'date.from[0]'];
      const value = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(DAY, SETTLEMENT_DAY, '2026-02-30', 'SettlementTxDate', 'ASC', 'desc', ''));
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...names), value), { maxLength: 5 }), fc.constantFrom('', `/${eurId}`, '/0123456789abcdef0123456789abcdef'), async (pairs, id) => {
          const query = pairs.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`).join('&');
          const r = await f.a.get(`/reports/v1/reconciliations/aggregations${id}?${query}`);
          assert.ok([200, 400, 404].includes(r.status), `${id}?${query}: ${r.status} ${JSON.stringify(r.body)}`);
          assert.match(r.body.result.code, /^\d{3}\.\d{3}\.\d{3}$/);
        }),
        { numRuns: 150 },
      );
    });

    it('asks for the access token and an entity the token may act for', async () => {
      const anonymous = await fetch(`${f.gw.base}/reports/v1/reconciliations/aggregations?entityId=${shopA.entityId}&date.from=${DAY}&date.to=${DAY}`);
      assert.equal(anonymous.status, 401);
      const r = await f.gw.clientFor(shopB.token, shopA.entityId).get(`/reports/v1/reconciliations/aggregations/${eurId}`);
      assert.equal(r.status, 403);
    });
  });

  describe('records as JSON', () => {
    it('lists exactly the settled payments and the chargeback: no PA, no reversed debit, no decline, no reversal, no other currency or day', async () => {
      const r = await f.a.get(`/reports/v1/reconciliations/aggregations/${eurId}`);
      assert.equal(r.status, 200);
      assert.equal(r.body.result.code, '000.000.100');
      assert.equal(r.body.aggregation.id, eurId);
      const listed = r.body.records.map((x: { recordType: string; transactionType: string; settlement: { cashflow: string }; payment: { id: string } }) => [x.recordType, x.transactionType, x.settlement.cashflow, x.payment.id]);
      assert.deepEqual(listed, [
        ['SETTLED', 'DEBIT', 'POS', f.ids.dbA],
        ['SETTLED', 'DEBIT', 'POS', f.ids.cpA],
        ['SETTLED', 'REFUND', 'NEG', f.ids.rfA],
        ['SETTLED', 'DEBIT', 'POS', f.ids.cbA],
        ['CHARGEBACK', 'DEBIT', 'NEG', f.ids.cbA],
        ['SETTLED', 'CREDIT', 'NEG', f.ids.cdA],
        ['SETTLED', 'DEBIT', 'POS', f.ids.sepaA],
        ['SETTLED', 'DEBIT', 'POS', f.ids.lateRv],
      ]);
    });

    it('names every field as the spec\u2019s API names: the debit\u2019s record in full', async () => {
      const r = await f.a.get(`/reports/v1/reconciliations/aggregations/${eurId}`);
      const record = r.body.records[0];
      assert.deepEqual(record, {
        recordType: 'SETTLED',
        transactionType: 'DEBIT',
        settlement: { cashflow: 'POS', id: record.settlement.id, amount: '92.00', currency: 'EUR', fee: '2.00', fxRate: '1.0000', date: SETTLEMENT_DAY, status: 'SUCCESS', format: 'SIMULATOR_V1' },
        clearingInstitute: { merchantId: 'SIMMERCHANT0001', txId1: f.tx[f.ids.dbA], name: 'GATEWAY SIMULATOR CLEARING' },
        merchantAccount: { id: shopA.entityId, name: 'Shop A eCommerce' },
        pspEntityId: record.pspEntityId,
        merchantEntityId: record.merchantEntityId,
        payment: { id: f.ids.dbA },
        shortId: shortIdOf(f.ids.dbA),
        merchantTransactionId: 'order-db-0001',
        merchantInvoiceId: 'invoice-0001',
        amount: '92.00',
        currency: 'EUR',
        paymentBrand: 'VISA',
        presentmentDate: `${DAY} 09:00:00`,
        descriptor: 'Shop A; "spring" sale',
        card: { last4Digits: '0000', holder: 'Jane Jones' },
        matchedTransactions: { status: 'MATCHED', payment: [{ id: f.ids.dbA }] },
      });
      assert.match(record.settlement.id, /^[0-9a-f]{32}$/);
      assert.match(record.pspEntityId, /^[0-9a-f]{32}$/);
      assert.match(record.merchantEntityId, /^[0-9a-f]{32}$/);
    });

    it('gives the chargeback its reason (result.code 000.100.2xx, result.description) and chargeback.id', async () => {
      const r = await f.a.get(`/reports/v1/reconciliations/aggregations/${eurId}`);
      const record = r.body.records[4];
      assert.equal(record.recordType, 'CHARGEBACK');
      assert.deepEqual(record.result, { code: '000.100.220', description: 'Fraudulent Transaction' });
      assert.match(record.chargeback.id, /^[0-9a-f]{32}$/);
      assert.equal(record.merchantTransactionId, 'order-cb-0003');
      assert.equal(r.body.records[3].result, undefined);
      assert.equal(r.body.records[3].chargeback, undefined);
    });

    it('shows a direct debit\u2019s bank account: last four digits of the IBAN, bank code, holder', async () => {
      const r = await f.a.get(`/reports/v1/reconciliations/aggregations/${eurId}`);
      assert.deepEqual(r.body.records[6].bankAccount, { last4Digits: '3000', bankCode: '37040044', holder: 'Max Mustermann' });
      assert.equal(r.body.records[6].card, undefined);
      assert.equal(r.body.records[6].paymentBrand, 'DIRECTDEBIT_SEPA');
    });

    it('sortValue=SettlementTxDate sorts by the payment\u2019s time: ASC by default, DESC and desc the exact reverse', async () => {
      const order = async (q: string) => (await f.a.get(`/reports/v1/reconciliations/aggregations/${eurId}${q}`)).body.records.map((x: { recordType: string; payment: { id: string } }) => `${x.recordType}:${x.payment.id}`);
      const asc = await order('');
      assert.deepEqual(await order('?sortValue=SettlementTxDate&sortOrder=ASC'), asc);
      assert.deepEqual(await order('?sortOrder=asc'), asc);
      assert.deepEqual(await order('?sortValue=SettlementTxDate&sortOrder=DESC'), [...asc].reverse());
      assert.deepEqual(await order('?sortOrder=desc'), [...asc].reverse());
      assert.equal(asc[0], `SETTLED:${f.ids.dbA}`);
      assert.equal(asc[asc.length - 1], `SETTLED:${f.ids.lateRv}`);
    });

    it('matches the OpenAPI document: ReconciliationAggregations, ReconciliationRecords, ErrorResponse', async () => {
      const check = answerChecker();
      const list = await f.a.get(`/reports/v1/reconciliations/aggregations?date.from=${DAY}&date.to=${SETTLEMENT_DAY}`);
      assert.deepEqual(check('ReconciliationAggregations', list.body), []);
      assert.deepEqual(check('ReconciliationRecords', (await f.a.get(`/reports/v1/reconciliations/aggregations/${eurId}`)).body), []);
      assert.deepEqual(check('ErrorResponse', (await f.a.get(`/reports/v1/reconciliations/aggregations/${eurId}?sortOrder=up`)).body), []);
      assert.notDeepEqual(check('ReconciliationRecords', { ...list.body, records: [{ recordType: 'SETTLED' }] }), []);
    });

    it('answers the same records on every read (ids and amounts are derived, never random)', async () => {
      const first = await f.a.get(`/reports/v1/reconciliations/aggregations/${eurId}`);
      const second = await f.a.get(`/reports/v1/reconciliations/aggregations/${eurId}`);
      assert.deepEqual(first.body.records, second.body.records);
    });
  });

  describe('records as the CSV file', () => {
    before(async () => {
      const csv = await getCsv(f.a, `/reports/v1/reconciliations/aggregations/${eurId}`);
      assert.equal(csv.status, 200, csv.text);
      csvText = csv.text;
      const [header, ...body] = parseCsv(csv.text);
      rows = new Map(body.map((values) => {
        const r = Object.fromEntries(header!.map((name, i) => [name, values[i]!]));
        return [`${r.ReconciliationType}:${r.UniqueID}`, r];
      }));
    });

    it('is served for Accept: text/csv as text/csv, an attachment named by date and currency', async () => {
      const csv = await getCsv(f.a, `/reports/v1/reconciliations/aggregations/${eurId}`);
      assert.equal(csv.type, 'text/csv; charset=utf-8');
      assert.equal(csv.disposition, `attachment; filename="reconciliation-${SETTLEMENT_DAY}-EUR.csv"`);
    });

    it('has the header line in the spec\u2019s exact column order, then one line per record, CRLF line ends', () => {
      const lines = csvText.split('\r\n');
      assert.equal(lines[0], SPEC_COLUMNS);
      assert.equal(lines.length, 1 + 8 + 1);
      assert.equal(lines[lines.length - 1], '');
      for (const line of lines.slice(0, -1)) assert.ok(!line.includes('\n'));
    });

    it('writes the debit\u2019s line exactly, quoting the descriptor that holds ; and "', () => {
      const line = csvText.split('\r\n').find((l) => l.includes(f.ids.dbA) && l.startsWith('SETTLED;DEBIT'))!;
      const r = row('SETTLED', 'dbA');
      assert.equal(
        line,
        [
          'SETTLED', 'DEBIT', 'POS', 'SIMMERCHANT0001', shopA.entityId, 'Shop A eCommerce', r.PspId, '', r.MerchantId, r.SettlementTxId, f.ids.dbA, shortIdOf(f.ids.dbA),
          f.tx[f.ids.dbA], '', '', '92.00', 'EUR', 'VISA', `${DAY} 09:00:00`, '92.00', 'EUR', '2.00', '1.0000', SETTLEMENT_DAY, 'SUCCESS', '"Shop A; ""spring"" sale"',
          '0000', '', 'Jane Jones', '', '', 'SIMULATOR_V1', 'GATEWAY SIMULATOR CLEARING', 'MATCHED', f.ids.dbA, '',
        ].join(';'),
      );
    });

    it('answers JSON for Accept: application/json, no Accept, or JSON preferred; CSV when text/csv is preferred', async () => {
      assert.match((await getCsv(f.a, `/reports/v1/reconciliations/aggregations/${eurId}`, 'application/json')).type!, /^application\/json/);
      assert.match((await getCsv(f.a, `/reports/v1/reconciliations/aggregations/${eurId}`, '')).type!, /^application\/json/);
      assert.match((await getCsv(f.a, `/reports/v1/reconciliations/aggregations/${eurId}`, 'text/csv;q=0.5, application/json')).type!, /^application\/json/);
      assert.match((await getCsv(f.a, `/reports/v1/reconciliations/aggregations/${eurId}`, 'application/json;q=0.4, text/csv')).type!, /^text\/csv/);
    });

    it('answers refusals as JSON even when text/csv is asked for', async () => {
      const bad = await getCsv(f.a, `/reports/v1/reconciliations/aggregations/${eurId}?sortOrder=up`);
      assert.equal(bad.status, 400);
      assert.match(bad.type!, /^application\/json/);
      assert.equal(JSON.parse(bad.text).result.parameterErrors[0].name, 'sortOrder');
      const missing = await getCsv(f.a, '/reports/v1/reconciliations/aggregations/0123456789abcdef0123456789abcdef');
      assert.equal(missing.status, 404);
      assert.match(missing.type!, /^application\/json/);
    });

    it('lists the same records, in the same order, as the JSON answer', async () => {
      const json = await f.a.get(`/reports/v1/reconciliations/aggregations/${eurId}?sortOrder=desc`);
      const csv = parseCsv((await getCsv(f.a, `/reports/v1/reconciliations/aggregations/${eurId}?sortOrder=desc`)).text).slice(1);
      assert.deepEqual(csv.map((v) => `${v[0]}:${v[10]}`), json.body.records.map((x: { recordType: string; payment: { id: string } }) => `${x.recordType}:${x.payment.id}`));
    });
  });

  // One test per column of the spec's table: docs/spec-coverage.md names each.
  describe('reconciliation CSV columns', () => {
    const all = () => [...rows.values()];
    const columns: Array<[string, string, () => void]> = [
      ['ReconciliationType', 'SETTLED for each settled payment, CHARGEBACK for the chargeback', () => {
        assert.equal(row('SETTLED', 'dbA').ReconciliationType, 'SETTLED');
        assert.equal(row('CHARGEBACK', 'cbA').ReconciliationType, 'CHARGEBACK');
        assert.deepEqual(all().map((r) => r.ReconciliationType).sort(), ['CHARGEBACK', ...Array(7).fill('SETTLED')]);
      }],
      ['PaymentType', 'DEBIT for DB and CP (and their chargeback), REFUND for RF, CREDIT for CD', () => {
        for (const name of ['dbA', 'cpA', 'cbA', 'sepaA', 'lateRv'] as const) assert.equal(row('SETTLED', name).PaymentType, 'DEBIT');
        assert.equal(row('CHARGEBACK', 'cbA').PaymentType, 'DEBIT');
        assert.equal(row('SETTLED', 'rfA').PaymentType, 'REFUND');
        assert.equal(row('SETTLED', 'cdA').PaymentType, 'CREDIT');
      }],
      ['Cashflow', 'POS for debits, NEG for refunds, credits and chargebacks', () => {
        assert.equal(row('SETTLED', 'dbA').Cashflow, 'POS');
        assert.equal(row('SETTLED', 'cpA').Cashflow, 'POS');
        assert.equal(row('SETTLED', 'rfA').Cashflow, 'NEG');
        assert.equal(row('SETTLED', 'cdA').Cashflow, 'NEG');
        assert.equal(row('CHARGEBACK', 'cbA').Cashflow, 'NEG');
      }],
      ['ClearingInstituteMerchantId', 'the simulator\u2019s merchant id SIMMERCHANT0001 (5-64 characters)', () => {
        for (const r of all()) assert.equal(r.ClearingInstituteMerchantId, 'SIMMERCHANT0001');
      }],
      ['MerchantAccountId', 'the entity (channel) id', () => {
        for (const r of all()) assert.equal(r.MerchantAccountId, shopA.entityId);
      }],
      ['MerchantAccountName', 'the entity\u2019s name', () => {
        for (const r of all()) assert.equal(r.MerchantAccountName, 'Shop A eCommerce');
      }],
      ['PspId', 'the gateway\u2019s one PSP entity id, 32 hex, the same for every merchant', async () => {
        const psp = row('SETTLED', 'dbA').PspId;
        assert.match(psp!, /^[0-9a-f]{32}$/);
        for (const r of all()) assert.equal(r.PspId, psp);
      }],
      ['DivisionId', 'empty: merchants.json has no divisions', () => {
        for (const r of all()) assert.equal(r.DivisionId, '');
      }],
      ['MerchantId', 'the merchant\u2019s entity id, 32 hex, one per merchant', () => {
        const merchant = row('SETTLED', 'dbA').MerchantId;
        assert.match(merchant!, /^[0-9a-f]{32}$/);
        assert.notEqual(merchant, shopA.entityId);
        for (const r of all()) assert.equal(r.MerchantId, merchant);
      }],
      ['SettlementTxId', 'a 32-hex id per record, the settlement\u2019s and the chargeback\u2019s different', () => {
        const ids = all().map((r) => r.SettlementTxId!);
        for (const id of ids) assert.match(id, /^[0-9a-f]{32}$/);
        assert.equal(new Set(ids).size, ids.length);
        assert.notEqual(row('SETTLED', 'cbA').SettlementTxId, row('CHARGEBACK', 'cbA').SettlementTxId);
      }],
      ['UniqueID', 'the payment id', () => {
        assert.equal(row('SETTLED', 'cpA').UniqueID, f.ids.cpA);
        assert.equal(row('CHARGEBACK', 'cbA').UniqueID, f.ids.cbA);
      }],
      ['ShortId', 'the payment\u2019s short id dddd.dddd.dddd, which GET /v1/query?shortId finds', async () => {
        assert.equal(row('SETTLED', 'rfA').ShortId, shortIdOf(f.ids.rfA));
        assert.match(row('SETTLED', 'rfA').ShortId!, /^\d{4}\.\d{4}\.\d{4}$/);
        const found = await f.a.get(`/v1/query?shortId=${row('SETTLED', 'rfA').ShortId}`);
        assert.deepEqual(found.body.payments.map((p: { id: string }) => p.id), [f.ids.rfA]);
      }],
      ['ConnectorTxId1', 'the connector\u2019s id of the payment (resultDetails.ConnectorTxID1)', () => {
        for (const name of ['dbA', 'cpA', 'rfA', 'cdA'] as const) assert.equal(row('SETTLED', name).ConnectorTxId1, f.tx[f.ids[name]]);
        assert.match(row('SETTLED', 'dbA').ConnectorTxId1!, /^[0-9A-F]{16}$/);
      }],
      ['ConnectorTxId2', 'the connector\u2019s id of the referenced payment (the PA of a capture, the DB of a refund); empty otherwise', () => {
        assert.equal(row('SETTLED', 'cpA').ConnectorTxId2, f.tx[f.ids.paA]);
        assert.equal(row('SETTLED', 'rfA').ConnectorTxId2, f.tx[f.ids.dbA]);
        assert.equal(row('SETTLED', 'dbA').ConnectorTxId2, '');
      }],
      ['ConnectorTxId3', 'empty: the simulator has no third id', () => {
        for (const r of all()) assert.equal(r.ConnectorTxId3, '');
      }],
      ['Amount', 'the payment\u2019s amount with two decimals', () => {
        assert.equal(row('SETTLED', 'dbA').Amount, '92.00');
        assert.equal(row('SETTLED', 'cpA').Amount, '30.00');
        assert.equal(row('SETTLED', 'rfA').Amount, '10.00');
        assert.equal(row('CHARGEBACK', 'cbA').Amount, '100.20');
      }],
      ['Currency', 'the payment\u2019s currency', () => {
        for (const r of all()) assert.equal(r.Currency, 'EUR');
      }],
      ['Brand', 'the payment\u2019s brand', () => {
        assert.equal(row('SETTLED', 'dbA').Brand, 'VISA');
        assert.equal(row('SETTLED', 'sepaA').Brand, 'DIRECTDEBIT_SEPA');
      }],
      ['TxRequestTime', 'the payment\u2019s time, yyyy-MM-dd HH:mm:ss UTC', () => {
        assert.equal(row('SETTLED', 'dbA').TxRequestTime, `${DAY} 09:00:00`);
        assert.equal(row('SETTLED', 'cpA').TxRequestTime, `${DAY} 09:00:02`);
      }],
      ['SettlementAmount', 'the amount settled, two decimals (no exchange: the payment\u2019s amount)', () => {
        assert.equal(row('SETTLED', 'dbA').SettlementAmount, '92.00');
        assert.equal(row('SETTLED', 'cdA').SettlementAmount, '15.00');
        assert.equal(row('CHARGEBACK', 'cbA').SettlementAmount, '100.20');
      }],
      ['SettlementCurrency', 'the payment\u2019s currency', () => {
        for (const r of all()) assert.equal(r.SettlementCurrency, 'EUR');
      }],
      ['SettlementFee', '1.90 % rounded half up plus 0.25, per record', () => {
        assert.equal(row('SETTLED', 'dbA').SettlementFee, '2.00');
        assert.equal(row('SETTLED', 'cpA').SettlementFee, '0.82');
        assert.equal(row('SETTLED', 'rfA').SettlementFee, '0.44');
        assert.equal(row('SETTLED', 'cbA').SettlementFee, '2.15');
        assert.equal(row('CHARGEBACK', 'cbA').SettlementFee, '2.15');
        assert.equal(row('SETTLED', 'cdA').SettlementFee, '0.54');
        assert.equal(row('SETTLED', 'sepaA').SettlementFee, '0.63');
        assert.equal(row('SETTLED', 'lateRv').SettlementFee, '1.39');
      }],
      ['SettlementFxRate', '1.0000: the simulator settles in the payment\u2019s currency', () => {
        for (const r of all()) assert.equal(r.SettlementFxRate, '1.0000');
      }],
      ['SettlementDate', 'the day after the payment', () => {
        for (const r of all()) assert.equal(r.SettlementDate, SETTLEMENT_DAY);
      }],
      ['SettlementStatus', 'SUCCESS', () => {
        for (const r of all()) assert.equal(r.SettlementStatus, 'SUCCESS');
      }],
      ['Descriptor', 'the payment\u2019s descriptor, read back from its quoted form; empty without one', () => {
        assert.equal(row('SETTLED', 'dbA').Descriptor, 'Shop A; "spring" sale');
        assert.equal(row('SETTLED', 'cpA').Descriptor, '');
      }],
      ['AccountNumberLast4', 'the card\u2019s last four digits, or the IBAN\u2019s', () => {
        assert.equal(row('SETTLED', 'dbA').AccountNumberLast4, '0000');
        assert.equal(row('SETTLED', 'sepaA').AccountNumberLast4, '3000');
      }],
      ['BankCode', 'the bank account\u2019s bank code; empty for cards', () => {
        assert.equal(row('SETTLED', 'sepaA').BankCode, '37040044');
        assert.equal(row('SETTLED', 'dbA').BankCode, '');
      }],
      ['AccountHolder', 'the card holder, or the bank account holder', () => {
        assert.equal(row('SETTLED', 'dbA').AccountHolder, 'Jane Jones');
        assert.equal(row('SETTLED', 'sepaA').AccountHolder, 'Max Mustermann');
      }],
      ['ReasonCode', 'the chargeback\u2019s reason 000.100.2xx; empty for settlements', () => {
        assert.equal(row('CHARGEBACK', 'cbA').ReasonCode, '000.100.220');
        assert.match(row('CHARGEBACK', 'cbA').ReasonCode!, /^000\.100\.2\d{2}$/);
        assert.equal(row('SETTLED', 'cbA').ReasonCode, '');
      }],
      ['ReasonDesc', 'the reason\u2019s text; empty for settlements', () => {
        assert.equal(row('CHARGEBACK', 'cbA').ReasonDesc, 'Fraudulent Transaction');
        assert.equal(row('SETTLED', 'cbA').ReasonDesc, '');
      }],
      ['SettlementFileFormat', 'SIMULATOR_V1', () => {
        for (const r of all()) assert.equal(r.SettlementFileFormat, 'SIMULATOR_V1');
      }],
      ['ClearingInsitituteName', 'the simulated clearing institute (the spec\u2019s spelling of the column)', () => {
        for (const r of all()) assert.equal(r.ClearingInsitituteName, 'GATEWAY SIMULATOR CLEARING');
      }],
      ['MatchingStatus', 'MATCHED', () => {
        for (const r of all()) assert.equal(r.MatchingStatus, 'MATCHED');
      }],
      ['MatchedTransactions', 'the matched payment\u2019s id', () => {
        for (const r of all()) assert.equal(r.MatchedTransactions, r.UniqueID);
        assert.equal(row('CHARGEBACK', 'cbA').MatchedTransactions, f.ids.cbA);
      }],
      ['ChargebackId', 'a 32-hex id on the chargeback, stable; empty for settlements', async () => {
        const id = row('CHARGEBACK', 'cbA').ChargebackId!;
        assert.match(id, /^[0-9a-f]{32}$/);
        assert.equal(row('SETTLED', 'cbA').ChargebackId, '');
        const again = await f.a.get(`/reports/v1/reconciliations/aggregations/${eurId}`);
        assert.equal(again.body.records[4].chargeback.id, id);
      }],
    ];

    it('covers every column of the spec\u2019s column order', () => {
      assert.deepEqual(columns.map(([name]) => name), SPEC_COLUMNS.split(';'));
    });
    for (const [name, what, check] of columns) it(`${name}: ${what}`, check);
  });
}

describe('settlement reports on SQLite', () => reportSuite({}));

describe('settlement reports on PostgreSQL', { skip: pgSkip }, () => reportSuite({ databaseUrl }));
