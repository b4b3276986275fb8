// Swedish
import type { Texts } from './en.ts';

export const sv: Texts = [
  'Betalningssätt', // method
  'Kort', // mCard
  'SEPA-autogiro', // mBank
  'Sparade kort', // mSaved
  'Kortnummer', // number
  'Giltigt till', // expiry
  'Säkerhetskod', // cvv
  '3 siffror på baksidan (Amex: 4 på framsidan)', // cvvHint
  'Namn på kortet', // holder
  'Kontoinnehavare', // accHolder
  'BIC (valfritt)', // bic
  'Jag godkänner SEPA-autogiromedgivandet för denna betalning.', // mandate
  'Konto-ID eller e-post', // accountId
  'Betala {0}', // payAmount
  'Laddar…', // loading
  'Behandlar…', // processing
  'Ogiltigt kortnummer.', // eNumber
  'Korttypen accepteras inte.', // eBrand
  'Format: MM/ÅÅ.', // eExpiry
  'Kortet har gått ut.', // eExpired
  'Ange säkerhetskoden.', // eCvv
  'Ange namnet på kortet.', // eHolder
  'Ogiltigt SEPA-IBAN.', // eIban
  'Ogiltig BIC.', // eBic
  'Godkänn medgivandet för att fortsätta.', // eMandate
  'Ange ditt konto-ID.', // eAccount
  'Betalningsformuläret kunde inte laddas.', // eLoad
  'Nekad av din bank. Prova ett annat kort eller betalningssätt.', // rDeclined
  'Otillräckligt saldo eller nådd gräns.', // rFunds
  'Fel säkerhetskod.', // rCvv
  'Kortverifieringen misslyckades.', // r3ds
  'Betalningssättet är inte tillgängligt.', // rConfig
  'Vissa uppgifter är ogiltiga.', // rInput
  'Det sparade kortet är inte tillgängligt.', // rSaved
  'Sessionen har gått ut. Ladda om sidan.', // rSession
  'Betalningen avbröts.', // rCancelled
  'Tekniskt fel. Försök igen senare.', // rSystem
  'Ingen anslutning. Försök igen.', // rNetwork
  'Betalningen misslyckades.', // rUnknown
  'Faktureringsadress', // billing
  'Gata och nummer', // street
  'Ort', // city
  'Postnummer', // postcode
  'Land', // country
  'Fyll i fältet.', // eRequired
  'Ange ett giltigt postnummer.', // ePostcode
  'Betala med {0}', // payWith
  'Spara för framtida betalningar', // save
  'Kontrollera utgångsåret.', // eYear
  'Sparade betalsätt', // mSavedAll
  'Betalningen är redan genomförd.', // rPaid
  'MM/ÅÅ', // mmYY
  'Avbryt', // cancel
  'Ange kontoinnehavarens namn.', // eAccHolder
  'Säkerhetskoden har 3 siffror.', // eCvv3
  'Säkerhetskoden har 4 siffror.', // eCvv4
  'Ange minst 3 tecken.', // eMin3
  'Den här betalningssidan går ut om mindre än 2 minuter.', // expiring
];
