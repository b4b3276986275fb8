// Persian (right-to-left; card fields keep Western digits, and the texts write theirs as the
// amounts do). Persian ye and kaf (U+06CC, U+06A9), zero-width non-joiners (\u200c) where Persian
// writes them.
import type { Texts } from './en.ts';

export const fa: Texts = [
  'روش پرداخت', // method
  'کارت', // mCard
  'برداشت مستقیم SEPA', // mBank
  'کارت\u200cهای ذخیره\u200cشده', // mSaved
  'شماره کارت', // number
  'تاریخ انقضا', // expiry
  'کد امنیتی', // cvv
  '3 رقم پشت کارت (Amex: 4 رقم روی کارت)', // cvvHint
  'نام دارنده کارت', // holder
  'صاحب حساب', // accHolder
  'BIC (اختیاری)', // bic
  'مجوز برداشت مستقیم SEPA را برای این پرداخت می\u200cپذیرم.', // mandate
  'شناسه حساب یا ایمیل', // accountId
  'پرداخت {0}', // payAmount
  'در حال بارگذاری…', // loading
  'در حال پردازش…', // processing
  'شماره کارت معتبر نیست.', // eNumber
  'این نوع کارت پذیرفته نمی\u200cشود.', // eBrand
  'قالب: MM/YY.', // eExpiry
  'این کارت منقضی شده است.', // eExpired
  'کد امنیتی را وارد کنید.', // eCvv
  'نام دارنده کارت را وارد کنید.', // eHolder
  'یک IBAN معتبر SEPA وارد کنید.', // eIban
  'یک BIC معتبر وارد کنید.', // eBic
  'برای ادامه، مجوز را بپذیرید.', // eMandate
  'شناسه حساب خود را وارد کنید.', // eAccount
  'فرم پرداخت بارگذاری نشد.', // eLoad
  'بانک شما پرداخت را رد کرد. کارت یا روش دیگری را امتحان کنید.', // rDeclined
  'موجودی یا سقف کافی نیست.', // rFunds
  'کد امنیتی نادرست است.', // rCvv
  'احراز هویت کارت ناموفق بود.', // r3ds
  'این روش پرداخت در دسترس نیست.', // rConfig
  'برخی از اطلاعات نامعتبر است.', // rInput
  'کارت ذخیره\u200cشده دیگر در دسترس نیست.', // rSaved
  'نشست منقضی شد. صفحه را دوباره بارگذاری کنید.', // rSession
  'پرداخت لغو شد.', // rCancelled
  'خطای فنی. بعداً دوباره امتحان کنید.', // rSystem
  'اتصال برقرار نیست. دوباره امتحان کنید.', // rNetwork
  'پرداخت ناموفق بود.', // rUnknown
  'نشانی صورت\u200cحساب', // billing
  'خیابان و پلاک', // street
  'شهر', // city
  'کد پستی', // postcode
  'کشور', // country
  'این فیلد را پر کنید.', // eRequired
  'یک کد پستی معتبر وارد کنید.', // ePostcode
  'پرداخت با {0}', // payWith
  'ذخیره برای پرداخت\u200cهای بعدی', // save
  'سال انقضا را بررسی کنید.', // eYear
  'روش\u200cهای پرداخت ذخیره\u200cشده', // mSavedAll
  'این پرداخت قبلاً انجام شده است.', // rPaid
  'MM/YY', // mmYY
  'لغو', // cancel
  'نام صاحب حساب را وارد کنید.', // eAccHolder
  'کد امنیتی 3 رقمی است.', // eCvv3
  'کد امنیتی 4 رقمی است.', // eCvv4
  'دست‌کم 3 نویسه وارد کنید.', // eMin3
  'اعتبار این صفحه پرداخت کمتر از 2 دقیقه دیگر تمام می\u200cشود.', // expiring
];
