// Merchants, entities and their settings, read from MERCHANTS_FILE (see DESIGN.md).
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { z } from 'zod';
import { ID } from './ids.ts';
import { MAX_ACQUIRER_TIMEOUT_MS } from './payments/unanswered.ts';

const webhookSchema = z.object({
  // At most 2048 characters, as the API's (the outbox's column: a longer one would fail every payment's commit on PostgreSQL).
  url: z.string().url().max(2048),
  secret: z.string().regex(/^[0-9a-fA-F]{64}$/),
  wrapper: z.enum(['none', 'json']).default('none'),
});

const entitySchema = z.object({
  id: z.string().regex(ID),
  name: z.string().min(1),
  brands: z.array(z.string().regex(/^[A-Z0-9_]{1,32}$/)).min(1),
  threeDSecure: z.boolean().default(true),
  showConnectorDetails: z.boolean().default(false),
  // Reversals are possible only this long after the referenced payment (the connector's cut-off).
  reversalCutoffHours: z.number().positive().default(24),
  throttle: z.object({ perSecond: z.number().int().positive() }).default({ perSecond: 50 }),
  webhooks: z.array(webhookSchema).default([]),
  // The merchant's country (ISO 3166 alpha-2), as wallets' payment sheets need it (default DE).
  country: z.string().regex(/^[A-Z]{2}$/).optional(),
  // The merchant's own account, answered as merchant.bankAccount.* for bank transfers (BANKTRANSFER):
  // the shopper sends the money there. Types as the spec's response table.
  bankAccount: z
    .object({
      holder: z.string().min(4).max(128),
      number: z.string().regex(/^[A-Za-z0-9]{3,64}$/).optional(),
      bic: z.string().regex(/^([A-Za-z0-9]{8}|[A-Za-z0-9]{11})$/).optional(),
      country: z.string().regex(/^[A-Z]{2}$/).optional(),
    })
    .optional(),
});

const merchantSchema = z.object({
  name: z.string().min(1),
  accessToken: z.string().min(16),
  entities: z.array(entitySchema).min(1),
});

const merchantsFileSchema = z.object({ merchants: z.array(merchantSchema).min(1) });

export type Entity = z.infer<typeof entitySchema> & { merchantName: string; accessToken: string };
export type Merchant = z.infer<typeof merchantSchema>;

export interface Merchants {
  merchants: Merchant[];
  /** The merchant owning this access token, if any. */
  byToken(token: string): Merchant | undefined;
  /** An entity the given merchant may act for. */
  entityOf(merchant: Merchant, entityId: string): Entity | undefined;
  entity(entityId: string): Entity | undefined;
}

export function parseMerchants(json: unknown): Merchants {
  const { merchants } = merchantsFileSchema.parse(json);
  const tokens = new Map<string, Merchant>();
  const entities = new Map<string, Entity>();
  for (const merchant of merchants) {
    if (tokens.has(merchant.accessToken)) throw new Error(`duplicate access token for ${merchant.name}`);
    tokens.set(merchant.accessToken, merchant);
    for (const entity of merchant.entities) {
      if (entities.has(entity.id)) throw new Error(`duplicate entity id ${entity.id}`);
      entities.set(entity.id, { ...entity, merchantName: merchant.name, accessToken: merchant.accessToken });
    }
  }
  return {
    merchants,
    byToken: (token) => tokens.get(token),
    entityOf: (merchant, entityId) => {
      const entity = entities.get(entityId);
      return entity && entity.accessToken === merchant.accessToken ? entity : undefined;
    },
    entity: (entityId) => entities.get(entityId),
  };
}

export function loadMerchants(file: string): Merchants {
  return parseMerchants(JSON.parse(readFileSync(file, 'utf8')));
}

export type GatewayEnv = 'test' | 'live';

