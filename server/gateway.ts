// Assembles the gateway from settings: store, acquirer, vault, throttle and the HTTP app.
import { Cron } from 'croner';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { KEEP_ENDED_MS } from './checkouts/checkouts.ts';
import { systemClock, type Clock } from './clock.ts';
import { loadMerchants, type Merchants, type Settings } from './config.ts';
import { buildApp } from './http/app.ts';
import type { Gateway } from './http/pipeline.ts';
import { createThrottle } from './http/throttle.ts';
import { loadWidgetAssets } from './http/widgetAssets.ts';
import { newId } from './ids.ts';
import { startScheduler } from './registrations/scheduler.ts';
import { createVault, loadCardKey } from './registrations/vault.ts';
import { checkCardKey } from './store/cardKey.ts';
import type { Acquirer } from './simulator/acquirer.ts';
import { createSimulator } from './simulator/simulator.ts';
import { openStore, type Store } from './store/db.ts';
import { purgeEndedCheckouts } from './store/checkouts.ts';
import { hashMerchantKeys, purgeExpiredKeys } from './store/idempotency.ts';
import { purgeEndedSteps } from './store/threeds.ts';
import { sweep } from './threeds/steps.ts';
import type { Deps } from './payments/deps.ts';
import { sweepReservations } from './payments/reference.ts';
import { MAX_ACQUIRER_TIMEOUT_MS } from './payments/unanswered.ts';
import { startWebhooks } from './webhooks/webhooks.ts';

/** What the card-key digest is taken of: a constant, so that equal keys give equal digests. */
const CARD_KEY_CHECK = 'card-key-check';

export interface GatewayOverrides {
  clock?: Clock;
  acquirer?: Acquirer;
  merchants?: Merchants;
  logger?: Logger;
}

export interface RunningGateway {
  app: FastifyInstance;
  gateway: Gateway;
  store: Store;
  /** Abandon every pending payment whose redirect step's time is up, and finish every reservation a stopped process left (what the per-minute sweep runs). */
  sweep(): Promise<number>;
  /** Deliver every webhook notification that is due now, and wait until that is done. */
  deliverWebhooks(): Promise<void>;
  /** How many webhooks delivery counts as silent (their receiver did not answer their last attempt). */
  silentWebhooks(): number;
  /** Fire every scheduled payment whose occurrence is due now, and wait until that is done; resolves with how many this process fired. */
  runSchedules(): Promise<number>;
  /** Delete the checkouts and redirect steps that ended KEEP_ENDED_MS ago (what the hourly purge runs); resolves with how many of each. */
  purgeEnded(): Promise<{ checkouts: number; steps: number }>;
  close(): Promise<void>;
}

