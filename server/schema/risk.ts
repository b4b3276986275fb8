// Risk (risk.*), in the spec's order. Sending any of them asks for a risk check.
import { z } from 'zod';
import { amount, an, dateTime, keyedMap } from './common.ts';

export const risk = z.strictObject({
  channelId: an(255).optional(),
  serviceId: an(255).optional(),
  amount: amount().optional(),
  orderTimestamp: dateTime.optional(),
  brand: an(255).optional(),
  parameters: keyedMap(2048).optional(),
  merchantWebsite: an(60).optional(),
  accountToken: an(64).optional(),
});
