// Validation failures as values: every failing parameter named as it was sent, with the most
// specific catalogue code for the failure (account, amount, contact, or generic 200.300.404).
import type { z } from 'zod';
import { flatName, type Nested, type ParamError } from '../http/params.ts';
import type { ResultCode } from '../results.ts';

export interface CodedParamError extends ParamError {
  code: ResultCode;
}

export interface ValidationFailure {
  code: ResultCode;
  parameterErrors: ParamError[];
}

/** [pattern of the flat name, code when missing, code when invalid] */
const CODES: Array<[RegExp, ResultCode, ResultCode]> = [
  [/^card\.number$/, '100.100.100', '100.100.101'],
  [/^card\.expiryMonth$/, '100.100.200', '100.100.201'],
  [/^card\.expiryYear$/, '100.100.300', '100.100.301'],
  [/^card\.holder$/, '100.100.400', '100.100.402'],
  [/^card\.cvv$/, '100.100.601', '100.100.601'],
  [/^bankAccount\.holder$/, '100.100.400', '100.100.401'],
  [/^bankAccount\.(number|iban)$/, '100.100.100', '100.100.101'],
  [/^bankAccount\.(bic|bankCode)$/, '100.200.103', '100.200.103'],
  [/^bankAccount\.country$/, '100.200.100', '100.200.100'],
  [/^(virtualAccount|tokenAccount)\./, '100.100.100', '100.100.101'],
  [/^paymentBrand$/, '100.100.500', '100.100.501'],
  [/^paymentType$/, '200.300.404', '600.200.300'],
  [/^amount$/, '100.550.300', '100.550.303'],
  [/^currency$/, '100.550.400', '100.550.401'],
  [/^customer\.surname$/, '100.700.100', '100.700.100'],
  [/^customer\.givenName$/, '100.700.200', '100.700.200'],
  [/^customer\.identificationDocType$/, '100.700.800', '100.700.800'],
  [/^customer\.identificationDocId$/, '100.700.801', '100.700.801'],
  [/(^|\.)email$/, '100.900.101', '100.900.101'],
  [/(^|\.)(phone|mobile|workPhone)$/, '100.900.200', '100.900.200'],
  [/^testMode$/, '600.200.701', '200.300.404'],
];

const SECRET = /(^|\.)(number|cvv|cryptogram|dtvc|pin|paymentToken|data|ksn)$/;

/** Card numbers, security codes and similar secrets never travel back, even inside an error. */
export function maskValue(name: string, value: string): string {
  if (!SECRET.test(name) || name.startsWith('bankAccount.')) return value;
  if (/^card\.number$|^tokenAccount\.number$/.test(name) && value.length > 4) return '*'.repeat(value.length - 4) + value.slice(-4);
  return '*'.repeat(value.length);
}

export function codeFor(name: string, missing: boolean): ResultCode {
  for (const [pattern, ifMissing, ifInvalid] of CODES) if (pattern.test(name)) return missing ? ifMissing : ifInvalid;
  return '200.300.404';
}

export function paramError(name: string, value: string | undefined, message: string, code?: ResultCode): CodedParamError {
  return {
    name,
    value: value === undefined ? '' : maskValue(name, value),
    message: `${name} ${message}`,
    code: code ?? codeFor(name, value === undefined),
  };
}

function valueAt(root: Nested, path: readonly PropertyKey[]): unknown {
  let node: unknown = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key as string];
  }
  return node;
}

/** Every string under a value, with its path: an unknown group is reported parameter by parameter. */
function leaves(value: unknown, path: PropertyKey[]): Array<[PropertyKey[], string]> {
  if (typeof value === 'string') return [[path, value]];
  if (value === null || typeof value !== 'object') return [[path, '']];
  return Object.entries(value).flatMap(([key, child]) => leaves(child, [...path, Array.isArray(value) ? Number(key) : key]));
}

/** zod issues as named parameter errors; unknown keys are named one by one. */
export function fromZod(error: z.ZodError, input: Nested): CodedParamError[] {
  const out: CodedParamError[] = [];
  const named = new Set<string>();
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        for (const [path, value] of leaves(valueAt(input, [...issue.path, key]), [...issue.path, key])) {
          out.push(paramError(flatName(path), value, 'is not a parameter of this request', '200.300.404'));
        }
      }
      continue;
    }
    const name = flatName(issue.path);
    // One message per parameter: the first check it failed.
    if (named.has(name)) continue;
    named.add(name);
    const raw = valueAt(input, issue.path);
    const code = (issue as { params?: { code?: ResultCode } }).params?.code;
    if (raw === undefined) {
      out.push(paramError(name, undefined, 'is required', code));
    } else if (typeof raw !== 'string') {
      out.push(paramError(name, '', 'must be a single value, not a group', code));
    } else {
      out.push(paramError(name, raw, issue.message, code));
    }
  }
  return out;
}

/** One failure for the whole request: the first specific code wins over the generic one. */
export function failure(errors: CodedParamError[]): ValidationFailure {
  const specific = errors.find((e) => e.code !== '200.300.404');
  return {
    code: specific?.code ?? '200.300.404',
    parameterErrors: errors.map(({ name, value, message }) => ({ name, value, message })),
  };
}
