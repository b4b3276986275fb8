// Wallets on the payment form (docs/widget-protocol.md, "Wallets"): what the form's Payment
// Request needs to ask Apple Pay, Google Pay or Samsung Pay for an encrypted token, and Apple
// Pay's merchant validation. The token itself is paid like any account (pay.ts, method WA).
import { createHash, randomBytes } from 'node:crypto';
import type { Entity } from '../config.ts';
import type { Deps, Invalid, Refusal } from '../payments/deps.ts';
import { failure, paramError } from '../schema/errors.ts';
import { walletBrands } from '../schema/wallets.ts';
import { stateOf, type Checkout, type Stated } from './checkouts.ts';

/**
 * The gateway's own ids at the wallet providers: the tokenizing gateway Google Pay encrypts for,
 * the Apple Pay merchant identifier whose certificate validates merchants (the gateway validates
 * for every merchant, as payment providers do) and the Samsung Pay service. Placeholders until
 * the gateway is registered with the providers: no live connector decrypts tokens yet.
 */
export const PROVIDER_IDS = { gateway: 'pwgateway', appleMerchantId: 'merchant.com.pwgateway', samsungServiceId: 'pwgateway' } as const;

/** The merchant's country when the entity names none (config: entities[].country). */
const DEFAULT_COUNTRY = 'DE';

/** The form data's `wallet`: what a Payment Request for the entity's wallets carries besides amount and currency. */
export interface WalletForm {
  /** Shown on the wallet's sheet and as the total's label. */
  merchantName: string;
  /** ISO 3166 alpha-2: Apple Pay's and Google Pay's countryCode. */
  country: string;
  /**
   * Google Pay's gatewayMerchantId (Samsung Pay's userId): the entity id, which names the merchant
   * whose token it is and authorizes nothing without the merchant's access token.
   */
  gatewayMerchantId: string;
  gateway: string;
  appleMerchantId: string;
  samsungServiceId: string;
  /** The providers' test environment (Google Pay TEST, Samsung Pay's test mode): the test gateway's. */
  environment: 'TEST';
}

/**
 * The form data's wallet part, when the entity offers a wallet; nothing else of the entity is
 * shown. None in live: the provider ids are placeholders, which a real wallet refuses (Google Pay's
 * PRODUCTION also needs a merchantId), so the form shows no button that cannot work.
 */
export function walletForm(deps: Deps, entity: Entity): WalletForm | undefined {
  if (deps.env === 'live' || !entity.brands.some((brand) => walletBrands.has(brand))) return undefined;
  return {
    merchantName: entity.merchantName,
    country: entity.country ?? DEFAULT_COUNTRY,
    gatewayMerchantId: entity.id,
    ...PROVIDER_IDS,
    environment: 'TEST',
  };
}

/**
 * Apple's validation URLs (the merchantvalidation event's validationURL): its hosts only, so the
 * gateway never fetches an address a page chose. https://developer.apple.com/documentation/apple_pay_on_the_web/setting_up_your_server
 */
const APPLE_VALIDATION_HOST = /^(cn-)?apple-pay-gateway(-[a-z0-9]+)*\.apple\.com(\.cn)?$/;

export function isAppleValidationUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.port === '' && APPLE_VALIDATION_HOST.test(url.hostname);
  } catch {
    return false;
  }
}

/** An opaque Apple Pay merchant session: what the page passes to event.complete() unread. */
export interface MerchantSession {
  kind: 'merchantSession';
  session: Record<string, string | number>;
}

/**
 * Apple Pay's merchant validation for a checkout: the checkout must be open and its entity offer
 * APPLEPAY. In the test environment the simulated connector answers a simulated session (the sheet
 * of a real Safari refuses it: it carries no Apple signature); in live there is no connection to
 * Apple, and the request is refused as a method the gateway is not configured for.
 */
export async function merchantSession(deps: Deps, entity: Entity, checkout: Checkout, request: { validationUrl?: string; origin?: string }): Promise<MerchantSession | Stated | Invalid | Refusal> {
  const state = await stateOf(deps, checkout);
  if (state.name !== 'open') return { kind: 'state', checkout, state };
  const invalid = (name: string, value: string | undefined, message: string, code?: Parameters<typeof paramError>[3]): Invalid => ({ kind: 'invalid', failure: failure([paramError(name, value, message, code)]) });
  if (!entity.brands.includes('APPLEPAY')) return invalid('paymentBrand', 'APPLEPAY', 'is not configured for this entity', '600.200.201');
  const { validationUrl, origin } = request;
  if (validationUrl === undefined || !isAppleValidationUrl(validationUrl)) {
    return invalid('validationUrl', validationUrl, validationUrl === undefined ? 'is required: the validationURL of the merchantvalidation event' : "must be an https URL of Apple Pay's validation servers (apple-pay-gateway*.apple.com)", '200.300.404');
  }
  let domainName: string;
  try {
    domainName = new URL(origin ?? '').hostname;
  } catch {
    return invalid('Origin', origin ?? '', "is required: the shop page's origin, whose domain Apple Pay validates", '200.300.404');
  }
  if (deps.env === 'live') {
    return invalid('paymentBrand', 'APPLEPAY', 'cannot be validated: this gateway has no connection to Apple Pay in live (no merchant identity certificate)', '600.200.201');
  }
  const now = deps.clock().getTime();
  const hex = (bytes: number) => randomBytes(bytes).toString('hex');
  return {
    kind: 'merchantSession',
    session: {
      epochTimestamp: now,
      expiresAt: now + 60 * 60 * 1000,
      merchantSessionIdentifier: `SIM_${hex(16)}`,
      nonce: hex(4),
      merchantIdentifier: createHash('sha256').update(PROVIDER_IDS.appleMerchantId).digest('hex').toUpperCase(),
      domainName,
      displayName: entity.merchantName,
      signature: randomBytes(64).toString('base64'),
    },
  };
}
