// Row types of every table. Money is integer minor units; times are epoch milliseconds.
import type { Generated } from 'kysely';

export interface PaymentsTable {
  id: string;
  entity_id: string;
  payment_type: string;
  method: string;
  payment_brand: string;
  amount_minor: number;
  currency: string;
  /** success | rejected | pending */
  status: string;
  result_code: string;
  referenced_id: string | null;
  registration_id: string | null;
  sequence: string | null;
  number_of_captures: number | null;
  merchant_transaction_id: string | null;
  ndc: string;
  /** The accepted request structures the response echoes; never a card number or security code. */
  details: string;
  /** What the acquirer answered: avs, cvv, connector details, risk score. */
  acquirer: string;
  test_mode: string | null;
  created_at: number;
  updated_at: number;
}

export interface RegistrationsTable {
  id: string;
  entity_id: string;
  method: string;
  payment_brand: string;
  /** active | deleted */
  status: string;
  /** Account data the responses may show (masked card, bank account). */
  details: string;
  /** AES-256-GCM of the card or token number; null once deleted. */
  secret: string | null;
  created_at: number;
  updated_at: number;
}

export interface IdempotencyKeysTable {
  entity_id: string;
  key: string;
  operation: string;
  request_hash: string;
  /** pending | done */
  status: string;
  http_status: number | null;
  response: string | null;
  created_at: number;
  /** The payment the request reserved (a reference), for a retry that takes the key over. */
  payment_id: string | null;
}

export interface CheckoutsTable {
  /** 32 lowercase hex, a dot, the node name. */
  id: string;
  entity_id: string;
  /** open | processing | paid | cancelled */
  status: string;
  /** The merchant's accepted checkout request (JSON); it never holds account data. */
  request: string;
  /** The successful payment, once paid. */
  payment_id: string | null;
  /** The registration the payment created (createRegistration=true). */
  registration_id: string | null;
  created_at: number;
  updated_at: number;
  expires_at: number;
  /** Its payment attempts declined so far (store/checkouts.ts › CHECKOUT_DECLINES_LIMIT). */
  declines: Generated<number>;
}

export interface ThreedsTable {
  /** The authentication id (authId) of the redirect URLs. */
  id: string;
  entity_id: string;
  /** payment (3-D Secure of a payment) | standalone (POST /v1/threeDSecure) | provider (approval at a provider's page) */
  kind: string;
  /** method | challenge | provider | completing | done */
  status: string;
  /** The simulated directory server's path (frictionless, challenge, …), or provider. */
  path: string;
  payment_id: string | null;
  checkout_id: string | null;
  payment_brand: string;
  /** SHA-256 (hex) of the token the redirect carries; the token itself is never stored. */
  token_hash: string;
  /** The final code once done. */
  result_code: string | null;
  /** What the pages and the completion need (JSON): amounts, outcome fields; never card data. */
  data: string;
  /** Vault ciphertext of the account the authorization needs after the step; null once done. */
  secret: string | null;
  expires_at: number;
  created_at: number;
  updated_at: number;
}

export interface WebhooksTable {
  id: string;
  entity_id: string;
  url: string;
  /** none (hex body) | json ({"encryptedBody": hex}) */
  wrapper: string;
  /** The 64-hex key, vault-sealed (bound to the webhook); never answered after creation. */
  secret: string;
  /** active | deleted */
  status: string;
  created_at: number;
  updated_at: number;
}

export interface WebhookOutboxTable {
  id: string;
  entity_id: string;
  /** The API webhook's id, or the id derived for a merchants-file webhook. */
  webhook_id: string;
  url: string;
  /** PAYMENT | REGISTRATION */
  event_type: string;
  /** CREATED | UPDATED | DELETED */
  event_action: string;
  /** The payment or registration the notification is about. */
  resource_id: string;
  /** text/plain (hex body) | application/json (the wrapper) */
  content_type: string;
  /** The HTTP body as sent: the envelope encrypted for the webhook (hex, or wrapped), never plaintext. */
  body: string;
  /** Hex IV and GCM tag of the body (X-Initialization-Vector, X-Authentication-Tag). */
  iv: string;
  tag: string;
  /** pending | delivered | failed | cancelled (its webhook was deleted) */
  status: string;
  attempts: number;
  next_attempt_at: number;
  /** The delivering process while it holds the row, and until when (a crashed one's lease runs out). */
  claimed_by: string | null;
  claim_expires_at: number | null;
  /** The receiver's last HTTP status, or the last error (timeout, connection refused). */
  last_status: number | null;
  last_error: string | null;
  delivered_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface SchedulesTable {
  id: string;
  entity_id: string;
  /** The registration each firing pays with. */
  registration_id: string;
  /** active | cancelled (DELETE) | ended (no occurrence left) */
  status: string;
  /** The 6- or 7-field Quartz expression the job's fields or job.expression make. */
  expression: string;
  /** The accepted request (JSON): payment fields and job.* as sent; never account data. */
  request: string;
  /** job.startDate and job.endDate, epoch ms UTC. */
  start_at: number | null;
  end_at: number | null;
  /** The next occurrence to fire; null once the schedule ended or was cancelled. */
  next_run_at: number | null;
  firings: number;
  last_run_at: number | null;
  last_payment_id: string | null;
  last_result_code: string | null;
  /** When the firing of last_run_at was claimed (epoch ms); null once it is recorded (last_result_code set). */
  claimed_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface Database {
  payments: PaymentsTable;
  registrations: RegistrationsTable;
  idempotency_keys: IdempotencyKeysTable;
  checkouts: CheckoutsTable;
  threeds: ThreedsTable;
  webhooks: WebhooksTable;
  webhook_outbox: WebhookOutboxTable;
  schedules: SchedulesTable;
  card_key_check: CardKeyCheckTable;
}

/** The digest of the CARD_KEY the database was first used with (one row, entity_id ''). */
export interface CardKeyCheckTable {
  entity_id: string;
  digest: string;
  created_at: number;
}
