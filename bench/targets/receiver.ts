// A merchant's webhook receiver for the bench: answers every POST with 200 at once and counts
// them (GET /count), in a process of its own so that it takes no CPU from the gateway or the
// load generator's event loop.
import Fastify from 'fastify';
import { serve } from './serve.ts';

let received = 0;
const app = Fastify({ logger: false });
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null));
app.post('/hook', async () => {
  received++;
  return '';
});
app.get('/count', async () => ({ received }));
await serve(app, () => app.close());
