// Component tests in Debian's Chromium (npm run test:components). TypeScript through esbuild;
// card-validator, which ships CommonJS only, is bundled to ESM on request (the browser cannot
// load CommonJS; Vite does this for the real build).
import { createRequire } from 'node:module';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { build } from 'esbuild';

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

export default {
  files: 'test/components/**/*.test.ts',
  nodeResolve: true,
  concurrency: 1,
  browsers: [
    chromeLauncher({
      launchOptions: { executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] },
    }),
  ],
  plugins: [commonJs(), esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.src.json', define: { 'import.meta.env.DEV': 'true' } })],
  testFramework: { config: { timeout: 10000 } },
};
