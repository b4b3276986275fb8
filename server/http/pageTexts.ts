// The texts of the gateway's own pages the shopper reads (server/http/routes/threeds.ts): the
// 3-D Secure waiting and finishing pages and the result page, in the widget's languages. The
// simulated issuer's and provider's pages stand in for third parties' and stay in English.
// Which language: the payment's `locale` (a checkout's, for the payment page's payments), else
// customer.browser.language, else the shopper's browser (Accept-Language), else English.
import { formatAmount } from '../../src/core/format.ts';
import { dirOf, localeOf, type Locale } from '../../src/core/locale-list.ts';
import { groupsOf, isPending, isSuccess } from '../results.ts';

export interface PageTexts {
  checking: string;
  wait: string;
  withBank: string;
  opening: string;
  finished: string;
  continue: string;
  paySuccess: string;
  payPending: string;
  payFailed: string;
  authSuccess: string;
  authPending: string;
  authFailed: string;
  declined: string;
  authentication: string;
  cancelled: string;
  technical: string;
}

const en: PageTexts = {
  checking: 'Checking the payment',
  wait: 'Please wait a moment.',
  withBank: 'Checking the payment with your bank…',
  opening: 'Opening your bank\u2019s check…',
  finished: 'Authentication finished.',
  continue: 'Continue',
  paySuccess: 'Payment successful',
  payPending: 'Payment pending',
  payFailed: 'Payment not completed',
  authSuccess: 'Authentication successful',
  authPending: 'Authentication pending',
  authFailed: 'Authentication not completed',
  declined: 'Declined by your bank.',
  authentication: 'Card authentication failed.',
  cancelled: 'Cancelled.',
  technical: 'Technical error. Try again later.',
};

