// Requests per caller and operation per second (rate-limiter-flexible): in memory for one
// process, in Redis when REDIS_URL is set so that several processes share the counters. A
// merchant's calls count per entity; a shopper's browser's per checkout (or 3-D Secure step),
// so that one public checkout id cannot use up the budget of every shopper of the entity.
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** Counted apart: 'checkouts' are the merchant's checkout calls, 'widget' the checkout-scoped calls of shoppers' browsers. */
export type Operation = 'payments' | 'references' | 'reads' | 'registrations' | 'checkouts' | 'widget' | 'webhooks' | 'schedules';

export interface Throttle {
  /** false when the caller (an entity, `checkout:<id>`, `step:<id>`) has used up its requests for this operation in this second. */
  allow(caller: string, operation: Operation, perSecond: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * How long Redis may take: to connect, and per command. A Redis that accepts and never answers
 * would otherwise hold every request; past the command's limit the insurance limiter counts.
 */
const REDIS_CONNECT_TIMEOUT_MS = 5_000;
const REDIS_COMMAND_TIMEOUT_MS = 250;

/** `warn`: told once when Redis becomes unreachable (counting falls back to memory, per process) and once when it is back. */
export async function createThrottle(redisUrl?: string, warn: (message: string, error?: Error) => void = () => undefined): Promise<Throttle> {
  const limiters = new Map<number, RateLimiterAbstract>();
  const redis = redisUrl
    ? new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true, connectTimeout: REDIS_CONNECT_TIMEOUT_MS, commandTimeout: REDIS_COMMAND_TIMEOUT_MS })
    : undefined;
  // Counting falls back to memory while Redis fails or is silent (the insurance limiter, which
  // counts each fallback): said once when that starts, and once when Redis counts again.
  let reachable = true;
  let fallbacks = 0;
  const unreachable = (error?: Error) => {
    if (!reachable) return;
    reachable = false;
    warn('Redis (REDIS_URL) is unreachable: throttling counts in this process only until it is back', error);
  };
  redis?.on('error', unreachable);
  // Connected before the first request, so that no early request is counted in memory only.
  await redis?.connect().catch((error: Error) => {
    redis.disconnect();
    throw new Error(`Redis at REDIS_URL could not be reached: ${error.message}`);
  });
  const limiterFor = (perSecond: number) => {
    let limiter = limiters.get(perSecond);
    if (!limiter) {
      const memory = new RateLimiterMemory({ points: perSecond, duration: 1, keyPrefix: 'throttle' });
      if (redis) {
        const consumeInMemory = memory.consume.bind(memory);
        memory.consume = (key, points, options) => {
          fallbacks++;
          unreachable();
          return consumeInMemory(key, points, options);
        };
      }
      limiter = redis
        ? new RateLimiterRedis({ storeClient: redis, points: perSecond, duration: 1, keyPrefix: 'gw-throttle', insuranceLimiter: memory })
        : memory;
      limiters.set(perSecond, limiter);
    }
    return limiter;
  };
  return {
    async allow(caller, operation, perSecond) {
      const before = fallbacks;
      try {
        await limiterFor(perSecond).consume(`${caller}:${operation}`);
        return true;
      } catch (rejection) {
        if (rejection instanceof Error) throw rejection;
        return false;
      } finally {
        if (redis && !reachable && fallbacks === before) {
          reachable = true;
          warn('Redis (REDIS_URL) is back: throttling counts are shared again');
        }
      }
    },
    async close() {
      redis?.disconnect();
    },
  };
}
