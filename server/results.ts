// The result-code catalogue and the group patterns merchants match codes against.
// Codes follow the catalogue merchants of this kind of gateway already integrate against,
// so existing result handling works unchanged.

export const catalogue = {
  // successful
  '000.000.000': 'Transaction succeeded',
  '000.000.100': 'successful request',
  '000.100.110': "Request successfully processed in 'Merchant in Integrator Test Mode'",
  '000.100.112': "Request successfully processed in 'Merchant in Connector Test Mode'",
  '000.200.000': 'transaction pending',
  '000.200.100': 'successfully created checkout',
  '000.200.101': 'successfully updated checkout',
  '000.200.102': 'successfully deleted checkout',
  '000.400.103': 'Technical Error in 3D system',
  '000.400.108': 'Cardholder Not Found - card number provided is not found in the ranges of the issuer',
  '000.400.109': 'Card is not enrolled for 3DS version 2',
  '000.400.110': 'Authentication successful (frictionless flow)',
  '000.400.120': 'Authentication successful (data only flow)',

  // chargeback reasons (reconciliation records of the simulated clearing institute)
  '000.100.220': 'Fraudulent Transaction',
  '000.100.221': 'Merchandise Not Received',
  '000.100.222': 'Transaction Not Recognized By Cardholder',

  // account (format validation of the account data)
  '100.100.100': 'request contains no creditcard, bank account number or bank name',
  '100.100.101': 'invalid creditcard, bank account number or bank name',
  '100.100.200': 'request contains no month',
  '100.100.201': 'invalid month',
  '100.100.300': 'request contains no year',
  '100.100.301': 'invalid year',
  '100.100.303': 'card expired',
  '100.100.400': 'request contains no cc/bank account holder',
  '100.100.401': 'cc/bank account holder too short or too long',
  '100.100.402': 'cc/bank account holder not valid',
  '100.100.500': 'request contains no credit card brand',
  '100.100.501': 'invalid credit card brand',
  '100.100.601': 'invalid CVV/brand combination',
  '100.100.700': 'invalid cc number/brand combination',
  '100.150.100': 'request contains no Account data and no registration id',
  '100.150.101': 'invalid format for specified registration id (must be uuid format)',
  '100.150.200': 'registration does not exist',
  '100.150.202': 'registration is already deregistered',
  '100.200.100': 'bank account contains no or invalid country',
  '100.200.103': 'bank account has invalid bankcode/name account number combination',
  '100.200.104': 'bank account has invalid account number format',
  '100.380.401': 'User Authentication Failed',
  '100.396.101': 'Cancelled by user',
  '100.396.103': 'Previously pending transaction timed out',

  // amount and currency
  '100.550.300': 'request contains no amount or too low amount',
  '100.550.301': 'amount too large',
  '100.550.303': 'amount format invalid (only two decimals allowed).',
  '100.550.400': 'request contains no currency',
  '100.550.401': 'invalid currency',

  // contact data
  '100.700.100': 'request contains no surname',
  '100.700.101': 'invalid surname (too long, or characters a name does not have)',
  '100.700.200': 'request contains no given name',
  '100.700.201': 'invalid given name (too long, or characters a name does not have)',
  '100.700.300': 'invalid salutation',
  '100.700.500': 'company name too long',
  '100.700.800': 'identity contains no or invalid paper',
  '100.700.801': 'identity contains no or invalid identification value',

  // address data
  '100.800.100': 'request contains no street',
  '100.800.101': 'invalid street, house number or address line',
  '100.800.102': 'The combination of street1 and street2 must not contain only numbers.',
  '100.800.200': 'request contains no zip',
  '100.800.202': 'invalid zip',
  '100.800.300': 'request contains no city',
  '100.800.302': 'invalid city',
  '100.800.400': 'invalid state/country combination',
  '100.800.500': 'request contains no country',
  '100.800.501': 'invalid country',

  // contact data: e-mail, phones, ip, birth date
  '100.900.100': 'request contains no email address',
  '100.900.101': 'invalid email address (probably invalid syntax)',
  '100.900.200': 'invalid phone number (a digit or a + first, then digits and separators, at most 25 characters)',
  '100.900.300': 'invalid mobile phone number (a digit or a + first, then digits and separators, at most 25 characters)',
  '100.900.301': 'mobile phone number mandatory',
  '100.900.400': 'request contains no ip number',
  '100.900.401': 'invalid ip number',
  '100.900.450': 'invalid birthdate',

  // request format
  '200.300.403': 'Invalid HTTP method',
  '200.300.404': 'invalid or missing parameter',
  '200.300.406': 'Entity not found',

  // configuration and payment method
  '600.200.100': 'invalid Payment Method',
  '600.200.201': 'Channel/Merchant not configured for this payment method',
  '600.200.202': 'Channel/Merchant not configured for this payment type',
  '600.200.300': 'invalid payment type',
  '600.200.310': 'invalid payment type for given payment method',
  '600.200.500': 'Invalid payment data. You are not configured for this currency or sub type (country or brand)',
  '600.200.701': 'testMode not allowed on production',

  // reference validation
  '700.100.100': 'reference id not existing',
  '700.100.200': 'non matching reference amount',
  '700.100.300': 'invalid amount (probably too large)',
  '700.100.500': 'referenced payment currency does not match with requested payment currency',
  '700.300.100': 'referenced tx can not be refunded, captured or reversed (invalid type)',
  '700.300.200': 'referenced tx was rejected',
  '700.300.300': 'referenced tx can not be refunded, captured or reversed (already refunded, captured or reversed)',
  '700.300.700': 'referenced tx can not be reversed (reversal not possible anymore)',
  '700.400.100': 'cannot capture (PA value exceeded, PA reverted or invalid workflow?)',
  '700.400.200': 'cannot refund (refund volume exceeded or tx reversed or invalid workflow?)',
  '700.400.300': 'cannot reverse (already refunded|reversed, invalid workflow or amount exceeded)',
  '700.400.550': 'rebill needs at least one successful transaction of type (CP or DB or RB)',
  '700.400.570': 'cannot reference a waiting/pending transaction',
  '700.400.580': 'cannot find transaction',

  // bank and risk declines
  '800.100.100': 'transaction declined for unknown reason',
  '800.100.151': 'transaction declined (invalid card)',
  '800.100.152': 'transaction declined by authorization system',
  '800.100.153': 'transaction declined (invalid CVV)',
  '800.100.155': 'transaction declined (amount exceeds credit)',
  '800.100.157': 'transaction declined (wrong expiry date)',
  '800.100.159': 'transaction declined (stolen card)',
  '800.100.160': 'transaction declined (card blocked)',
  '800.100.162': 'transaction declined (limit exceeded)',
  '800.100.165': 'transaction declined (card lost)',
  '800.100.170': 'transaction declined (transaction not permitted)',
  '800.100.171': 'transaction declined (pick up card)',
  '800.120.100': 'too many requests, try later',
  '800.400.100': 'AVS Check Failed',

  // authentication of the request itself
  '800.900.300': 'invalid authentication information',
  '800.900.301': 'user authorization failed, user has no sufficent rights to process transaction',

  // system
  '900.100.100': 'unexpected communication error with connector/acquirer',
  '900.100.300': 'timeout, uncertain result',
  '900.100.400': 'timeout at connectors/acquirer side',
  '999.999.999': 'UNDEFINED ERROR',
} as const satisfies Record<string, string>;

