// The query-string parameters of the transaction query and the settlement reports, parsed with
// the spec's schemas (chargebackQuery.ts, reporting.ts) into plain criteria for the domain.
import { z } from 'zod';
import type { Nested, ParamError } from '../http/params.ts';
import { chargebackQuery } from '../schema/chargebackQuery.ts';
import { paramError, type CodedParamError } from '../schema/errors.ts';
import { reportingParameters } from '../schema/reporting.ts';
import { parseWith, type Parsed, type ValidationContext } from '../schema/requests.ts';

export const DEFAULT_LIMIT = 100;
/** The longest period one aggregations request may span, in days (both ends included). */
export const MAX_REPORT_DAYS = 31;

export interface QueryCriteria {
  merchantTransactionId?: string;
  /** created_at from and to (epoch ms), both inclusive. */
  from?: number;
  to?: number;
  shortId?: string;
  paymentTypes?: string[];
  paymentMethods?: string[];
  chargebackResultCode?: string;
  limit: number;
  includeLinked: boolean;
}

export type SortOrder = 'ASC' | 'DESC';

export interface ReportPeriod {
  from: string;
  to: string;
  order: SortOrder;
}

/** yyyy-MM-dd HH:mm:ss, UTC, in epoch ms. */
const timestamp = (v: string) => Date.parse(`${v.replace(' ', 'T')}Z`);
const list = (v: string | undefined) => (v === undefined ? undefined : v.split(','));
const orderOf = (v: string | undefined): SortOrder => (v?.toUpperCase() === 'DESC' ? 'DESC' : 'ASC');

/** With every parse failure's errors, the ones this request adds (named once each). */
function withErrors<T>(parsed: Parsed<T>, extra: CodedParamError[]): Parsed<T> {
  if (!extra.length) return parsed;
  const base = parsed.ok ? { code: '200.300.404' as const, parameterErrors: [] } : parsed.failure;
  const named = new Set(base.parameterErrors.map((e) => e.name));
  const added = extra.filter((e) => !named.has(e.name)).map(({ name, value, message }) => ({ name, value, message }));
  return { ok: false, failure: { ...base, parameterErrors: [...base.parameterErrors, ...added] } };
}

/**
 * GET /v1/query: a search by merchantTransactionId, by a date.from/date.to time frame, by
 * shortId or by chargebackResultCode, narrowed by the other parameters. merchantTransactionId
 * with a time frame is refused naming all three parameters.
 */
export function parseQuery(input: Nested, ctx: ValidationContext): Parsed<QueryCriteria> {
  const parsed = parseWith(chargebackQuery, input, ctx, () => []);
  const date = input.date as Nested | undefined;
  const sent = (name: string) => input[name] !== undefined;
  const extra: CodedParamError[] = [];
  if (sent('merchantTransactionId') && date !== undefined && typeof date === 'object') {
    for (const end of ['from', 'to'] as const) {
      if (date[end] !== undefined) extra.push(paramError(`date.${end}`, String(date[end]), 'cannot be combined with merchantTransactionId', '200.300.404'));
    }
  }
  if (!sent('merchantTransactionId') && date === undefined && !sent('shortId') && !sent('chargebackResultCode')) {
    extra.push(paramError('merchantTransactionId', undefined, 'is required: send merchantTransactionId, a time frame (date.from and date.to), shortId or chargebackResultCode', '200.300.404'));
  }
  const checked = withErrors(parsed, extra);
  if (!checked.ok) return checked;
  const q = checked.value;
  return {
    ok: true,
    value: {
      merchantTransactionId: q.merchantTransactionId,
      from: q.date?.from === undefined ? undefined : timestamp(q.date.from),
      // The whole last second is in the frame.
      to: q.date?.to === undefined ? undefined : timestamp(q.date.to) + 999,
      shortId: q.shortId,
      paymentTypes: list(q.paymentTypes),
      paymentMethods: list(q.paymentMethods),
      chargebackResultCode: q.chargebackResultCode,
      limit: q.limit === undefined ? DEFAULT_LIMIT : Number(q.limit),
      includeLinked: q.includeLinkedTransactions === 'true',
    },
  };
}

const readOne = z.strictObject({ includeLinkedTransactions: chargebackQuery.shape.includeLinkedTransactions });

/** GET /v1/query/{id}: includeLinkedTransactions only. */
export function parseQueryOne(input: Nested, ctx: ValidationContext): Parsed<{ includeLinked: boolean }> {
  const parsed = parseWith(readOne, input, ctx, () => []);
  return parsed.ok ? { ok: true, value: { includeLinked: parsed.value.includeLinkedTransactions === 'true' } } : parsed;
}

/** GET /reports/v1/reconciliations/aggregations: the reporting parameters, a period of at most MAX_REPORT_DAYS. */
export function parseReportPeriod(input: Nested, ctx: ValidationContext): Parsed<ReportPeriod> {
  const parsed = parseWith(reportingParameters, input, ctx, (r) => {
    // Also called with the well-formed part of a request that failed elsewhere: the period may be missing.
    if (r.date?.from === undefined || r.date.to === undefined) return [];
    const days = (Date.parse(r.date.to) - Date.parse(r.date.from)) / 86_400_000 + 1;
    return days > MAX_REPORT_DAYS ? [paramError('date.to', r.date.to, `must be within ${MAX_REPORT_DAYS} days of date.from (both days count)`, '200.300.404')] : [];
  });
  if (!parsed.ok) {
    // Without any date zod names the group; the request lacks two parameters, named as sent.
    const named = (e: ParamError) => (e.name === 'date' && input.date === undefined ? (['from', 'to'] as const).map((end) => paramError(`date.${end}`, undefined, 'is required: a date yyyy-MM-dd')) : [e]);
    const parameterErrors = parsed.failure.parameterErrors.flatMap(named).map(({ name, value, message }) => ({ name, value, message }));
    return { ok: false, failure: { ...parsed.failure, parameterErrors } };
  }
  return { ok: true, value: { from: parsed.value.date.from, to: parsed.value.date.to, order: orderOf(parsed.value.sortOrder) } };
}

const sorting = z.strictObject({ sortValue: reportingParameters.shape.sortValue, sortOrder: reportingParameters.shape.sortOrder });

/** GET /reports/v1/reconciliations/aggregations/{id}: sortValue and sortOrder only. */
export function parseReportSort(input: Nested, ctx: ValidationContext): Parsed<{ order: SortOrder }> {
  const parsed = parseWith(sorting, input, ctx, () => []);
  return parsed.ok ? { ok: true, value: { order: orderOf(parsed.value.sortOrder) } } : parsed;
}
