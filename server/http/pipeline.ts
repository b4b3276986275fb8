// The steps every request goes through: know who is asking (a merchant's token, or a checkout id
// for the widget), throttle, replay an idempotent retry, run the domain, shape the reply. Routes
// only say what to run and how to answer.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Entity, Merchants } from '../config.ts';
import { ID, newNdc } from '../ids.ts';
import type { AlsoWrite, Context, Deps } from '../payments/deps.ts';
import { completeKey, claimKey, findKey, IDEMPOTENCY_LEASE_MS, merchantKey, releaseKey } from '../store/idempotency.ts';
import type { Trx } from '../store/db.ts';
import { errorBody, meta, TRY_LATER_HEADERS, tryLaterBody, type Reply } from './envelope.ts';
import type { Flat, ParamError } from './params.ts';
import type { Operation, Throttle } from './throttle.ts';
import type { WidgetAssets } from './widgetAssets.ts';

export interface Gateway {
  deps: Deps;
  merchants: Merchants;
  throttle: Throttle;
  buildNumber: string;
  /** The built checkout widget the gateway serves. */
  assets: WidgetAssets;
}

/** Body parameters as the content-type parsers leave them. */
export interface ParsedBody {
  params: Flat;
  errors: ParamError[];
}

// The scheme is case-insensitive (RFC 9110 §11.1); the token is as issued.
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i;
const IDEMPOTENCY_WAIT_MS = 10_000;

export function bodyOf(request: FastifyRequest): ParsedBody {
  const body = request.body as ParsedBody | undefined;
  return body && typeof body === 'object' && 'params' in body ? body : { params: {}, errors: [] };
}

/** API answers carry ids that are credentials (a checkout's), secrets (a webhook's) and payments: never kept by a cache. */
const NO_STORE = { 'cache-control': 'no-store' };

function send(reply: FastifyReply, r: Reply, headers: Record<string, string> = {}) {
  return reply.code(r.status).headers({ ...NO_STORE, ...(r.status === 401 ? CHALLENGE : {}), ...headers }).send(r.body);
}

/** What a 401 must say (RFC 9110 §15.5.2): the scheme the gateway takes. */
const CHALLENGE = { 'www-authenticate': 'Bearer' };

/** An answer already serialized (as its idempotency record keeps it): sent as it is, not serialized again. */
function sendJson(reply: FastifyReply, status: number, json: string, headers: Record<string, string> = {}) {
  return reply.code(status).headers({ ...NO_STORE, ...headers, 'content-type': 'application/json; charset=utf-8' }).send(json);
}

/**
 * Who is asking: 401 without a well-formed Bearer header, 403 for an unknown token or an
 * entity the token may not act for, 400 when no entityId is sent.
 */
function authenticate(g: Gateway, request: FastifyRequest, entityId: string | undefined, ndc: string, bodyErrors: ParamError[] = []): { entity: Entity } | Reply {
  const m = meta(g.buildNumber, g.deps.clock());
  const header = request.headers.authorization;
  const match = header ? BEARER.exec(header) : null;
  if (!match) {
    return { status: 401, body: errorBody('800.900.300', m, ndc, [{ name: 'Authorization', value: '', message: 'Authorization header must be "Bearer <access token>"' }]) };
  }
  const merchant = g.merchants.byToken(match[1]!);
  if (!merchant) return { status: 403, body: errorBody('800.900.300', m, ndc, [{ name: 'Authorization', value: '', message: 'the access token is not valid' }]) };
  if (entityId === undefined || !ID.test(entityId)) {
    return {
      status: 400,
      // A body that could not be read (malformed JSON, …) is the likely reason entityId is missing: say so too.
      body: errorBody('200.300.404', m, ndc, [...bodyErrors, { name: 'entityId', value: entityId ?? '', message: 'entityId is required: 32 lowercase hexadecimal characters' }]),
    };
  }
  const entity = g.merchants.entityOf(merchant, entityId);
  if (!entity) return { status: 403, body: errorBody('800.900.301', m, ndc, [{ name: 'entityId', value: entityId, message: 'this access token may not act for this entity' }]) };
  return { entity };
}

export interface Step<V extends object> {
  operation: Operation;
  /** The domain call; alsoWrite commits together with the domain's own writes. */
  run(ctx: Context, params: Flat, alsoWrite: AlsoWrite<V> | undefined): Promise<V>;
  respond(value: V, ctx: Context): Reply;
}

