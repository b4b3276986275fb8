// Component tests in Debian's Chromium (npm run test:components). TypeScript through esbuild;
// card-validator, which ships CommonJS only, is bundled to ESM on request (the browser cannot
// load CommonJS; Vite does this for the real build). The widget's locale files are served as the
// gateway serves them, with the integrity the build would give the widget.
import { createRequire } from 'node:module';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { build } from 'esbuild';
import { tsImport } from 'tsx/esm/api';

/** The locale files of the build (scripts/locale-files.ts): the same bytes and integrity values. */
const { localeFiles } = await tsImport('./scripts/locale-files.ts', import.meta.url);
const LOCALE_FILES = localeFiles();

const require = createRequire(import.meta.url);
const CJS = /^(card-validator|credit-card-type)(\/.*)?$/;
const PREFIX = '/__cjs__/';

/** Serves a CommonJS package (or one of its files) as an ES module with its named exports. */
function commonJs() {
  const cache = new Map();
  return {
    name: 'pw-commonjs',
    resolveImport({ source }) {
      if (CJS.test(source)) return `${PREFIX}${source}`;
    },
    async serve(context) {
      if (!context.path.startsWith(PREFIX)) return;
      const specifier = context.path.slice(PREFIX.length);
      if (!cache.has(specifier)) {
        const file = require.resolve(specifier);
        const names = Object.keys(require(file)).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
        const result = await build({ entryPoints: [file], bundle: true, format: 'iife', globalName: '__cjs', write: false, platform: 'browser', logLevel: 'silent' });
        const body = `${result.outputFiles[0].text}\nexport default __cjs;\nexport const { ${names.join(', ')} } = __cjs;\n`;
        cache.set(specifier, body);
      }
      return { body: cache.get(specifier), type: 'js' };
    },
  };
}

/**
 * Pages that stand in for the gateway's 3-D Secure pages and the issuer's method URL in the
 * threeds.js tests (test/components/threeds-page.test.ts):
 *   /__threeds/page?{data attributes as query}  a page whose <html> has those data attributes
 *   POST /__threeds/method-done                  the gateway's answer to the method notification
 *   POST /__threeds/method-hang                  an issuer that never answers (until the test ends)
 *   POST /__threeds/echo                         the posted fields as data-posted JSON on <html>
 *   POST /__threeds/challenge?parent={origin}    a challenge page with a button, which tells the
 *                                                parent its window's focus and each focused element
 *   GET  /__threeds/wait?id=&n=&wait=            a payment being decided: its first n requests (per
 *                                                id) answer 409 with data-wait, then 200 with
 *                                                data-decided (how many requests it took)
 */
function threedsPages() {
  const escape = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const page = (attributes) =>
    `<!doctype html><html lang="en"${attributes}><head><meta charset="utf-8"><title>3-D Secure test page</title></head><body><p>Test page</p></body></html>`;
  const readBody = (req) => new Promise((resolve) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => resolve(body));
  });
  const asked = new Map();
  return async (ctx, next) => {
    if (!ctx.path.startsWith('/__threeds/')) return next();
    ctx.type = 'html';
    ctx.set('Content-Security-Policy', "require-trusted-types-for 'script'; style-src-attr 'none'");
    if (ctx.path === '/__threeds/page') {
      const attributes = Object.entries(ctx.query).map(([name, value]) => ` data-${escape(name)}="${escape(String(value))}"`).join('');
      ctx.body = page(attributes);
    } else if (ctx.path === '/__threeds/method-done') {
      await readBody(ctx.req);
      ctx.body = page(' data-threeds-method="done"');
    } else if (ctx.path === '/__threeds/method-hang') {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      ctx.body = page('');
    } else if (ctx.path === '/__threeds/challenge') {
      await readBody(ctx.req);
      const script = `const to = new URLSearchParams(location.search).get('parent');
        addEventListener('focus', () => parent.postMessage({ challenge: 'focus' }, to));
        addEventListener('focusin', (event) => parent.postMessage({ challenge: 'focusin', text: event.target.textContent }, to));`;
      ctx.body = page('').replace('<p>Test page</p>', `<p>Test page</p><button type="button">Approve</button><script>${script}</script>`);
    } else if (ctx.path === '/__threeds/wait') {
      const id = String(ctx.query.id);
      const count = (asked.get(id) ?? 0) + 1;
      asked.set(id, count);
      const deciding = count <= Number(ctx.query.n);
      ctx.status = deciding ? 409 : 200;
      ctx.body = page(deciding ? ` data-wait="${escape(String(ctx.query.wait))}"` : ` data-decided="${count}"`);
    } else if (ctx.path === '/__threeds/echo') {
      const fields = Object.fromEntries(new URLSearchParams(await readBody(ctx.req)));
      ctx.body = page(` data-method="${escape(ctx.method)}" data-posted="${escape(JSON.stringify(fields))}"`);
    } else {
      return next();
    }
  };
}

