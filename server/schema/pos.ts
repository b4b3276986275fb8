// Point of sale (pos.*): what a terminal sends, and the fields of the answer the simulator fills.
import { z } from 'zod';
import { an, dateTime, digits, lettersDigits, oneOf } from './common.ts';

/** Up to `integers` integer digits, 1 to 8 decimals, an optional sign, within ±`bound` degrees. */
const degrees = (max: number, integers: number, bound: number, what: string) =>
  an(max).refine((v) => new RegExp(`^[+-]?\\d{1,${integers}}\\.\\d{1,8}$`).test(v) && Math.abs(Number(v)) <= bound, `must be a ${what} in degrees from -${bound} to ${bound}, up to ${integers} integer digits and 1 to 8 decimals`);

export const pos = z.strictObject({
  terminalId: digits(32),
  entryMode: oneOf(['MANUAL', 'MAGSTRIPE', 'MAGSTRIPE_AS_FALLBACK', 'ICC', 'NFC_ICC', 'NFC_MAGSTRIPE']),
  deviceId: digits(32).optional(),
  deviceType: an(32).optional(),
  encryptedPin: z.strictObject({ data: lettersDigits(2048).optional(), ksn: lettersDigits(2048).optional() }).optional(),
  encryptedSred: z.strictObject({ data: an(2048).optional(), ksn: an(2048).optional() }).optional(),
  iccDataRequest: an(2048).optional(),
  location: z
    .strictObject({
      accuracy: digits(32).optional(),
      latitude: degrees(12, 2, 90, 'latitude').optional(),
      longitude: degrees(13, 3, 180, 'longitude').optional(),
    })
    .optional(),
  panSequenceNumber: digits(32).optional(),
  pinEntryCapability: oneOf(['PIN_ENTRY_AVAILABLE', 'PIN_ENTRY_UNAVAILABLE']).optional(),
  transactionSequenceNumber: digits(32).optional(),
  transactionSource: oneOf(['POS']).optional(),
});
export type Pos = z.infer<typeof pos>;

const answer = lettersDigits(2048).optional();

/** pos.* of the payment response; the simulator fills them for a POS request. */
export const posResponse = z.strictObject({
  clearing: z
    .strictObject({
      authorizationAcquirerCode: answer,
      authorizationIssuerCode: answer,
      identifier: answer,
    })
    .optional(),
  merchantId: answer,
  iccDataResponse: answer,
  statusText: answer,
  timestamp: dateTime.optional(),
});
export type PosResponse = z.infer<typeof posResponse>;
