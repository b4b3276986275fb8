// Notifications into the outbox, inside the commit of the change they report: a payment created
// or updated, a registration created or deleted. The envelope is {type, action, payload} (plus
// presentationAmount and presentationCurrency for payments); the payload is the answer the
// merchant would read (GET /v1/payments/{id}), with referencedId for referencing payments. Each
// row is encrypted for its webhook when it is written, so the outbox never holds readable
// customer data, and a retry sends the same bytes.
import type { Clock } from '../clock.ts';
import type { Merchants } from '../config.ts';
import { fromMinor } from '../money.ts';
import type { Deps } from '../payments/deps.ts';
import { paymentResponse, type Meta } from '../payments/response.ts';
import { registrationResponse } from '../registrations/registrations.ts';
import { responseTimestamp } from '../clock.ts';
import { insertRows, type RowInsert, type Trx } from '../store/db.ts';
import type { PaymentRecord } from '../store/payments.ts';
import type { RegistrationRecord } from '../store/registrations.ts';
import { bodyOf, encryptNotification } from './encryption.ts';
import type { WebhookRegistry } from './registry.ts';

export type WebhookEvent =
  | { type: 'PAYMENT'; action: 'CREATED' | 'UPDATED'; payment: PaymentRecord }
  | { type: 'REGISTRATION'; action: 'CREATED' | 'DELETED'; registration: RegistrationRecord; resultCode: string; ndc: string };

/** What domain code reaches through deps.webhooks. */
export interface Webhooks {
  registry: WebhookRegistry;
  /** The events' notifications as outbox rows (none for an entity without webhooks), for Store.insert. */
  rows(events: WebhookEvent[]): RowInsert[];
  /** Write the events' notifications in this transaction (nothing for an entity without webhooks). */
  enqueue(trx: Trx, events: WebhookEvent[]): Promise<void>;
  /** Whether this transaction wrote notifications (delivery is woken once it commits). */
  wrote(trx: Trx): boolean;
}

/** The one call domain code makes inside its store.write unit. */
export async function enqueueEvents(trx: Trx, deps: Pick<Deps, 'webhooks'>, ...events: WebhookEvent[]): Promise<void> {
  if (deps.webhooks && events.length > 0) await deps.webhooks.enqueue(trx, events);
}

export interface OutboxOptions {
  registry: WebhookRegistry;
  merchants: Merchants;
  buildNumber: string;
  clock: Clock;
  newId: () => string;
}

/** The notification's JSON, as the receiver decrypts it. */
export function envelopeOf(event: WebhookEvent, merchants: Merchants, meta: Meta): Record<string, unknown> | undefined {
  if (event.type === 'PAYMENT') {
    const p = event.payment;
    const entity = merchants.entity(p.entityId);
    if (!entity) return undefined;
    const { id, ...rest } = paymentResponse(p, entity, meta);
    // referencedId: in notifications only (the spec), next to the id it qualifies.
    const payload = p.referencedId ? { id, referencedId: p.referencedId, ...rest } : { id, ...rest };
    return { type: event.type, action: event.action, payload, presentationAmount: fromMinor(p.amountMinor), presentationCurrency: p.currency };
  }
  const r = event.registration;
  const entity = merchants.entity(r.entityId);
  if (!entity) return undefined;
  return { type: event.type, action: event.action, payload: registrationResponse({ kind: 'registration', registration: r, resultCode: event.resultCode }, entity, meta, event.ndc) };
}

const entityOf = (event: WebhookEvent) => (event.type === 'PAYMENT' ? event.payment.entityId : event.registration.entityId);
const resourceOf = (event: WebhookEvent) => (event.type === 'PAYMENT' ? event.payment.id : event.registration.id);

export function createWebhooks(options: OutboxOptions): Webhooks {
  const { registry, merchants, buildNumber, clock, newId } = options;
  const written = new WeakSet<Trx>();
  const rowsOf = (events: WebhookEvent[]): RowInsert[] => {
    const rows: RowInsert[] = [];
    let now: Date | undefined;
    for (const event of events) {
      const targets = registry.of(entityOf(event));
      if (targets.length === 0) continue;
      now ??= clock();
      const envelope = envelopeOf(event, merchants, { buildNumber, timestamp: responseTimestamp(now) });
      if (!envelope) continue;
      const plaintext = JSON.stringify(envelope);
      for (const webhook of targets) {
        const sealed = encryptNotification(plaintext, webhook.secret);
        const { body, contentType } = bodyOf(sealed.ciphertext, webhook.wrapper);
        const row = {
          id: newId(),
          entity_id: webhook.entityId,
          webhook_id: webhook.id,
          url: webhook.url,
          event_type: event.type,
          event_action: event.action,
          resource_id: resourceOf(event),
          content_type: contentType,
          body,
          iv: sealed.iv,
          tag: sealed.tag,
          status: 'pending',
          attempts: 0,
          next_attempt_at: now.getTime(),
          claimed_by: null,
          claim_expires_at: null,
          last_status: null,
          last_error: null,
          delivered_at: null,
          created_at: now.getTime(),
          updated_at: now.getTime(),
        };
        rows.push({ table: 'webhook_outbox', row });
      }
    }
    return rows;
  };
  return {
    registry,
    wrote: (trx) => written.has(trx),
    rows: rowsOf,
    async enqueue(trx, events) {
      const rows = rowsOf(events);
      if (rows.length === 0) return;
      await insertRows(trx, rows);
      written.add(trx);
    },
  };
}

/** A new payment's notifications: PAYMENT/CREATED, and REGISTRATION/CREATED for the registration it stored. */
export function createdEvents(payment: PaymentRecord, registration?: RegistrationRecord): WebhookEvent[] {
  return [{ type: 'PAYMENT', action: 'CREATED', payment }, ...registrationEvents(payment, registration)];
}

/** REGISTRATION/CREATED for a registration a successful payment stored (createRegistration=true). */
export function registrationEvents(payment: PaymentRecord, registration: RegistrationRecord | undefined): WebhookEvent[] {
  return registration ? [{ type: 'REGISTRATION', action: 'CREATED', registration, resultCode: payment.resultCode, ndc: payment.ndc }] : [];
}
