// Card brands as the gateway names them, by card-validator's type (used by the number frame).

/** card-validator's type → the gateway's card brand (the same table as server/schema/requests.ts). */
export const CARD_BRANDS: Readonly<Record<string, string>> = {
  visa: 'VISA',
  mastercard: 'MASTER',
  'american-express': 'AMEX',
  'diners-club': 'DINERS',
  discover: 'DISCOVER',
  jcb: 'JCB',
  unionpay: 'CHINAUNIONPAY',
  maestro: 'MAESTRO',
  elo: 'ELO',
  mir: 'MIR',
  hiper: 'HIPER',
  hipercard: 'HIPERCARD',
};
