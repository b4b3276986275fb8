// Japanese
import type { Texts } from './en.ts';

export const ja: Texts = [
  'お支払い方法', // method
  'カード', // mCard
  'SEPA口座引き落とし', // mBank
  '保存済みカード', // mSaved
  'カード番号', // number
  '有効期限', // expiry
  'セキュリティコード', // cvv
  '裏面の3桁（Amexは表面の4桁）', // cvvHint
  'カード名義', // holder
  '口座名義', // accHolder
  'BIC（任意）', // bic
  'この支払いのSEPA口座引き落としに同意します。', // mandate
  'アカウントIDかメール', // accountId
  '{0}を支払う', // payAmount
  '読み込み中…', // loading
  '処理中…', // processing
  'カード番号が無効です。', // eNumber
  'このカードはご利用いただけません。', // eBrand
  '形式: MM/YY', // eExpiry
  'カードの有効期限が切れています。', // eExpired
  'セキュリティコードを入力', // eCvv
  'カード名義を入力', // eHolder
  'SEPAのIBANが無効です。', // eIban
  'BICが無効です。', // eBic
  '引き落としに同意してください。', // eMandate
  'アカウントIDを入力', // eAccount
  'フォームを読み込めません。', // eLoad
  '拒否されました。別のカードか方法をお試しください。', // rDeclined
  '残高または限度額が不足しています。', // rFunds
  'セキュリティコードが違います。', // rCvv
  'カード認証に失敗しました。', // r3ds
  'この支払い方法は使えません。', // rConfig
  '一部の情報が無効です。', // rInput
  '保存済みカードは使えません。', // rSaved
  'セッション切れです。再読み込みしてください。', // rSession
  '支払いはキャンセルされました。', // rCancelled
  'システムエラーです。後でお試しください。', // rSystem
  '接続できません。', // rNetwork
  '支払いに失敗しました。', // rUnknown
  '請求先住所', // billing
  '番地・町名', // street
  '市区町村', // city
  '郵便番号', // postcode
  '国', // country
  '入力してください', // eRequired
  '有効な郵便番号を入力', // ePostcode
  '{0}で支払う', // payWith
  '今後の支払いのために保存', // save
  '有効期限の年を確認してください。', // eYear
  '保存済みの支払い方法', // mSavedAll
  'この支払いはすでに完了しています。', // rPaid
  'MM/YY', // mmYY
  'キャンセル', // cancel
  '口座名義人の名前を入力してください。', // eAccHolder
  'セキュリティコードは3桁です。', // eCvv3
  'セキュリティコードは4桁です。', // eCvv4
  '3文字以上入力してください。', // eMin3
  'この支払いページの有効期限は残り2分未満です。', // expiring
];
