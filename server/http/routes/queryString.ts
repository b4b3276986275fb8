// The parameters of a GET's query string, read as form bodies are (a name sent twice is an
// error, not a silent pick), without entityId, which names the caller.
import type { FastifyRequest } from 'fastify';
import { parseForm, type Flat, type ParamError } from '../params.ts';

export function queryParams(request: FastifyRequest): { params: Flat; errors: ParamError[] } {
  const at = request.url.indexOf('?');
  const { value, errors } = parseForm(at === -1 ? '' : request.url.slice(at + 1));
  delete value.entityId;
  return { params: value, errors: errors.filter((e) => e.name !== 'entityId') };
}
