// Urdu (right-to-left; card fields keep Western digits, and the texts write theirs as the amounts
// do). Urdu letters (heh goal U+06C1, do-chashmi heh U+06BE, ye U+06CC, bari ye U+06D2, keheh
// U+06A9), sentences end with the Urdu full stop (۔).
import type { Texts } from './en.ts';

export const ur: Texts = [
  'ادائیگی کا طریقہ', // method
  'کارڈ', // mCard
  'SEPA ڈائریکٹ ڈیبٹ', // mBank
  'محفوظ کردہ کارڈز', // mSaved
  'کارڈ نمبر', // number
  'میعاد ختم ہونے کی تاریخ', // expiry
  'سیکیورٹی کوڈ', // cvv
  'کارڈ کی پشت پر 3 ہندسے (Amex: سامنے کی طرف 4)', // cvvHint
  'کارڈ پر درج نام', // holder
  'اکاؤنٹ ہولڈر', // accHolder
  'BIC (اختیاری)', // bic
  'اس ادائیگی کے لیے SEPA ڈائریکٹ ڈیبٹ مینڈیٹ مجھے منظور ہے۔', // mandate
  'اکاؤنٹ ID یا ای میل', // accountId
  '{0} ادا کریں', // payAmount
  'لوڈ ہو رہا ہے…', // loading
  'کارروائی جاری ہے…', // processing
  'درست کارڈ نمبر درج کریں۔', // eNumber
  'اس قسم کا کارڈ قبول نہیں کیا جاتا۔', // eBrand
  'فارمیٹ: MM/YY۔', // eExpiry
  'اس کارڈ کی میعاد ختم ہو چکی ہے۔', // eExpired
  'سیکیورٹی کوڈ درج کریں۔', // eCvv
  'کارڈ پر درج نام لکھیں۔', // eHolder
  'درست SEPA IBAN درج کریں۔', // eIban
  'درست BIC درج کریں۔', // eBic
  'جاری رکھنے کے لیے مینڈیٹ قبول کریں۔', // eMandate
  'اپنی اکاؤنٹ ID درج کریں۔', // eAccount
  'ادائیگی کا فارم لوڈ نہیں ہو سکا۔', // eLoad
  'آپ کے بینک نے ادائیگی مسترد کر دی۔ کوئی دوسرا کارڈ یا طریقہ آزمائیں۔', // rDeclined
  'ناکافی بیلنس یا حد پوری ہو چکی ہے۔', // rFunds
  'سیکیورٹی کوڈ غلط ہے۔', // rCvv
  'کارڈ کی تصدیق ناکام ہو گئی۔', // r3ds
  'ادائیگی کا یہ طریقہ دستیاب نہیں۔', // rConfig
  'کچھ تفصیلات درست نہیں ہیں۔', // rInput
  'محفوظ کردہ کارڈ اب دستیاب نہیں۔', // rSaved
  'سیشن ختم ہو گیا۔ صفحہ دوبارہ لوڈ کریں۔', // rSession
  'ادائیگی منسوخ کر دی گئی۔', // rCancelled
  'تکنیکی خرابی۔ بعد میں دوبارہ کوشش کریں۔', // rSystem
  'کنکشن نہیں ہے۔ دوبارہ کوشش کریں۔', // rNetwork
  'ادائیگی ناکام ہو گئی۔', // rUnknown
  'بلنگ کا پتہ', // billing
  'گلی اور مکان نمبر', // street
  'شہر', // city
  'پوسٹل کوڈ', // postcode
  'ملک', // country
  'یہ خانہ پُر کریں۔', // eRequired
  'درست پوسٹل کوڈ درج کریں۔', // ePostcode
  '{0} کے ذریعے ادائیگی', // payWith
  'آئندہ ادائیگیوں کے لیے محفوظ کریں', // save
  'میعاد کا سال چیک کریں۔', // eYear
  'ادائیگی کے محفوظ کردہ طریقے', // mSavedAll
  'یہ ادائیگی پہلے ہی مکمل ہو چکی ہے۔', // rPaid
  'MM/YY', // mmYY
  'منسوخ کریں', // cancel
  'اکاؤنٹ ہولڈر کا نام درج کریں۔', // eAccHolder
  'سیکیورٹی کوڈ 3 ہندسوں کا ہوتا ہے۔', // eCvv3
  'سیکیورٹی کوڈ 4 ہندسوں کا ہوتا ہے۔', // eCvv4
  'کم از کم 3 حروف درج کریں۔', // eMin3
];
