// What domain code is given: side effects come in as parameters, never from imports of http.
import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import type { Entity, GatewayEnv } from '../config.ts';
import type { Vault } from '../registrations/vault.ts';
import type { ResultCode } from '../results.ts';
import type { ValidationFailure } from '../schema/errors.ts';
import type { Acquirer } from '../simulator/acquirer.ts';
import type { Store, Trx } from '../store/db.ts';
import type { Webhooks } from '../webhooks/outbox.ts';

export interface Deps {
  store: Store;
  acquirer: Acquirer;
  clock: Clock;
  vault: Vault;
  env: GatewayEnv;
  newId: () => string;
  /** How long the acquirer may take to answer before its answer counts as lost (payments/unanswered.ts). */
  acquirerTimeoutMs: number;
  /** Reversals of authorizations not recorded as approved still in flight: a stopping gateway waits for them. */
  reversals: Set<Promise<void>>;
  /** What operators must hear of (the app's logger, once it exists). */
  log?: Pick<Logger, 'warn' | 'error'>;
  /** Webhook notifications, written with the change they report (absent: none are written). */
  webhooks?: Webhooks;
}

export interface Context {
  entity: Entity;
  ndc: string;
  /** The request's Idempotency-Key claim, when it was sent with one (store/idempotency.ts). */
  idempotency?: KeyClaim;
}

export interface KeyClaim {
  /** The key as stored, and the time of this request's claim of it. */
  key: string;
  claimedAt: number;
  /** The payment an earlier attempt of this request reserved, when this one took its key over. */
  reserved: string | null;
}

/** Extra writes that must commit with the domain's own (an idempotency record, a webhook). */
export type AlsoWrite<T> = (trx: Trx, value: T) => Promise<void>;

/** A refusal by rule: the catalogue code, and whether the thing referred to does not exist. */
export interface Refusal {
  kind: 'refused';
  code: ResultCode;
  notFound?: boolean;
}

export interface Invalid {
  kind: 'invalid';
  failure: ValidationFailure;
}

export const refused = (code: ResultCode, notFound = false): Refusal => ({ kind: 'refused', code, notFound });
