// GET, POST /v1/webhooks and DELETE /v1/webhooks/{id}: an entity's webhooks (DESIGN.md; the
// gateway has no back-office, so this API and the merchants file replace it). Secrets are
// answered whole only once, by the POST that generated or set them; lists show the last four.
import type { FastifyInstance } from 'fastify';
import type { Context, Invalid } from '../../payments/deps.ts';
import { resultOf } from '../../payments/response.ts';
import { successCode } from '../../payments/resultCodes.ts';
import { paramError, failure } from '../../schema/errors.ts';
import { parseWebhookRequest } from '../../schema/webhooks.ts';
import type { Webhook, WebhookRegistry } from '../../webhooks/registry.ts';
import { errorBody, meta, type Reply } from '../envelope.ts';
import { failureReply } from '../outcomes.ts';
import { handle, type Gateway } from '../pipeline.ts';
import { methods, parseBody } from './common.ts';
import { ID } from '../../ids.ts';

type Listed = { kind: 'list'; webhooks: Webhook[] };
type Added = { kind: 'added'; webhook: Webhook };
type Removed = { kind: 'removed'; id: string } | { kind: 'unknown'; id: string };

/** The longest URL kept (AN2048, as shopperResultUrl and notificationUrl; the store's column). */
const URL_MAX = 2048;

const maskedSecret = (secret: string) => '*'.repeat(secret.length - 4) + secret.slice(-4);

/** A URL's password (a receiver behind basic authentication) is a secret too: lists hide it. */
function maskedUrl(url: string): string {
  const parsed = URL.parse(url);
  if (!parsed?.password) return url;
  parsed.password = '****';
  return parsed.href;
}

/** A URL as WHATWG URL writes it, without a host's trailing dot: `HTTPS://Shop.example.:443/` and `https://shop.example/` are one receiver. */
function canonicalUrl(url: string): string {
  const parsed = URL.parse(url);
  if (!parsed) return url;
  if (parsed.hostname.endsWith('.')) parsed.hostname = parsed.hostname.slice(0, -1);
  // A fragment never reaches the receiver, nor does an empty query.
  parsed.hash = '';
  if (parsed.search === '') parsed.href = parsed.href.replace(/\?$/, '');
  return parsed.href;
}

export function webhookView(w: Webhook, secret: 'whole' | 'masked'): Record<string, unknown> {
  return secret === 'whole'
    ? { id: w.id, url: w.url, wrapper: w.wrapper, source: w.source, secret: w.secret }
    : { id: w.id, url: maskedUrl(w.url), wrapper: w.wrapper, source: w.source, secret: maskedSecret(w.secret) };
}

export function webhookRoutes(app: FastifyInstance, g: Gateway) {
  const registry = (): WebhookRegistry => {
    if (!g.deps.webhooks) throw new Error('webhooks are not started');
    return g.deps.webhooks.registry;
  };
  const envelope = (ctx: Context, body: Record<string, unknown>): Reply => {
    const m = meta(g.buildNumber, g.deps.clock());
    return { status: 200, body: { ...body, result: resultOf(successCode(g.deps.env, null)), buildNumber: m.buildNumber, timestamp: m.timestamp, ndc: ctx.ndc } };
  };

  methods(app, g, '/v1/webhooks', {
    GET: (request, reply) =>
      handle<Listed>(g, request, reply, {
        operation: 'webhooks',
        run: async (ctx) => ({ kind: 'list', webhooks: await registry().list(ctx.entity.id) }),
        respond: (value, ctx) => envelope(ctx, { webhooks: value.webhooks.map((w) => webhookView(w, 'masked')) }),
      }),
    POST: (request, reply) => {
      // A replayed answer would have to keep the secret in the idempotency records: a repeated
      // POST is refused by its URL instead (already registered), which makes retries safe.
      delete request.headers['idempotency-key'];
      return handle<Added | Invalid>(g, request, reply, {
        operation: 'webhooks',
        async run(ctx, params) {
          const parsed = parseBody(g, params, parseWebhookRequest);
          if (!parsed.ok) return parsed.invalid;
          const { secret, wrapper } = parsed.value;
          const url = canonicalUrl(parsed.value.url);
          // The canonical form is what is kept and sent to: percent-encoding (a space, a letter
          // outside ASCII) can make it longer than the URL sent, past what a URL may be (the column).
          if (url.length > URL_MAX) return { kind: 'invalid', failure: failure([paramError('url', parsed.value.url, `must be at most ${URL_MAX} characters written percent-encoded, as it is kept (here ${url.length})`)]) };
          const registered = async (): Promise<Invalid | undefined> => {
            const existing = (await registry().list(ctx.entity.id)).find((w) => canonicalUrl(w.url) === url);
            return existing && { kind: 'invalid', failure: failure([paramError('url', parsed.value.url, `is already registered for this entity (webhook ${existing.id})`)]) };
          };
          const before = await registered();
          if (before) return before;
          // Another request may register the URL meanwhile: the database keeps one (its unique index).
          const webhook = await registry().add(ctx.entity.id, { url, secret, wrapper: wrapper ?? 'none' });
          return webhook ? { kind: 'added', webhook } : ((await registered()) ?? { kind: 'invalid', failure: failure([paramError('url', parsed.value.url, 'is already registered for this entity')]) });
        },
        respond: (value, ctx) => (value.kind === 'added' ? envelope(ctx, webhookView(value.webhook, 'whole')) : failureReply(g, ctx, value)),
      });
    },
  });

  methods(app, g, '/v1/webhooks/:id', {
    DELETE: (request, reply) =>
      handle<Removed | Invalid>(g, request, reply, {
        operation: 'webhooks',
        async run(ctx) {
          const { id } = request.params as { id: string };
          if (!ID.test(id)) return { kind: 'unknown', id };
          const removal = await registry().remove(ctx.entity.id, id);
          if (removal === 'configured') {
            return { kind: 'invalid', failure: failure([paramError('id', id, 'names a webhook of the merchants file: change it there')]) };
          }
          return removal === 'deleted' ? { kind: 'removed', id } : { kind: 'unknown', id };
        },
        respond(value, ctx) {
          if (value.kind === 'invalid') return failureReply(g, ctx, value);
          if (value.kind === 'removed') return envelope(ctx, { id: value.id });
          // Another entity's webhook is as unknown as one that never was.
          return { status: 404, body: errorBody('200.300.404', meta(g.buildNumber, g.deps.clock()), ctx.ndc, [{ name: 'id', value: value.id, message: 'id names no webhook of this entity' }]) };
        },
      }),
  });
}