export interface Settings {
  env: GatewayEnv;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  merchantsFile: string;
  cardKey?: string;
  buildNumber: string;
  logLevel: string;
  /** The built checkout widget: its scripts, its locale files (locales/{locale}.json) and manifest.json. */
  distDir: string;
  /** Webhook delivery: how often due retries are looked for, and how long a receiver may take (default 5 s, 30 s). */
  webhookPollMs?: number;
  webhookTimeoutMs?: number;
  /** How long the acquirer may take to answer (default and most 60 s): past it an authorization is declined as uncertain and reversed. */
  acquirerTimeoutMs?: number;
  /** Schedules (job.*): how often due occurrences are looked for (default 1 s). */
  schedulePollMs?: number;
  /** Schedules: how long a claimed firing may stay unrecorded before another claim pays it (default 5 min). */
  scheduleLeaseMs?: number;
  /**
   * The proxies in front (a load balancer ending TLS) whose X-Forwarded-Proto, -Host and -For are
   * believed: the addresses or CIDRs of TRUST_PROXY; none by default (anyone could send the
   * headers), so that URLs the gateway writes name the address the shopper uses.
   */
  trustProxy?: string[];
  /** MAX_IN_FLIGHT: requests worked on at once (default 1000), past which the gateway answers 503 and Retry-After (http/admission.ts). */
  maxInFlight?: number;
}

/** TRUST_PROXY: a comma-separated list of addresses and CIDRs (or loopback, linklocal, uniquelocal). */
export function trustProxyOf(value: string | undefined): string[] | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const entries = text.split(',').map((entry) => entry.trim()).filter(Boolean);
  const bad = entries.find((entry) => !isProxyRange(entry));
  if (bad !== undefined) throw new Error(`TRUST_PROXY must be addresses or CIDRs (or loopback, linklocal, uniquelocal), comma-separated, and not the whole address space (that would believe every client): ${bad} is neither`);
  return entries;
}

/** An address, a CIDR of one narrower than the whole address space, or a named private range. */
function isProxyRange(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : -1;
  // /0 would believe every client's headers: no proxy is that.
  return bits >= 1 && bits <= (family === 4 ? 32 : 128);
}

/** A duration setting: a whole number of milliseconds above 0 (a typo would otherwise time everything out at once), at most `max`. */
// Node's timers take at most 2^31 - 1 ms (about 24.8 days): a longer one fires at once.
function millisecondsOf(env: NodeJS.ProcessEnv, name: string, max = 2_147_483_647): number | undefined {
  const text = env[name]?.trim();
  if (!text) return undefined;
  if (!/^[1-9]\d{0,9}$/.test(text)) throw new Error(`${name} must be a whole number of milliseconds above 0, not ${text}`);
  if (Number(text) > max) throw new Error(`${name} must be at most ${max} milliseconds, not ${text}`);
  return Number(text);
}

/** A count setting: a whole number above 0. */
function countOf(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const text = env[name]?.trim();
  if (!text) return undefined;
  if (!/^[1-9]\d{0,8}$/.test(text)) throw new Error(`${name} must be a whole number above 0, not ${text}`);
  return Number(text);
}

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): Settings {
  const gatewayEnv = env.GATEWAY_ENV ?? 'test';
  if (gatewayEnv !== 'test' && gatewayEnv !== 'live') throw new Error(`GATEWAY_ENV must be test or live, not ${gatewayEnv}`);
  return {
    env: gatewayEnv,
    port: Number(env.PORT ?? 8080),
    // The test environment's demo pays with a published token: reachable from this machine only,
    // unless HOST says otherwise; a live gateway serves the network.
    host: env.HOST ?? (gatewayEnv === 'test' ? '127.0.0.1' : '0.0.0.0'),
    dataDir: env.DATA_DIR ?? './data',
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    merchantsFile: env.MERCHANTS_FILE ?? 'config/merchants.json',
    cardKey: env.CARD_KEY || undefined,
    buildNumber: env.BUILD_NUMBER ?? 'dev',
    logLevel: env.LOG_LEVEL ?? 'info',
    distDir: env.DIST_DIR ?? 'dist',
    webhookPollMs: millisecondsOf(env, 'WEBHOOK_POLL_MS'),
    webhookTimeoutMs: millisecondsOf(env, 'WEBHOOK_TIMEOUT_MS'),
    // At most a minute: a reservation's lease (2 minutes) must outlast the wait for its answer.
    acquirerTimeoutMs: millisecondsOf(env, 'ACQUIRER_TIMEOUT_MS', MAX_ACQUIRER_TIMEOUT_MS),
    schedulePollMs: millisecondsOf(env, 'SCHEDULE_POLL_MS'),
    scheduleLeaseMs: millisecondsOf(env, 'SCHEDULE_LEASE_MS'),
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    maxInFlight: countOf(env, 'MAX_IN_FLIGHT'),
  };
}
