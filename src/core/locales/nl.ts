// Dutch
import type { Texts } from './en.ts';

export const nl: Texts = [
  'Betaalmethode', // method
  'Kaart', // mCard
  'SEPA-incasso', // mBank
  'Opgeslagen kaarten', // mSaved
  'Kaartnummer', // number
  'Vervaldatum', // expiry
  'Beveiligingscode', // cvv
  '3 cijfers op de achterkant (Amex: 4 op de voorkant)', // cvvHint
  'Naam op de kaart', // holder
  'Rekeninghouder', // accHolder
  'BIC (optioneel)', // bic
  'Ik geef een SEPA-incassomachtiging voor deze betaling.', // mandate
  'Account-ID of e-mail', // accountId
  '{0} betalen', // payAmount
  'Laden…', // loading
  'Verwerken…', // processing
  'Ongeldig kaartnummer.', // eNumber
  'Dit kaarttype wordt niet geaccepteerd.', // eBrand
  'Formaat: MM/JJ.', // eExpiry
  'Deze kaart is verlopen.', // eExpired
  'Voer de beveiligingscode in.', // eCvv
  'Voer de naam op de kaart in.', // eHolder
  'Ongeldige SEPA-IBAN.', // eIban
  'Ongeldige BIC.', // eBic
  'Accepteer de machtiging om door te gaan.', // eMandate
  'Voer uw account-ID in.', // eAccount
  'Het betaalformulier kon niet worden geladen.', // eLoad
  'Geweigerd door uw bank. Probeer een andere kaart of methode.', // rDeclined
  'Onvoldoende saldo of limiet bereikt.', // rFunds
  'Onjuiste beveiligingscode.', // rCvv
  'Kaartverificatie mislukt.', // r3ds
  'Betaalmethode niet beschikbaar.', // rConfig
  'Sommige gegevens zijn ongeldig.', // rInput
  'Opgeslagen kaart niet meer beschikbaar.', // rSaved
  'Sessie verlopen. Laad de pagina opnieuw.', // rSession
  'Betaling geannuleerd.', // rCancelled
  'Technische fout. Probeer het later opnieuw.', // rSystem
  'Geen verbinding. Probeer het opnieuw.', // rNetwork
  'Betaling mislukt.', // rUnknown
  'Factuuradres', // billing
  'Straat en huisnummer', // street
  'Plaats', // city
  'Postcode', // postcode
  'Land', // country
  'Vul dit veld in.', // eRequired
  'Voer een geldige postcode in.', // ePostcode
  'Betalen met {0}', // payWith
  'Opslaan voor toekomstige betalingen', // save
  'Controleer het vervaljaar.', // eYear
  'Opgeslagen betaalmethoden', // mSavedAll
  'Deze betaling is al voltooid.', // rPaid
  'MM/JJ', // mmYY
  'Annuleren', // cancel
  'Vul de naam van de rekeninghouder in.', // eAccHolder
  'De beveiligingscode heeft 3 cijfers.', // eCvv3
  'De beveiligingscode heeft 4 cijfers.', // eCvv4
  'Vul minimaal 3 tekens in.', // eMin3
  'Deze betaalpagina verloopt over minder dan 2 minuten.', // expiring
];
