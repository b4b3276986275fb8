// The parameters of a GET's query string, read as form bodies are (a name sent twice is an
// error, not a silent pick), without entityId, which names the caller.
import type { FastifyRequest } from 'fastify';
import type { Parsed, ValidationContext } from '../../schema/requests.ts';
import { parseForm, type Flat, type Nested, type ParamError } from '../params.ts';
import type { Gateway } from '../pipeline.ts';
import { invalidParams, parseBody } from './common.ts';

function queryParams(request: FastifyRequest): { params: Flat; errors: ParamError[] } {
  const at = request.url.indexOf('?');
  const { value, errors } = parseForm(at === -1 ? '' : request.url.slice(at + 1));
  delete value.entityId;
  return { params: value, errors: errors.filter((e) => e.name !== 'entityId') };
}

/** The query string read and parsed: the value, or the answer naming every bad parameter. */
export function parseQueryString<T>(g: Gateway, request: FastifyRequest, parse: (input: Nested, ctx: ValidationContext) => Parsed<T>): ReturnType<typeof parseBody<T>> {
  const query = queryParams(request);
  if (query.errors.length) return { ok: false, invalid: invalidParams(query.errors) };
  return parseBody(g, query.params, parse);
}
