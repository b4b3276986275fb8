// Reporting parameters, in the spec's order: a period of days, and how to sort it.
import { z } from 'zod';
import { date, isCalendarDate, oneOf } from './common.ts';

export const reportingParameters = z
  .strictObject({
    date: z.strictObject({ from: date, to: date }),
    sortValue: oneOf(['SettlementTxDate']).optional(),
    sortOrder: oneOf(['ASC', 'DESC', 'asc', 'desc']).optional(),
  })
  .superRefine((r, ctx) => {
    // Only two real dates can be compared: a malformed date.from is named by itself, not through date.to.
    if (isCalendarDate(r.date.from) && isCalendarDate(r.date.to) && r.date.to < r.date.from) ctx.addIssue({ code: 'custom', path: ['date', 'to'], message: 'must not be before date.from' });
  });
export type ReportingParameters = z.infer<typeof reportingParameters>;
