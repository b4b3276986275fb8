// Marketplace (marketPlace.sellers[n].*): a seller's items are the cart items whose sellerId is its id.
import { z } from 'zod';
import { amount, an } from './common.ts';

export const marketplaceSeller = z.strictObject({
  id: an(255).optional(),
  // N13 with two decimals: up to 10 integer digits, the dot and two decimals.
  amount: amount(10).optional(),
});

export const marketPlace = z.strictObject({
  sellers: z.array(marketplaceSeller).optional(),
});
export type MarketPlace = z.infer<typeof marketPlace>;
