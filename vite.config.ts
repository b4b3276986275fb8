// One classic script per build: Vite's IIFE library mode takes a single entry, so `npm run build`
// runs Vite once per entry, choosing it with PW_ENTRY (widget | frame). dist/ is shared by both
// runs (emptyOutDir: false); scripts/build-manifest.ts then hashes the files for SRI.
import { defineConfig } from 'vite';
import { minifyTemplates } from './scripts/minify-templates.ts';

const entries = {
  widget: { entry: 'src/widget/index.ts', file: 'paymentWidgets.js', name: 'paymentWidgets' },
  frame: { entry: 'src/secure/frame.ts', file: 'secure-frame.js', name: 'pwSecureFrame' },
} as const;

const which = (process.env.PW_ENTRY ?? 'widget') as keyof typeof entries;
const chosen = entries[which];
if (!chosen) throw new Error(`PW_ENTRY must be one of ${Object.keys(entries).join(', ')}, not ${process.env.PW_ENTRY}`);

export default defineConfig({
  publicDir: false,
  plugins: [minifyTemplates()],
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    // ES2022: native #private members, which the minifier shortens (Chrome 94, Safari 15.4, Firefox 93).
    target: 'es2022',
    minify: true,
    sourcemap: false,
    reportCompressedSize: true,
    lib: {
      entry: chosen.entry,
      name: chosen.name,
      formats: ['iife'],
      fileName: () => chosen.file,
    },
  },
});
