// The response envelope every JSON answer carries, and the error envelope.
import { responseTimestamp } from '../clock.ts';
import type { Meta } from '../payments/response.ts';
import { catalogue, type ResultCode } from '../results.ts';
import type { ParamError } from './params.ts';

export function meta(buildNumber: string, now: Date): Meta {
  return { buildNumber, timestamp: responseTimestamp(now) };
}

export function errorBody(code: ResultCode, m: Meta, ndc: string, parameterErrors?: ParamError[]): Record<string, unknown> {
  return {
    result: { code, description: catalogue[code], ...(parameterErrors?.length ? { parameterErrors } : {}) },
    buildNumber: m.buildNumber,
    timestamp: m.timestamp,
    ndc,
  };
}

export interface Reply {
  status: number;
  body: Record<string, unknown>;
}
