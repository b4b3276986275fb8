// Asynchronous payment parameters.
import { absoluteUrl } from './common.ts';

export const asynchronousFields = {
  shopperResultUrl: absoluteUrl(2048, 6).optional(),
  notificationUrl: absoluteUrl(2048, 6).optional(),
};
