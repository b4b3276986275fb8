// German
import type { Texts } from './en.ts';

export const de: Texts = [
  'Zahlungsart', // method
  'Karte', // mCard
  'SEPA-Lastschrift', // mBank
  'Gespeicherte Karten', // mSaved
  'Kartennummer', // number
  'Ablaufdatum', // expiry
  'Prüfnummer', // cvv
  '3 Ziffern auf der Rückseite (Amex: 4 vorne)', // cvvHint
  'Name auf der Karte', // holder
  'Kontoinhaber', // accHolder
  'BIC (optional)', // bic
  'Ich erteile das SEPA-Lastschriftmandat für diese Zahlung.', // mandate
  'Konto-ID oder E-Mail', // accountId
  '{0} bezahlen', // payAmount
  'Wird geladen…', // loading
  'Wird verarbeitet…', // processing
  'Ungültige Kartennummer.', // eNumber
  'Dieser Kartentyp wird nicht akzeptiert.', // eBrand
  'Format: MM/JJ.', // eExpiry
  'Diese Karte ist abgelaufen.', // eExpired
  'Prüfnummer eingeben.', // eCvv
  'Namen auf der Karte eingeben.', // eHolder
  'Ungültige SEPA-IBAN.', // eIban
  'Ungültige BIC.', // eBic
  'Bitte Mandat erteilen.', // eMandate
  'Konto-ID eingeben.', // eAccount
  'Zahlungsformular konnte nicht geladen werden.', // eLoad
  'Von Ihrer Bank abgelehnt. Andere Karte oder Zahlungsart wählen.', // rDeclined
  'Deckung oder Limit nicht ausreichend.', // rFunds
  'Falsche Prüfnummer.', // rCvv
  'Kartenprüfung fehlgeschlagen.', // r3ds
  'Zahlungsart nicht verfügbar.', // rConfig
  'Einige Angaben sind ungültig.', // rInput
  'Gespeicherte Karte nicht mehr verfügbar.', // rSaved
  'Sitzung abgelaufen. Seite neu laden.', // rSession
  'Zahlung abgebrochen.', // rCancelled
  'Technischer Fehler. Später erneut versuchen.', // rSystem
  'Keine Verbindung. Erneut versuchen.', // rNetwork
  'Zahlung fehlgeschlagen.', // rUnknown
  'Rechnungsadresse', // billing
  'Straße und Hausnummer', // street
  'Ort', // city
  'Postleitzahl', // postcode
  'Land', // country
  'Bitte ausfüllen.', // eRequired
  'Gültige Postleitzahl eingeben.', // ePostcode
  'Mit {0} bezahlen', // payWith
  'Für künftige Zahlungen speichern', // save
  'Ablaufjahr prüfen.', // eYear
  'Gespeicherte Zahlungsarten', // mSavedAll
  'Diese Zahlung ist bereits abgeschlossen.', // rPaid
  'MM/JJ', // mmYY
  'Abbrechen', // cancel
  'Namen des Kontoinhabers eingeben.', // eAccHolder
  'Die Prüfnummer hat 3 Ziffern.', // eCvv3
  'Die Prüfnummer hat 4 Ziffern.', // eCvv4
  'Mindestens 3 Zeichen eingeben.', // eMin3
  'Diese Zahlungsseite läuft in weniger als 2 Minuten ab.', // expiring
];