/** Who is asking: the context a request runs in once its caller is known. */
export interface Caller {
  ctx: Context;
  /**
   * Idempotency keys and throttling counts of this caller are kept apart from the entity's (a
   * shopper's key on one checkout never meets the merchant's keys or another checkout's).
   */
  keyScope?: string;
}

/** Errors of the body parsers may carry values (a name sent twice): secrets are masked as everywhere. */
function bodyErrorsOf(body: ParsedBody): ParamError[] {
  // Masked, and cut to MAX_PARAMETER_ERRORS, by errorBody when an answer carries them.
  return body.errors;
}

/** The query parameters a POST or DELETE may not have: all but entityId, and entityId when the body names another. */
function queryErrors(query: Record<string, unknown>, bodyEntity: string | undefined, method: string): ParamError[] {
  const errors: ParamError[] = [];
  for (const name of Object.keys(query)) {
    if (name !== 'entityId') errors.push({ name, value: '', message: `${name} is sent in the query string: the parameters of a ${method} go in its body` });
    else if (bodyEntity !== undefined && query.entityId !== bodyEntity) errors.push({ name, value: '', message: 'entityId was sent twice, in the query string and the body, with different values' });
  }
  return errors;
}

/** A DELETE's body may name the entity, and in test testMode; any other parameter would be dropped without a word. */
function deleteBodyErrors(params: Flat): ParamError[] {
  return Object.keys(params)
    .filter((name) => name !== 'testMode')
    .map((name) => ({ name, value: '', message: `${name} is not a parameter of a DELETE: its body takes entityId only` }));
}

/**
 * testMode sent to a live gateway where no request schema sees it: in the query string (any
 * method), or in a body no schema checks for it (a GET's or DELETE's, a shopper's page's). The spec: "When a
 * request to the live environment contains testMode, then the request is declined with result
 * code 600.200.701"; a POST body's testMode is refused by its schema (requests.ts › parseWith),
 * beside the request's other errors. Without this a DELETE of a registration with testMode was
 * carried out in live, and a GET answered.
 */
function testModeInLive(g: Gateway, query: Record<string, unknown>, params: Flat, bodyUnchecked: boolean): ParamError | undefined {
  if (g.deps.env !== 'live') return undefined;
  const fromQuery = Object.hasOwn(query, 'testMode') ? query.testMode : undefined;
  const fromBody = bodyUnchecked && Object.hasOwn(params, 'testMode') ? params.testMode : undefined;
  const sent = fromQuery ?? fromBody;
  if (sent === undefined) return undefined;
  return { name: 'testMode', value: String(sent).slice(0, 64), message: 'testMode is only allowed in the test environment' };
}

/** A shopper's page sends a few dozen parameters; a body of thousands is junk, refused unread. */
const MAX_PAGE_PARAMETERS = 1000;

/** A merchant's request: the caller is the entity its token may act for. */
export async function handle<V extends object>(g: Gateway, request: FastifyRequest, reply: FastifyReply, step: Step<V>): Promise<FastifyReply> {
  const ndc = newNdc();
  const body = bodyOf(request);
  const query = (request.query ?? {}) as Record<string, unknown>;
  // entityId names the caller, it is no parameter of the request: taken out of the body's own
  // parameters (no copy of them: a full payment has hundreds).
  const params = body.params;
  const bodyEntity = Object.hasOwn(params, 'entityId') ? params.entityId : undefined;
  delete params.entityId;
  const entityId = bodyEntity ?? (typeof query.entityId === 'string' ? query.entityId : undefined);
  const bodyErrors = bodyErrorsOf(body);
  // A POST's or DELETE's parameters are its body's: one in the query would be dropped without a
  // word, and an entityId in both could name two entities.
  if (request.method !== 'GET' && request.method !== 'HEAD') bodyErrors.push(...queryErrors(query, bodyEntity, request.method));
  if (request.method === 'DELETE') bodyErrors.push(...deleteBodyErrors(params));
  const auth = authenticate(g, request, entityId, ndc, bodyErrors);
  if (!('entity' in auth)) return send(reply, auth);
  const liveTestMode = testModeInLive(g, query, params, request.method !== 'POST');
  if (liveTestMode) return send(reply, { status: 400, body: errorBody('600.200.701', meta(g.buildNumber, g.deps.clock()), ndc, [liveTestMode]) });
  return proceed(g, request, reply, { ctx: { entity: auth.entity, ndc } }, params, bodyErrors, step);
}

/**
 * A request whose caller is named by the request itself rather than a token (the widget's
 * checkout-scoped calls: the checkout id is the credential). `identify` gives the caller or
 * answers by itself; throttling and idempotency then work as for merchants.
 */
