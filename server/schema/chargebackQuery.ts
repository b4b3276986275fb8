// Chargeback and query parameters, in the spec's order.
import { z } from 'zod';
import { an, bool, dateTime, storedAn } from './common.ts';

/** Chargeback reasons: 000.100.2 followed by two digits. */
export const chargebackResultCode = z.string().regex(/^000\.100\.2\d{2}$/, 'must be 000.100.2 followed by two digits, such as 000.100.201');

export const queryPaymentTypes = [
  'CB', 'CD', 'CR', 'DB', 'CP', 'IV', 'PA', 'RB', 'RC', 'RF', 'RL', 'RV', 'AD', 'IN', 'FI', 'CL', 'CF', 'DR', 'RG', 'RR', 'TE',
  'CT', 'DS', 'RS', 'SD', 'AC', 'MD', 'EA', 'RI', '3D', 'SA', 'EN', 'ID', 'IC', 'DP', 'CG', 'TG', 'SF', 'IS', 'VD', 'DV', 'AF',
  'GK', 'RD', 'TM', 'FT', 'KT', 'AR', 'AL', 'PL', 'FN', 'FZ', 'RE', 'RX', 'FO', 'CS', 'EX', 'SE', 'AU', 'TK', 'TF', 'ER',
] as const;
export const queryPaymentMethods = ['DD', 'CT', 'CC', 'WA', 'VA', 'UA', 'OT', 'DC', 'ET', 'NT', 'IV', 'PP', 'OD', 'RM'] as const;

/**
 * A comma-separated list of codes, each one of `codes` (DB,PA); no empty entries, no spaces. The
 * list is a pattern (for the OpenAPI document too); its message names the codes that are not known.
 */
const codeList = (codes: readonly string[], what: string) => {
  const known = new Set(codes);
  const code = `(?:${codes.join('|')})`;
  return z
    .string()
    .regex(new RegExp(`^${code}(?:,${code})*$`), {
      error: (issue) => {
        const unknown = String(issue.input).split(',').filter((c) => !known.has(c));
        return `must be a comma-separated list of ${codes.join(', ')}; not a code: ${unknown.map((c) => `'${c}'`).join(', ')}`;
      },
    })
    .describe(`Comma-separated ${what} codes, each one of ${codes.join(', ')}.`);
};

export const chargebackQuery = z
  .strictObject({
    chargebackResultCode: chargebackResultCode.optional(),
    merchantTransactionId: storedAn(255).optional(),
    limit: z.string().regex(/^([1-4]\d{2}|500)$/, 'must be a whole number from 100 to 500').optional(),
    date: z.strictObject({ from: dateTime.optional(), to: dateTime.optional() }).optional(),
    paymentTypes: codeList(queryPaymentTypes, 'payment type').optional(),
    paymentMethods: codeList(queryPaymentMethods, 'payment method').optional(),
    includeLinkedTransactions: bool.optional(),
    shortId: an(14).optional(),
  })
  .superRefine((q, ctx) => {
    const { from, to } = q.date ?? {};
    if (from !== undefined && to === undefined) ctx.addIssue({ code: 'custom', path: ['date', 'from'], message: 'must be sent together with date.to' });
    if (to !== undefined && from === undefined) ctx.addIssue({ code: 'custom', path: ['date', 'to'], message: 'must be sent together with date.from' });
    // Only two real timestamps can be compared: a malformed date.from is named by itself, not through date.to.
    if (from !== undefined && to !== undefined && dateTime.safeParse(from).success && dateTime.safeParse(to).success && to < from) ctx.addIssue({ code: 'custom', path: ['date', 'to'], message: 'must not be before date.from' });
    if (q.merchantTransactionId !== undefined && (from !== undefined || to !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['merchantTransactionId'], message: 'cannot be combined with a date.from/date.to time frame' });
    }
  });
export type ChargebackQuery = z.infer<typeof chargebackQuery>;
