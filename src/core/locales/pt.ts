// Portuguese (Portugal; also Angola, Mozambique and a tag without a region). Brazil's is pt-BR.ts.
import type { Texts } from './en.ts';

export const pt: Texts = [
  'Forma de pagamento', // method
  'Cartão', // mCard
  'Débito direto SEPA', // mBank
  'Cartões guardados', // mSaved
  'Número do cartão', // number
  'Data de validade', // expiry
  'Código de segurança', // cvv
  '3 dígitos no verso (Amex: 4 na frente)', // cvvHint
  'Nome no cartão', // holder
  'Titular da conta', // accHolder
  'BIC (opcional)', // bic
  'Aceito o mandato de débito direto SEPA para este pagamento.', // mandate
  'ID da conta ou e-mail', // accountId
  'Pagar {0}', // payAmount
  'A carregar…', // loading
  'A processar…', // processing
  'Número de cartão inválido.', // eNumber
  'Este tipo de cartão não é aceite.', // eBrand
  'Formato: MM/AA.', // eExpiry
  'Este cartão expirou.', // eExpired
  'Introduza o código de segurança.', // eCvv
  'Introduza o nome no cartão.', // eHolder
  'IBAN SEPA inválido.', // eIban
  'BIC inválido.', // eBic
  'Aceite o mandato para continuar.', // eMandate
  'Introduza o ID da conta.', // eAccount
  'Não foi possível carregar o formulário de pagamento.', // eLoad
  'Recusado pelo seu banco. Experimente outro cartão ou forma de pagamento.', // rDeclined
  'Saldo ou limite insuficiente.', // rFunds
  'Código de segurança incorreto.', // rCvv
  'A autenticação do cartão falhou.', // r3ds
  'Forma de pagamento indisponível.', // rConfig
  'Alguns dados são inválidos.', // rInput
  'Cartão guardado indisponível.', // rSaved
  'Sessão expirada. Recarregue a página.', // rSession
  'Pagamento cancelado.', // rCancelled
  'Erro técnico. Tente mais tarde.', // rSystem
  'Sem ligação. Tente novamente.', // rNetwork
  'O pagamento falhou.', // rUnknown
  'Morada de faturação', // billing
  'Rua e número', // street
  'Cidade', // city
  'Código postal', // postcode
  'País', // country
  'Preencha este campo.', // eRequired
  'Introduza um código postal válido.', // ePostcode
  'Pagar com {0}', // payWith
  'Guardar para pagamentos futuros', // save
  'Verifique o ano de validade.', // eYear
  'Métodos de pagamento guardados', // mSavedAll
  'Este pagamento já foi concluído.', // rPaid
  'MM/AA', // mmYY
  'Cancelar', // cancel
  'Introduza o nome do titular da conta.', // eAccHolder
  'O código de segurança tem 3 dígitos.', // eCvv3
  'O código de segurança tem 4 dígitos.', // eCvv4
  'Introduza pelo menos 3 caracteres.', // eMin3
  'Esta página de pagamento expira em menos de 2 minutos.', // expiring
];
