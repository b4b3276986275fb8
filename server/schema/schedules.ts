// POST /scheduling/v1/schedules: a registration paid on a schedule (job.*, scheduling.ts). It
// carries what each firing's payment needs besides the registration, and never account data:
// no security code is sent, so none can be kept.
import { z } from 'zod';
import type { Nested } from '../http/params.ts';
import { basicFields, testMode } from './basic.ts';
import { codedPattern } from './common.ts';
import { customParameters } from './customParameters.ts';
import { paramError, type CodedParamError } from './errors.ts';
import { checkAmount, parseWith, type Parsed, type ValidationContext } from './requests.ts';
import { job, type Job } from './scheduling.ts';
import { ID } from '../ids.ts';

const registrationId = codedPattern(ID, 'must be 32 lowercase hexadecimal characters', '100.150.101').describe('The registration each firing pays with (id of POST /v1/registrations).');

export const scheduleRequest = z.strictObject({
  registrationId,
  paymentType: z.enum(['PA', 'DB'], { error: 'must be PA or DB for a schedule' }),
  amount: basicFields.amount,
  currency: basicFields.currency,
  descriptor: basicFields.descriptor,
  merchantTransactionId: basicFields.merchantTransactionId,
  merchantInvoiceId: basicFields.merchantInvoiceId,
  customParameters: customParameters.optional(),
  job: job.optional(),
  testMode: testMode.optional(),
});
export type ScheduleRequest = z.infer<typeof scheduleRequest>;

/** A number without its unit (or the reverse) says nothing: both, or neither. */
function checkPairs(j: Job | undefined): CodedParamError[] {
  const errors: CodedParamError[] = [];
  for (const [unit, number] of [['noticeUnit', 'noticeNumber'], ['durationUnit', 'durationNumber']] as const) {
    if (j?.[unit] !== undefined && j[number] === undefined) errors.push(paramError(`job.${number}`, undefined, `is required with job.${unit}`));
    if (j?.[number] !== undefined && j[unit] === undefined) errors.push(paramError(`job.${unit}`, undefined, `is required with job.${number}`));
  }
  return errors;
}

export function parseScheduleRequest(input: Nested, ctx: ValidationContext): Parsed<ScheduleRequest> {
  return parseWith(scheduleRequest, input, ctx, (v) => [...checkAmount(v.amount, v.currency), ...checkPairs(v.job)]);
}
