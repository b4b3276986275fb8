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

export async function createThrottle(redisUrl?: string): Promise<Throttle> {
  const limiters = new Map<number, RateLimiterAbstract>();
  const redis = redisUrl ? new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true }) : undefined;
  redis?.on('error', () => {
    // Counting falls back to memory while Redis is unreachable (insurance limiter).
  });
  // Connected before the first request, so that no early request is counted in memory only.
  await redis?.connect();
  const limiterFor = (perSecond: number) => {
    let limiter = limiters.get(perSecond);
    if (!limiter) {
      const memory = new RateLimiterMemory({ points: perSecond, duration: 1, keyPrefix: 'throttle' });
      limiter = redis
        ? new RateLimiterRedis({ storeClient: redis, points: perSecond, duration: 1, keyPrefix: 'gw-throttle', insuranceLimiter: memory })
        : memory;
      limiters.set(perSecond, limiter);
    }
    return limiter;
  };
  return {
    async allow(caller, operation, perSecond) {
      try {
        await limiterFor(perSecond).consume(`${caller}:${operation}`);
        return true;
      } catch (rejection) {
        if (rejection instanceof Error) throw rejection;
        return false;
      }
    },
    async close() {
      redis?.disconnect();
    },
  };
}