const TEXTS = {
  en,
  ar: {
    checking: 'جارٍ التحقق من الدفعة',
    wait: 'يُرجى الانتظار لحظة.',
    withBank: 'جارٍ التحقق من الدفعة مع البنك…',
    opening: 'جارٍ فتح صفحة التحقق من البنك…',
    finished: 'انتهى التحقق.',
    continue: 'متابعة',
    paySuccess: 'تمت الدفعة بنجاح',
    payPending: 'الدفعة قيد الانتظار',
    payFailed: 'لم تكتمل الدفعة',
    authSuccess: 'تم التحقق بنجاح',
    authPending: 'التحقق قيد الانتظار',
    authFailed: 'لم يكتمل التحقق',
    declined: 'رفض البنك الدفعة.',
    authentication: 'فشل التحقق من البطاقة.',
    cancelled: 'أُلغيت.',
    technical: 'خطأ تقني. حاول لاحقًا.',
  },
  de: {
    checking: 'Zahlung wird geprüft',
    wait: 'Bitte einen Moment warten.',
    withBank: 'Zahlung wird mit Ihrer Bank geprüft…',
    opening: 'Prüfung Ihrer Bank wird geöffnet…',
    finished: 'Prüfung abgeschlossen.',
    continue: 'Weiter',
    paySuccess: 'Zahlung erfolgreich',
    payPending: 'Zahlung ausstehend',
    payFailed: 'Zahlung nicht abgeschlossen',
    authSuccess: 'Prüfung erfolgreich',
    authPending: 'Prüfung ausstehend',
    authFailed: 'Prüfung nicht abgeschlossen',
    declined: 'Von Ihrer Bank abgelehnt.',
    authentication: 'Kartenprüfung fehlgeschlagen.',
    cancelled: 'Abgebrochen.',
    technical: 'Technischer Fehler. Später erneut versuchen.',
  },
  es: {
    checking: 'Comprobando el pago',
    wait: 'Espera un momento.',
    withBank: 'Comprobando el pago con tu banco…',
    opening: 'Abriendo la verificación de tu banco…',
    finished: 'Autenticación finalizada.',
    continue: 'Continuar',
    paySuccess: 'Pago realizado',
    payPending: 'Pago pendiente',
    payFailed: 'Pago no completado',
    authSuccess: 'Autenticación correcta',
    authPending: 'Autenticación pendiente',
    authFailed: 'Autenticación no completada',
    declined: 'Rechazado por tu banco.',
    authentication: 'Falló la autenticación de la tarjeta.',
    cancelled: 'Cancelado.',
    technical: 'Error técnico. Inténtalo más tarde.',
  },
  fa: {
    checking: 'در حال بررسی پرداخت',
    wait: 'لطفاً لحظه\u200cای صبر کنید.',
    withBank: 'در حال بررسی پرداخت با بانک شما…',
    opening: 'در حال باز کردن صفحه تأیید بانک شما…',
    finished: 'احراز هویت پایان یافت.',
    continue: 'ادامه',
    paySuccess: 'پرداخت موفق بود',
    payPending: 'پرداخت در انتظار است',
    payFailed: 'پرداخت تکمیل نشد',
    authSuccess: 'احراز هویت موفق بود',
    authPending: 'احراز هویت در انتظار است',
    authFailed: 'احراز هویت تکمیل نشد',
    declined: 'بانک شما پرداخت را رد کرد.',
    authentication: 'احراز هویت کارت ناموفق بود.',
    cancelled: 'لغو شد.',
    technical: 'خطای فنی. بعداً دوباره امتحان کنید.',
  },
  fr: {
    checking: 'Vérification du paiement',
    wait: 'Veuillez patienter un instant.',
    withBank: 'Vérification du paiement auprès de votre banque…',
    opening: 'Ouverture de la vérification de votre banque…',
    finished: 'Authentification terminée.',
    continue: 'Continuer',
    paySuccess: 'Paiement réussi',
    payPending: 'Paiement en attente',
    payFailed: 'Paiement non abouti',
    authSuccess: 'Authentification réussie',
    authPending: 'Authentification en attente',
    authFailed: 'Authentification non aboutie',
    declined: 'Refusé par votre banque.',
    authentication: 'Échec de l\u2019authentification de la carte.',
    cancelled: 'Annulé.',
    technical: 'Erreur technique. Réessayez plus tard.',
  },
  he: {
    checking: 'התשלום בבדיקה',
    wait: 'נא להמתין רגע.',
    withBank: 'התשלום נבדק מול הבנק שלך…',
    opening: 'דף האימות של הבנק נפתח…',
    finished: 'האימות הסתיים.',
    continue: 'המשך',
    paySuccess: 'התשלום בוצע בהצלחה',
    payPending: 'התשלום בהמתנה',
    payFailed: 'התשלום לא הושלם',
    authSuccess: 'האימות הצליח',
    authPending: 'האימות בהמתנה',
    authFailed: 'האימות לא הושלם',
    declined: 'הבנק דחה את התשלום.',
    authentication: 'אימות הכרטיס נכשל.',
    cancelled: 'בוטל.',
    technical: 'שגיאה טכנית. נסו שוב מאוחר יותר.',
  },
  it: {
    checking: 'Verifica del pagamento',
    wait: 'Attendi un momento.',
    withBank: 'Verifica del pagamento con la tua banca…',
    opening: 'Apertura della verifica della tua banca…',
    finished: 'Autenticazione completata.',
    continue: 'Continua',
    paySuccess: 'Pagamento riuscito',
    payPending: 'Pagamento in sospeso',
    payFailed: 'Pagamento non completato',
    authSuccess: 'Autenticazione riuscita',
    authPending: 'Autenticazione in sospeso',
    authFailed: 'Autenticazione non completata',
    declined: 'Rifiutato dalla tua banca.',
    authentication: 'Autenticazione della carta non riuscita.',
    cancelled: 'Annullato.',
    technical: 'Errore tecnico. Riprova più tardi.',
  },
  ja: {
    checking: '支払いを確認しています',
    wait: 'しばらくお待ちください。',
    withBank: '銀行で支払いを確認しています…',
    opening: '銀行の認証画面を開いています…',
    finished: '認証が完了しました。',
    continue: '続ける',
    paySuccess: 'お支払いが完了しました',
    payPending: 'お支払いは保留中です',
    payFailed: 'お支払いは完了しませんでした',
    authSuccess: '認証に成功しました',
    authPending: '認証は保留中です',
    authFailed: '認証は完了しませんでした',
    declined: '銀行に拒否されました。',
    authentication: 'カード認証に失敗しました。',
    cancelled: 'キャンセルされました。',
    technical: 'システムエラーです。後でお試しください。',
  },
  nl: {
    checking: 'Betaling wordt gecontroleerd',
    wait: 'Een moment geduld.',
    withBank: 'Betaling wordt gecontroleerd bij uw bank…',
    opening: 'Controle van uw bank wordt geopend…',
    finished: 'Verificatie voltooid.',
    continue: 'Doorgaan',
    paySuccess: 'Betaling geslaagd',
    payPending: 'Betaling in behandeling',
    payFailed: 'Betaling niet voltooid',
    authSuccess: 'Verificatie geslaagd',
    authPending: 'Verificatie in behandeling',
    authFailed: 'Verificatie niet voltooid',
    declined: 'Geweigerd door uw bank.',
    authentication: 'Kaartverificatie mislukt.',
    cancelled: 'Geannuleerd.',
    technical: 'Technische fout. Probeer het later opnieuw.',
  },
  pl: {
    checking: 'Sprawdzanie płatności',
    wait: 'Poczekaj chwilę.',
    withBank: 'Sprawdzanie płatności w Twoim banku…',
    opening: 'Otwieranie weryfikacji Twojego banku…',
    finished: 'Uwierzytelnianie zakończone.',
    continue: 'Dalej',
    paySuccess: 'Płatność zakończona powodzeniem',
    payPending: 'Płatność oczekuje',
    payFailed: 'Płatność nie została zakończona',
    authSuccess: 'Uwierzytelnienie udane',
    authPending: 'Uwierzytelnienie oczekuje',
    authFailed: 'Uwierzytelnienie nie zostało zakończone',
    declined: 'Bank odrzucił płatność.',
    authentication: 'Uwierzytelnienie karty nieudane.',
    cancelled: 'Anulowano.',
    technical: 'Błąd techniczny. Spróbuj później.',
  },
  pt: {
    checking: 'A verificar o pagamento',
    wait: 'Aguarde um momento.',
    withBank: 'A verificar o pagamento com o seu banco…',
    opening: 'A abrir a verificação do seu banco…',
    finished: 'Autenticação concluída.',
    continue: 'Continuar',
    paySuccess: 'Pagamento efetuado',
    payPending: 'Pagamento pendente',
    payFailed: 'Pagamento não concluído',
    authSuccess: 'Autenticação bem-sucedida',
    authPending: 'Autenticação pendente',
    authFailed: 'Autenticação não concluída',
    declined: 'Recusado pelo seu banco.',
    authentication: 'A autenticação do cartão falhou.',
    cancelled: 'Cancelado.',
    technical: 'Erro técnico. Tente mais tarde.',
  },
  'pt-BR': {
    checking: 'Verificando o pagamento',
    wait: 'Aguarde um momento.',
    withBank: 'Verificando o pagamento com o seu banco…',
    opening: 'Abrindo a verificação do seu banco…',
    finished: 'Autenticação concluída.',
    continue: 'Continuar',
    paySuccess: 'Pagamento realizado',
    payPending: 'Pagamento pendente',
    payFailed: 'Pagamento não concluído',
    authSuccess: 'Autenticação bem-sucedida',
    authPending: 'Autenticação pendente',
    authFailed: 'Autenticação não concluída',
    declined: 'Recusado pelo seu banco.',
    authentication: 'Falha na autenticação do cartão.',
    cancelled: 'Cancelado.',
    technical: 'Erro técnico. Tente novamente mais tarde.',
  },
  sv: {
    checking: 'Betalningen kontrolleras',
    wait: 'Vänta ett ögonblick.',
    withBank: 'Betalningen kontrolleras med din bank…',
    opening: 'Din banks kontroll öppnas…',
    finished: 'Verifieringen är klar.',
    continue: 'Fortsätt',
    paySuccess: 'Betalningen lyckades',
    payPending: 'Betalningen väntar',
    payFailed: 'Betalningen slutfördes inte',
    authSuccess: 'Verifieringen lyckades',
    authPending: 'Verifieringen väntar',
    authFailed: 'Verifieringen slutfördes inte',
    declined: 'Nekad av din bank.',
    authentication: 'Kortverifieringen misslyckades.',
    cancelled: 'Avbruten.',
    technical: 'Tekniskt fel. Försök igen senare.',
  },
  tr: {
    checking: 'Ödeme kontrol ediliyor',
    wait: 'Lütfen biraz bekleyin.',
    withBank: 'Ödeme bankanızla kontrol ediliyor…',
    opening: 'Bankanızın doğrulaması açılıyor…',
    finished: 'Doğrulama tamamlandı.',
    continue: 'Devam',
    paySuccess: 'Ödeme başarılı',
    payPending: 'Ödeme beklemede',
    payFailed: 'Ödeme tamamlanmadı',
    authSuccess: 'Doğrulama başarılı',
    authPending: 'Doğrulama beklemede',
    authFailed: 'Doğrulama tamamlanmadı',
    declined: 'Bankanız reddetti.',
    authentication: 'Kart doğrulaması başarısız.',
    cancelled: 'İptal edildi.',
    technical: 'Teknik hata. Daha sonra tekrar deneyin.',
  },
  ur: {
    checking: 'ادائیگی کی جانچ ہو رہی ہے',
    wait: 'براہِ کرم تھوڑا انتظار کریں۔',
    withBank: 'آپ کے بینک سے ادائیگی کی تصدیق ہو رہی ہے…',
    opening: 'آپ کے بینک کی تصدیق کھل رہی ہے…',
    finished: 'تصدیق مکمل ہو گئی۔',
    continue: 'جاری رکھیں',
    paySuccess: 'ادائیگی کامیاب',
    payPending: 'ادائیگی زیرِ التوا',
    payFailed: 'ادائیگی مکمل نہیں ہوئی',
    authSuccess: 'تصدیق کامیاب',
    authPending: 'تصدیق زیرِ التوا',
    authFailed: 'تصدیق مکمل نہیں ہوئی',
    declined: 'آپ کے بینک نے مسترد کر دیا۔',
    authentication: 'کارڈ کی تصدیق ناکام ہو گئی۔',
    cancelled: 'منسوخ کر دیا گیا۔',
    technical: 'تکنیکی خرابی۔ بعد میں دوبارہ کوشش کریں۔',
  },
  zh: {
    checking: '正在确认付款',
    wait: '请稍候。',
    withBank: '正在与您的银行确认付款…',
    opening: '正在打开银行验证页面…',
    finished: '验证已完成。',
    continue: '继续',
    paySuccess: '付款成功',
    payPending: '付款待处理',
    payFailed: '付款未完成',
    authSuccess: '验证成功',
    authPending: '验证待处理',
    authFailed: '验证未完成',
    declined: '银行拒绝了付款。',
    authentication: '银行卡验证失败。',
    cancelled: '已取消。',
    technical: '技术错误。请稍后再试。',
  },
  'zh-Hant': {
    checking: '正在確認付款',
    wait: '請稍候。',
    withBank: '正在與您的銀行確認付款…',
    opening: '正在開啟銀行的驗證頁面…',
    finished: '驗證已完成。',
    continue: '繼續',
    paySuccess: '付款成功',
    payPending: '付款處理中',
    payFailed: '付款未完成',
    authSuccess: '驗證成功',
    authPending: '驗證處理中',
    authFailed: '驗證未完成',
    declined: '銀行拒絕了這筆付款。',
    authentication: '卡片驗證失敗。',
    cancelled: '已取消。',
    technical: '技術錯誤。請稍後再試。',
  },
} satisfies Record<Locale, PageTexts>;

