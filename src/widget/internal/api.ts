// The widget's own requests to the gateway's checkout-scoped endpoints (CORS, no cookies).
import { BILLING_FIELDS, type BillingField } from '../../core/address.ts';
import { paymentPath, postPayment, type PaymentAnswer } from '../../core/http.ts';
import type { CheckoutForm, Registration } from './context.ts';

export type FormAnswer = { ok: true; form: CheckoutForm } | { ok: false; code: string };

const isStr = (v: unknown): v is string => typeof v === 'string';

/** Saved cards and bank accounts as the form lists them (masked: brand, last four digits, a card's expiry). */
const registrationsOf = (value: unknown): Registration[] =>
  Array.isArray(value)
    ? value.filter(
        (r) =>
          isStr(r?.id) &&
          isStr(r.paymentBrand) &&
          (r.card ? isStr(r.card.last4Digits) && isStr(r.card.expiryMonth) && isStr(r.card.expiryYear) : isStr(r.bankAccount?.last4Digits) && (r.bankAccount.holder === undefined || isStr(r.bankAccount.holder))),
      )
    : [];

const billingOf = (value: unknown): BillingField[] => (Array.isArray(value) ? BILLING_FIELDS.filter((field) => value.includes(field)) : []);

/** A time as the gateway writes it ("2026-11-22 01:00:00+0000"), in ms; NaN for anything else. */
const gatewayTime = (value: unknown): number => Date.parse(`${String(value).slice(0, 19).replace(' ', 'T')}Z`);

/** The form data of a GET /v1/checkouts/{id}/form answer (or of a page's data-form), checked. */
export function formFrom(body: Record<string, any> | null, ok = true): FormAnswer {
  if (!ok || !/^\d{1,12}(\.\d{1,3})?$/.test(body?.amount) || !isStr(body?.currency) || !Array.isArray(body?.brands)) return { ok: false, code: String(body?.result?.code ?? '') };
  return { ok: true, form: { amount: body!.amount, currency: body!.currency, brands: body!.brands.filter(isStr), registrations: registrationsOf(body!.registrations), billing: billingOf(body!.billing), createRegistration: body!.createRegistration === true, overrideHolder: body!.overrideHolder === true, wallet: isStr(body!.wallet?.merchantName) ? body!.wallet : undefined, expires: Date.now() + gatewayTime(body!.expiresAt) - gatewayTime(body!.timestamp) } };
}

/** GET /v1/checkouts/{id}/form: the checkout's amount, brands and saved cards. */
export async function loadForm(gateway: string, checkoutId: string, signal: AbortSignal): Promise<FormAnswer> {
  const response = await fetch(`${gateway}/v1/checkouts/${encodeURIComponent(checkoutId)}/form`, { credentials: 'omit', signal });
  return formFrom(await response.json().catch(() => null), response.ok);
}

/** POST /v1/checkouts/{id}/payment from the page (SEPA, virtual account, saved card without code). */
export const payFromPage = (gateway: string, checkoutId: string, fields: Record<string, string>, idempotencyKey: string): Promise<PaymentAnswer> =>
  postPayment(`${gateway}${paymentPath(checkoutId)}`, fields, idempotencyKey);
