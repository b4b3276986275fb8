// Hebrew (right-to-left; card fields keep Western digits). Instructions in the impersonal form
// ("יש להזין") and plural imperatives ("נסו"), which address every shopper alike.
import type { Texts } from './en.ts';

export const he: Texts = [
  'אמצעי תשלום', // method
  'כרטיס אשראי', // mCard
  'חיוב ישיר SEPA', // mBank
  'כרטיסים שמורים', // mSaved
  'מספר כרטיס', // number
  'תוקף', // expiry
  'קוד אבטחה', // cvv
  '3 ספרות בגב הכרטיס (Amex: 4 בצד הקדמי)', // cvvHint
  'שם בעל הכרטיס', // holder
  'בעל החשבון', // accHolder
  'BIC (לא חובה)', // bic
  'אני מאשר/ת את הרשאת החיוב הישיר SEPA עבור תשלום זה.', // mandate
  'מזהה חשבון או אימייל', // accountId
  'לתשלום {0}', // payAmount
  'טוען…', // loading
  'התשלום בעיבוד…', // processing
  'מספר הכרטיס אינו תקין.', // eNumber
  'סוג הכרטיס הזה אינו מתקבל.', // eBrand
  'יש להזין בפורמט MM/YY.', // eExpiry
  'תוקף הכרטיס פג.', // eExpired
  'יש להזין את קוד האבטחה.', // eCvv
  'יש להזין את שם בעל הכרטיס.', // eHolder
  'יש להזין IBAN SEPA תקין.', // eIban
  'יש להזין BIC תקין.', // eBic
  'יש לאשר את ההרשאה כדי להמשיך.', // eMandate
  'יש להזין את מזהה החשבון.', // eAccount
  'לא ניתן לטעון את טופס התשלום.', // eLoad
  'הבנק דחה את התשלום. נסו כרטיס או אמצעי תשלום אחר.', // rDeclined
  'אין מספיק יתרה או מסגרת.', // rFunds
  'קוד האבטחה שגוי.', // rCvv
  'אימות הכרטיס נכשל.', // r3ds
  'אמצעי התשלום אינו זמין.', // rConfig
  'חלק מהפרטים אינם תקינים.', // rInput
  'הכרטיס השמור כבר אינו זמין.', // rSaved
  'תוקף ההפעלה פג. יש לרענן את הדף.', // rSession
  'התשלום בוטל.', // rCancelled
  'שגיאה טכנית. נסו שוב מאוחר יותר.', // rSystem
  'אין חיבור. נסו שוב.', // rNetwork
  'התשלום נכשל.', // rUnknown
  'כתובת לחיוב', // billing
  'רחוב ומספר בית', // street
  'עיר', // city
  'מיקוד', // postcode
  'מדינה', // country
  'יש למלא את השדה הזה.', // eRequired
  'יש להזין מיקוד תקין.', // ePostcode
  'תשלום באמצעות {0}', // payWith
  'שמירה לתשלומים הבאים', // save
  'יש לבדוק את שנת התוקף.', // eYear
  'אמצעי תשלום שמורים', // mSavedAll
  'התשלום הזה כבר הושלם.', // rPaid
  'MM/YY', // mmYY
  'ביטול', // cancel
  'יש להזין את שם בעל החשבון.', // eAccHolder
  'קוד האבטחה כולל 3 ספרות.', // eCvv3
  'קוד האבטחה כולל 4 ספרות.', // eCvv4
  'יש להזין לפחות 3 תווים.', // eMin3
  'תוקף דף התשלום יפוג בעוד פחות משתי דקות.', // expiring
];