export async function handleAs<V extends object>(
  g: Gateway,
  request: FastifyRequest,
  reply: FastifyReply,
  identify: (ndc: string) => Promise<Caller | Reply>,
  step: Step<V>,
): Promise<FastifyReply> {
  const body = bodyOf(request);
  const count = Object.keys(body.params).length + body.errors.length;
  if (count > MAX_PAGE_PARAMETERS) {
    const message = `body has ${count} parameters; a payment page sends at most ${MAX_PAGE_PARAMETERS}`;
    return send(reply, { status: 400, body: errorBody('200.300.404', meta(g.buildNumber, g.deps.clock()), newNdc(), [{ name: 'body', value: '', message }]) });
  }
  const caller = await identify(newNdc());
  if (!('ctx' in caller)) return send(reply, caller);
  // The page's schemas know no testMode: in live it is declined as the spec says, not as unknown.
  const liveTestMode = testModeInLive(g, (request.query ?? {}) as Record<string, unknown>, body.params, true);
  if (liveTestMode) return send(reply, { status: 400, body: errorBody('600.200.701', meta(g.buildNumber, g.deps.clock()), caller.ctx.ndc, [liveTestMode]) });
  return proceed(g, request, reply, caller, body.params, bodyErrorsOf(body), step);
}

/** Throttle, refuse an unreadable body, replay an idempotent retry, run the step. */
async function proceed<V extends object>(g: Gateway, request: FastifyRequest, reply: FastifyReply, caller: Caller, params: Flat, bodyErrors: ParamError[], step: Step<V>) {
  const { ctx } = caller;
  const ndc = ctx.ndc;
  if (!(await g.throttle.allow(caller.keyScope ?? ctx.entity.id, step.operation, ctx.entity.throttle.perSecond))) {
    return send(reply, { status: 429, body: tryLaterBody(meta(g.buildNumber, g.deps.clock()), ndc, g.deps.newId()) }, TRY_LATER_HEADERS);
  }

  if (bodyErrors.length > 0) {
    return send(reply, { status: 400, body: errorBody('200.300.404', meta(g.buildNumber, g.deps.clock()), ndc, bodyErrors) });
  }

  const key = request.method === 'POST' ? request.headers['idempotency-key'] : undefined;
  if (typeof key !== 'string') return runStep(g, ctx, params, step, reply);
  return idempotent(g, caller, params, step, reply, operationOf(request.url.split('?')[0]!), key);
}

/** The longest operation (a request's path) an Idempotency-Key record stores as it is. */
const OPERATION_MAX = 64;

/**
 * The path a key was used on, as its record keeps it: a longer one (a 48-character checkout id,
 * an id percent-encoded) by its SHA-256, so that it fits the column on every store.
 */
function operationOf(path: string): string {
  return path.length <= OPERATION_MAX ? path : `sha256:${createHash('sha256').update(path).digest('base64url')}`;
}

async function runStep<V extends object>(g: Gateway, ctx: Context, params: Flat, step: Step<V>, reply: FastifyReply) {
  const value = await step.run(ctx, params, undefined);
  return send(reply, step.respond(value, ctx));
}

/**
 * The answer as its key's record keeps it: one that carries a redirect's token (3-D Secure, a
 * provider) sealed with the card key, like every other credential the store holds, for 24 hours.
 */
function recordOfAnswer(g: Gateway, r: Reply, json: string, context: string): string {
  const redirect = r.body.redirect as { parameters?: unknown[] } | undefined;
  return redirect?.parameters?.length ? g.deps.vault.seal(json, context) : json;
}

/** A record's answer as it was sent (opened when sealed: JSON never starts with v1:). */
function answerOf(g: Gateway, record: string, context: string): string {
  return record.startsWith('v1:') ? g.deps.vault.open(record, context) : record;
}

/** Canonical form of a request for comparing retries; security codes are left out. */
function requestDigest(g: Gateway, path: string, params: Flat): string {
  const names = Object.keys(params)
    .filter((name) => name !== 'card.cvv')
    .sort();
  return g.deps.vault.digest(JSON.stringify([path, names.map((name) => [name, params[name]])]));
}

/**
 * The key as stored: never as sent (a merchant may put anything into it, even a card number). A
 * merchant's is the card key's digest of it (store/idempotency.ts › merchantKey); a scoped
 * caller's gets a namespace of its own and a fixed length.
 */
