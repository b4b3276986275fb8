// Widget section: gzip sizes of the built scripts (from dist/manifest.json) against their budgets,
// and the time from navigation to a focusable card-number field in headless Chromium, on the demo
// shop served from another origin than the gateway (median of 5 fresh browser contexts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './lib/child.ts';
import type { SectionReport } from './lib/report.ts';
import { startStage } from '../test/e2e/support.ts';

const BUDGETS: Record<string, number> = { 'paymentWidgets.js': 25 * 1024, 'secure-frame.js': 10 * 1024, 'threeds.js': 10 * 1024, 'webview.js': 10 * 1024, 'sw.js': 10 * 1024 };
const RUNS = 5;

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

  const stage = await startStage();
  const times: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const context = await stage.browser.newContext();
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(`${stage.shopOrigin}/`);
      const input = page.frameLocator('iframe[src*="field=number"]').locator('input[autocomplete="cc-number"]');
      await input.focus({ timeout: 15_000 });
      const focused = await input.evaluate((element) => element === element.ownerDocument.activeElement);
      const elapsed = performance.now() - started;
      if (!focused) throw new Error('the card-number field did not take focus');
      times.push(elapsed);
      log(`widget: run ${run + 1}: card-number field focusable after ${elapsed.toFixed(0)} ms`);
      await context.close();
    }
  } finally {
    await stage.close();
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  rows.push({ measure: 'navigation → focusable card number (median of 5)', value: `${median.toFixed(0)} ms`, budget: '', raw: sorted.map((t) => t.toFixed(0)).join(', ') + ' ms' });
  return {
    name: 'widget',
    title: 'Widget: size and time to interactive',
    table: { columns: ['measure', 'value', 'budget', 'raw'], numeric: ['value'], rows },
    checks,
    notes: [
      'Time: from page.goto of the demo shop (its server creates a checkout first) to the card-number input inside the gateway frame taking focus; fresh browser context each run, headless Debian Chromium, shop and gateway on different origins, all on localhost.',
    ],
    data: { sizes: manifest.files, timesMs: times, medianMs: median },
  };
}
