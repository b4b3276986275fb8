// English, the reference catalogue. KEYS names each text; every locale is a tuple of texts in
// this order (tsc checks the count). English is bundled into paymentWidgets.js; every other locale
// is built into a file of its own, dist/locales/{locale}.json, a JSON array in this order
// (scripts/locale-files.ts), so no key is repeated in it either. Keep texts short.
const NAMES = 'method mCard mBank mSaved number expiry cvv cvvHint holder accHolder bic mandate accountId payAmount loading processing eNumber eBrand eExpiry eExpired eCvv eHolder eIban eBic eMandate eAccount eLoad rDeclined rFunds rCvv r3ds rConfig rInput rSaved rSession rCancelled rSystem rNetwork rUnknown billing street city postcode country eRequired ePostcode payWith save eYear mSavedAll rPaid mmYY cancel eAccHolder eCvv3 eCvv4 eMin3 expiring';

// Tail-recursive (an accumulator), so that tsc follows a list of more than 50 keys.
type Split<S extends string, Done extends string[] = []> = S extends `${infer Head} ${infer Tail}` ? Split<Tail, [...Done, Head]> : [...Done, S];
/** The text keys, in order. */
export const KEYS = NAMES.split(' ') as Split<typeof NAMES>;

export type MessageKey = (typeof KEYS)[number];
type AsTexts<T extends readonly string[]> = { readonly [I in keyof T]: string };
/** One text per key, in KEYS order. */
export type Texts = AsTexts<typeof KEYS>;

export const en: Texts = [
  'Payment method', // method
  'Card', // mCard
  'SEPA direct debit', // mBank
  'Saved cards', // mSaved
  'Card number', // number
  'Expiry date', // expiry
  'Security code', // cvv
  '3 digits on the back (Amex: 4 on the front)', // cvvHint
  'Name on card', // holder
  'Account holder', // accHolder
  'BIC (optional)', // bic
  'I accept the SEPA direct debit mandate for this payment.', // mandate
  'Account ID or email', // accountId
  'Pay {0}', // payAmount
  'Loading…', // loading
  'Processing…', // processing
  'Enter a valid card number.', // eNumber
  'This card type is not accepted.', // eBrand
  'Use the format MM/YY.', // eExpiry
  'This card has expired.', // eExpired
  'Enter the security code.', // eCvv
  'Enter the name on the card.', // eHolder
  'Enter a valid SEPA IBAN.', // eIban
  'Enter a valid BIC.', // eBic
  'Accept the mandate to continue.', // eMandate
  'Enter your account ID.', // eAccount
  'The payment form could not be loaded.', // eLoad
  'Declined by your bank. Try another card or method.', // rDeclined
  'Insufficient funds or limit reached.', // rFunds
  'Wrong security code.', // rCvv
  'Card authentication failed.', // r3ds
  'Payment method not available.', // rConfig
  'Some details are invalid.', // rInput
  'Saved card no longer available.', // rSaved
  'Session expired. Reload the page.', // rSession
  'Payment cancelled.', // rCancelled
  'Technical error. Try again later.', // rSystem
  'No connection. Try again.', // rNetwork
  'Payment failed.', // rUnknown
  'Billing address', // billing
  'Street and number', // street
  'City', // city
  'Postcode', // postcode
  'Country', // country
  'Fill in this field.', // eRequired
  'Enter a valid postcode.', // ePostcode
  'Pay with {0}', // payWith
  'Save for future payments', // save
  'Check the expiry year.', // eYear
  'Saved payment methods', // mSavedAll
  'This payment is already complete.', // rPaid
  'MM/YY', // mmYY
  'Cancel', // cancel
  'Enter the account holder\u2019s name.', // eAccHolder
  'The security code has 3 digits.', // eCvv3
  'The security code has 4 digits.', // eCvv4
  'Enter at least 3 characters.', // eMin3
  'This payment page expires in less than 2 minutes.', // expiring
];
