// What the gateway keeps of an accepted request and answers back (payment responses, GET, the
// payload of webhooks): every structure the merchant sent, except secrets. The one place that
// says what is masked or left out; payments, checkouts and standalone authentications use it.
//
//   card.*                    bin, last4Digits, holder, expiry; never the number or the security code
//   tokenAccount.*            type, last4Digits, expiry; never the number, cryptogram or dtvc
//   bankAccount.*, virtualAccount.*  as sent (an IBAN names an account, it does not pay by itself)
//   giftCard.pin              left out
//   giftCard.number           masked, last four shown when at least 8 characters long
//   pos.encryptedPin.*, pos.encryptedSred.*, pos.iccDataRequest   left out
//   <wallet>.paymentToken     left out (applePay, googlePay, samsungPay)
//   sender.accountNumber, recipient.accountNumber   a card number (CARD_ACCOUNT, or 12-19 digits
//                             passing the Luhn check) is masked to its last four digits
import { looksLikeCardNumber } from './cardNumber.ts';
import type { InitialPaymentRequest } from './requests.ts';
import { WALLETS } from './wallets.ts';

type Group = Record<string, unknown>;

/** Top-level parameters answered elsewhere (amount, type, brand …) or never (accounts, instructions). */
export const NOT_ECHOED = new Set([
  'amount', 'currency', 'paymentType', 'paymentBrand', 'card', 'bankAccount', 'virtualAccount', 'tokenAccount',
  'testMode', 'createRegistration', 'overrideHolder', 'account', 'sequence', 'numberOfCaptures', 'merchantTransactionId',
]);

/** A number shown as on a receipt: its last four characters when at least 8 long, otherwise nothing of it. */
export function maskNumber(value: string): string {
  return value.length >= 8 ? '*'.repeat(value.length - 4) + value.slice(-4) : '*'.repeat(value.length);
}

/** An account number that is (or looks like) a card number: the transfer says so, or 12-19 digits with a valid check digit. */
export function isCardNumber(accountNumber: string, accountNumberType: unknown): boolean {
  return accountNumberType === 'CARD_ACCOUNT' || looksLikeCardNumber(accountNumber);
}

function party(value: Group): Group {
  const { accountNumber, accountNumberType } = value;
  if (typeof accountNumber !== 'string' || !isCardNumber(accountNumber, accountNumberType)) return value;
  return { ...value, accountNumber: maskNumber(accountNumber.replace(/[\s-]/g, '')) };
}

function giftCard({ pin: _pin, number, ...rest }: Group): Group {
  return typeof number === 'string' ? { number: maskNumber(number), ...rest } : rest;
}

function pos({ encryptedPin: _pin, encryptedSred: _sred, iccDataRequest: _icc, ...rest }: Group): Group {
  return rest;
}

function wallet({ paymentToken: _token, ...rest }: Group): Group {
  return rest;
}

/** Per group: its value as kept and echoed. Groups not named here hold no secrets. */
const SECRETS_OF: Record<string, (value: Group) => Group> = {
  giftCard,
  pos,
  sender: party,
  recipient: party,
  ...Object.fromEntries(WALLETS.map((name) => [name, wallet])),
};

/** The groups that are answered without some of their fields (see the table above). */
export const ECHOED_WITHOUT_SECRETS: ReadonlySet<string> = new Set(Object.keys(SECRETS_OF));

const isGroup = (value: unknown): value is Group => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The request without the secrets of its structures (see the table above); account groups and
 * every other field stay as they are. What a checkout stores of the merchant's request.
 */
export function withoutSecrets<T extends object>(request: T): T {
  const out: Group = {};
  for (const [key, value] of Object.entries(request)) {
    if (value === undefined) continue;
    const rule = SECRETS_OF[key];
    if (!rule || !isGroup(value)) out[key] = value;
    else {
      const kept = rule(value);
      // A wallet group that held only its token leaves nothing to show.
      if (Object.keys(kept).length) out[key] = kept;
    }
  }
  return out as T;
}

/** The structures of a request as a payment keeps and answers them (the account comes from maskedAccount). */
export function echoedDetails(request: object): Record<string, unknown> {
  const details: Group = {};
  for (const [key, value] of Object.entries(withoutSecrets(request))) if (!NOT_ECHOED.has(key)) details[key] = value;
  return details;
}

/** The bin is answered beside last4Digits only while at least five digits stay hidden (15 digits and more). */
const BIN_SHOWN_FROM = 15;

/** The account as responses show it: masked card and token numbers, never a security code. */
export function maskedAccount(request: Pick<InitialPaymentRequest, 'card' | 'bankAccount' | 'virtualAccount' | 'tokenAccount'>): Record<string, unknown> {
  if (request.card) {
    const { number, holder, expiryMonth, expiryYear } = request.card;
    return { card: { ...(number.length >= BIN_SHOWN_FROM ? { bin: number.slice(0, 6) } : {}), last4Digits: number.slice(-4), ...(holder ? { holder } : {}), expiryMonth, expiryYear } };
  }
  if (request.bankAccount) return { bankAccount: request.bankAccount };
  if (request.virtualAccount) return { virtualAccount: request.virtualAccount };
  if (request.tokenAccount) {
    const { number, type, expiryMonth, expiryYear } = request.tokenAccount;
    return { tokenAccount: { type, last4Digits: number.slice(-4), ...(expiryMonth ? { expiryMonth } : {}), ...(expiryYear ? { expiryYear } : {}) } };
  }
  return {};
}
