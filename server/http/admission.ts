// How much work the gateway takes on at once. Past it a request is refused at once with 503 and
// the try-later envelope (800.120.100, Retry-After), to be sent again or to another process,
// instead of waiting behind everything already taken: without a bound every request that came was
// worked on together, so each one's answer took as long as all of them (tens of seconds at a few
// thousand at once), and the memory of their bodies, parsed, had no end but the heap's.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { newNdc } from '../ids.ts';
import { meta, TRY_LATER_HEADERS, tryLaterBody } from './envelope.ts';
import type { Gateway } from './pipeline.ts';
import { isHealthCheck } from './routes/health.ts';

/** MAX_IN_FLIGHT's default: requests worked on at once. */
export const DEFAULT_MAX_IN_FLIGHT = 1000;

/**
 * Body bytes in flight per request the bound allows (8 KiB): a card debit is 1 to 6 KB, so the count
 * bounds ordinary requests, and large bodies (up to 1 MiB; one of 400 KB, a thousand cart items, costs
 * about 20 ms to read and check) are bounded by their bytes: 8 MiB of them by default.
 */
export const BYTES_PER_REQUEST = 8 * 1024;

/** What a body parser leaves when the gateway is full: the body is not parsed, the request is refused before validation. */
export const REFUSED = Object.freeze({ refused: true });

/** The body parsers' side of admission. */
export interface Gate {
  /**
   * A body of `bytes` was read for `raw`: false when the gateway is full for it, and then the
   * parser leaves REFUSED instead of parsing it (a 400 KB form is 10 ms of parsing, wasted on a
   * request refused after).
   */
  readBody(raw: object, bytes: number): boolean;
}

/**
 * Admits at most `maxInFlight` requests at once, whose bodies together hold at most
 * `maxInFlight` × BYTES_PER_REQUEST (one request alone is always admitted, whatever its size).
 * A request counts once its body is read, until its answer is sent or its client is gone: a body
 * still on its way costs no work yet, so clients trickling bodies (the 30 s requestTimeout ends
 * them) cannot hold the gateway's places. A request is refused as soon as it is known not to fit:
 * when it comes (by its Content-Length), when its body is read (before it is parsed), or before
 * validation. The health checks are never refused: a load balancer must still hear that the
 * process is alive.
 */
export function admission(app: FastifyInstance, g: Gateway, maxInFlight: number): Gate {
  const maxBytes = maxInFlight * BYTES_PER_REQUEST;
  let requests = 0;
  let bytes = 0;
  /** The size of each request's body as its parser read it (a chunked body states none). */
  const bodyBytes = new WeakMap<object, number>();
  const full = (more: number) => requests >= maxInFlight || (requests > 0 && bytes + more > maxBytes);
  const tryLater = (reply: FastifyReply) => reply.code(503).headers(TRY_LATER_HEADERS).send(tryLaterBody(meta(g.buildNumber, g.deps.clock()), newNdc(), g.deps.newId()));
  const exempt = (request: FastifyRequest) => isHealthCheck(request.url);
  const declared = (request: FastifyRequest) => Number(request.headers['content-length']) || 0;

  app.addHook('onRequest', async (request, reply) => {
    if (!exempt(request) && full(declared(request))) return tryLater(reply);
  });
  app.addHook('preValidation', async (request, reply) => {
    if (exempt(request)) return;
    const size = bodyBytes.get(request.raw) ?? declared(request);
    if (request.body === REFUSED || full(size)) return tryLater(reply);
    requests++;
    bytes += size;
    // 'close' comes once per answer: when it was sent, or when its connection ended first.
    reply.raw.once('close', () => {
      requests--;
      bytes -= size;
    });
  });
  return {
    readBody(raw, size) {
      bodyBytes.set(raw, size);
      return !full(size);
    },
  };
}
