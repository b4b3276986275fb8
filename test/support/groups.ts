// Valid parameters of every group of the spec, as a merchant sends them (flat names): the API
// tests of the groups, the fuzz test and the bench's full card debit share them.
import { cardDebit } from './gateway.ts';

type Params = Record<string, string>;

/** A full customer: names, contact data, identification, the shopper's browser. */
export const customer: Params = {
  'customer.merchantCustomerId': 'C-100017',
  'customer.givenName': 'Jane',
  'customer.middleName': 'Mary',
  'customer.surname': 'Jones',
  'customer.sex': 'F',
  'customer.birthDate': '1985-04-12',
  'customer.phone': '+49 30 1234567',
  'customer.mobile': '+49 170 1234567',
  'customer.workPhone': '030 7654321',
  'customer.email': 'jane.jones@example.com',
  'customer.companyName': 'Jones GmbH',
  'customer.identificationDocType': 'PASSPORT',
  'customer.identificationDocId': 'C01X00T47',
  'customer.ip': '192.0.2.17',
  'customer.merchantReference': 'buyer-17',
  'customer.salutation': 'MS',
  'customer.language': 'DE',
  'customer.category': 'INDIVIDUAL',
  'customer.status': 'EXISTING',
  'customer.browserFingerprint.id': 'fp-17',
  'customer.browserFingerprint.value': 'b1c2d3',
  'customer.browser.acceptHeader': 'text/html',
  'customer.browser.language': 'de-DE',
  'customer.browser.screenHeight': '1080',
  'customer.browser.screenWidth': '1920',
  'customer.browser.timezone': '-60',
  'customer.browser.userAgent': 'Mozilla/5.0 (X11; Linux x86_64)',
  'customer.browser.javaEnabled': 'false',
  'customer.browser.screenColorDepth': '24',
  'customer.browser.challengeWindow': '05',
};

export const billing: Params = {
  'billing.street1': 'Main Street',
  'billing.street2': 'Floor 3',
  'billing.houseNumber1': '12',
  'billing.houseNumber2': 'a',
  'billing.city': 'Berlin',
  'billing.state': 'BE',
  'billing.postcode': '10115',
  'billing.country': 'DE',
};

export const shipping: Params = {
  'shipping.street1': 'Harbour Road',
  'shipping.houseNumber1': '7',
  'shipping.city': 'Hamburg',
  'shipping.state': 'HH',
  'shipping.postcode': '20095',
  'shipping.country': 'DE',
  'shipping.method': 'TWO_DAY_SERVICE',
  'shipping.cost': '4.90',
  'shipping.comment': 'Leave at the door',
  'shipping.expectedDate': '2030-05-02',
  'shipping.companyName': 'Jones GmbH',
  'shipping.phone': '+49 40 123456',
  'shipping.email': 'parcel@example.com',
  'shipping.type': 'SHIPMENT',
  'shipping.customer.givenName': 'John',
  'shipping.customer.surname': 'Jones',
  'shipping.customer.email': 'john.jones@example.com',
};

/** Cart item n (0-based): name, quantity, prices with tax, a product URL. */
export function cartItem(n: number): Params {
  const at = `cart.items[${n}]`;
  return {
    [`${at}.name`]: `Item ${n + 1}`,
    [`${at}.merchantItemId`]: `SKU-${1000 + n}`,
    [`${at}.type`]: 'PHYSICAL',
    [`${at}.quantity`]: '1',
    [`${at}.currency`]: 'EUR',
    [`${at}.price`]: '8.72',
    [`${at}.totalAmount`]: '8.72',
    [`${at}.taxAmount`]: '1.39',
    [`${at}.tax`]: '19.00',
    [`${at}.sku`]: `sku-${n}`,
    [`${at}.productUrl`]: `https://shop.example/products/${n}`,
  };
}

export function cart(items: number): Params {
  return Object.assign({}, ...Array.from({ length: items }, (_, n) => cartItem(n)));
}

/** The card debit of the bench's "full" target: a full customer, billing, shipping and 10 cart items. */
export function fullCardDebit(overrides: Params = {}): Params {
  return { ...cardDebit(), ...customer, ...billing, ...shipping, ...cart(10), ...overrides };
}

