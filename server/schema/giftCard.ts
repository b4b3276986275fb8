// Gift card (giftCard.*), in the spec's order; all optional.
import { z } from 'zod';
import { an, oneOf } from './common.ts';

export const giftCardTypes = [
  'ANNIVERSARY', 'BIRTHDAY', 'CONGRATULATIONS', 'APRIL_FOOLS_DAY', 'EASTER', 'FATHERS_DAY', 'GRADUATION', 'HOLIDAY',
  'SEASONS_GREETINGS', 'PASSOVER', 'KWANZAA', 'HALLOWEEN', 'MOTHERS_DAY', 'NEW_YEARS_DAY', 'BOSSES_DAY', 'ST_PATRICKS_DAY',
  'SWEETEST_DAY', 'CHRISTMAS', 'BABY_SHOWER', 'THANKSGIVING', 'OTHER', 'VALENTINES_DAY', 'WEDDING', 'SECRETARYS_DAY',
  'CHINESE_NEW_YEAR', 'HANUKKAH', 'CELEBRATE_FALL', 'GRANDPARENTS_DAY', 'INDEPENDENCE_DAY',
] as const;

export const giftCard = z.strictObject({
  number: an(255, 2).optional(),
  pin: an(255, 2).optional(),
  holder: an(255, 2).optional(),
  message: an(160, 2).optional(),
  // AN16 in the spec, yet SEASONS_GREETINGS, one of its own values, has 17 characters: the list wins.
  type: oneOf(giftCardTypes).optional(),
});
export type GiftCard = z.infer<typeof giftCard>;