export async function createGateway(settings: Settings, overrides: GatewayOverrides = {}): Promise<RunningGateway> {
  // A merchants file that does not read stops startup before anything is opened.
  const merchants = overrides.merchants ?? loadMerchants(settings.merchantsFile);
  // What the store and the throttle meet before the app's logger exists is told through it once it does.
  let log: Pick<Logger, 'warn'> | undefined;
  const store = await openStore({
    dataDir: settings.dataDir,
    databaseUrl: settings.databaseUrl,
    onConnectionLost: (error) => log?.warn({ err: error.message }, 'a PostgreSQL connection was lost; the next query opens another'),
  });
  const clock = overrides.clock ?? systemClock;
  let vault: ReturnType<typeof createVault>;
  try {
    vault = createVault(loadCardKey(settings.cardKey, settings.dataDir));
  } catch (error) {
    await store.close();
    throw error;
  }
  await checkCardKey(store.db, vault.digest(CARD_KEY_CHECK), clock().getTime()).catch(async (error: Error) => {
    await store.close();
    throw error;
  });
  // Before any request: merchants' keys an earlier version kept as sent are hashed with the card key.
  await hashMerchantKeys(store, vault.digest, clock().getTime()).catch(async (error: Error) => {
    await store.close();
    throw error;
  });
  const gateway: Gateway = {
    deps: {
      store,
      acquirer: overrides.acquirer ?? createSimulator(clock),
      clock,
      vault,
      env: settings.env,
      newId,
      acquirerTimeoutMs: settings.acquirerTimeoutMs ?? MAX_ACQUIRER_TIMEOUT_MS,
      reversals: new Set(),
    },
    merchants,
    throttle: await createThrottle(settings.redisUrl, (message, error) => log?.warn(error ? { err: error.message } : {}, message)).catch(async (error: Error) => {
      await store.close();
      throw error;
    }),
    buildNumber: settings.buildNumber,
    assets: loadWidgetAssets(settings.distDir),
  };
  const app = await buildApp(gateway, { logLevel: settings.logLevel, logger: overrides.logger, trustProxy: settings.trustProxy, maxInFlight: settings.maxInFlight });
  log = app.log;
  gateway.deps.log = app.log;
  void store.indexes?.then(({ built, error }) => {
    if (built.length > 0) app.log.info({ indexes: built }, 'indexes built concurrently');
    if (error) app.log.error({ err: error.message }, 'a concurrent index build failed; the next start builds it again');
  });
  if (settings.env === 'live' && !settings.trustProxy) {
    app.log.warn('GATEWAY_ENV=live without TRUST_PROXY: the gateway cannot tell requests over TLS from others, and writes http:// URLs; name the TLS proxy in TRUST_PROXY');
  }
  if (!gateway.assets.ready) app.log.warn(gateway.assets.problem);
  else for (const problem of gateway.assets.problems) app.log.warn(problem);
  const webhooks = await startWebhooks(gateway, app.log, { pollMs: settings.webhookPollMs, timeoutMs: settings.webhookTimeoutMs });
  // After webhooks: scheduled payments notify like any other.
  const scheduler = startScheduler({ deps: gateway.deps, entity: (id) => gateway.merchants.entity(id), log: app.log, pollMs: settings.schedulePollMs, leaseMs: settings.scheduleLeaseMs });
  // Idempotency records live 24 hours, checkouts and redirect steps 31 days after they ended: what
  // is older is cleared every hour.
  const purge = new Cron('0 17 * * * *', { timezone: 'UTC', protect: true }, async () => {
    await purgeExpiredKeys(store, clock().getTime()).catch((error: Error) => app.log.warn({ err: error.message }, 'purge failed'));
    await purgeEnded(store, clock().getTime()).catch((error: Error) => app.log.warn({ err: error.message }, 'purge of ended checkouts and steps failed'));
  });
  // Pending payments nobody finished end as 100.396.103 after 30 minutes, and reservations a stopped
  // process left are finished after 2: swept every minute (reads also check lazily).
  let sweeping: Promise<unknown> = Promise.resolve();
  const sweeper = new Cron('0 * * * * *', { timezone: 'UTC', protect: true }, async () => {
    sweeping = sweepPending(gateway.deps).catch((error: Error) => app.log.warn({ err: error.message }, 'sweep of abandoned payments failed'));
    await sweeping;
  });
  return {
    app,
    gateway,
    store,
    sweep: () => sweepPending(gateway.deps),
    deliverWebhooks: () => webhooks.delivery.idle(),
    silentWebhooks: () => webhooks.delivery.silentWebhooks(),
    runSchedules: () => scheduler.runDue(),
    purgeEnded: () => purgeEnded(store, clock().getTime()),
    async close() {
      purge.stop();
      sweeper.stop();
      // A sweep under way may still reverse what it ends: it finishes before the store closes.
      await sweeping;
      await scheduler.stop();
      await webhooks.stop();
      await app.close();
      // Reversals of authorizations not recorded as approved are finished, not dropped (a late
      // approval may start another meanwhile).
      while (gateway.deps.reversals.size) await Promise.allSettled([...gateway.deps.reversals]);
      await gateway.throttle.close();
      await store.close();
    },
  };
}

/**
 * Checkouts and redirect steps that ended KEEP_ENDED_MS before `now`, deleted (neither one whose
 * payment is still pending). Their payments stay, readable by their ids.
 */
async function purgeEnded(store: Store, now: number): Promise<{ checkouts: number; steps: number }> {
  return { checkouts: await purgeEndedCheckouts(store, now - KEEP_ENDED_MS), steps: await purgeEndedSteps(store, now - KEEP_ENDED_MS) };
}

/** The per-minute sweep: redirect steps whose time is up, then stale reservations. */
async function sweepPending(deps: Deps): Promise<number> {
  return (await sweep(deps)) + (await sweepReservations(deps));
}
