// Portuguese (Brazil). pt.ts is Portugal's (and Angola's, Mozambique's …): Brazil says salvo for
// guardado, digite for introduza, conexão for ligação, endereço de cobrança for morada de faturação.
import type { Texts } from './en.ts';

export const ptBR: Texts = [
  'Forma de pagamento', // method
  'Cartão', // mCard
  'Débito direto SEPA', // mBank
  'Cartões salvos', // mSaved
  'Número do cartão', // number
  'Data de validade', // expiry
  'Código de segurança', // cvv
  '3 dígitos no verso (Amex: 4 na frente)', // cvvHint
  'Nome impresso no cartão', // holder
  'Titular da conta', // accHolder
  'BIC (opcional)', // bic
  'Aceito o mandato de débito direto SEPA para este pagamento.', // mandate
  'ID da conta ou e-mail', // accountId
  'Pagar {0}', // payAmount
  'Carregando…', // loading
  'Processando…', // processing
  'Número de cartão inválido.', // eNumber
  'Este tipo de cartão não é aceito.', // eBrand
  'Formato: MM/AA.', // eExpiry
  'Este cartão está vencido.', // eExpired
  'Digite o código de segurança.', // eCvv
  'Digite o nome impresso no cartão.', // eHolder
  'IBAN SEPA inválido.', // eIban
  'BIC inválido.', // eBic
  'Aceite o mandato para continuar.', // eMandate
  'Digite o ID da conta.', // eAccount
  'Não foi possível carregar o formulário de pagamento.', // eLoad
  'Recusado pelo seu banco. Tente outro cartão ou forma de pagamento.', // rDeclined
  'Saldo ou limite insuficiente.', // rFunds
  'Código de segurança incorreto.', // rCvv
  'Falha na autenticação do cartão.', // r3ds
  'Forma de pagamento indisponível.', // rConfig
  'Alguns dados são inválidos.', // rInput
  'Cartão salvo indisponível.', // rSaved
  'Sessão expirada. Recarregue a página.', // rSession
  'Pagamento cancelado.', // rCancelled
  'Erro técnico. Tente novamente mais tarde.', // rSystem
  'Sem conexão. Tente novamente.', // rNetwork
  'Falha no pagamento.', // rUnknown
  'Endereço de cobrança', // billing
  'Rua e número', // street
  'Cidade', // city
  'CEP', // postcode
  'País', // country
  'Preencha este campo.', // eRequired
  'Digite um CEP válido.', // ePostcode
  'Pagar com {0}', // payWith
  'Salvar para pagamentos futuros', // save
  'Verifique o ano de validade.', // eYear
  'Formas de pagamento salvas', // mSavedAll
  'Este pagamento já foi concluído.', // rPaid
  'MM/AA', // mmYY
  'Cancelar', // cancel
  'Digite o nome do titular da conta.', // eAccHolder
  'O código de segurança tem 3 dígitos.', // eCvv3
  'O código de segurança tem 4 dígitos.', // eCvv4
  'Digite pelo menos 3 caracteres.', // eMin3
  'Esta página de pagamento expira em menos de 2 minutos.', // expiring
];
