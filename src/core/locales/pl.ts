// Polish
import type { Texts } from './en.ts';

export const pl: Texts = [
  'Metoda płatności', // method
  'Karta', // mCard
  'Polecenie zapłaty SEPA', // mBank
  'Zapisane karty', // mSaved
  'Numer karty', // number
  'Data ważności', // expiry
  'Kod zabezpieczający', // cvv
  '3 cyfry na odwrocie (Amex: 4 z przodu)', // cvvHint
  'Imię i nazwisko na karcie', // holder
  'Właściciel rachunku', // accHolder
  'BIC (opcjonalnie)', // bic
  'Akceptuję upoważnienie do polecenia zapłaty SEPA dla tej płatności.', // mandate
  'ID konta lub e-mail', // accountId
  'Zapłać {0}', // payAmount
  'Ładowanie…', // loading
  'Przetwarzanie…', // processing
  'Nieprawidłowy numer karty.', // eNumber
  'Ten typ karty nie jest akceptowany.', // eBrand
  'Format: MM/RR.', // eExpiry
  'Karta straciła ważność.', // eExpired
  'Wpisz kod zabezpieczający.', // eCvv
  'Wpisz imię i nazwisko z karty.', // eHolder
  'Nieprawidłowy IBAN SEPA.', // eIban
  'Nieprawidłowy BIC.', // eBic
  'Zaakceptuj upoważnienie.', // eMandate
  'Wpisz ID konta.', // eAccount
  'Nie udało się załadować formularza.', // eLoad
  'Bank odrzucił płatność. Użyj innej karty lub metody.', // rDeclined
  'Brak środków lub przekroczony limit.', // rFunds
  'Błędny kod zabezpieczający.', // rCvv
  'Uwierzytelnienie karty nieudane.', // r3ds
  'Metoda płatności niedostępna.', // rConfig
  'Niektóre dane są nieprawidłowe.', // rInput
  'Zapisana karta jest niedostępna.', // rSaved
  'Sesja wygasła. Odśwież stronę.', // rSession
  'Płatność anulowana.', // rCancelled
  'Błąd techniczny. Spróbuj później.', // rSystem
  'Brak połączenia. Spróbuj ponownie.', // rNetwork
  'Płatność nieudana.', // rUnknown
  'Adres rozliczeniowy', // billing
  'Ulica i numer', // street
  'Miejscowość', // city
  'Kod pocztowy', // postcode
  'Kraj', // country
  'Wypełnij to pole.', // eRequired
  'Wpisz poprawny kod pocztowy.', // ePostcode
  'Zapłać przez {0}', // payWith
  'Zapisz do przyszłych płatności', // save
  'Sprawdź rok ważności.', // eYear
  'Zapisane metody płatności', // mSavedAll
  'Ta płatność została już zrealizowana.', // rPaid
  'MM/RR', // mmYY
  'Anuluj', // cancel
  'Podaj imię i nazwisko właściciela konta.', // eAccHolder
  'Kod zabezpieczający ma 3 cyfry.', // eCvv3
  'Kod zabezpieczający ma 4 cyfry.', // eCvv4
  'Wpisz co najmniej 3 znaki.', // eMin3
  'Ta strona płatności wygaśnie za mniej niż 2 minuty.', // expiring
];
