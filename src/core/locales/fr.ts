// French
import type { Texts } from './en.ts';

export const fr: Texts = [
  'Moyen de paiement', // method
  'Carte', // mCard
  'Prélèvement SEPA', // mBank
  'Cartes enregistrées', // mSaved
  'Numéro de carte', // number
  'Date d’expiration', // expiry
  'Code de sécurité', // cvv
  '3 chiffres au dos (Amex : 4 au recto)', // cvvHint
  'Nom sur la carte', // holder
  'Titulaire du compte', // accHolder
  'BIC (facultatif)', // bic
  'J’accepte le mandat de prélèvement SEPA pour ce paiement.', // mandate
  'Identifiant ou e-mail du compte', // accountId
  'Payer {0}', // payAmount
  'Chargement…', // loading
  'Traitement…', // processing
  'Numéro de carte invalide.', // eNumber
  'Ce type de carte n’est pas accepté.', // eBrand
  'Format : MM/AA.', // eExpiry
  'Cette carte a expiré.', // eExpired
  'Saisissez le code de sécurité.', // eCvv
  'Saisissez le nom sur la carte.', // eHolder
  'IBAN SEPA invalide.', // eIban
  'BIC invalide.', // eBic
  'Acceptez le mandat pour continuer.', // eMandate
  'Saisissez votre identifiant.', // eAccount
  'Le formulaire de paiement n’a pas pu être chargé.', // eLoad
  'Refusé par votre banque. Essayez une autre carte ou un autre moyen.', // rDeclined
  'Provision ou plafond insuffisant.', // rFunds
  'Code de sécurité incorrect.', // rCvv
  'Échec de l’authentification de la carte.', // r3ds
  'Moyen de paiement indisponible.', // rConfig
  'Certaines données sont invalides.', // rInput
  'Carte enregistrée indisponible.', // rSaved
  'Session expirée. Rechargez la page.', // rSession
  'Paiement annulé.', // rCancelled
  'Erreur technique. Réessayez plus tard.', // rSystem
  'Pas de connexion. Réessayez.', // rNetwork
  'Échec du paiement.', // rUnknown
  'Adresse de facturation', // billing
  'Rue et numéro', // street
  'Ville', // city
  'Code postal', // postcode
  'Pays', // country
  'Remplissez ce champ.', // eRequired
  'Saisissez un code postal valide.', // ePostcode
  'Payer avec {0}', // payWith
  'Enregistrer pour mes prochains paiements', // save
  'Vérifiez l’année d’expiration.', // eYear
  'Moyens de paiement enregistrés', // mSavedAll
  'Ce paiement est déjà effectué.', // rPaid
  'MM/AA', // mmYY
  'Annuler', // cancel
  'Saisissez le nom du titulaire du compte.', // eAccHolder
  'Le code de sécurité comporte 3 chiffres.', // eCvv3
  'Le code de sécurité comporte 4 chiffres.', // eCvv4
  'Saisissez au moins 3 caractères.', // eMin3
  'Cette page de paiement expire dans moins de 2 minutes.', // expiring
];
