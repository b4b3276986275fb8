// The wallets' Payment Request data (W3C Payment Request API; no provider script on the shop's
// page): each wallet's method identifier and the data its payment handler expects, and the
// fields of the checkout payment its answer becomes (<wallet>.paymentToken, docs/widget-protocol.md).
import type { CheckoutForm, WalletForm } from '../internal/context.ts';

/** The wallet brands, in the order their buttons show, with their payment method identifiers. */
export const WALLET_METHODS: Readonly<Record<string, string>> = {
  APPLEPAY: 'https://apple.com/apple-pay',
  GOOGLEPAY: 'https://google.com/pay',
  SAMSUNGPAY: 'https://spay.samsung.com',
};

/** Card brands the wallets may hand over, by Apple Pay's name (Google Pay's in capitals, Samsung Pay's in lower case). */
const NETWORKS: Readonly<Record<string, string>> = { VISA: 'visa', MASTER: 'masterCard', AMEX: 'amex', DISCOVER: 'discover', JCB: 'jcb', MAESTRO: 'maestro' };

/**
 * Apple Pay takes a network only from the version that introduced it (maestro: 4; the others: 1 or
 * 2), and the lowest version the networks need is the one to ask for (Apple's "Supporting payment
 * networks"): a version-3 request naming maestro is refused, which hid Apple Pay from every entity
 * taking Maestro.
 */
const APPLE_VERSION = (networks: string[]) => (networks.includes('maestro') ? 4 : 3);

/** The brands Samsung Pay's Payment Request takes (its allowedCardNetworks values). */
const SAMSUNG_NETWORKS = new Set(['visa', 'mastercard', 'amex', 'discover']);

/**
 * The data the wallet's payment handler expects (Apple Pay JS version 3, 4 with maestro; Google Pay
 * API 2; Samsung Pay web 1), or undefined when the wallet could hand over none of the entity's card networks.
 */
export function methodData(brand: string, checkout: CheckoutForm, checkoutId: string, w: WalletForm): PaymentMethodData | undefined {
  // The entity's card brands; Visa and Mastercard when it lists none (the wallet decides then).
  const networks = checkout.brands.filter((b) => NETWORKS[b]).map((b) => NETWORKS[b]!);
  if (!networks.length) networks.push('visa', 'masterCard');
  const samsung = networks.map((n) => n.toLowerCase()).filter((n) => SAMSUNG_NETWORKS.has(n));
  if (brand === 'SAMSUNGPAY' && !samsung.length) return undefined;
  const data =
    brand === 'APPLEPAY'
      ? { version: APPLE_VERSION(networks), merchantIdentifier: w.appleMerchantId, merchantCapabilities: ['supports3DS'], supportedNetworks: networks, countryCode: w.country }
      : brand === 'GOOGLEPAY'
        ? {
            environment: w.environment,
            apiVersion: 2,
            apiVersionMinor: 0,
            merchantInfo: { merchantName: w.merchantName },
            allowedPaymentMethods: [
              {
                type: 'CARD',
                parameters: { allowedAuthMethods: ['PAN_ONLY', 'CRYPTOGRAM_3DS'], allowedCardNetworks: networks.map((n) => n.toUpperCase()) },
                tokenizationSpecification: { type: 'PAYMENT_GATEWAY', parameters: { gateway: w.gateway, gatewayMerchantId: w.gatewayMerchantId } },
              },
            ],
          }
        : {
            version: '1',
            productId: w.samsungServiceId,
            allowedCardNetworks: samsung,
            orderNumber: checkoutId.slice(0, 32),
            merchantName: w.merchantName,
            merchantGatewayParameter: { userId: w.gatewayMerchantId },
            paymentProtocol: 'PROTOCOL_3DS',
          };
  return { supportedMethods: WALLET_METHODS[brand]!, data };
}

/** The checkout's total: its amount (a decimal string, never a float) and currency, labelled with the merchant's name. */
export const paymentDetails = (checkout: CheckoutForm, w: WalletForm): PaymentDetailsInit => ({
  total: { label: w.merchantName, amount: { currency: checkout.currency, value: checkout.amount } },
});

/**
 * The checkout payment's fields for a wallet's answer: Google Pay's tokenizationData.token, Apple
 * Pay's token.paymentData (with the network and type of its paymentMethod), Samsung Pay's
 * paymentCredential, each as JSON when it is an object. Undefined when the answer holds no token:
 * nothing else of the answer (contact or address data, a null) is ever sent as one.
 */
export function tokenFields(brand: string, details: any): Record<string, string> | undefined {
  const raw = brand === 'GOOGLEPAY' ? details?.paymentMethodData?.tokenizationData?.token : brand === 'APPLEPAY' ? details?.token?.paymentData : details?.paymentCredential;
  const token = typeof raw === 'string' ? raw : raw !== null && typeof raw === 'object' ? JSON.stringify(raw) : undefined;
  if (typeof token !== 'string' || !token) return undefined;
  const wallet = brand === 'APPLEPAY' ? 'applePay' : brand === 'GOOGLEPAY' ? 'googlePay' : 'samsungPay';
  const method = brand === 'APPLEPAY' ? details.token.paymentMethod : undefined;
  return {
    paymentBrand: brand,
    [`${wallet}.paymentToken`]: token,
    ...(method?.network && { 'applePay.cardNetwork': String(method.network) }),
    ...(method?.type && { 'applePay.cardType': String(method.type) }),
  };
}
