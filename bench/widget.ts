// Widget section: gzip sizes of the built scripts (from dist/manifest.json) against their budgets,
// and the time from navigation to a focusable card-number field in headless Chromium, on the demo
// shop served from another origin than the gateway (median of 5 fresh browser contexts), with the
// shop's widget in English and in German (it then also fetches its German texts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './lib/child.ts';
import type { SectionReport } from './lib/report.ts';
import { startStage } from '../test/e2e/support.ts';

const BUDGETS: Record<string, number> = { 'paymentWidgets.js': 25 * 1024, 'secure-frame.js': 10 * 1024, 'threeds.js': 10 * 1024, 'webview.js': 10 * 1024, 'sw.js': 10 * 1024 };
const RUNS = 5;
/** Added before each request in the third measurement (Playwright routing). */
const LATENCY_MS = 80;

interface Manifest {
  files: Record<string, { integrity: string; bytes: number; gzipBytes: number }>;
}

export async function widgetSection(log: (line: string) => void): Promise<SectionReport> {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'dist/manifest.json'), 'utf8')) as Manifest;
  const rows: Array<Record<string, string>> = [];
  const checks: SectionReport['checks'] = [];
  for (const [file, budget] of Object.entries(BUDGETS)) {
    const entry = manifest.files[file];
    if (!entry) throw new Error(`${file} is not in dist/manifest.json: run npm run build`);
    rows.push({ measure: `${file} gzip`, value: `${entry.gzipBytes} B`, budget: `${budget} B`, raw: `${entry.bytes} B` });
    checks.push({ name: `${file} size`, target: `≤ ${budget / 1024} KiB gzip`, measured: `${(entry.gzipBytes / 1024).toFixed(2)} KiB`, pass: entry.gzipBytes <= budget });
  }

  // The texts of each locale but English, which the widget fetches beside the form data.
  const locales = Object.entries(manifest.files).filter(([file]) => file.startsWith('locales/'));
  if (locales.length) {
    const sizes = locales.map(([, entry]) => entry.gzipBytes);
    rows.push({ measure: `locale file gzip (largest of ${locales.length})`, value: `${Math.max(...sizes)} B`, budget: '2048 B', raw: `${Math.min(...sizes)}–${Math.max(...sizes)} B` });
  }

  const stage = await startStage();
  const times: number[] = [];
  const timesDe: number[] = [];
  const timesFar: number[] = [];
  try {
    // The third: English, with LATENCY_MS before every request of the page and its frames, as for
    // a shopper that far from shop and gateway (localhost alone hides what runs in parallel).
    for (const [lang, latency, into] of [['en', 0, times], ['de', 0, timesDe], ['en', LATENCY_MS, timesFar]] as const) {
      for (let run = 0; run < RUNS; run++) {
        const context = await stage.browser.newContext();
        if (latency) await context.route('**/*', async (route) => void (await new Promise((resolve) => setTimeout(resolve, latency)), await route.continue()));
        const page = await context.newPage();
        // The demo shop's page is English: its wpwlOptions (demo/assets/options.js) get another locale.
        if (lang !== 'en') {
          // A string, not a function: tsx's compiled functions call helpers the page does not have.
          await page.addInitScript(
            `let options; Object.defineProperty(window, 'wpwlOptions', { configurable: true, get: () => options, set: (value) => void (options = { ...value, locale: ${JSON.stringify(lang)} }) });`,
          );
        }
        const started = performance.now();
        await page.goto(`${stage.shopOrigin}/`);
        const input = page.frameLocator('iframe[src*="field=number"]').locator('input[autocomplete="cc-number"]');
        await input.focus({ timeout: 15_000 });
        const focused = await input.evaluate((element) => element === element.ownerDocument.activeElement);
        const elapsed = performance.now() - started;
        if (!focused) throw new Error('the card-number field did not take focus');
        if ((await page.locator('payment-widget').getAttribute('lang')) !== lang) throw new Error(`the widget does not speak ${lang}`);
        into.push(elapsed);
        log(`widget: ${lang}${latency ? ` +${latency} ms a request` : ''} run ${run + 1}: card-number field focusable after ${elapsed.toFixed(0)} ms`);
        await context.close();
      }
    }
  } finally {
    await stage.close();
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  const raw = (list: number[]) => [...list].sort((a, b) => a - b).map((t) => t.toFixed(0)).join(', ') + ' ms';
  rows.push({ measure: 'navigation → focusable card number (median of 5)', value: `${median(times).toFixed(0)} ms`, budget: '', raw: raw(times) });
  rows.push({ measure: 'the same, German page (median of 5)', value: `${median(timesDe).toFixed(0)} ms`, budget: '', raw: raw(timesDe) });
  rows.push({ measure: `the same, English, ${LATENCY_MS} ms before each request (median of 5)`, value: `${median(timesFar).toFixed(0)} ms`, budget: '', raw: raw(timesFar) });
  return {
    name: 'widget',
    title: 'Widget: size and time to interactive',
    table: { columns: ['measure', 'value', 'budget', 'raw'], numeric: ['value'], rows },
    checks,
    notes: [
      `Time: from page.goto of the demo shop (its server creates a checkout first) to the card-number input inside the gateway frame taking focus; fresh browser context each run, headless Debian Chromium, shop and gateway on different origins, all on localhost. The German page is the same page with wpwlOptions.locale "de" (set by an init script). The third waits ${LATENCY_MS} ms before each request of the page and its frames (Playwright routing), where work that overlaps shows.`,
    ],
    data: { sizes: manifest.files, timesMs: times, medianMs: median(times), timesDeMs: timesDe, medianDeMs: median(timesDe), latencyMs: LATENCY_MS, timesFarMs: timesFar, medianFarMs: median(timesFar) },
  };
}
