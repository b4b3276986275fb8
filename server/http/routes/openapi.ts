// GET /v1/openapi.json: the OpenAPI 3.1 document, built once when the app starts (the schemas do
// not change while it runs), public, CORS for any origin so that API tools in a browser can load it.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { openapiDocument } from '../openapi.ts';
import type { Gateway } from '../pipeline.ts';
import { methods, publicFilePreflight } from './common.ts';
import { sendStatic, type StaticContent } from '../staticAnswer.ts';

export function openapiRoutes(app: FastifyInstance, g: Gateway) {
  const bytes = Buffer.from(JSON.stringify(openapiDocument({ env: g.deps.env })));
  // 770 kB as JSON, about 80 kB gzipped on first ask.
  const document: StaticContent = { bytes, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"` };
  methods(app, g, '/v1/openapi.json', {
    GET: async (request, reply) =>
      sendStatic(request, reply, document, { 'content-type': 'application/json; charset=utf-8', 'access-control-allow-origin': '*', 'cache-control': 'public, max-age=300' }),
    OPTIONS: publicFilePreflight,
  });
}
