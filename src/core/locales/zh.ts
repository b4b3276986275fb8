// Chinese (Simplified)
import type { Texts } from './en.ts';

export const zh: Texts = [
  '支付方式', // method
  '银行卡', // mCard
  'SEPA 直接借记', // mBank
  '已保存的卡', // mSaved
  '卡号', // number
  '有效期', // expiry
  '安全码', // cvv
  '卡背面 3 位（Amex 为正面 4 位）', // cvvHint
  '持卡人姓名', // holder
  '账户持有人', // accHolder
  'BIC（可选）', // bic
  '我同意本次付款的 SEPA 直接借记授权。', // mandate
  '账户 ID 或邮箱', // accountId
  '支付 {0}', // payAmount
  '正在加载…', // loading
  '正在处理…', // processing
  '卡号无效。', // eNumber
  '不接受此类卡。', // eBrand
  '格式：MM/YY。', // eExpiry
  '此卡已过期。', // eExpired
  '请输入安全码。', // eCvv
  '请输入卡上的姓名。', // eHolder
  'SEPA IBAN 无效。', // eIban
  'BIC 无效。', // eBic
  '请接受授权后继续。', // eMandate
  '请输入账户 ID。', // eAccount
  '无法加载支付表单。', // eLoad
  '银行拒绝了付款。请换卡或其他方式。', // rDeclined
  '余额或额度不足。', // rFunds
  '安全码错误。', // rCvv
  '银行卡验证失败。', // r3ds
  '此支付方式不可用。', // rConfig
  '部分信息无效。', // rInput
  '已保存的卡不再可用。', // rSaved
  '会话已过期。请刷新页面。', // rSession
  '付款已取消。', // rCancelled
  '技术错误。请稍后再试。', // rSystem
  '无网络连接。请重试。', // rNetwork
  '付款失败。', // rUnknown
  '账单地址', // billing
  '街道和门牌号', // street
  '城市', // city
  '邮政编码', // postcode
  '国家/地区', // country
  '请填写此项。', // eRequired
  '请输入有效的邮政编码。', // ePostcode
  '使用 {0} 付款', // payWith
  '保存以便今后付款', // save
  '请检查有效期年份。', // eYear
  '已保存的付款方式', // mSavedAll
  '此付款已完成。', // rPaid
  'MM/YY', // mmYY
  '取消', // cancel
  '请输入账户持有人姓名。', // eAccHolder
  '安全码为3位数字。', // eCvv3
  '安全码为4位数字。', // eCvv4
  '请至少输入3个字符。', // eMin3
  '此支付页面将在2分钟内过期。', // expiring
];
