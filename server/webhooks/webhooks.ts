// A gateway's webhooks put together: the registry, the outbox domain code writes through
// deps.webhooks, and the delivery worker, woken as soon as a commit wrote notifications.
import type { Logger } from 'pino';
import type { Gateway } from '../http/pipeline.ts';
import { liveDeliveryProblem, publicAddressLookup } from '../receivers.ts';
import type { Store } from '../store/db.ts';
import { purgeFinished, WEBHOOKS_CHANGED } from '../store/webhooks.ts';
import { startDelivery, type Delivery } from './delivery.ts';
import { createWebhooks, type Webhooks } from './outbox.ts';
import { WebhookRegistry } from './registry.ts';

const HOUR_MS = 60 * 60 * 1000;
const KEEP_FINISHED_MS = 30 * 24 * HOUR_MS;

export interface WebhookSettings {
  pollMs?: number;
  timeoutMs?: number;
}

export interface RunningWebhooks {
  webhooks: Webhooks;
  delivery: Delivery;
  /** Stop delivery and listening to other processes' changes. */
  stop(): Promise<void>;
}

/**
 * Set deps.webhooks and start delivery. deps.store becomes a view of the store whose write() and
 * insert() wake delivery after a commit that wrote notifications (the commit is what makes them due).
 */
export async function startWebhooks(g: Gateway, log: Pick<Logger, 'info' | 'warn'>, settings: WebhookSettings = {}): Promise<RunningWebhooks> {
  const { deps } = g;
  const registry = new WebhookRegistry(g.merchants, deps.store, deps.vault, deps.clock, deps.newId);
  await registry.refresh();
  // Another process registered or deleted a webhook: reloaded at once, not at the next poll, so
  // that payments made here go on being notified as that process says.
  let reloaded: Promise<void> = Promise.resolve();
  const reload = (): void => {
    reloaded = registry.refresh().catch((error: Error) => log.warn({ err: error.message }, 'reloading the webhooks failed'));
  };
  const unlisten = await deps.store.listen?.(WEBHOOKS_CHANGED, reload);
  const webhooks = createWebhooks({ registry, merchants: g.merchants, buildNumber: g.buildNumber, clock: deps.clock, newId: deps.newId });
  const store = deps.store;
  let delivery: Delivery | undefined;
  deps.store = wakingOnCommit(store, webhooks, () => delivery?.wake());
  deps.webhooks = webhooks;
  // Ended notifications are kept 30 days for support, then forgotten (looked at once an hour).
  let purgedAt = 0;
  const onPoll = async () => {
    await registry.refresh();
    const now = deps.clock().getTime();
    if (now - purgedAt < HOUR_MS) return;
    purgedAt = now;
    await purgeFinished(store, now - KEEP_FINISHED_MS);
  };
  delivery = startDelivery({
    store,
    clock: deps.clock,
    log,
    pollMs: settings.pollMs,
    timeoutMs: settings.timeoutMs,
    onPoll,
    receiverProblem: deps.env === 'live' ? (url) => liveDeliveryProblem(url) : undefined,
    lookup: deps.env === 'live' ? publicAddressLookup : undefined,
    isActive: (webhookId) => registry.has(webhookId),
  });
  return {
    webhooks,
    delivery,
    async stop() {
      await unlisten?.();
      await delivery!.stop();
      await reloaded;
    },
  };
}

function wakingOnCommit(store: Store, webhooks: Webhooks, wake: () => void): Store {
  const view = Object.create(store) as Store;
  view.write = (unit) => {
    let wrote = false;
    return store
      .write(async (trx) => {
        const value = await unit(trx);
        if (webhooks.wrote(trx)) wrote = true;
        return value;
      })
      .then((value) => {
        if (wrote) wake();
        return value;
      });
  };
  view.insert = (rows) => store.insert(rows).then(() => {
    if (rows.some((row) => row.table === 'webhook_outbox')) wake();
  });
  return view;
}
