// npm run bench: runs each section in turn, prints its table and targets, and writes everything
// to .bench/results.json. A measurement, not a test: the exit code is 0 whatever the figures.
//
// Sections: server (throughput of POST /v1/payments against a bare-Fastify ceiling, and of the
// checkout path: POST /v1/checkouts, then its payment from the shopper's browser), validation
// (reading and checking the plain and the full request in process), widget (size, time to
// interactive). Further sections plug in by adding an entry to SECTIONS.
//
// Environment:
//   BENCH_SECTIONS     comma-separated section names (default: all)
//   BENCH_DURATION     measured seconds per target (default 10)
//   BENCH_WARMUP       warm-up seconds per target (default 3)
//   BENCH_CONNECTIONS  autocannon connections (default 50)
//   BENCH_TARGETS      server section: comma-separated subset of ceiling,ceiling-full,sqlite,sqlite-full,sqlite-webhook,sqlite-checkout,postgres
//   BENCH_PAIRS        server section: how often sqlite and sqlite-full are measured back to back (default 1)
//   BENCH_LOG_LEVEL    LOG_LEVEL of the gateway children (default warn)
//   BENCH_CPU_PROFILE  1: write V8 CPU profiles of the gateway children to .bench/profiles
//   DATABASE_URL       also measure the gateway on PostgreSQL (fresh schema, dropped after)
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './lib/child.ts';
import { installInterruptHandler } from './lib/cleanup.ts';
import { formatSection, type SectionReport } from './lib/report.ts';
import { serverSection, type TargetRun } from './server.ts';
import { validationSection } from './validation.ts';
import { widgetSection } from './widget.ts';

const env = process.env;
const outDir = join(repoRoot, '.bench');
const number = (name: string, fallback: number) => {
  const value = Number(env[name]);
  return env[name] && Number.isFinite(value) && value >= 0 ? value : fallback;
};
const log = (line: string) => process.stderr.write(`${line}\n`);

const SECTIONS: Record<string, () => Promise<SectionReport>> = {
  server: () =>
    serverSection({
      connections: number('BENCH_CONNECTIONS', 50),
      warmupSeconds: number('BENCH_WARMUP', 3),
      durationSeconds: number('BENCH_DURATION', 10),
      databaseUrl: env.DATABASE_URL || undefined,
      logLevel: env.BENCH_LOG_LEVEL || 'warn',
      targets: env.BENCH_TARGETS ? (env.BENCH_TARGETS.split(',').map((t) => t.trim()) as Array<TargetRun['target']>) : undefined,
      pairs: number('BENCH_PAIRS', 1),
      cpuProfileDir: env.BENCH_CPU_PROFILE === '1' ? join(outDir, 'profiles') : undefined,
      log,
    }),
  validation: () => validationSection(),
  widget: () => widgetSection(log),
};

const wanted = (env.BENCH_SECTIONS ?? Object.keys(SECTIONS).join(','))
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean);
const unknown = wanted.filter((name) => !(name in SECTIONS));
if (unknown.length) log(`bench: unknown sections ignored: ${unknown.join(', ')} (known: ${Object.keys(SECTIONS).join(', ')})`);

installInterruptHandler(log);
mkdirSync(outDir, { recursive: true });
const machine = {
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model,
  loadavgBefore: loadavg().map((l) => Math.round(l * 100) / 100),
  loadavgAfter: [] as number[],
};
log(`bench: node ${machine.node}, ${machine.cpus} cores, load average ${machine.loadavgBefore.join(' ')} (other work on the machine makes figures noisy)`);

const reports: Record<string, SectionReport | { name: string; error: string }> = {};
const output: string[] = [];
for (const name of wanted.filter((n) => n in SECTIONS)) {
  try {
    const report = await SECTIONS[name]!();
    reports[name] = report;
    output.push(formatSection(report));
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    reports[name] = { name, error: message };
    output.push(`== ${name} ==\n\n  section failed: ${message}`);
  }
}
machine.loadavgAfter = loadavg().map((l) => Math.round(l * 100) / 100);

const resultsFile = join(outDir, 'results.json');
writeFileSync(resultsFile, `${JSON.stringify({ generatedAt: new Date().toISOString(), machine, sections: reports }, null, 2)}\n`);
console.log(`\n${output.join('\n\n')}\n\nLoad average before/after: ${machine.loadavgBefore.join(' ')} / ${machine.loadavgAfter.join(' ')}\nResults: ${resultsFile}`);
process.exit(0);
