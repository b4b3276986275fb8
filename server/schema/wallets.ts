// Mobile wallets (applePay.*, googlePay.*, samsungPay.*): the spec's <walletA>, <walletB> and
// <walletC>. Each comes as an encrypted token the gateway decrypts, or as card data the merchant
// decrypted itself, marked by <wallet>.source; the rules span card.* and threeDSecure.*.
import { z } from 'zod';
import { an, oneOf } from './common.ts';
import { paramError, type CodedParamError } from './errors.ts';

export const WALLETS = ['applePay', 'googlePay', 'samsungPay'] as const;
export type Wallet = (typeof WALLETS)[number];

/** The paymentBrand of each wallet (as the demo merchants configure them). */
export const WALLET_BRANDS: Record<Wallet, string> = { applePay: 'APPLEPAY', googlePay: 'GOOGLEPAY', samsungPay: 'SAMSUNGPAY' };
export const walletBrands = new Set(Object.values(WALLET_BRANDS));

/** The wallet a request carries (the first one, when it wrongly carries several), and its group. */
export function walletOf(v: Partial<Record<Wallet, { paymentToken?: string | undefined; source?: string | undefined } | undefined>>): { name: Wallet; paymentToken?: string; source?: string } | undefined {
  for (const name of WALLETS) {
    const wallet = v[name];
    if (wallet !== undefined) return { name, ...(wallet.paymentToken !== undefined ? { paymentToken: wallet.paymentToken } : {}), ...(wallet.source !== undefined ? { source: wallet.source } : {}) };
  }
  return undefined;
}

/** What a wallet's decrypted form (<wallet>.source) comes with: the card and the wallet's cryptogram. */
export const DECRYPTED_WALLET_FIELDS = ['card.number', 'card.expiryMonth', 'card.expiryYear', 'threeDSecure.verificationId', 'threeDSecure.eci'] as const;

// The token's format is the provider's (JSON of a few KiB); the cap only bounds the request.
const paymentToken = an(65536);
const source = oneOf(['web', 'app']).describe(
  `Marks the card data beside it as the wallet's, decrypted by the merchant: requires ${DECRYPTED_WALLET_FIELDS.join(', ')}; not sent with paymentToken.`,
);

export const applePay = z.strictObject({
  paymentToken: paymentToken.optional(),
  cardNetwork: an(255).optional(),
  cardType: an(255).optional(),
  source: source.optional(),
});

export const googlePay = z.strictObject({
  paymentToken: paymentToken.optional(),
  source: source.optional(),
});

export const samsungPay = googlePay;

export const walletGroups = {
  applePay: applePay.optional(),
  googlePay: googlePay.optional(),
  samsungPay: samsungPay.optional(),
};

interface WalletRequest {
  applePay?: z.infer<typeof applePay> | undefined;
  googlePay?: z.infer<typeof googlePay> | undefined;
  samsungPay?: z.infer<typeof samsungPay> | undefined;
  card?: { number?: string; expiryMonth?: string; expiryYear?: string } | undefined;
  threeDSecure?: { verificationId?: string; eci?: string } | undefined;
}

/**
 * One wallet per payment, in one form: a paymentToken and no card (encrypted), or source with
 * card.number, expiry, threeDSecure.verificationId and threeDSecure.eci (decrypted).
 */
export function checkWallet(v: WalletRequest): CodedParamError[] {
  const sent = WALLETS.filter((w) => v[w] !== undefined);
  if (sent.length === 0) return [];
  if (sent.length > 1) return sent.slice(1).map((w) => paramError(w, '', `cannot be sent together with ${sent[0]}`));
  const name = sent[0]!;
  const wallet = v[name]!;
  const errors: CodedParamError[] = [];
  if (wallet.paymentToken !== undefined) {
    if (wallet.source !== undefined) errors.push(paramError(`${name}.source`, wallet.source, `marks decrypted card data and cannot be sent with ${name}.paymentToken`));
    if (v.card !== undefined) errors.push(paramError('card.number', v.card.number, `cannot be sent with ${name}.paymentToken: the token carries the card`, '200.300.404'));
    return errors;
  }
  if (wallet.source === undefined) return [paramError(`${name}.paymentToken`, undefined, `or ${name}.source with decrypted card data is required`)];
  for (const param of DECRYPTED_WALLET_FIELDS) {
    const [group, field] = param.split('.') as ['card' | 'threeDSecure', string];
    if ((v[group] as Record<string, string | undefined> | undefined)?.[field] === undefined) errors.push(paramError(param, undefined, `is required with ${name}.source (decrypted ${name} data)`));
  }
  return errors;
}