/** One valid sample of each merchant-side group a payment or checkout may carry. */
export const groupSamples: Record<string, Params> = {
  forex: { 'forex.amount': '100.00', 'forex.currency': 'USD', 'forex.tax': '1.50' },
  customer: { 'customer.givenName': 'Jane', 'customer.surname': 'Jones', 'customer.email': 'jane@example.com', 'customer.mobile': '+49 170 1234567' },
  billing: { 'billing.street1': 'Main Street 12', 'billing.city': 'Berlin', 'billing.postcode': '10115', 'billing.country': 'DE' },
  shipping,
  corporate: { 'corporate.name': 'Jones GmbH', 'corporate.city': 'Berlin', 'corporate.postCode': '10115', 'corporate.purchase': 'Y', 'corporate.phone': '49301234567' },
  sender: { 'sender.name': 'Jane Jones', 'sender.birthDate': '1985-04-12', 'sender.country': 'DEU', 'sender.accountNumberType': 'IBAN', 'sender.accountNumber': 'DE89370400440532013000', 'sender.sourceOfFunds': '02' },
  recipient: { 'recipient.givenName': 'John', 'recipient.surname': 'Smith', 'recipient.country': 'GBR', 'recipient.phone': '+44 20 7946 0000', 'recipient.relationship': 'brother' },
  merchant: {
    'merchant.name': 'Shop A*Shoes',
    'merchant.mcc': '5661',
    'merchant.city': 'Berlin',
    'merchant.country': 'DE',
    'merchant.customerContactPhone': '+49 30 999999',
    'merchant.data[store.id]': 'B-17',
    'merchant.billing.street1': 'Shop Street',
    'merchant.billing.houseNumber1': '1',
    'merchant.billing.city': 'Berlin',
    'merchant.billing.postcode': '10117',
    'merchant.billing.country': 'DE',
    'merchant.billing.email': 'billing@shop.example',
    'merchant.shipping.street1': 'Depot Road',
    'merchant.shipping.city': 'Potsdam',
    'merchant.shipping.country': 'DE',
  },
  cart: { ...cart(2), 'cart.payments[0].name': 'Voucher', 'cart.payments[0].type': 'PROMOTION', 'cart.payments[0].amount': '5.00', 'cart.payments[0].currency': 'EUR', 'cart.payments[0].status': 'authorized' },
  marketPlace: { 'marketPlace.sellers[0].id': 'seller-1', 'marketPlace.sellers[0].amount': '60.00', 'marketPlace.sellers[1].id': 'seller-2', 'marketPlace.sellers[1].amount': '32.00' },
  airline: {
    'airline.totalFareAmount': '92.00',
    'airline.ticketIssueDate': '2030-04-01',
    'airline.bookingRefNum': 'ABC123',
    'airline.passengers[0].name': 'Jane Jones',
    'airline.passengers[0].residenceCountry': 'DE',
    'airline.passengers[0].legs[0].flightNumber': 'LH123',
    'airline.passengers[0].legs[0].departureAirport': 'TXL',
    'airline.passengers[0].legs[0].arrivalAirport': 'MUC',
    'airline.passengers[0].legs[0].departureDate': '2030-05-01',
    'airline.passengers[0].legs[0].fareAmount': '92.00',
  },
  threeDSecure: { 'threeDSecure.eci': '05', 'threeDSecure.verificationId': 'AAACAgSRBklmQCFgMpEGAAAAAAA=', 'threeDSecure.authenticationStatus': 'Y', 'threeDSecure.version': '2.2.0' },
  customParameters: { 'customParameters[SHOPPER_order]': 'A-17' },
  giftCard: { 'giftCard.number': '6036281234567890', 'giftCard.pin': '4711', 'giftCard.holder': 'Jane Jones', 'giftCard.message': 'Happy birthday', 'giftCard.type': 'BIRTHDAY' },
  risk: { 'risk.channelId': 'web', 'risk.parameters[USER_DATA1]': 'x' },
  standingInstruction: { 'standingInstruction.type': 'RECURRING', 'standingInstruction.recurringType': 'SUBSCRIPTION', 'standingInstruction.mode': 'INITIAL', 'standingInstruction.source': 'CIT', 'standingInstruction.expiry': '2031-12-31', 'standingInstruction.frequency': '0030' },
};
