// Delivery of the outbox: claim due notifications with a lease, POST them as they were stored
// (encrypted), and record the outcome. Any 2xx within the timeout (30 s) acknowledges; anything
// else is tried again after 1, 2, 4, 8, 15, 30 minutes, 1 hour, then daily until 30 days after
// the notification was made, then it is marked failed. All state is in the store, so delivery
// goes on after a restart, and several processes on one PostgreSQL deliver each row once
// (at least once if a process dies mid-delivery: its lease runs out and another one sends again).
// Logs name the row, its webhook and the receiver's origin: never the secret or the body.
import type { LookupFunction } from 'node:net';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { Store, Trx } from '../store/db.ts';
import { claimDue, recordAttempt, releaseClaim, type OutboxRow } from '../store/webhooks.ts';
import { IV_HEADER, TAG_HEADER } from './encryption.ts';
import { postNotification } from './post.ts';

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;
/** Waits after the 1st, 2nd, … failed attempt; daily after the last one. */
export const BACKOFF_MS = [1, 2, 4, 8, 15, 30, 60].map((m) => m * MINUTE);
export const GIVE_UP_AFTER_MS = 30 * DAY;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_POLL_MS = 5_000;

/**
 * When to try again after `failed` failed attempts: the last try is at 30 days from creation, even
 * when the daily step would pass it; undefined once that is past.
 */
export function nextAttemptAt(createdAt: number, failed: number, now: number): number | undefined {
  const deadline = createdAt + GIVE_UP_AFTER_MS;
  return now < deadline ? Math.min(now + (BACKOFF_MS[failed - 1] ?? DAY), deadline) : undefined;
}

export interface DeliveryOptions {
  store: Store;
  clock: Clock;
  log: Pick<Logger, 'info' | 'warn'>;
  /** A receiver that has not answered within this is a failed attempt (default 30 s). */
  timeoutMs?: number;
  /** How often due retries are looked for (default 5 s); a commit that writes notifications wakes delivery at once. */
  pollMs?: number;
  /** Run before each poll (the registry's reload). */
  onPoll?: () => Promise<void>;
  /** POSTs in flight at once (default 64: under load each claim waits for a commit, and fewer slots let the outbox fall behind the payments). */
  parallel?: number;
  /** The connections' name lookup (live: public addresses only, receivers.ts). */
  lookup?: LookupFunction;
  /** Why a receiver may not be sent to (live: receivers.ts), or undefined. */
  receiverProblem?: (url: string) => Promise<string | undefined>;
  /** Whether a webhook is still registered (the registry): what is kept of a deleted one is dropped. */
  isActive?: (webhookId: string) => boolean;
}

export interface Delivery {
  /** Look for due notifications now. */
  wake(): void;
  /** Wake, and resolve once nothing due is left and nothing is in flight. */
  idle(): Promise<void>;
  stop(): Promise<void>;
  /** How many webhooks are counted as silent (one slot each): live ones only. */
  silentWebhooks(): number;
}

