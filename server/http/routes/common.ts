import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { newNdc } from '../../ids.ts';
import type { Invalid } from '../../payments/deps.ts';
import { failure, paramError } from '../../schema/errors.ts';
import type { Parsed, ValidationContext } from '../../schema/requests.ts';
import { errorBody, meta } from '../envelope.ts';
import { nest, type Flat, type Nested, type ParamError } from '../params.ts';
import type { Gateway } from '../pipeline.ts';

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/** Every method Fastify routes (OPTIONS, TRACE …): on a known path each is 405, not 404. HEAD comes with GET. */
const routable = (app: FastifyInstance) => app.supportedMethods.filter((method) => method !== 'HEAD' && method !== 'CONNECT') as HTTPMethods[];

/** Each gateway's paths and the methods they answer, as registered: the OpenAPI document is held against them (test/api/openapi.test.ts). */
const registered = new WeakMap<Gateway, Map<string, string[]>>();

/** The paths (Fastify form, /v1/payments/:id) and their methods that methods() registered for this gateway. */
export function registeredRoutes(g: Gateway): ReadonlyMap<string, readonly string[]> {
  return registered.get(g) ?? new Map();
}

/**
 * Register a path's handlers; any other method on it answers 200.300.403 (invalid HTTP method)
 * with the methods it takes in Allow. OPTIONS is a CORS preflight's, not an operation of the API.
 */
export function methods(app: FastifyInstance, g: Gateway, url: string, handlers: Partial<Record<'GET' | 'POST' | 'DELETE' | 'OPTIONS', Handler>>) {
  for (const [method, handler] of Object.entries(handlers)) app.route({ method: method as HTTPMethods, url, handler });
  const operations = Object.keys(handlers).filter((m) => m !== 'OPTIONS');
  if (!registered.has(g)) registered.set(g, new Map());
  registered.get(g)!.set(url, operations);
  const taken = Object.keys(handlers);
  const allowed = taken.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]));
  const others = routable(app).filter((m) => !taken.includes(m));
  app.route({
    method: others,
    url,
    handler: async (request, reply) =>
      reply
        .code(405)
        .header('allow', allowed.join(', '))
        .send(
          errorBody('200.300.403', meta(g.buildNumber, g.deps.clock()), newNdc(), [
            { name: 'method', value: request.method, message: `${request.method} is not supported here; use ${allowed.join(' or ')}` },
          ]),
        ),
  });
}

/** A CORS preflight of a public file, read without credentials: any origin may GET it, with any header it likes to send. */
export const publicFilePreflight: Handler = async (_request, reply) =>
  reply.code(204).headers({ 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, HEAD', 'access-control-allow-headers': '*', 'access-control-max-age': '600' }).send();

export function invalidParams(errors: ParamError[]): Invalid {
  return { kind: 'invalid', failure: failure(errors.map((e) => paramError(e.name, e.value, e.message.slice(e.name.length + 1)))) };
}

/** Nest a request's flat parameters and parse them: the value, or the answer naming every bad one. */
export function parseBody<T>(g: Gateway, params: Flat, parse: (input: Nested, ctx: ValidationContext) => Parsed<T>): { ok: true; value: T } | { ok: false; invalid: Invalid } {
  const nested = nest(params);
  if (nested.errors.length) return { ok: false, invalid: invalidParams(nested.errors) };
  const parsed = parse(nested.value, { env: g.deps.env, now: g.deps.clock() });
  return parsed.ok ? parsed : { ok: false, invalid: { kind: 'invalid', failure: parsed.failure } };
}
