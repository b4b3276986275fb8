// The webhooks of each entity: those of the merchants file and those registered through the API.
// Payments ask for them inside their commit, so they are kept in memory (an entity without
// webhooks costs a map lookup); API webhooks are reloaded from the store after every change here,
// when another process announces one (PostgreSQL: NOTIFY, at once) and on the delivery poll.
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { Merchants } from '../config.ts';
import type { Vault } from '../registrations/vault.ts';
import { notifyOf, type Store } from '../store/db.ts';
import { activeWebhooks, cancelPendingOf, deleteWebhook, insertWebhook, WEBHOOKS_CHANGED } from '../store/webhooks.ts';
import type { Wrapper } from './encryption.ts';

export interface Webhook {
  id: string;
  entityId: string;
  url: string;
  wrapper: Wrapper;
  /** 64 hex characters: the AES-256 key of its notifications. */
  secret: string;
  /** config: from the merchants file (read-only here); api: POST /v1/webhooks. */
  source: 'config' | 'api';
  createdAt: number | null;
}

export type Removal = 'deleted' | 'not found' | 'configured';

const secretContext = (entityId: string, id: string) => `webhook:${entityId}:${id}`;

export class WebhookRegistry {
  private readonly configured = new Map<string, Webhook[]>();
  private registered = new Map<string, Webhook[]>();
  /** Secrets already opened, by webhook id (the vault is not asked again on every reload): the active webhooks' only. */
  private readonly secrets = new Map<string, string>();

  constructor(
    merchants: Merchants,
    private readonly store: Store,
    private readonly vault: Vault,
    private readonly clock: Clock,
    private readonly newId: () => string,
  ) {
    for (const merchant of merchants.merchants) {
      for (const entity of merchant.entities) {
        const hooks = entity.webhooks.map((w, i): Webhook => ({
          // A stable id, so that its outbox rows and GET /v1/webhooks name it the same after a restart.
          id: createHash('sha256').update(`config:${entity.id}:${i}:${w.url}`).digest('hex').slice(0, 32),
          entityId: entity.id,
          url: w.url,
          wrapper: w.wrapper,
          secret: w.secret,
          source: 'config',
          createdAt: null,
        }));
        if (hooks.length) this.configured.set(entity.id, hooks);
        for (const hook of hooks) this.configuredIds.add(hook.id);
      }
    }
  }

  /** Whether a webhook of this id is registered now (the merchants file's or the API's). */
  has(id: string): boolean {
    return this.configuredIds.has(id) || this.registeredIds.has(id);
  }

  private readonly configuredIds = new Set<string>();
  private registeredIds = new Set<string>();

  /** Where the entity's notifications go (empty for most entities). */
  of(entityId: string): readonly Webhook[] {
    const configured = this.configured.get(entityId);
    const registered = this.registered.get(entityId);
    if (!registered) return configured ?? [];
    return configured ? [...configured, ...registered] : registered;
  }

  /**
   * Reload the API webhooks of every entity from the store, one reload at a time (an older one
   * finishing last would bring back what a newer one saw deleted). Notifications this process (or
   * another, before it heard) wrote for a webhook deleted meanwhile are cancelled, as the DELETE
   * cancelled those before it.
   */
  refresh(): Promise<void> {
    const reload = this.reloading.then(() => this.reload());
    this.reloading = reload.catch(() => undefined);
    return reload;
  }

  private reloading: Promise<void> = Promise.resolve();

  private async reload(): Promise<void> {
    const rows = await activeWebhooks(this.store.db);
    const active = new Set(rows.map((row) => row.id));
    const gone = [...this.registered.values()].flat().filter((w) => !active.has(w.id));
    const next = new Map<string, Webhook[]>();
    for (const row of rows) {
      let secret = this.secrets.get(row.id);
      if (secret === undefined) this.secrets.set(row.id, (secret = this.vault.open(row.secret, secretContext(row.entity_id, row.id))));
      const list = next.get(row.entity_id) ?? [];
      list.push({ id: row.id, entityId: row.entity_id, url: row.url, wrapper: row.wrapper as Wrapper, secret, source: 'api', createdAt: Number(row.created_at) });
      next.set(row.entity_id, list);
    }
    // Swapped first: a payment from now on writes nothing for them, then what was written is cancelled.
    this.registered = next;
    this.registeredIds = active;
    // Deleted webhooks' secrets are not kept: registering and deleting again and again would grow the cache without end.
    for (const id of this.secrets.keys()) if (!active.has(id)) this.secrets.delete(id);
    if (gone.length) await this.store.write((trx) => cancelPendingOf(trx, gone.map((w) => w.id), this.clock().getTime()));
  }

  /** The entity's webhooks as the store has them now (the API's list). */
  async list(entityId: string): Promise<Webhook[]> {
    await this.refresh();
    return [...this.of(entityId)];
  }

  /** Register a webhook; without a secret one is generated (answered once, at creation). */
  /** The new webhook; undefined when the entity has an active one of this URL (registered meanwhile). */
  async add(entityId: string, input: { url: string; secret?: string; wrapper: Wrapper }): Promise<Webhook | undefined> {
    const id = this.newId();
    const secret = (input.secret ?? randomBytes(32).toString('hex')).toUpperCase();
    const now = this.clock().getTime();
    const added = await this.store.write(async (trx) => {
      const inserted = await insertWebhook(trx, {
        id,
        entity_id: entityId,
        url: input.url,
        wrapper: input.wrapper,
        secret: this.vault.seal(secret, secretContext(entityId, id)),
        status: 'active',
        created_at: now,
        updated_at: now,
      });
      if (inserted) await notifyOf(trx, this.store.dialect, WEBHOOKS_CHANGED);
      return inserted;
    });
    await this.refresh();
    if (!added) return undefined;
    this.secrets.set(id, secret);
    return { id, entityId, url: input.url, wrapper: input.wrapper, secret, source: 'api', createdAt: now };
  }

  async remove(entityId: string, id: string): Promise<Removal> {
    if ((this.configured.get(entityId) ?? []).some((w) => w.id === id)) return 'configured';
    const deleted = await this.store.write(async (trx) => {
      const done = await deleteWebhook(trx, entityId, id, this.clock().getTime());
      if (done) await notifyOf(trx, this.store.dialect, WEBHOOKS_CHANGED);
      return done;
    });
    await this.refresh();
    return deleted ? 'deleted' : 'not found';
  }
}
