// Cart items (cart.items[0] to cart.items[999]) with their item recipient, and cart payments
// (cart.payments[n]), in the spec's order.
import { z } from 'zod';
import { absoluteUrl, amount, an, bool, countryCode, currency, date, digits, oneOf } from './common.ts';
import { email } from './contact.ts';

/** At most 1000 items: indexes 0 to 999 (the body parser already refuses a higher index). */
export const MAX_CART_ITEMS = 1000;

/** A percentage from 0 to 100 with up to two decimals, within `max` characters (tax, discount). */
const percentage = (max: number) =>
  an(max).refine((v) => /^\d{1,3}(\.\d{1,2})?$/.test(v) && Number(v) <= 100, 'must be a percentage from 0 to 100 with up to two decimals, such as 19.00');

export const itemRecipient = z.strictObject({
  salutation: an(5).optional(),
  firstName: an(48).optional(),
  middleName: an(50).optional(),
  lastName: an(48).optional(),
  apartment: an(100).optional(),
  street: an(100).optional(),
  address: an(100).optional(),
  city: an(80).optional(),
  state: an(50).optional(),
  postcode: an(16).optional(),
  country: countryCode(/^([A-Z]{2}|\d{3})$/, 'must be two uppercase letters or three digits (ISO 3166-1)', ['alpha2', 'numeric']).optional(),
  phone: digits(25).optional(),
  email: email(128, 1).optional(),
});

export const cartItem = z.strictObject({
  name: an(255).optional(),
  merchantItemId: an(255).optional(),
  type: oneOf(['PHYSICAL', 'DIGITAL', 'MIXED', 'ANONYMOUS_DONATION', 'AUTHORITIES_PAYMENT']).optional(),
  // N5 with up to three decimals: five characters at most, dot included (1, 12345, 1.5, 0.125).
  quantity: an(5).regex(/^\d+(\.\d{1,3})?$/, 'must be a quantity of at most 5 characters with up to three decimals, such as 2 or 1.5').optional(),
  currency: currency.optional(),
  description: an(2048).optional(),
  price: amount(10).optional(),
  totalAmount: amount(10).optional(),
  taxAmount: amount(10).optional(),
  totalTaxAmount: amount(10).optional(),
  tax: percentage(6).optional(),
  taxCategory: oneOf(['AA', 'S', 'E', 'Z']).optional(),
  shipping: amount(10).optional(),
  discount: percentage(13).optional(),
  sku: an(255).optional(),
  commodityCode: digits(8).optional(),
  commodityDescription: an(50).optional(),
  // AN255 in the spec, but a price (before tax and discount): an amount with two decimals.
  originalPrice: amount(10).optional(),
  giftMessage: an(255).optional(),
  shippingMethod: an(255).optional(),
  shippingInstructions: an(255).optional(),
  shippingTrackingNumber: an(255).optional(),
  quantityUnit: oneOf(['M', 'CM', 'KG', 'G', 'COUNT']).optional(),
  productUrl: absoluteUrl(2048, 1).optional(),
  imageUrl: absoluteUrl(2048, 1).optional(),
  totalDiscountAmount: amount(10).optional(),
  productCode: an(30).optional(),
  partNumber: an(30).optional(),
  itemNumber: z.string().regex(/^(?!0+$)\d{1,3}$/, 'must be a number from 1 to 999').optional(),
  vatReferenceNumber: an(30).optional(),
  sellerId: an(255).optional(),
  deliveryDate: date.optional(),
  recipient: itemRecipient.optional(),
});
export type CartItem = z.infer<typeof cartItem>;

export const cartPayment = z.strictObject({
  name: an(255).optional(),
  type: oneOf(['GIFTCARD', 'PROMOTION']).optional(),
  amount: amount(10).optional(),
  currency: currency.optional(),
  status: oneOf(['pending', 'authorized', 'captured']).optional(),
  brand: an(255).optional(),
  primary: bool.optional(),
});
export type CartPayment = z.infer<typeof cartPayment>;

export const cart = z.strictObject({
  items: z.array(cartItem).max(MAX_CART_ITEMS, `must have at most ${MAX_CART_ITEMS} items (cart.items[0] to cart.items[999])`).optional(),
  payments: z.array(cartPayment).optional(),
});
export type Cart = z.infer<typeof cart>;
