// A registration record ready to store: its account number sealed with the vault, bound to the registration.
import type { Deps } from '../payments/deps.ts';
import type { RegistrationRecord } from '../store/registrations.ts';

/** A registration to store with a successful payment; `number` is sealed before it is written. */
export interface NewRegistration {
  method: string;
  paymentBrand: string;
  details: Record<string, unknown>;
  number?: string;
}

export function sealedRegistration(deps: Deps, entityId: string, id: string, r: NewRegistration, now: number): RegistrationRecord {
  return {
    id,
    entityId,
    method: r.method,
    paymentBrand: r.paymentBrand,
    status: 'active',
    details: r.details,
    secret: r.number === undefined ? null : deps.vault.seal(r.number, `${entityId}:${id}`),
    createdAt: now,
    updatedAt: now,
  };
}
