// The 3-D Secure browser-data rules of the frames and the widget (src/core/browser.ts), the URLs
// the browser code navigates to (src/core/urls.ts) and what the webview's service worker may
// answer from its cache (src/webview/routes.ts).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { browserFields, challengeSize, challengeWindowFor, isChallengeWindow, languageTag, type BrowserEnvironment } from '../../src/core/browser.ts';
import { httpUrl, resultUrl } from '../../src/core/urls.ts';
import { ASSETS, frameFromTemplate, frameTemplateUrl, routeOf } from '../../src/webview/routes.ts';
import { browser as browserSchema } from '../../server/schema/customer.ts';

const env = (overrides: Partial<BrowserEnvironment> = {}): BrowserEnvironment => ({
  navigator: { language: 'de-DE', userAgent: 'Mozilla/5.0 (test)' },
  screen: { width: 390, height: 844, colorDepth: 24 },
  now: new Date('2026-07-01T12:00:00Z'),
  ...overrides,
});

describe('3-D Secure browser data', () => {
  const zone = process.env.TZ;
  after(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('sends the timezone as getTimezoneOffset(): positive when local time is behind UTC', () => {
    process.env.TZ = 'Europe/Berlin';
    assert.equal(browserFields(env(), '', '5')['customer.browser.timezone'], '-120', 'Berlin in summer is UTC+2');
    assert.equal(browserFields(env({ now: new Date('2026-01-15T12:00:00Z') }), '', '5')['customer.browser.timezone'], '-60');
    process.env.TZ = 'America/New_York';
    assert.equal(browserFields(env({ now: new Date('2026-01-15T12:00:00Z') }), '', '5')['customer.browser.timezone'], '300', 'New York in winter is UTC-5');
    process.env.TZ = 'Asia/Kolkata';
    assert.equal(browserFields(env(), '', '5')['customer.browser.timezone'], '-330');
    process.env.TZ = 'UTC';
    assert.equal(browserFields(env(), '', '5')['customer.browser.timezone'], '0');
  });

  it('sends every field the spec requires for 3-D Secure 2, in the forms the gateway takes', () => {
    process.env.TZ = 'Europe/Berlin';
    const fields = browserFields(env(), 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8', '2');
    assert.deepEqual(fields, {
      'customer.browser.language': 'de-DE',
      'customer.browser.screenHeight': '844',
      'customer.browser.screenWidth': '390',
      'customer.browser.screenColorDepth': '24',
      'customer.browser.timezone': '-120',
      'customer.browser.userAgent': 'Mozilla/5.0 (test)',
      'customer.browser.javaEnabled': 'false',
      'customer.browser.challengeWindow': '2',
      'customer.browser.acceptHeader': 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8',
    });
    const browser = Object.fromEntries(Object.entries(fields).map(([name, value]) => [name.slice('customer.browser.'.length), value]));
    assert.equal(browserSchema.safeParse(browser).success, true, JSON.stringify(browserSchema.safeParse(browser).error?.issues));
  });

  it('leaves out an Accept header it was not given and cuts long values to the spec', () => {
    const fields = browserFields(env({ navigator: { language: 'zh-Hant-TW', userAgent: 'x'.repeat(3000) } }), '', '5');
    assert.equal('customer.browser.acceptHeader' in fields, false);
    assert.equal(fields['customer.browser.userAgent']!.length, 2048);
    assert.equal(fields['customer.browser.language'], 'zh-Hant');
    assert.equal(browserFields(env(), 'a'.repeat(3000), '5')['customer.browser.acceptHeader']!.length, 2048);
  });

  it('keeps language tags within 8 characters at a subtag boundary', () => {
    const cases: [string, string][] = [
      ['en', 'en'],
      ['en-US', 'en-US'],
      ['pt-BR', 'pt-BR'],
      ['es-419', 'es-419'],
      ['zh-Hant-TW', 'zh-Hant'],
      ['de-CH-1996', 'de-CH'],
      ['sr-Latn-RS', 'sr-Latn'],
      ['ca-valencia', 'ca'],
    ];
    for (const [tag, expected] of cases) {
      assert.equal(languageTag(tag), expected, tag);
      assert.equal(browserSchema.shape.language.safeParse(expected).success, true, `the gateway takes ${expected}`);
    }
  });

  it('picks the largest challenge window that fits the widget and the viewport', () => {
    assert.equal(challengeWindowFor(1200, 900), '3', '500×600');
    assert.equal(challengeWindowFor(640, 500), '4', '600×400: the viewport is too low for 500×600');
    assert.equal(challengeWindowFor(499, 900), '2', '390×400');
    assert.equal(challengeWindowFor(390, 400), '2', 'exactly 390×400');
    assert.equal(challengeWindowFor(389, 900), '1', '250×400');
    assert.equal(challengeWindowFor(250, 400), '1');
    assert.equal(challengeWindowFor(249, 900), '5', 'too narrow for any frame: the full page');
    assert.equal(challengeWindowFor(1200, 399), '5', 'too low for any frame: the full page');
    assert.equal(challengeWindowFor(0, 0), '5', 'not laid out yet');
  });

  it('gives each framed window its size, none to the full page, and never a window wider than the space', () => {
    assert.deepEqual(['1', '2', '3', '4', '5'].map(challengeSize), [[250, 400], [390, 400], [500, 600], [600, 400], undefined]);
    for (let width = 0; width <= 800; width += 7) {
      for (const height of [300, 400, 599, 600, 900]) {
        const size = challengeSize(challengeWindowFor(width, height));
        if (size) assert.ok(size[0] <= width && size[1] <= height, `${width}×${height}`);
      }
    }
    assert.deepEqual(['1', '5', '0', '6', '01', 5, ''].map(isChallengeWindow), [true, true, false, false, false, false, false]);
  });
});

describe('URLs the browser code navigates to', () => {
  const base = 'https://gateway.example/v1/threeds/x/authenticate';

  it('sends the shopper to http(s) results and to an app’s own scheme, never to code or local files', () => {
    assert.equal(resultUrl('https://shop.example/result?id=1', base), 'https://shop.example/result?id=1');
    assert.equal(resultUrl('/result', base), 'https://gateway.example/result');
    assert.equal(resultUrl('myapp://result?id=1&resourcePath=%2Fv1', base), 'myapp://result?id=1&resourcePath=%2Fv1');
    for (const bad of ['javascript:alert(1)', 'JavaScript:alert(1)', ' javascript:alert(1)', 'data:text/html,x', 'vbscript:x', 'file:///etc/passwd', 'blob:https://x/1', 'about:blank', 'http://[']) {
      assert.equal(resultUrl(bad, base), undefined, bad);
    }
  });

  it('posts forms and loads frames over http(s) only', () => {
    assert.equal(httpUrl('http://localhost:8080/v1/threeds/a/authenticate', base), 'http://localhost:8080/v1/threeds/a/authenticate');
    for (const bad of ['myapp://x', 'javascript:alert(1)', 'data:,x']) assert.equal(httpUrl(bad, base), undefined, bad);
  });
});

describe('the webview service worker’s cache rules', () => {
  it('answers the page, the frame page, the scripts, the stylesheet and the locale files, and never an API call', () => {
    assert.equal(routeOf('/v1/checkouts/0123456789abcdef0123456789abcdef.node1/page'), 'page');
    assert.equal(routeOf('/v1/frames/card'), 'frame');
    for (const asset of ASSETS) assert.equal(routeOf(asset), 'asset');
    const locales = ['ar', 'de', 'es', 'fa', 'fr', 'he', 'it', 'ja', 'nl', 'pl', 'pt-BR', 'pt', 'sv', 'tr', 'ur', 'zh-Hant', 'zh'].map((locale) => `/v1/locales/${locale}.json`);
    assert.deepEqual([...ASSETS].sort(), ['/v1/frames/pages.css', '/v1/frames/secure-frame.js', ...locales, '/v1/paymentWidgets.js', '/v1/webview.js']);
    for (const other of ['/v1/locales/en.json', '/v1/locales/xx.json', '/v1/locales/de.json/x']) assert.equal(routeOf(other), undefined, other);
    for (const api of [
      '/v1/checkouts/0123456789abcdef0123456789abcdef.node1/form',
      '/v1/checkouts/0123456789abcdef0123456789abcdef.node1/payment',
      '/v1/checkouts/0123456789abcdef0123456789abcdef.node1',
      '/v1/checkouts/../page',
      '/v1/payments',
      '/v1/threeds/abc/authenticate',
      '/v1/frames/threeds.js',
      '/v1/sw.js',
      '/v1/paymentWidgets.js/x',
      '/',
    ]) {
      assert.equal(routeOf(api), undefined, api);
    }
  });

  it('rebuilds a frame page from its template with only data-accept, so the frame reads its own URL', () => {
    const template = `<!doctype html>\n<html lang="en" data-field="number" data-channel="${'0'.repeat(32)}" data-origin="http://localhost:1" data-accept="old">\n<head><script src="/v1/frames/secure-frame.js?v=1" integrity="sha384-x" crossorigin="anonymous" defer></script></head><body></body></html>`;
    const page = frameFromTemplate(template, 'text/html,*/*;q=0.8 "<x>"');
    assert.match(page, /<html data-accept="text\/html,\*\/\*;q=0\.8 &quot;&lt;x&gt;&quot;">/);
    assert.doesNotMatch(page, /data-field|data-channel|data-origin/);
    assert.match(page, /secure-frame\.js\?v=1" integrity="sha384-x"/);
    assert.match(frameFromTemplate(template, ''), /<html>/);
    assert.equal(frameTemplateUrl('http://localhost:8080'), `/v1/frames/card?field=number&channel=${'0'.repeat(32)}&origin=http%3A%2F%2Flocalhost%3A8080`);
  });
});