function storedKey(g: Gateway, caller: Caller, key: string): string {
  return caller.keyScope === undefined ? merchantKey(g.deps.vault.digest, key) : `${caller.keyScope}/${createHash('sha256').update(key).digest('base64url')}`;
}

async function idempotent<V extends object>(g: Gateway, caller: Caller, params: Flat, step: Step<V>, reply: FastifyReply, path: string, sentKey: string) {
  const { ctx } = caller;
  const m = () => meta(g.buildNumber, g.deps.clock());
  if (sentKey.length < 1 || sentKey.length > 255) {
    return send(reply, { status: 400, body: errorBody('200.300.404', m(), ctx.ndc, [{ name: 'Idempotency-Key', value: sentKey.slice(0, 255), message: 'Idempotency-Key must be 1 to 255 characters' }]) });
  }
  const key = storedKey(g, caller, sentKey);
  const digest = requestDigest(g, path, params);
  const entityId = ctx.entity.id;
  // A sealed answer's context names a merchant's key as sent, as it did before keys were hashed,
  // so that the records hashMerchantKeys rewrote still open.
  const recordContext = `idempotency:${entityId}:${caller.keyScope === undefined ? sentKey : key}`;
  let claimedAt = 0;
  let reserved: string | null = null;
  const claim = async () => {
    claimedAt = g.deps.clock().getTime();
    const claimed = await g.deps.store.write((trx) => claimKey(trx, entityId, key, path, digest, claimedAt));
    reserved = claimed?.reserved ?? null;
    return claimed !== undefined;
  };
  if (!(await claim())) {
    const deadline = Date.now() + IDEMPOTENCY_WAIT_MS;
    for (;;) {
      const existing = await findKey(g.deps.store.db, entityId, key);
      if (existing && (existing.requestHash !== digest || existing.operation !== path)) {
        return send(reply, {
          status: 400,
          body: errorBody('200.300.404', m(), ctx.ndc, [{ name: 'Idempotency-Key', value: sentKey, message: 'Idempotency-Key was already used for a request with other parameters' }]),
        });
      }
      if (existing?.status === 'done' && existing.response && existing.httpStatus) {
        return sendJson(reply, existing.httpStatus, answerOf(g, existing.response, recordContext), { 'idempotent-replayed': 'true' });
      }
      // Gone (its request failed and freed it), or abandoned past the lease by a process that
      // stopped mid-request: this retry claims it and runs.
      const abandoned = existing?.status === 'pending' && g.deps.clock().getTime() - existing.createdAt > IDEMPOTENCY_LEASE_MS;
      if ((!existing || abandoned) && (await claim())) break;
      // The first request with this key is still running: its answer is the answer.
      if (Date.now() > deadline) {
        return send(reply, { status: 409, body: errorBody('200.300.404', m(), ctx.ndc, [{ name: 'Idempotency-Key', value: sentKey, message: 'a request with this Idempotency-Key is still being processed; retry later' }]) });
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  let stored = false;
  const replies = new WeakMap<object, Reply>();
  const respond = (value: V) => {
    let r = replies.get(value);
    if (!r) replies.set(value, (r = step.respond(value, ctx)));
    return r;
  };
  // Each answer is serialized once: the record keeps these bytes and the reply sends them.
  const serialized = new WeakMap<Reply, string>();
  const jsonOf = (r: Reply) => {
    let json = serialized.get(r);
    if (json === undefined) serialized.set(r, (json = JSON.stringify(r.body)));
    return json;
  };
  const recordOf = (r: Reply) => recordOfAnswer(g, r, jsonOf(r), recordContext);
  const alsoWrite = async (trx: Trx, value: V) => {
    const r = respond(value);
    await completeKey(trx, entityId, key, r.status, recordOf(r), claimedAt);
    stored = true;
  };
  let value: V;
  try {
    value = await step.run({ ...ctx, idempotency: { key, claimedAt, reserved } }, params, alsoWrite);
  } catch (error) {
    await g.deps.store.write((trx) => releaseKey(trx, entityId, key, claimedAt)).catch(() => undefined);
    throw error;
  }
  const r = respond(value);
  // Refusals and validation errors wrote nothing of their own: their answer is stored now. A
  // server-side failure (5xx) is no answer to the request: the key is freed for a retry instead.
  if (!stored) {
    await g.deps.store.write((trx) => (r.status >= 500 ? releaseKey(trx, entityId, key, claimedAt) : completeKey(trx, entityId, key, r.status, recordOf(r), claimedAt)));
  }
  return r.status < 500 ? sendJson(reply, r.status, jsonOf(r)) : send(reply, r);
}
