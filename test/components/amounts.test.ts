import { expect, waitUntil } from '@open-wc/testing';
import { formatAmount } from '../../src/core/format.ts';
import { paymentDetails } from '../../src/widget/wallets/wallets.ts';
import { formData, one, stubFetch, widget } from './support.ts';

/** Spaces of any kind (Intl writes no-break and narrow no-break ones) as plain spaces. */
const plain = (text: string) => text.replace(/\s/g, ' ');

/**
 * Currencies Intl (CLDR) gives fewer fraction digits than ISO 4217 and the gateway do: a 100.50
 * checkout in any of them showed "… 101".
 */
const FEWER_DIGITS_THAN_CHARGED = ['HUF', 'IDR', 'COP', 'IQD', 'PKR', 'AFN', 'ALL', 'IRR', 'KPW', 'LAK', 'LBP', 'MGA', 'MMK', 'SLL', 'SOS', 'SYP', 'YER'];

describe('amounts shown', () => {
  let fetchStub: ReturnType<typeof stubFetch> | undefined;
  afterEach(() => fetchStub?.restore());

  it('shows on the pay button the amount charged, never rounded to the digits Intl gives its currency (HUF 100.50, IDR 100.50, COP 1999.99)', async () => {
    // locale asked → [amount, currency, the pay button's label]; hu has no texts (English ones) but formats as Hungary does.
    const cases: Record<string, [string, string, string][]> = {
      en: [['100.50', 'HUF', 'Pay HUF 100.50'], ['100.50', 'IDR', 'Pay IDR 100.50'], ['1999.99', 'COP', 'Pay COP 1,999.99'], ['0.50', 'HUF', 'Pay HUF 0.50']],
      hu: [['100.50', 'HUF', 'Pay 100,50 Ft'], ['100.50', 'IDR', 'Pay 100,50 IDR'], ['1999.99', 'COP', 'Pay 1999,99 COP']],
      'es-CO': [['100.50', 'HUF', 'Pagar HUF 100,50'], ['100.50', 'IDR', 'Pagar IDR 100,50'], ['1999.99', 'COP', 'Pagar $ 1.999,99']],
      de: [['100.50', 'HUF', '100,50 HUF bezahlen'], ['100.50', 'IDR', '100,50 IDR bezahlen'], ['1999.99', 'COP', '1.999,99 COP bezahlen']],
    };
    for (const [locale, amounts] of Object.entries(cases)) {
      for (const [amount, currency, label] of amounts) {
        fetchStub = stubFetch(formData({ amount, currency }));
        const el = await widget({ brands: 'VISA', locale });
        const button = () => plain(one(el, 'button[type="submit"]').textContent ?? '');
        await waitUntil(() => button() === label, `${locale} ${amount} ${currency}: the pay button says "${button()}", not "${label}"`);
        fetchStub.restore();
        fetchStub = undefined;
      }
    }
  });

  it('shows 100.50 whole in every currency Intl gives no fraction digits where ISO 4217 gives two', () => {
    for (const currency of FEWER_DIGITS_THAN_CHARGED) {
      expect(plain(formatAmount('100.50', currency, 'en')), currency).to.equal(`${currency} 100.50`);
      expect(plain(formatAmount('0.50', currency, 'en')), currency).to.equal(`${currency} 0.50`);
    }
  });

  it('keeps the currency\u2019s usual digits when the amount loses nothing by them: HUF 100, ¥100, KWD 1.000, €100.50', () => {
    expect(plain(formatAmount('100.00', 'HUF', 'en'))).to.equal('HUF 100');
    expect(plain(formatAmount('100.00', 'HUF', 'hu'))).to.equal('100 Ft');
    expect(plain(formatAmount('100', 'JPY', 'en'))).to.equal('¥100');
    expect(plain(formatAmount('100.00', 'JPY', 'en'))).to.equal('¥100');
    expect(plain(formatAmount('1.00', 'KWD', 'en'))).to.equal('KWD 1.000');
    expect(plain(formatAmount('100.50', 'EUR', 'en'))).to.equal('€100.50');
    expect(plain(formatAmount('100.50', 'EUR', 'de'))).to.equal('100,50 €');
    expect(plain(formatAmount('92.00', 'EUR', 'pt-PT'))).to.equal('92,00 €');
  });

  it('never goes through a float: a 12-digit amount keeps its last cent', () => {
    expect(plain(formatAmount('999999999999.99', 'EUR', 'en'))).to.equal('€999,999,999,999.99');
    expect(plain(formatAmount('999999999999.99', 'HUF', 'en'))).to.equal('HUF 999,999,999,999.99');
  });

  it('hands the wallets the exact decimal string as the total, whatever Intl gives the currency', () => {
    const wallet = { merchantName: 'Test Shop A' } as Parameters<typeof paymentDetails>[1];
    const details = paymentDetails({ amount: '100.50', currency: 'HUF', brands: [], registrations: [], billing: [], createRegistration: false, overrideHolder: false }, wallet);
    expect(details.total).to.deep.equal({ label: 'Test Shop A', amount: { currency: 'HUF', value: '100.50' } });
  });
});
