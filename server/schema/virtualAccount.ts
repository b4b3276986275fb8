// Virtual account (virtualAccount.*).
import { z } from 'zod';
import { an } from './common.ts';

export const virtualAccount = z.strictObject({
  accountId: an(100),
});

export type VirtualAccount = z.infer<typeof virtualAccount>;
