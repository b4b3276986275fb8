// End-to-end harness: the gateway on one origin (http://localhost:<port>), the demo shop on
// another (http://127.0.0.1:<port>) under its strict policy, and Debian's Chromium driven by
// playwright-core.
import { existsSync } from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import { chromium, type Browser, type Page } from 'playwright-core';
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

export async function startStage(): Promise<Stage> {
  if (!existsSync(`${distDir}manifest.json`)) throw new Error('dist/manifest.json is missing: run npm run build before the end-to-end tests');
  const gw = await startGateway({ distDir });
  const gatewayOrigin = gw.base.replace('127.0.0.1', 'localhost');
  const shop = Fastify();
  shop.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  await shop.register(demoShop, { gatewayUrl: () => gw.base, publicGatewayUrl: () => gatewayOrigin, token: shopA.token, entityId: shopA.entityId });
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
    merchant: gw.client,
    async close() {
      await browser.close();
      await shop.close();
      await gw.close();
    },
  };
}

/** Collects Content-Security-Policy violations of every frame of the page. */
export async function watchPolicyViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(`{
    const list = (window.__violations = []);
    document.addEventListener('securitypolicyviolation', (event) => list.push(event.violatedDirective + ' ' + event.blockedURI));
  }`);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Trusted Type|TrustedHTML|TrustedScript/i.test(message.text())) errors.push(message.text());
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
