// End-to-end harness: the gateway on one origin (http://localhost:<port>), the demo shop on
// another (http://127.0.0.1:<port>) under its strict policy, and Debian's Chromium driven by
// playwright-core.
import { existsSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { chromium, type Browser, type FrameLocator, type Page } from 'playwright-core';
import { demoShop } from '../../demo/shop.ts';
import { Client, shopA, startGateway, type TestGateway } from '../support/gateway.ts';

export const distDir = new URL('../../dist/', import.meta.url).pathname;

export interface Stage {
  gw: TestGateway;
  /** The gateway as the shopper's browser reaches it. */
  gatewayOrigin: string;
  shop: FastifyInstance;
  shopOrigin: string;
  browser: Browser;
  merchant: Client;
  close(): Promise<void>;
}

export interface StageOptions {
  /** The shop's entity (default shop A's main one; shopA.threeDSecureEntityId authenticates cards). */
  entityId?: string;
}

export async function startStage(options: StageOptions = {}): Promise<Stage> {
  if (!existsSync(`${distDir}manifest.json`)) throw new Error('dist/manifest.json is missing: run npm run build before the end-to-end tests');
  const entityId = options.entityId ?? shopA.entityId;
  const gw = await startGateway({ distDir });
  const gatewayOrigin = gw.base.replace('127.0.0.1', 'localhost');
  const shop = Fastify();
  shop.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  await shop.register(demoShop, { gatewayUrl: () => gw.base, publicGatewayUrl: () => gatewayOrigin, token: shopA.token, entityId });
  const shopOrigin = await shop.listen({ port: 0, host: '127.0.0.1' });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  return {
    gw,
    gatewayOrigin,
    shop,
    shopOrigin,
    browser,
    merchant: gw.clientFor(shopA.token, entityId),
    async close() {
      await browser.close();
      await shop.close();
      await gw.close();
    },
  };
}

/** Collects Content-Security-Policy violations of every frame of the page, and Permissions-Policy warnings (an `allow` feature the browser does not know). */
export async function watchPolicyViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(`{
    const list = (window.__violations = []);
    document.addEventListener('securitypolicyviolation', (event) => list.push(event.violatedDirective + ' ' + event.blockedURI));
  }`);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Trusted Type|TrustedHTML|TrustedScript/i.test(message.text())) errors.push(message.text());
    if (/Unrecognized feature|Permissions.Policy|Feature.Policy/i.test(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  return async () => {
    const fromFrames: string[] = [];
    for (const frame of page.frames()) {
      fromFrames.push(...((await frame.evaluate('window.__violations || []').catch(() => [])) as string[]));
    }
    return [...errors, ...fromFrames];
  };
}

/** Every load of the page and its frames that failed (an HTTP error or no answer), as "status url". */
export function watchFailedLoads(page: Page): () => string[] {
  const failed: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  page.on('requestfailed', (request) => failed.push(`${request.failure()?.errorText ?? 'failed'} ${request.url()}`));
  return () => failed;
}

// Code that runs in the page is plain JavaScript text: the TypeScript loader would wrap named
// functions in a helper that does not exist there.
const WALK_DOM = `(() => {
  const parts = [];
  let frames = 0;
  const walk = (root) => {
    parts.push(root instanceof Document ? root.documentElement.outerHTML : root.innerHTML);
    frames += root.querySelectorAll('iframe').length;
    for (const element of root.querySelectorAll('*')) {
      if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) parts.push(element.value);
      if (element.shadowRoot) walk(element.shadowRoot);
    }
  };
  walk(document);
  return { text: parts.join('\\n'), frames };
})()`;

/** Everything the shop page's DOM holds: markup through open shadow roots, and every input's value. */
export async function shopPageText(page: Page): Promise<string> {
  return ((await page.evaluate(WALK_DOM)) as { text: string }).text;
}

/** iframes in the shop page, shadow roots included. */
export async function framesInPage(page: Page): Promise<number> {
  return ((await page.evaluate(WALK_DOM)) as { frames: number }).frames;
}

/** Types a card into the widget's frames and fields (the shop page never holds the digits); `page` may be a frame holding the shop. */
export async function fillCard(page: Page | FrameLocator, number: string, cvv = '123'): Promise<void> {
  await page.frameLocator('iframe[src*="field=number"]').locator('input[autocomplete="cc-number"]').fill(number);
  await page.getByLabel('Expiry date').fill('05/34');
  await page.frameLocator('iframe[src*="field=cvv"]').locator('input[autocomplete="cc-csc"]').fill(cvv);
  await page.getByLabel('Name on card').fill('Jane Jones');
}

/** The checkout id of a result URL (?id=…). */
export function resultId(url: string): string {
  const id = new URL(url).searchParams.get('id');
  if (!id) throw new Error(`no id in ${url}`);
  return id;
}

/** Whether the document fits its viewport: no scrollbars, nothing cut off (run in the document). */
export const FITS_WITHOUT_SCROLLING = `(() => {
  const root = document.scrollingElement || document.documentElement;
  return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, scrollHeight: root.scrollHeight, clientHeight: root.clientHeight, innerWidth, innerHeight };
})()`;

/** The RGB of pixel (x, y) of a PNG screenshot (8-bit RGB or RGBA, not interlaced, as Chromium writes them). */
export function pngPixel(png: Buffer, x: number, y: number): [number, number, number] {
  const width = png.readUInt32BE(16);
  const channels = png[25] === 6 ? 4 : 3;
  const data: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') data.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  let previous = Buffer.alloc(stride);
  let row = previous;
  for (let r = 0; r <= y; r++) {
    const filter = raw[r * (stride + 1)]!;
    const line = raw.subarray(r * (stride + 1) + 1, (r + 1) * (stride + 1));
    row = Buffer.alloc(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? row[i - channels]! : 0;
      const b = previous[i]!;
      const c = i >= channels ? previous[i - channels]! : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter]!;
      row[i] = (line[i]! + predictor) & 0xff;
    }
    previous = row;
  }
  const i = x * channels;
  return [row[i]!, row[i + 1]!, row[i + 2]!];
}