export function startDelivery(options: DeliveryOptions): Delivery {
  const { store, clock, log } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const parallel = options.parallel ?? 64;
  // The lease outlives an attempt by a wide margin: a row is taken from its claimer only if it died.
  const leaseMs = 2 * timeoutMs + MINUTE;
  const owner = `${hostname().slice(0, 40)}:${process.pid}:${Math.random().toString(36).slice(2, 10)}`;
  const stopping = new AbortController();
  // Each POST in flight listens on it: up to `parallel` at once is no leak (Node warns past 10).
  setMaxListeners(parallel + 1, stopping.signal);
  let stopped = false;
  let claiming: Promise<void> | undefined;
  let again = false;
  /** The last claim filled every free slot: more may be due as soon as one frees. */
  let moreDue = false;
  /** Slots taken: rows being sent. */
  let inFlight = 0;
  const inFlightOf = new Map<string, number>();
  /**
   * Webhooks whose receiver gave no answer to its last attempt (it hangs, or is down): one slot
   * each until it answers again, so that any number of them cannot hold every slot for their timeout.
   */
  const silent = new Set<string>();
  /**
   * Slots a webhook may take: half of those the other webhooks leave. A receiver that hangs holds
   * at most these for its timeout, a second one half of what is left, and so on, so that some are
   * always free for the others (claimDue leaves a full one out); a lone busy receiver that answers
   * has half of all, enough to keep up with its merchant.
   */
  const shareOf = (webhookId: string) =>
    silent.has(webhookId) ? 1 : Math.max(1, Math.ceil((parallel - (inFlight - (inFlightOf.get(webhookId) ?? 0))) / 2));
  /** Rows claimed whose outcome is not written yet. */
  let unrecorded = 0;
  /**
   * Rows this process is sending, and those it finished while the current claim was running: a
   * claim can take a row again whose lease ran out while it was being sent (a slow receiver, a
   * clock moved by a test), and this process does not send it twice.
   */
  const sending = new Set<string>();
  const finished = new Set<string>();
  let waiters: Array<() => void> = [];
  const changed = () => {
    const now = waiters;
    waiters = [];
    for (const resolve of now) resolve();
  };

  // Rows are claimed only for free slots and sent at once, so a receiver that hangs holds its
  // own slots (its share at most) for its timeout and never a batch of other entities'
  // notifications behind it.
  async function claim(): Promise<void> {
    do {
      again = false;
      const room = parallel - inFlight;
      if (room <= 0) {
        // Every slot is busy: the next one to free looks again.
        moreDue = true;
        return;
      }
      const now = clock().getTime();
      finished.clear();
      // A deleted webhook gets nothing more: what was kept of it goes, or deleting and registering
      // again and again would grow the set without end.
      if (options.isActive) for (const id of silent) if (!options.isActive(id)) silent.delete(id);
      const full = [...inFlightOf].filter(([id, n]) => n >= shareOf(id)).map(([id]) => id);
      const rows = await store.write((trx: Trx) => claimDue(trx, store.dialect, owner, now, leaseMs, room, full));
      // A full webhook's backlog was left out: a slot of its freeing looks again.
      moreDue = rows.length === room || full.length > 0;
      const overflow: string[] = [];
      for (const row of rows) {
        if (sending.has(row.id) || finished.has(row.id)) continue;
        const ofWebhook = inFlightOf.get(row.webhook_id) ?? 0;
        if (ofWebhook >= shareOf(row.webhook_id)) {
          // Claimed in the same batch as this webhook's last free slots: given back at once.
          overflow.push(row.id);
          moreDue = true;
          continue;
        }
        inFlightOf.set(row.webhook_id, ofWebhook + 1);
        sending.add(row.id);
        inFlight++;
        unrecorded++;
        // The slot frees once the receiver answered; the outcome's commit need not hold it.
        let freed = false;
        const freeSlot = () => {
          if (freed) return;
          freed = true;
          inFlight--;
          const left = (inFlightOf.get(row.webhook_id) ?? 1) - 1;
          if (left > 0) inFlightOf.set(row.webhook_id, left);
          else inFlightOf.delete(row.webhook_id);
          if (moreDue) wake();
        };
        void deliver(row, freeSlot).finally(() => {
          freeSlot();
          unrecorded--;
          sending.delete(row.id);
          finished.add(row.id);
          changed();
        });
      }
      if (overflow.length) await store.write(async (trx: Trx) => {
        for (const id of overflow) await releaseClaim(trx, id, owner);
      });
    } while (again && !stopped);
  }

  async function deliver(row: OutboxRow, freeSlot: () => void): Promise<void> {
    if (stopped) return void (await store.write((trx) => releaseClaim(trx, row.id, owner)).catch(() => undefined));
    let status: number | null = null;
    let error: string | null = null;
    const refused = options.receiverProblem ? await options.receiverProblem(row.url) : undefined;
    // A receiver the gateway may not reach is a failed attempt: retried on the schedule (the
    // merchant may fix its DNS), never sent.
    if (refused) error = `receiver ${refused}`;
    else {
      try {
        status = await postNotification(row.url, {
          headers: { 'content-type': row.content_type, [IV_HEADER]: row.iv, [TAG_HEADER]: row.tag },
          body: row.body,
          timeoutMs,
          signal: stopping.signal,
          lookup: options.lookup,
        });
      } catch (e) {
        if (stopped) return void (await store.write((trx) => releaseClaim(trx, row.id, owner)).catch(() => undefined));
        error = describe(e as Error & { code?: string }, timeoutMs);
      }
    }
    if (status === null && !refused) silent.add(row.webhook_id);
    else if (status !== null) silent.delete(row.webhook_id);
    freeSlot();
    const now = clock().getTime();
    const attempts = Number(row.attempts) + 1;
    const acknowledged = status !== null && status >= 200 && status < 300;
    const retryAt = acknowledged ? undefined : nextAttemptAt(Number(row.created_at), attempts, now);
    const outcome = acknowledged ? 'delivered' : retryAt === undefined ? 'failed' : 'pending';
    const where = { notification: row.id, webhook: row.webhook_id, entityId: row.entity_id, receiver: originOf(row.url), attempts };
    if (outcome === 'delivered') log.info({ ...where, status }, 'webhook delivered');
    else log.warn({ ...where, status, error, nextAttemptAt: retryAt }, outcome === 'failed' ? 'webhook failed for good' : 'webhook not acknowledged');
    await store
      .write((trx) =>
        recordAttempt(trx, row.id, owner, {
          status: outcome,
          attempts,
          nextAttemptAt: retryAt ?? Number(row.next_attempt_at),
          lastStatus: status,
          lastError: error,
          now,
        }),
      )
      .catch((e: Error) => log.warn({ notification: row.id, err: e.message }, 'webhook outcome not recorded'));
  }

  function wake(): void {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = claim()
      .catch((e: Error) => log.warn({ err: e.message }, 'webhook claim failed'))
      .finally(() => {
        claiming = undefined;
        changed();
      });
  }

  const busy = () => claiming !== undefined || unrecorded > 0;
  const settled = async () => {
    while (busy()) await new Promise<void>((resolve) => waiters.push(resolve));
  };

  const timer = setInterval(() => {
    void (options.onPoll?.() ?? Promise.resolve()).catch((e: Error) => log.warn({ err: e.message }, 'webhook poll failed')).finally(wake);
  }, pollMs);
  timer.unref();
  wake();

  return {
    wake,
    async idle() {
      // Until a claim finds nothing more that is due (retries that fail now are due later).
      do {
        wake();
        await settled();
      } while (moreDue && !stopped);
    },
    silentWebhooks: () => silent.size,
    async stop() {
      stopped = true;
      clearInterval(timer);
      stopping.abort();
      await settled();
    },
  };
}

function describe(error: Error & { code?: string }, timeoutMs: number): string {
  if (error.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
  // The network's code says why (ECONNREFUSED, ENOTFOUND, ECONNRESET …).
  return (error.code ?? error.message).slice(0, 255);
}

/** The receiver as logs show it: its URL's path and query may carry the merchant's own tokens. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'invalid URL';
  }
}
