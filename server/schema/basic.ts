// Basic payment request fields and forex, in the spec's order.
import { z } from 'zod';
import { amount, an, chars, currency, lettersDigits, mainAmount, oneOf, storedAn } from './common.ts';
import { paramError, type CodedParamError } from './errors.ts';

export const paymentTypes = ['PA', 'DB', 'CD', 'CP', 'RV', 'RF', 'RB'] as const;
export type PaymentType = (typeof paymentTypes)[number];

export const basicFields = {
  amount: mainAmount,
  taxAmount: amount().optional(),
  discountAmount: amount().optional(),
  currency,
  paymentBrand: chars(/^[A-Za-z0-9_]*$/, 'letters, digits and underscores', 32).optional(),
  paymentType: oneOf(paymentTypes),
  descriptor: an(127).optional(),
  merchantTransactionId: storedAn(255, 8).optional(),
  merchantInvoiceId: an(255, 8).optional(),
  merchantMemo: an(255, 8).optional(),
  transactionCategory: oneOf(['EC', 'MO', 'TO', 'PO', 'PM', 'MOTO']).optional(),
  sequence: oneOf(['FINAL']).optional(),
  numberOfCaptures: z
    .string()
    .regex(/^(0?[1-9]|[1-8]\d|9[0-8])$/, 'must be a number from 1 to 98')
    .optional(),
  promotionCode: lettersDigits(15).optional(),
  locale: an(10).optional(),
  transactionPurposeCode: an(12).optional(),
  integrationType: an(10).optional(),
  transactionBai: an(2).optional(),
  transactionTti: an(3).optional(),
  transactionProcessingCode: oneOf(['PURCHASE', 'FUNDING', 'PAYMENT']).optional(),
  lifecycleId: an(35).optional(),
  referenceUuid: lettersDigits(32).optional(),
  transactionPurposeAccount: an(255).optional(),
};

/** Recipients' countries (recipient.country, ISO alpha-3) whose schemes want the purpose of a funding or payout transfer. */
export const PURPOSE_CODE_COUNTRIES = new Set(['ARG', 'BGD', 'CHL', 'COL', 'EGY', 'IND']);

/** The spec's transactionPurposeCode note: it "must be included for scheme funding/payout transfers to recipients in" those countries. */
export function checkPurposeCode(v: { transactionProcessingCode?: string | undefined; transactionPurposeCode?: string | undefined; recipient?: { country?: string | undefined } | undefined }): CodedParamError[] {
  const transfer = v.transactionProcessingCode === 'FUNDING' || v.transactionProcessingCode === 'PAYMENT';
  const country = v.recipient?.country;
  if (!transfer || !country || !PURPOSE_CODE_COUNTRIES.has(country) || v.transactionPurposeCode !== undefined) return [];
  return [paramError('transactionPurposeCode', undefined, `is required for a ${v.transactionProcessingCode} transfer to a recipient in ${country}`)];
}

export const forex = z.strictObject({
  amount: amount().optional(),
  currency: currency.optional(),
  tax: amount().optional(),
});

// Which environment's simulator answers; refused altogether in live (600.200.701).
export const testMode = oneOf(['EXTERNAL', 'INTERNAL']);

