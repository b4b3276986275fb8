// Spanish
import type { Texts } from './en.ts';

export const es: Texts = [
  'Método de pago', // method
  'Tarjeta', // mCard
  'Adeudo directo SEPA', // mBank
  'Tarjetas guardadas', // mSaved
  'Número de tarjeta', // number
  'Fecha de caducidad', // expiry
  'Código de seguridad', // cvv
  '3 dígitos en el reverso (Amex: 4 en el anverso)', // cvvHint
  'Nombre en la tarjeta', // holder
  'Titular de la cuenta', // accHolder
  'BIC (opcional)', // bic
  'Acepto el mandato de adeudo directo SEPA para este pago.', // mandate
  'ID de cuenta o correo', // accountId
  'Pagar {0}', // payAmount
  'Cargando…', // loading
  'Procesando…', // processing
  'Número de tarjeta no válido.', // eNumber
  'Este tipo de tarjeta no se acepta.', // eBrand
  'Formato: MM/AA.', // eExpiry
  'Esta tarjeta ha caducado.', // eExpired
  'Introduce el código de seguridad.', // eCvv
  'Introduce el nombre de la tarjeta.', // eHolder
  'IBAN SEPA no válido.', // eIban
  'BIC no válido.', // eBic
  'Acepta el mandato para continuar.', // eMandate
  'Introduce tu ID de cuenta.', // eAccount
  'No se pudo cargar el formulario de pago.', // eLoad
  'Rechazado por tu banco. Prueba otra tarjeta o método.', // rDeclined
  'Fondos o límite insuficientes.', // rFunds
  'Código de seguridad incorrecto.', // rCvv
  'Falló la autenticación de la tarjeta.', // r3ds
  'Método de pago no disponible.', // rConfig
  'Algunos datos no son válidos.', // rInput
  'Tarjeta guardada ya no disponible.', // rSaved
  'Sesión caducada. Recarga la página.', // rSession
  'Pago cancelado.', // rCancelled
  'Error técnico. Inténtalo más tarde.', // rSystem
  'Sin conexión. Inténtalo de nuevo.', // rNetwork
  'El pago ha fallado.', // rUnknown
  'Dirección de facturación', // billing
  'Calle y número', // street
  'Ciudad', // city
  'Código postal', // postcode
  'País', // country
  'Rellena este campo.', // eRequired
  'Introduce un código postal válido.', // ePostcode
  'Pagar con {0}', // payWith
  'Guardar para futuros pagos', // save
  'Revisa el año de caducidad.', // eYear
  'Métodos de pago guardados', // mSavedAll
  'Este pago ya se ha realizado.', // rPaid
  'MM/AA', // mmYY
  'Cancelar', // cancel
  'Introduce el nombre del titular de la cuenta.', // eAccHolder
  'El código de seguridad tiene 3 dígitos.', // eCvv3
  'El código de seguridad tiene 4 dígitos.', // eCvv4
  'Introduce al menos 3 caracteres.', // eMin3
  'Esta página de pago caduca en menos de 2 minutos.', // expiring
];
