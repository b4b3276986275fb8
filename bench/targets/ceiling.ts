// The ceiling: a bare Fastify server with one form-urlencoded POST route on the gateway's path,
// reading the body with the gateway's own form reader (server/http/params.ts) and answering a
// small JSON. Nothing the gateway does can be faster than this on the same machine; sent the
// full card debit, it is the floor of what reading that body alone costs.
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { parseForm } from '../../server/http/params.ts';
import { serve } from './serve.ts';

const app = Fastify({ logger: false });
app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
  done(null, parseForm(body as string).value);
});
app.post('/v1/payments', async (request) => {
  const params = request.body as Record<string, string>;
  return {
    id: randomBytes(16).toString('hex'),
    amount: params.amount,
    currency: params.currency,
    result: { code: '000.100.110', description: "Request successfully processed in 'Merchant in Integrator Test Mode'" },
  };
});
await serve(app, () => app.close());
