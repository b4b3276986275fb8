// The currencies a payment can be in: ISO 4217 List One as in force, by minor units (exponent).
// Written out rather than taken from Intl (each Node's ICU has its own list: HRK and CUC long after
// their withdrawal, XDR and XSU, no VED) or from npm's currency-codes (its data is List One of
// 2024-06-25: no XCG, still ANG, CUC and BGN).
//
// Source: List One of the ISO 4217 maintenance agency (SIX Financial Information, list-one.xml),
// through amendment 180: 176 XCG replaces ANG (2025-03-31), 178 CUC withdrawn, 179 adds the
// fund XAD, 180 BGN withdrawn (Bulgaria joined the euro, 2026-01-01).
//
// Left out, as no payment is made in them: funds (List One's IsFund: BOV, CHE, CHW, CLF, COU,
// MXV, USN, UYI, UYW, XAD), precious metals (XAG, XAU, XPD, XPT), bond market units (XBA-XBD),
// units of account (XDR, XSU, XUA), and the codes for testing (XTS) and no currency (XXX).
const BY_MINOR_UNITS: Record<number, string> = {
  0: 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF',
  2:
    'AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CNY COP CRC CUP CVE CZK ' +
    'DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD ' +
    'KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP ' +
    'PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH ' +
    'USD UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG',
  3: 'BHD IQD JOD KWD LYD OMR TND',
};

const MINOR_UNITS = new Map<string, number>(Object.entries(BY_MINOR_UNITS).flatMap(([units, codes]) => codes.split(' ').map((code) => [code, Number(units)] as const)));

/** Whether a payment can be in this currency (an active ISO 4217 currency, no fund or unit of account). */
export function isCurrency(code: string): boolean {
  return MINOR_UNITS.has(code);
}

/** ISO 4217's minor units of a currency (0 for JPY, 2 for EUR, 3 for KWD), or undefined for none of ours. */
export function minorUnitsOf(code: string): number | undefined {
  return MINOR_UNITS.get(code);
}

/**
 * Withdrawn from List One while payments could be made in them (HRK and CUC stood in the runtime's
 * list before this one): a payment made in one may still be captured, refunded or rebilled in it.
 */
const WITHDRAWN = new Set(['ANG', 'BGN', 'CUC', 'HRK', 'SLL', 'ZWL']);

/** Whether a referencing payment may name this currency: a payable one, or one withdrawn since. */
export function isReferenceCurrency(code: string): boolean {
  return MINOR_UNITS.has(code) || WITHDRAWN.has(code);
}
