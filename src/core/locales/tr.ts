// Turkish
import type { Texts } from './en.ts';

export const tr: Texts = [
  'Ödeme yöntemi', // method
  'Kart', // mCard
  'SEPA otomatik ödeme', // mBank
  'Kayıtlı kartlar', // mSaved
  'Kart numarası', // number
  'Son kullanma tarihi', // expiry
  'Güvenlik kodu', // cvv
  'Arkada 3 hane (Amex: önde 4 hane)', // cvvHint
  'Kart üzerindeki ad', // holder
  'Hesap sahibi', // accHolder
  'BIC (isteğe bağlı)', // bic
  'Bu ödeme için SEPA otomatik ödeme talimatını onaylıyorum.', // mandate
  'Hesap kimliği veya e-posta', // accountId
  '{0} öde', // payAmount
  'Yükleniyor…', // loading
  'İşleniyor…', // processing
  'Geçersiz kart numarası.', // eNumber
  'Bu kart türü kabul edilmiyor.', // eBrand
  'Biçim: AA/YY.', // eExpiry
  'Kartın süresi dolmuş.', // eExpired
  'Güvenlik kodunu girin.', // eCvv
  'Kart üzerindeki adı girin.', // eHolder
  'Geçersiz SEPA IBAN.', // eIban
  'Geçersiz BIC.', // eBic
  'Devam etmek için talimatı onaylayın.', // eMandate
  'Hesap kimliğinizi girin.', // eAccount
  'Ödeme formu yüklenemedi.', // eLoad
  'Bankanız reddetti. Başka bir kart veya yöntem deneyin.', // rDeclined
  'Yetersiz bakiye veya limit.', // rFunds
  'Güvenlik kodu yanlış.', // rCvv
  'Kart doğrulaması başarısız.', // r3ds
  'Ödeme yöntemi kullanılamıyor.', // rConfig
  'Bazı bilgiler geçersiz.', // rInput
  'Kayıtlı kart artık kullanılamıyor.', // rSaved
  'Oturum sona erdi. Sayfayı yenileyin.', // rSession
  'Ödeme iptal edildi.', // rCancelled
  'Teknik hata. Daha sonra tekrar deneyin.', // rSystem
  'Bağlantı yok. Tekrar deneyin.', // rNetwork
  'Ödeme başarısız.', // rUnknown
  'Fatura adresi', // billing
  'Sokak ve numara', // street
  'Şehir', // city
  'Posta kodu', // postcode
  'Ülke', // country
  'Bu alanı doldurun.', // eRequired
  'Geçerli bir posta kodu girin.', // ePostcode
  '{0} ile öde', // payWith
  'Gelecekteki ödemeler için kaydet', // save
  'Son kullanma yılını kontrol edin.', // eYear
  'Kayıtlı ödeme yöntemleri', // mSavedAll
  'Bu ödeme zaten tamamlandı.', // rPaid
  'AA/YY', // mmYY
  'İptal', // cancel
  'Hesap sahibinin adını girin.', // eAccHolder
  'Güvenlik kodu 3 hanelidir.', // eCvv3
  'Güvenlik kodu 4 hanelidir.', // eCvv4
  'En az 3 karakter girin.', // eMin3
  'Bu ödeme sayfasının süresi 2 dakika içinde dolacak.', // expiring
];
