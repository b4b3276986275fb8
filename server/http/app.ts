// The gateway's HTTP face: body parsers, routes, the envelope for errors and unknown paths.
import { isUtf8 } from 'node:buffer';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import multipart from '@fastify/multipart';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { newNdc } from '../ids.ts';
import { admission, DEFAULT_MAX_IN_FLIGHT, REFUSED } from './admission.ts';
import { errorBody, meta, TRY_LATER_HEADERS, tryLaterBody } from './envelope.ts';
import { loggerOptions } from './log.ts';
import { VALID_HOST } from './pages.ts';
import { parseForm, readJson, type Flat, type ParamError } from './params.ts';
import { headerProblem } from './requestHeaders.ts';
import type { Gateway, ParsedBody } from './pipeline.ts';
import { checkoutRoutes } from './routes/checkouts.ts';
import { healthRoutes, isHealthCheck } from './routes/health.ts';
import { openapiRoutes } from './routes/openapi.ts';
import { paymentRoutes } from './routes/payments.ts';
import { queryRoutes } from './routes/query.ts';
import { registrationRoutes } from './routes/registrations.ts';
import { reportRoutes } from './routes/reports.ts';
import { resultCodeRoutes } from './routes/resultCodes.ts';
import { scheduleRoutes } from './routes/schedules.ts';
import { threedsRoutes } from './routes/threeds.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { widgetRoutes } from './routes/widget.ts';

/** The largest request body read, whatever its type. */
const BODY_LIMIT = 1024 * 1024;

export interface AppOptions {
  logLevel?: string;
  /** Settings.trustProxy: the proxies whose X-Forwarded-* headers give the shopper's address. */
  trustProxy?: string[];
  /** A logger to write to instead of stdout (tests capture it). */
  logger?: Logger;
  /** Settings.maxInFlight: requests worked on at once, past which the gateway answers 503 (admission.ts). */
  maxInFlight?: number;
}

