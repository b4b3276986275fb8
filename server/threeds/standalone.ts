// Standalone 3-D Secure (POST /v1/threeDSecure, GET /v1/threeDSecure/{id}): authenticate a card
// without paying. Frictionless answers 000.400.110 at once; a challenge is pending (000.200.000)
// with the same redirect and pages as a payment's; refusals answer their 000.400.x code. Every
// authentication is a row of the steps table (kind standalone), so that it can be read later;
// it never keeps the card (nothing is authorized after it).
import { echoedDetails, maskedAccount, checkEntityAllows, type RedirectStep } from '../payments/create.ts';
import { refused, type AlsoWrite, type Context, type Deps, type Invalid, type Refusal } from '../payments/deps.ts';
import type { AuthenticationRequest } from '../schema/authentication.ts';
import { failure } from '../schema/errors.ts';
import type { AccountCheck } from '../schema/requests.ts';
import { findEntityStep, insertStep } from '../store/threeds.ts';
import { fromMinor, toMinor } from '../money.ts';
import { firstAnswer, newAuthenticationIds, pathOf, standaloneCode, threeDSecureFields, UNKNOWN_CARD, type Exemptions, type Outcome } from './directory.ts';
import { missingForAuthentication } from './policy.ts';
import { current, newToken, pageLanguages, PENDING_LIFETIME_MS, type Step, type StepData } from './steps.ts';
import { successCode } from '../payments/resultCodes.ts';
import { ID } from '../ids.ts';

export interface Authentication {
  kind: 'authentication';
  step: Step;
  /** A challenge: where the shopper must go now. */
  redirect?: RedirectStep;
}

export async function authenticate(
  deps: Deps,
  ctx: Context,
  request: AuthenticationRequest & { account: AccountCheck },
  alsoWrite?: AlsoWrite<Authentication>,
): Promise<Authentication | Invalid | Refusal> {
  const { account, card } = request;
  const refusal = checkEntityAllows(ctx, 'DB', account);
  if (refusal) return refusal;
  // The entity does not authenticate: 3-D Secure is not configured for it.
  if (!ctx.entity.threeDSecure) return refused('600.200.202');
  const missing = missingForAuthentication(request.customer, request.billing, request.shopperResultUrl === undefined);
  if (missing.length) return { kind: 'invalid', failure: failure(missing) };

  const now = deps.clock().getTime();
  const id = deps.newId();
  const exemptions: Exemptions = { challengeIndicator: request.threeDSecure?.challengeIndicator, exemptionFlag: request.threeDSecure?.exemptionFlag };
  const ids = newAuthenticationIds();
  const path = pathOf(card!.number, request.customParameters);
  const first = path === 'none' ? undefined : firstAnswer(path, exemptions);
  const ended: Outcome | undefined = !first ? UNKNOWN_CARD : first.kind === 'method' ? undefined : first.kind === 'refused' ? first : { ...first, challenged: false };
  const requested = request.threeDSecure as Record<string, string> | undefined;
  const { account: _account, ...echoed } = request;
  const { token, hash } = newToken();
  const data: StepData = {
    amount: fromMinor(toMinor(request.threeDSecure?.amount ?? request.amount)!),
    currency: request.threeDSecure?.currency ?? request.currency,
    account: maskedAccount(request),
    shopperResultUrl: request.shopperResultUrl,
    merchantName: request.threeDSecure?.merchant?.name ?? request.merchant?.name ?? ctx.entity.name,
    ...pageLanguages(request),
    exemptions,
    ids,
    challengeWindow: request.customer?.browser?.challengeWindow,
    testMode: request.testMode,
    details: { ...maskedAccount(request), ...echoedDetails(echoed) },
    ndc: ctx.ndc,
    threeDSecure: { ...requested, ...threeDSecureFields(ended ?? 'pending', account.brand, ids, exemptions) },
  };
  const step: Step = {
    id,
    entityId: ctx.entity.id,
    kind: 'standalone',
    status: ended ? 'done' : 'method',
    path,
    paymentId: null,
    checkoutId: null,
    paymentBrand: account.brand,
    tokenHash: hash,
    resultCode: ended ? standaloneCode(ended, successCode(deps.env, request.testMode)) : null,
    data,
    secret: null,
    expiresAt: now + PENDING_LIFETIME_MS,
    createdAt: now,
    updatedAt: now,
  };
  const done: Authentication = { kind: 'authentication', step, ...(ended ? {} : { redirect: { kind: 'threeds', id, token } }) };
  await deps.store.write(async (trx) => {
    await insertStep(trx, step);
    if (alsoWrite) await alsoWrite(trx, done);
  });
  return done;
}

/** A standalone authentication of the entity, as it is now (abandoned once its 30 minutes are up). */
export async function readAuthentication(deps: Deps, ctx: Context, id: string): Promise<Authentication | Refusal> {
  const step = ID.test(id) ? await findEntityStep<StepData>(deps.store.db, ctx.entity.id, id, 'standalone') : undefined;
  if (!step) return refused('700.400.580', true);
  return { kind: 'authentication', step: await current(deps, step) };
}