export type PageLanguage = Locale;

export interface PageLocale {
  lang: PageLanguage;
  dir: 'ltr' | 'rtl';
  texts: PageTexts;
}

/** The languages of an Accept-Language header the pages speak, most wanted first (q=0 means "not this one"). */
function acceptedLanguages(header: string): PageLanguage[] {
  return header
    .split(',')
    .slice(0, 32)
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { language: localeOf(tag), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.q > 0 && entry.language !== undefined)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.language!);
}

/**
 * The language of a page: the first of the payment's locale, its customer.browser.language and
 * the browser's Accept-Language that the pages speak (as the widget picks its locale:
 * src/core/locale-list.ts), English otherwise.
 */
export function pageLocale(chosen: ReadonlyArray<string | undefined>, acceptLanguage: string | undefined): PageLocale {
  const lang = chosen.map((value) => localeOf(value ?? '')).find((locale) => locale !== undefined) ?? acceptedLanguages(acceptLanguage ?? '')[0] ?? 'en';
  return { lang, dir: dirOf(lang), texts: TEXTS[lang] };
}

/**
 * The amount as the page's language writes it, as the widget's pay button did (src/core/format.ts):
 * "92,00 €" in German, "¥1,000" in Japanese (no minor units), "12.340 KWD" with three; Western digits.
 */
export const pageAmount = (amount: string, currency: string, lang: string): string => formatAmount(amount, currency, lang);

/** The heading of the result page: what ended, and how. */
export function resultHeading(texts: PageTexts, code: string, authentication: boolean): string {
  if (isSuccess(code)) return authentication ? texts.authSuccess : texts.paySuccess;
  if (isPending(code)) return authentication ? texts.authPending : texts.payPending;
  return authentication ? texts.authFailed : texts.payFailed;
}

/** Why it failed, for the shopper (the widget's groups, src/core/results.ts, coarser); '' when the heading says it all. */
export function failureReason(texts: PageTexts, code: string): string {
  if (isSuccess(code) || isPending(code)) return '';
  if (/^(100\.380\.401|000\.400\.(1\d[1-9]|2))/.test(code)) return texts.authentication;
  if (code === '100.396.101') return texts.cancelled;
  const groups = groupsOf(code);
  if (groups.includes('softDecline')) return texts.authentication;
  if (groups.some((g) => g === 'externalBankReject' || g === 'chargeback' || g.startsWith('risk'))) return texts.declined;
  if (groups.some((g) => g === 'systemError' || g === 'communicationError')) return texts.technical;
  return '';
}
