// One classic script per build: Vite's IIFE library mode takes a single entry, so `npm run build`
// runs Vite once per entry, choosing it with PW_ENTRY (widget | frame | threeds | webview | sw).
// dist/ is shared by the runs (emptyOutDir: false); sw goes last, since its cache name is the hash
// of the files it precaches; scripts/build-manifest.ts then hashes every file for SRI. The widget's
// run also writes the non-English texts, dist/locales/{locale}.json (scripts/locale-files.ts), and
// gives the widget their integrity as __PW_LOCALES__, so that it fetches only its shopper's locale.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { localeFiles } from './scripts/locale-files.ts';
import { minifyTemplates } from './scripts/minify-templates.ts';

const entries = {
  widget: { entry: 'src/widget/index.ts', file: 'paymentWidgets.js', name: 'paymentWidgets' },
  frame: { entry: 'src/secure/frame.ts', file: 'secure-frame.js', name: 'pwSecureFrame' },
  threeds: { entry: 'src/threeds/index.ts', file: 'threeds.js', name: 'pwThreeDS' },
  webview: { entry: 'src/webview/index.ts', file: 'webview.js', name: 'pwWebview' },
  sw: { entry: 'src/webview/sw.ts', file: 'sw.js', name: 'pwServiceWorker' },
} as const;

const which = (process.env.PW_ENTRY ?? 'widget') as keyof typeof entries;
const chosen = entries[which];
if (!chosen) throw new Error(`PW_ENTRY must be one of ${Object.keys(entries).join(', ')}, not ${process.env.PW_ENTRY}`);

/** The service worker's revision: a hash of the built files it precaches (they are built before it). */
function precacheRevision(): string {
  const hash = createHash('sha256');
  const files = [...[entries.widget, entries.frame, entries.webview].map((entry) => entry.file), ...localeFiles().map((file) => file.fileName)];
  for (const file of files) hash.update(readFileSync(new URL(`./dist/${file}`, import.meta.url)));
  return hash.digest('hex').slice(0, 16);
}

/** The widget's run: each non-English locale's texts as a file of dist/, the integrity of each for the widget. */
function locales(): { plugin: Plugin; define: Record<string, string> } {
  const files = localeFiles();
  return {
    plugin: {
      name: 'pw-locales',
      generateBundle() {
        for (const { fileName, source } of files) this.emitFile({ type: 'asset', fileName, source });
      },
    },
    define: { __PW_LOCALES__: JSON.stringify(Object.fromEntries(files.map((file) => [file.locale, file.integrity]))) },
  };
}

const texts = which === 'widget' ? locales() : undefined;

export default defineConfig({
  publicDir: false,
  plugins: [minifyTemplates(), ...(texts ? [texts.plugin] : [])],
  define: which === 'sw' ? { __PW_REVISION__: JSON.stringify(precacheRevision()) } : (texts?.define ?? {}),
  resolve: {
    // workbox-window's `module` build is ES5; its ES2017 build is smaller and fits the target.
    alias: { 'workbox-window': fileURLToPath(new URL('./node_modules/workbox-window/build/workbox-window.prod.mjs', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    // ES2022: native #private members, which the minifier shortens (Chrome 94, Safari 15.4, Firefox 93).
    target: 'es2022',
    minify: true,
    // PW_MAP=1 writes source maps, to see what each module costs.
    sourcemap: !!process.env.PW_MAP,
    reportCompressedSize: true,
    lib: {
      entry: chosen.entry,
      name: chosen.name,
      formats: ['iife'],
      fileName: () => chosen.file,
    },
  },
});
