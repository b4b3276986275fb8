// Shipping customer (shipping.customer.*): every customer field except browser.* and app.* (the
// shopper's device), taken from customer.ts so the two tables cannot drift apart, with the
// customer's rules.
import { z } from 'zod';
import { customer } from './customer.ts';

const { browser: _browser, app: _app, ...customerFields } = customer.shape;

export const shippingCustomer = z.strictObject(customerFields).superRefine((c, ctx) => {
  const sent = (Object.keys(c) as Array<keyof typeof c>).filter((key) => c[key] !== undefined);
  for (const [name, code] of [['givenName', '100.700.200'], ['surname', '100.700.100']] as const) {
    const trigger = sent.find((key) => key !== name);
    if (c[name] === undefined && trigger !== undefined) {
      ctx.addIssue({ code: 'custom', path: [name], message: `is required when other shipping.customer parameters are sent, such as ${trigger}`, params: { code } });
    }
  }
  if (c.identificationDocType !== undefined && c.identificationDocId === undefined) {
    ctx.addIssue({ code: 'custom', path: ['identificationDocId'], message: 'is required with identificationDocType', params: { code: '100.700.801' } });
  }
  if (c.identificationDocId !== undefined && c.identificationDocType === undefined) {
    ctx.addIssue({ code: 'custom', path: ['identificationDocType'], message: 'is required with identificationDocId', params: { code: '100.700.800' } });
  }
});
export type ShippingCustomer = z.infer<typeof shippingCustomer>;
