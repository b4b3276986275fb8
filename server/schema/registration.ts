// Tokenization and registration fields.
import { bool } from './common.ts';

export const registrationFields = {
  createRegistration: bool.optional(),
  overrideHolder: bool.optional(),
};