/**
 * The gateway's locale files, for the widget tests (test/components/support.ts sends the widget's
 * locale requests here):
 *   /v1/locales/{locale}.json           the built file
 *   /__locales/tampered/{locale}.json   the file with one text changed (its integrity no longer matches)
 */
function localePages() {
  const files = new Map(LOCALE_FILES.map((file) => [file.locale, file.source]));
  return async (ctx, next) => {
    const match = /^\/(v1\/locales|__locales\/tampered)\/([A-Za-z-]+)\.json$/.exec(ctx.path);
    const source = match && files.get(match[2]);
    if (!source) return next();
    ctx.type = 'application/json';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = match[1] === 'v1/locales' ? source : JSON.stringify(JSON.parse(source).with(0, 'Tampered'));
  };
}

/**
 * Emulations over the DevTools protocol the stock commands lack; the session is kept, as its
 * emulation ends with it:
 *   executeServerCommand('pw-forced-colors', { active })  forced colors (a Windows high-contrast theme)
 *   executeServerCommand('pw-focused')                     the page behaves as the focused one, as
 *     a shopper's tab is: a page left behind the browser's others gives no frame the focus
 *   executeServerCommand('pw-ime', { text, commit })       an IME at the focused input: composes
 *     text (replacing what it composed so far), or with commit: true commits it, as the IME does
 */
function pageEmulation() {
  const sessions = new Map();
  const cdp = async (session) => {
    const page = session.browser.getPage(session.id);
    if (!sessions.has(page)) sessions.set(page, await page.createCDPSession());
    return sessions.get(page);
  };
  return {
    name: 'pw-page-emulation',
    async executeCommand({ command, payload, session }) {
      if (command === 'pw-forced-colors') {
        await (await cdp(session)).send('Emulation.setEmulatedMedia', { features: [{ name: 'forced-colors', value: payload?.active ? 'active' : 'none' }] });
        return true;
      }
      if (command === 'pw-ime') {
        const client = await cdp(session);
        if (payload.commit) await client.send('Input.insertText', { text: payload.text });
        else await client.send('Input.imeSetComposition', { text: payload.text, selectionStart: payload.text.length, selectionEnd: payload.text.length });
        return true;
      }
      if (command === 'pw-focused') {
        await (await cdp(session)).send('Emulation.setFocusEmulationEnabled', { enabled: true });
        return true;
      }
      return undefined;
    },
  };
}

export default {
  middleware: [threedsPages(), localePages()],
  files: 'test/components/**/*.test.ts',
  nodeResolve: true,
  concurrency: 1,
  browsers: [
    chromeLauncher({
      launchOptions: { executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] },
    }),
  ],
  plugins: [commonJs(), pageEmulation(), esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.src.json', define: { 'import.meta.env.DEV': 'true', __PW_LOCALES__: JSON.stringify(Object.fromEntries(LOCALE_FILES.map((file) => [file.locale, file.integrity]))) } })],
  testFramework: { config: { timeout: 10000 } },
};