export async function buildApp(g: Gateway, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: loggerOptions(options.logLevel ?? 'info') }),
    // One line per request, written by our onResponse hook, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // No pino child per request: with the redaction paths, making one costs about 4 µs (a few per
    // cent of a card debit) and only adds reqId, which the lines written here name themselves.
    childLoggerFactory: (logger) => logger,
    bodyLimit: BODY_LIMIT,
    // A request must have arrived whole within 30 s: a body trickled a byte at a time would hold
    // its connection (and a stopping process) for good. Node's own default is 5 minutes; Fastify's none.
    requestTimeout: 30_000,
    // Node looks for requests past their time every 30 s by default, which let one live up to 60 s.
    http: { connectionsCheckingInterval: 2_000 },
    // A request that comes while the gateway stops is refused by the hook below, in the gateway's envelope.
    return503OnClosing: false,
    // What Node's parser refuses before any route (a malformed request line, a header too large, a
    // request too slow) is answered in the gateway's envelope too, naming what was wrong.
    clientErrorHandler: (error: Error & { code?: string }, socket: Duplex) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const { status, error: refused } = clientError(error.code);
      if (socket.writable) socket.write(clientErrorAnswer(status, errorBody('200.300.404', meta(g.buildNumber, g.deps.clock()), newNdc(), [refused])));
      socket.destroy(error);
    },
    ...(options.trustProxy !== undefined && { trustProxy: options.trustProxy }),
    // Paths the router cannot read (bad percent-encoding, a segment above 100 characters) get the
    // gateway's envelope too, not Fastify's own body: no id that long exists, so that one is a 404.
    frameworkErrors: (error: Error & { code?: string }, _request: FastifyRequest, reply: FastifyReply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      return reply
        .code(tooLong ? 404 : 400)
        .send(errorBody('200.300.404', meta(g.buildNumber, g.deps.clock()), newNdc(), [{ name: 'path', value: '', message: tooLong ? 'names no resource' : 'is not a valid URL path' }]));
    },
  }) as unknown as FastifyInstance;

  // Stopping: answers still given (in flight, or pipelined behind them) end their connection, so
  // that a client keeping it alive does not hold the process open until its keep-alive runs out.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  const live = g.deps.env === 'live';
  app.addHook('onSend', async (request, reply) => {
    // Every answer is what its Content-Type says: no browser guesses a script out of a JSON error.
    reply.header('x-content-type-options', 'nosniff');
    // A browser that met the live gateway over TLS never comes back to it in clear.
    if (live && request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000');
    if (closing) reply.header('connection', 'close');
  });
  // A request that comes on a connection opened before the stop (a load balancer's pool) is
  // refused, to be sent again to another process: the catalogue's "try later" code.
  app.addHook('onRequest', async (request, reply) => {
    // The readiness check says itself that the process is stopping (routes/health.ts).
    if (!closing || isHealthCheck(request.url)) return;
    return reply.code(503).headers(TRY_LATER_HEADERS).send(tryLaterBody(meta(g.buildNumber, g.deps.clock()), newNdc(), g.deps.newId()));
  });
  // Requests past what the gateway works on at once are refused the same way, not queued.
  const gate = admission(app, g, options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);

  // Fastify reads text/plain by default; this gateway takes no such body (it would be ignored unread).
  app.removeContentTypeParser('text/plain');
  // Bodies are read as bytes: whether they are valid UTF-8 is known only before decoding (which
  // turns bad bytes into U+FFFD, indistinguishable from the character sent as such).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (request, body, done) => {
    if (!gate.readBody(request.raw, (body as Buffer).length)) return done(null, REFUSED);
    const { value, errors } = parseForm((body as Buffer).toString('utf8'), !isUtf8(body as Buffer));
    done(null, { params: value, errors } satisfies ParsedBody);
  });
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    if (!gate.readBody(request.raw, (body as Buffer).length)) return done(null, REFUSED);
    const { value, errors } = readJson((body as Buffer).toString('utf8'), !isUtf8(body as Buffer));
    done(null, { params: value, errors } satisfies ParsedBody);
  });
  // Every part is read as bytes (busboy's "file"), as form and JSON bodies are: a text field would
  // be decoded by busboy first, by the charset its part names or as UTF-8, bad bytes becoming U+FFFD.
  await app.register(multipart, { attachFieldsToBody: true, isPartAFile: () => true, limits: { fileSize: BODY_LIMIT } });
  // Fastify's bodyLimit does not reach the multipart reader, which would hold any body in memory:
  // a multipart body must state its length (every browser's and client's FormData does), at most 1 MiB.
  app.addHook('onRequest', async (request) => {
    if (!request.headers['content-type']?.toLowerCase().startsWith('multipart/')) return;
    const length = request.headers['content-length'];
    if (length === undefined) throw Object.assign(new Error('multipart without Content-Length'), { statusCode: 411, code: 'PW_MULTIPART_LENGTH' });
    if (Number(length) > BODY_LIMIT) throw Object.assign(new Error('body too large'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
  });
  // Multipart requests whose body was read; an error on any other one came from reading it.
  const multipartRead = new WeakSet<object>();
  app.addHook('preHandler', async (request) => {
    if (!request.isMultipart()) return;
    const parts = (request.body ?? {}) as Record<string, MultipartPart | MultipartPart[]>;
    const params: Flat = {};
    const errors: ParsedBody['errors'] = [];
    for (const [name, part] of Object.entries(parts)) {
      // A text field is a part with no file name and no type but text/plain (browsers send none).
      if (Array.isArray(part) || part.filename !== undefined || part.mimetype !== 'text/plain') {
        errors.push({ name, value: '', message: `${name} must be sent once, as a text field` });
        continue;
      }
      // Its bytes are UTF-8 whatever charset the part names (the spec: data is sent as UTF-8).
      const bytes = part._buf ?? Buffer.alloc(0);
      const value = bytes.toString('utf8');
      if (isUtf8(bytes)) params[name] = value;
      else errors.push({ name, value, message: `${name} is not UTF-8: a multipart body's text fields are UTF-8` });
    }
    request.body = { params, errors } satisfies ParsedBody;
    multipartRead.add(request);
  });

  const requireTls = live && options.trustProxy !== undefined;
  /**
   * What is wrong with a request before any route reads it: headers a proxy could read otherwise
   * than the gateway (requestHeaders.ts); a Host that is no host[:port] (`a; script-src *`: page
   * policies and redirect URLs are built from it; behind a trusted proxy Host and scheme come from
   * its X-Forwarded-* headers, held to the same form); plain http on a live gateway (the spec: all
   * requests use TLS). Health checks build no URL and come from the proxy itself: HTTP/1.0 without
   * Host (HAProxy's default) and in clear.
   */
  const requestProblem = (request: FastifyRequest): ParamError | undefined => {
    const problem = headerProblem(request.raw);
    if (problem || isHealthCheck(request.url)) return problem;
    if (!VALID_HOST.test(request.host ?? '') || (request.protocol !== 'http' && request.protocol !== 'https')) {
      return { name: 'Host', value: '', message: 'Host must be a host name or address, with an optional port' };
    }
    if (requireTls && request.protocol !== 'https') return { name: 'X-Forwarded-Proto', value: request.protocol, message: 'a live gateway takes requests over https only' };
    return undefined;
  };
  app.addHook('onRequest', async (request, reply) => {
    const problem = requestProblem(request);
    if (problem) return reply.code(400).send(errorBody('200.300.404', meta(g.buildNumber, g.deps.clock()), newNdc(), [problem]));
  });

  app.addHook('onResponse', async (request, reply) => {
    request.log.info({ reqId: request.id, method: request.method, url: request.routeOptions.url ?? 'unknown', status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });

  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send(errorBody('200.300.404', meta(g.buildNumber, g.deps.clock()), newNdc(), [{ name: 'path', value: request.url.split('?')[0]!, message: 'there is no endpoint at this path' }])),
  );
  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    const m = meta(g.buildNumber, g.deps.clock());
    // Malformed multipart (no boundary, truncated) fails in the parser with no status code of its own.
    const unreadMultipart = request.isMultipart() && !multipartRead.has(request);
    if ((error.statusCode && error.statusCode >= 400 && error.statusCode < 500) || unreadMultipart) {
      // Body too large, unsupported content type, malformed multipart: the request's fault.
      return reply.code(400).send(errorBody('200.300.404', m, newNdc(), [{ name: 'body', value: '', message: requestErrorMessage(error) }]));
    }
    request.log.error({ reqId: request.id, err: { message: error.message, code: error.code, stack: error.stack } }, 'unexpected error');
    return reply.code(500).send(errorBody('999.999.999', m, newNdc()));
  });

  paymentRoutes(app, g);
  registrationRoutes(app, g);
  resultCodeRoutes(app, g);
  openapiRoutes(app, g);
  checkoutRoutes(app, g);
  widgetRoutes(app, g);
  threedsRoutes(app, g);
  queryRoutes(app, g);
  reportRoutes(app, g);
  webhookRoutes(app, g);
  scheduleRoutes(app, g);
  healthRoutes(app, g, () => closing);
  return app;
}

function requestErrorMessage(error: Error & { code?: string }): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Content-Type must be application/x-www-form-urlencoded; charset=UTF-8, multipart/form-data or application/json';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'the request body is larger than 1 MiB';
    case 'PW_MULTIPART_LENGTH':
      return 'a multipart/form-data body must be sent with its Content-Length';
    default:
      return 'the request body could not be read';
  }
}

/** A part of a multipart body as @fastify/multipart leaves it (every part read as a file: its bytes). */
interface MultipartPart {
  filename?: string;
  mimetype: string;
  _buf: Buffer | null;
}

/** What Node's parser refused: its status, and the parameter error naming the headers, the time or the request itself. */
function clientError(code: string | undefined): { status: number; error: ParamError } {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, error: { name: 'headers', value: '', message: 'headers are larger than 16 KiB' } };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, error: { name: 'request', value: '', message: 'request did not arrive whole within 30 s' } };
  return { status: 400, error: { name: 'request', value: '', message: 'request is not valid HTTP/1.1 (its method, request line or framing headers)' } };
}

/** A whole HTTP answer on a socket no request was read from; it ends the connection. */
function clientErrorAnswer(status: number, body: Record<string, unknown>): string {
  const json = JSON.stringify(body);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${json}`;
}
