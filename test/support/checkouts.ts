// Helpers for checkout tests: a shopper's browser (no token, as the widget calls), a built widget
// in a temporary dist directory, and a checkout prepared by the merchant.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manifestFor, type Manifest } from '../../scripts/sri.ts';
import { cardDebit, sepaDebit, type Client, type Reply } from './gateway.ts';

/**
 * A dist directory with two small scripts, three locale files (de, ar, zh-Hant) and the manifest
 * the build would write for them; with `later`, also the later builds' files (threeds.js,
 * webview.js, sw.js).
 */
/** The texts of fakeDist's locale files. */
export const FAKE_LOCALES = { de: ['Zahlungsart', 'Karte'], ar: ['طريقة الدفع', 'بطاقة'], 'zh-Hant': ['付款方式', '卡片'] };

export function fakeDist(options: { later?: boolean } = {}): { dir: string; manifest: Manifest } {
  const dir = mkdtempSync(join(tmpdir(), 'gw-dist-'));
  writeFileSync(join(dir, 'paymentWidgets.js'), '(()=>{"use strict";window.__pw="widget ✓";})();\n');
  writeFileSync(join(dir, 'secure-frame.js'), '(()=>{"use strict";window.__pwFrame=1;})();\n');
  mkdirSync(join(dir, 'locales'));
  writeFileSync(join(dir, 'locales', 'de.json'), JSON.stringify(FAKE_LOCALES.de));
  writeFileSync(join(dir, 'locales', 'ar.json'), JSON.stringify(FAKE_LOCALES.ar));
  writeFileSync(join(dir, 'locales', 'zh-Hant.json'), JSON.stringify(FAKE_LOCALES['zh-Hant']));
  const files = ['paymentWidgets.js', 'secure-frame.js', 'locales/de.json', 'locales/ar.json', 'locales/zh-Hant.json'];
  if (options.later) {
    writeFileSync(join(dir, 'threeds.js'), '(()=>{"use strict";window.__pwThreeds=1;})();\n');
    writeFileSync(join(dir, 'webview.js'), '(()=>{"use strict";window.__pwWebview=1;})();\n');
    writeFileSync(join(dir, 'sw.js'), '(()=>{"use strict";self.__pwWorker=1;})();\n');
    files.push('threeds.js', 'webview.js', 'sw.js');
  }
  return { dir, manifest: manifestFor(dir, files) };
}

/** The shopper's browser: the widget's calls carry no token and no entityId. */
export class Shopper {
  constructor(readonly base: string) {}

  async post(path: string, params: Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> {
    const response = await fetch(this.base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8', origin: 'https://shop.example', ...headers },
      body: new URLSearchParams(params),
    });
    return { status: response.status, headers: response.headers, body: await response.json() };
  }

  async get(path: string): Promise<Reply> {
    const response = await fetch(this.base + path, { headers: { origin: 'https://shop.example' } });
    return { status: response.status, headers: response.headers, body: await response.json() };
  }

  pay(checkoutId: string, params: Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> {
    return this.post(`/v1/checkouts/${checkoutId}/payment`, params, headers);
  }

  form(checkoutId: string): Promise<Reply> {
    return this.get(`/v1/checkouts/${checkoutId}/form`);
  }
}

export const shopperResultUrl = 'https://shop.example/result?order=17';

/** The merchant prepares a checkout (92.00 EUR debit unless overridden) and gets its id. */
export async function prepareCheckout(client: Client, overrides: Record<string, string> = {}): Promise<string> {
  const { status, body } = await client.post('/v1/checkouts', { amount: '92.00', currency: 'EUR', paymentType: 'DB', shopperResultUrl, ...overrides });
  assert.equal(status, 200, JSON.stringify(body));
  return body.id as string;
}

/** The card fields the number frame sends: a card debit without what the checkout already holds. */
export function pageCard(overrides: Record<string, string> = {}): Record<string, string> {
  const { amount: _amount, currency: _currency, paymentType: _type, ...card } = cardDebit(overrides);
  return card;
}

/** The bank account fields the SEPA form sends. */
export const pageSepa: Record<string, string> = (({ amount: _amount, currency: _currency, paymentType: _type, ...account }) => account)(sepaDebit());

/** Where the shopper is sent after paying checkout `id`. */
export function expectedRedirect(id: string, base = shopperResultUrl): string {
  return `${base}&id=${id}&resourcePath=%2Fv1%2Fcheckouts%2F${id}%2Fpayment`;
}
