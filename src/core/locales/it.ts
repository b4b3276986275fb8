// Italian
import type { Texts } from './en.ts';

export const it: Texts = [
  'Metodo di pagamento', // method
  'Carta', // mCard
  'Addebito diretto SEPA', // mBank
  'Carte salvate', // mSaved
  'Numero della carta', // number
  'Data di scadenza', // expiry
  'Codice di sicurezza', // cvv
  '3 cifre sul retro (Amex: 4 sul fronte)', // cvvHint
  'Nome sulla carta', // holder
  'Intestatario del conto', // accHolder
  'BIC (facoltativo)', // bic
  'Accetto il mandato di addebito diretto SEPA per questo pagamento.', // mandate
  'ID account o e-mail', // accountId
  'Paga {0}', // payAmount
  'Caricamento…', // loading
  'Elaborazione…', // processing
  'Numero di carta non valido.', // eNumber
  'Tipo di carta non accettato.', // eBrand
  'Formato: MM/AA.', // eExpiry
  'Questa carta è scaduta.', // eExpired
  'Inserisci il codice di sicurezza.', // eCvv
  'Inserisci il nome sulla carta.', // eHolder
  'IBAN SEPA non valido.', // eIban
  'BIC non valido.', // eBic
  'Accetta il mandato per continuare.', // eMandate
  'Inserisci il tuo ID account.', // eAccount
  'Impossibile caricare il modulo di pagamento.', // eLoad
  'Rifiutato dalla tua banca. Prova un’altra carta o metodo.', // rDeclined
  'Fondi o limite insufficienti.', // rFunds
  'Codice di sicurezza errato.', // rCvv
  'Autenticazione della carta non riuscita.', // r3ds
  'Metodo di pagamento non disponibile.', // rConfig
  'Alcuni dati non sono validi.', // rInput
  'Carta salvata non più disponibile.', // rSaved
  'Sessione scaduta. Ricarica la pagina.', // rSession
  'Pagamento annullato.', // rCancelled
  'Errore tecnico. Riprova più tardi.', // rSystem
  'Nessuna connessione. Riprova.', // rNetwork
  'Pagamento non riuscito.', // rUnknown
  'Indirizzo di fatturazione', // billing
  'Via e numero civico', // street
  'Città', // city
  'CAP', // postcode
  'Paese', // country
  'Compila questo campo.', // eRequired
  'Inserisci un CAP valido.', // ePostcode
  'Paga con {0}', // payWith
  'Salva per i pagamenti futuri', // save
  'Controlla l’anno di scadenza.', // eYear
  'Metodi di pagamento salvati', // mSavedAll
  'Questo pagamento è già stato effettuato.', // rPaid
  'MM/AA', // mmYY
  'Annulla', // cancel
  'Inserisci il nome dell\u2019intestatario del conto.', // eAccHolder
  'Il codice di sicurezza ha 3 cifre.', // eCvv3
  'Il codice di sicurezza ha 4 cifre.', // eCvv4
  'Inserisci almeno 3 caratteri.', // eMin3
  'Questa pagina di pagamento scade tra meno di 2 minuti.', // expiring
];