export type ResultCode = keyof typeof catalogue;

export interface Result {
  code: ResultCode;
  description: string;
}

export function result(code: ResultCode): Result {
  return { code, description: catalogue[code] };
}

// Group patterns, as merchants use them to classify any code (also ones added later).
export const groups = {
  success: /^(000\.000\.|000\.100\.1|000\.[36]|000\.400\.[1][12]0)/,
  successReview: /^(000\.400\.0[^3]|000\.400\.100)/,
  pending: /^(000\.200)/,
  pendingExtended: /^(800\.400\.5|100\.400\.500)/,
  rejected3ds: /^(000\.400\.[1][0-9][1-9]|000\.400\.2)/,
  externalBankReject: /^(800\.[17]00|800\.800\.[123])/,
  communicationError: /^(900\.[1234]00|000\.400\.030)/,
  systemError: /^(800\.[56]|999\.|600\.1|800\.800\.[84])/,
  asyncWorkflowError: /^(100\.39[765])/,
  softDecline: /^(300\.100\.100)/,
  riskBlacklist: /^(800\.[32])/,
  riskValidation: /^(800\.1[123456]0)/,
  configurationValidation: /^(600\.[23]|500\.[12]|800\.121)/,
  registrationValidation: /^(100\.[13]50)/,
  jobValidation: /^(100\.250|100\.360)/,
  referenceValidation: /^(700\.[1345][05]0)/,
  formatValidation: /^(200\.[123]|100\.[53][07]|800\.900|100\.[69]00\.500)/,
  addressValidation: /^(100\.800)/,
  contactValidation: /^(100\.[97]00)/,
  accountValidation: /^(100\.100|100\.2[01])/,
  amountValidation: /^(100\.55)/,
  riskManagement: /^(100\.380\.[23]|100\.380\.101)/,
  chargeback: /^(000\.100\.2)/,
} as const;

export type ResultGroup = keyof typeof groups;

export function isSuccess(code: string): boolean {
  return groups.success.test(code) || groups.successReview.test(code);
}

export function isPending(code: string): boolean {
  return groups.pending.test(code) || groups.pendingExtended.test(code);
}

export function groupsOf(code: string): ResultGroup[] {
  return (Object.keys(groups) as ResultGroup[]).filter((name) => groups[name].test(code));
}
