// Helpers for 3-D Secure and provider redirects: the browser data the paying frame sends, a billing
// address, and a shopper's browser that walks the gateway's pages as dist/threeds.js would (POST
// the redirect, run the method, continue, post the challenge request, press a button).
import assert from 'node:assert/strict';

/** customer.browser.* as the paying frame sends them. */
export const browserData: Record<string, string> = {
  'customer.browser.acceptHeader': 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'customer.browser.language': 'de-DE',
  'customer.browser.screenHeight': '800',
  'customer.browser.screenWidth': '1280',
  'customer.browser.screenColorDepth': '24',
  'customer.browser.timezone': '-60',
  'customer.browser.userAgent': 'Mozilla/5.0 (X11; Linux x86_64) TestBrowser/1.0',
  'customer.browser.javaEnabled': 'false',
  'customer.browser.challengeWindow': '2',
};

/** The billing address 3-D Secure 2 needs. */
export const billingAddress: Record<string, string> = {
  'billing.street1': 'Main Street 1',
  'billing.city': 'Berlin',
  'billing.postcode': '10115',
  'billing.country': 'DE',
};

/** Test cards of DESIGN.md by their 3-D Secure path. */
export const cards = {
  none: '4200000000000000',
  frictionless: { VISA: '4200000000000091', MASTER: '5200000000000007' },
  attempt: { VISA: '4200000000000109', MASTER: '5200000000000023' },
  challenge: { VISA: '4200000000000042', MASTER: '5200000000000015' },
  error: { VISA: '4012001037461114', MASTER: '5434580000000006' },
  notEnrolled: { VISA: '4012001037141112', MASTER: '5457350076543210' },
} as const;

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
export const unescapeHtml = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);

/** The data attributes of a page's <html> element, by their names without data-. */
export function dataOf(html: string): Record<string, string> {
  const tag = /<html([^>]*)>/.exec(html);
  assert.ok(tag, html);
  const out: Record<string, string> = {};
  for (const match of tag[1]!.matchAll(/\sdata-([a-z-]+)="([^"]*)"/g)) out[match[1]!] = unescapeHtml(match[2]!);
  return out;
}

/** The hidden inputs of the page's (first) form, and its action. */
export function formOf(html: string): { action: string; fields: Record<string, string>; buttons: string[] } {
  const form = /<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/.exec(html);
  assert.ok(form, html);
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[input[1]!] = unescapeHtml(input[2]!);
  const buttons = [...form[2]!.matchAll(/<button[^>]* name="action" value="([^"]+)">/g)].map((b) => b[1]!);
  return { action: unescapeHtml(form[1]!), fields, buttons };
}

export interface Page {
  status: number;
  headers: Headers;
  html: string;
  data: Record<string, string>;
}

/** The shopper's browser: form posts and GETs with no token, following nothing by itself. */
export class ShopperBrowser {
  constructor(readonly base: string) {}

  url(path: string): string {
    return new URL(path, this.base).href;
  }

  async post(path: string, fields: Record<string, string>): Promise<Page> {
    const response = await fetch(this.url(path), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: new URLSearchParams(fields),
    });
    const html = await response.text();
    return { status: response.status, headers: response.headers, html, data: html.startsWith('<!doctype html>') ? dataOf(html) : {} };
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<Page> {
    const response = await fetch(this.url(path), { redirect: 'manual', headers: { accept: 'text/html', ...headers } });
    const html = await response.text();
    return { status: response.status, headers: response.headers, html, data: html.startsWith('<!doctype html>') ? dataOf(html) : {} };
  }

  /** POST redirect.parameters to redirect.url, as the widget does. */
  open(redirect: { url: string; parameters: Array<{ name: string; value: string }> }): Promise<Page> {
    return this.post(redirect.url, Object.fromEntries(redirect.parameters.map((p) => [p.name, p.value])));
  }

  /** The authentication page's method step as threeds.js runs it; Y when the method notified, N when it never did. */
  async runMethod(page: Page): Promise<'Y' | 'N'> {
    const method = await this.post(page.data['method-url']!, { threeDSMethodData: page.data['method-data']! });
    assert.equal(method.status, 200, method.html);
    if (!method.data['post-url']) return 'N';
    const notified = await this.post(method.data['post-url'], JSON.parse(method.data['post-fields']!) as Record<string, string>);
    assert.equal(notified.data['threeds-method'], 'done');
    return 'Y';
  }

  /** From the redirect to the issuer's challenge page: authentication page, method, continue, challenge request. */
  async toChallenge(redirect: { url: string; parameters: Array<{ name: string; value: string }> }): Promise<Page> {
    const page = await this.open(redirect);
    assert.equal(page.status, 200, page.html);
    const completion = await this.runMethod(page);
    const next = await this.post(page.data['continue-url']!, { token: page.data.token!, threeDSCompInd: completion });
    assert.equal(next.status, 200, next.html);
    assert.ok(next.data['post-url'], next.html);
    const challenge = await this.post(next.data['post-url'], JSON.parse(next.data['post-fields']!) as Record<string, string>);
    assert.equal(challenge.status, 200, challenge.html);
    return challenge;
  }

  /** Press a button of a plain form page (the issuer's challenge, the provider's page): the gateway's 303. */
  async press(page: Page, action: string): Promise<Page> {
    const form = formOf(page.html);
    assert.ok(form.buttons.includes(action), `${action} is not a button of ${form.buttons.join(', ')}`);
    return this.post(form.action, { ...form.fields, action });
  }

  /** Press a button and follow the gateway's redirect to the completion: the URL the shopper ends at. */
  async finish(page: Page, action: string): Promise<string> {
    const answer = await this.press(page, action);
    assert.equal(answer.status, 303, answer.html);
    const complete = await this.get(answer.headers.get('location')!);
    if (complete.status === 303) return complete.headers.get('location')!;
    assert.equal(complete.status, 200, complete.html);
    return complete.data['result-url']!;
  }
}
