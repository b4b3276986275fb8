// GET /v1/openapi.json: the OpenAPI 3.1 document, built once when the app starts (the schemas do
// not change while it runs), public, CORS for any origin so that API tools in a browser can load it.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { openapiDocument } from '../openapi.ts';
import type { Gateway } from '../pipeline.ts';
import { methods } from './common.ts';
import { notModified } from '../conditional.ts';

export function openapiRoutes(app: FastifyInstance, g: Gateway) {
  const body = JSON.stringify(openapiDocument({ env: g.deps.env }));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  methods(app, g, '/v1/openapi.json', {
    GET: async (request, reply) => {
      reply.headers({
        'content-type': 'application/json; charset=utf-8',
        'access-control-allow-origin': '*',
        'cache-control': 'public, max-age=300',
        etag,
      });
      if (notModified(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.code(200).send(body);
    },
  });
}
