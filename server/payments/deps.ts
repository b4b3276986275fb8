// What domain code is given: side effects come in as parameters, never from imports of http.
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
  /** Webhook notifications, written with the change they report (absent: none are written). */
  webhooks?: Webhooks;
}

export interface Context {
  entity: Entity;
  ndc: string;
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
