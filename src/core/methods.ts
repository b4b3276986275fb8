// Which form takes a brand, and the brand's name as shoppers know it (the page script only).
import { CARD_BRANDS } from './brands.ts';

export type Method = 'saved' | 'card' | 'bank' | 'virtual' | 'wallet';

const METHODS: Record<string, Exclude<Method, 'saved'>> = {};
for (const brand of Object.values(CARD_BRANDS)) METHODS[brand] = 'card';
for (const brand of ['DIRECTDEBIT_SEPA', 'SEPA', 'DIRECTDEBIT']) METHODS[brand] = 'bank';
for (const brand of ['PAYPAL', 'ALIPAY', 'PAYDIREKT', 'TRUSTLY', 'KLARNA_PAYMENTS']) METHODS[brand] = 'virtual';
// Wallets are buttons of their own (widget/wallets/), not a choice of the method list.
for (const brand of ['APPLEPAY', 'GOOGLEPAY', 'SAMSUNGPAY']) METHODS[brand] = 'wallet';

/** The form a brand is paid with. */
export const methodOf = (brand: string): Exclude<Method, 'saved'> | undefined => METHODS[brand];

const NAMES: Readonly<Record<string, string>> = {
  MASTER: 'Mastercard',
  AMEX: 'American Express',
  DINERS: 'Diners Club',
  JCB: 'JCB',
  CHINAUNIONPAY: 'UnionPay',
  PAYPAL: 'PayPal',
  KLARNA_PAYMENTS: 'Klarna',
  APPLEPAY: 'Apple Pay',
  GOOGLEPAY: 'Google Pay',
  SAMSUNGPAY: 'Samsung Pay',
};

/** The brand's name as shoppers know it ("VISA" → "Visa", "MASTER" → "Mastercard"). */
export const brandName = (brand: string): string => NAMES[brand] ?? brand.charAt(0) + brand.slice(1).toLowerCase();
