// Chinese (Traditional): Taiwan, Hong Kong and Macau (zh-TW, zh-HK, zh-MO, zh-Hant). Words both
// Taiwan and Hong Kong read alike where they differ (無法連線, not 網路 or 網絡).
import type { Texts } from './en.ts';

export const zhHant: Texts = [
  '付款方式', // method
  '卡片', // mCard
  'SEPA 直接扣款', // mBank
  '已儲存的卡片', // mSaved
  '卡號', // number
  '有效期限', // expiry
  '安全碼', // cvv
  '卡片背面 3 位數（Amex 為正面 4 位數）', // cvvHint
  '持卡人姓名', // holder
  '帳戶持有人', // accHolder
  'BIC（選填）', // bic
  '我同意本次付款的 SEPA 直接扣款授權。', // mandate
  '帳戶 ID 或電子郵件', // accountId
  '付款 {0}', // payAmount
  '載入中…', // loading
  '處理中…', // processing
  '卡號無效。', // eNumber
  '不接受此類卡片。', // eBrand
  '格式：MM/YY。', // eExpiry
  '此卡片已過期。', // eExpired
  '請輸入安全碼。', // eCvv
  '請輸入卡片上的姓名。', // eHolder
  'SEPA IBAN 無效。', // eIban
  'BIC 無效。', // eBic
  '請接受授權後繼續。', // eMandate
  '請輸入帳戶 ID。', // eAccount
  '無法載入付款表單。', // eLoad
  '銀行拒絕了這筆付款。請改用其他卡片或付款方式。', // rDeclined
  '餘額或額度不足。', // rFunds
  '安全碼錯誤。', // rCvv
  '卡片驗證失敗。', // r3ds
  '此付款方式無法使用。', // rConfig
  '部分資料無效。', // rInput
  '已儲存的卡片已無法使用。', // rSaved
  '頁面已逾時。請重新載入。', // rSession
  '付款已取消。', // rCancelled
  '技術錯誤。請稍後再試。', // rSystem
  '無法連線。請重試。', // rNetwork
  '付款失敗。', // rUnknown
  '帳單地址', // billing
  '街道及門牌號碼', // street
  '城市', // city
  '郵遞區號', // postcode
  '國家／地區', // country
  '請填寫此欄位。', // eRequired
  '請輸入有效的郵遞區號。', // ePostcode
  '使用 {0} 付款', // payWith
  '儲存以供日後付款', // save
  '請檢查有效期限的年份。', // eYear
  '已儲存的付款方式', // mSavedAll
  '此筆付款已完成。', // rPaid
  'MM/YY', // mmYY
  '取消', // cancel
  '請輸入帳戶持有人姓名。', // eAccHolder
  '安全碼為 3 位數。', // eCvv3
  '安全碼為 4 位數。', // eCvv4
  '請至少輸入 3 個字元。', // eMin3
  '此付款頁面將在2分鐘內過期。', // expiring
];
