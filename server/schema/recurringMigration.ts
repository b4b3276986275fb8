// Recurring migration (recurringMigration.*, deprecated): the initial transaction of a registration
// moved from another system, in the spec's order.
import { z } from 'zod';
import { amount, an, dateTime, oneOf } from './common.ts';

export const recurringMigration = z.strictObject({
  paymentType: oneOf(['DB', 'CD', 'PA']),
  amount: amount(8).optional(),
  requestTimestamp: dateTime.optional(),
  connectorTxId1: an(128).optional(),
  connectorTxId2: an(128).optional(),
  connectorTxId3: an(128).optional(),
});
export type RecurringMigration = z.infer<typeof recurringMigration>;
