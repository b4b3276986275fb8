// The response envelope every JSON answer carries, and the error envelope.
import { responseTimestamp } from '../clock.ts';
import type { Meta } from '../payments/response.ts';
import { catalogue, type ResultCode } from '../results.ts';
import { maskCardNumbers, maskValue } from '../schema/errors.ts';
import type { ParamError } from './params.ts';

export function meta(buildNumber: string, now: Date): Meta {
  return { buildNumber, timestamp: responseTimestamp(now) };
}

/** The most parameter errors one answer lists: more only makes a junk body's answer larger than the body. */
export const MAX_PARAMETER_ERRORS = 1000;

/**
 * Every parameter error leaves through here: secrets and card numbers masked whatever produced
 * the error (a card number sent as a name too, in the name and the message naming it), and at most MAX_PARAMETER_ERRORS of them, the last saying how many more failed.
 */
function outgoing(errors: ParamError[]): ParamError[] {
  const listed = errors.length > MAX_PARAMETER_ERRORS ? errors.slice(0, MAX_PARAMETER_ERRORS - 1) : errors;
  const masked = listed.map((e) => ({ name: maskCardNumbers(e.name), value: maskValue(e.name, e.value), message: maskCardNumbers(e.message) }));
  if (listed.length === errors.length) return masked;
  const more = errors.length - listed.length;
  return [...masked, { name: 'parameters', value: '', message: `parameters: ${more} more parameter errors are not listed` }];
}

export function errorBody(code: ResultCode, m: Meta, ndc: string, parameterErrors?: ParamError[]): Record<string, unknown> {
  return {
    result: { code, description: catalogue[code], ...(parameterErrors?.length ? { parameterErrors: outgoing(parameterErrors) } : {}) },
    buildNumber: m.buildNumber,
    timestamp: m.timestamp,
    ndc,
  };
}

/** Headers of every try-later answer: counters run per second, so the next second is the earliest a retry can pass; never cached. */
export const TRY_LATER_HEADERS = { 'retry-after': '1', 'cache-control': 'no-store' };

/** 800.120.100, try later: throttled (429) or stopping (503); the spec gives it exactly these five fields. */
export function tryLaterBody(m: Meta, ndc: string, id: string): Record<string, unknown> {
  return { buildNumber: m.buildNumber, id, ndc, result: { code: '800.120.100', description: catalogue['800.120.100'] }, timestamp: m.timestamp };
}

export interface Reply {
  status: number;
  body: Record<string, unknown>;
}
