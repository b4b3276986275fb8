// Section "server": gateway throughput against the machine's ceiling.
//   ceiling   a bare Fastify route that parses the same form body and answers a small JSON
//   sqlite    the real gateway, embedded SQLite in a fresh temporary DATA_DIR
//   postgres  the real gateway on DATABASE_URL, in a fresh schema dropped afterwards
// Every target is a child process; autocannon (in this process) sends the same card debit to
// POST /v1/payments on each of them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cardDebit, freshPostgresSchema, merchantsFile, shopA } from '../test/support/gateway.ts';
import { startTarget, type Target } from './lib/child.ts';
import { onInterrupt } from './lib/cleanup.ts';
import { round, runLoad, type LoadOptions, type LoadResult } from './lib/load.ts';
import type { Check, SectionReport } from './lib/report.ts';

export interface ServerBenchOptions {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** PostgreSQL to measure too; skipped when undefined. */
  databaseUrl?: string;
  /** LOG_LEVEL of the gateway child. */
  logLevel: string;
  /** Which targets to run (default all); handy when working on one of them. */
  targets?: ReadonlyArray<TargetRun['target']>;
  /** Write a V8 CPU profile of each gateway child here. */
  cpuProfileDir?: string;
  log(line: string): void;
}

/** Targets from the issue, as fractions of the ceiling's requests per second. */
export const TARGETS = {
  sqlite: { ratio: 0.25, p99Ms: 50 },
  postgres: { ratio: 0.12 },
} as const;

/** A run with more failed requests than this share is not a measurement. */
const MAX_FAILED_SHARE = 0.01;
const SUCCESS = /^(000\.000\.|000\.100\.1|000\.[36]|000\.400\.[1][12]0)/;

export interface TargetRun {
  target: 'ceiling' | 'sqlite' | 'postgres';
  label: string;
  load?: LoadResult;
  /** Share of the ceiling's requests per second. */
  ratio?: number;
  /** The ceiling's CPU time per request divided by this target's. */
  cpuRatio?: number;
  valid: boolean;
  error?: string;
}

const body = new URLSearchParams({ entityId: shopA.entityId, ...cardDebit() }).toString();
const headers = { authorization: `Bearer ${shopA.token}`, 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' };

function loadOptions(options: ServerBenchOptions): LoadOptions {
  return {
    path: '/v1/payments',
    method: 'POST',
    headers,
    body,
    connections: options.connections,
    warmupSeconds: options.warmupSeconds,
    durationSeconds: options.durationSeconds,
  };
}

/** One request before the load: the target must approve the debit, or measuring it is pointless. */
async function probe(target: Target, expectGateway: boolean): Promise<void> {
  const response = await fetch(`${target.base}/v1/payments`, {
    method: 'POST',
    headers,
    body,
  });
  const json = (await response.json().catch(() => ({}))) as { result?: { code?: string; description?: string } };
  if (response.status !== 200 || (expectGateway && !SUCCESS.test(json.result?.code ?? ''))) {
    throw new Error(`probe debit answered HTTP ${response.status} ${json.result?.code ?? ''} ${json.result?.description ?? ''}`.trim());
  }
}

async function measure(
  run: Omit<TargetRun, 'valid'>,
  options: ServerBenchOptions,
  start: () => Promise<Target>,
  cleanup: () => Promise<void> = async () => undefined,
): Promise<TargetRun> {
  options.log(`server: ${run.label}: starting`);
  let target: Target | undefined;
  const dropInterrupt = onInterrupt(async () => {
    await target?.stop();
    await cleanup();
  });
  try {
    target = await start();
    await probe(target, run.target !== 'ceiling');
    options.log(`server: ${run.label}: ${options.warmupSeconds} s warm-up, ${options.durationSeconds} s measured, ${options.connections} connections`);
    const load = await runLoad(target, loadOptions(options));
    const failed = load.non2xx + load.errors;
    const valid = load.total > 0 && failed / Math.max(load.total, 1) <= MAX_FAILED_SHARE;
    options.log(`server: ${run.label}: ${Math.round(load.requestsPerSecond)} req/s, p99 ${load.latencyMs.p99} ms, ${failed} failed`);
    return { ...run, load, valid, error: valid ? undefined : `${failed} of ${load.total} requests failed (statuses ${JSON.stringify(load.statusCodes)})` };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    options.log(`server: ${run.label}: ${message}`);
    return { ...run, valid: false, error: message };
  } finally {
    dropInterrupt();
    await target?.stop();
    await cleanup().catch((error: Error) => options.log(`server: ${run.label}: cleanup failed: ${error.message}`));
  }
}

function gatewayEnv(options: ServerBenchOptions, dataDir: string, databaseUrl = ''): Record<string, string> {
  return {
    GATEWAY_ENV: 'test',
    DATA_DIR: dataDir,
    MERCHANTS_FILE: merchantsFile,
    LOG_LEVEL: options.logLevel,
    DATABASE_URL: databaseUrl,
    // In-memory throttle counters: the bench measures the gateway, not Redis.
    REDIS_URL: '',
    CARD_KEY: '',
    BUILD_NUMBER: 'bench',
  };
}

export async function serverSection(options: ServerBenchOptions): Promise<SectionReport> {
  const runs: TargetRun[] = [];

  const ceilingRun = (when: string) => measure({ target: 'ceiling', label: `ceiling (bare Fastify), ${when}` }, options, () => startTarget('ceiling', 'ceiling.ts'));
  const wanted = (target: TargetRun['target']) => !options.targets || options.targets.includes(target);
  if (wanted('ceiling')) runs.push(await ceilingRun('before'));

  if (wanted('sqlite')) {
    const sqliteDir = mkdtempSync(join(tmpdir(), 'gw-bench-'));
    runs.push(
      await measure(
        { target: 'sqlite', label: 'gateway, SQLite: card debit' },
        options,
        () => startTarget('gateway-sqlite', 'gateway.ts', { env: gatewayEnv(options, sqliteDir), cpuProfileDir: options.cpuProfileDir }),
        async () => rmSync(sqliteDir, { recursive: true, force: true }),
      ),
    );
  }

  if (options.databaseUrl && wanted('postgres')) {
    const pgDir = mkdtempSync(join(tmpdir(), 'gw-bench-'));
    let schema: Awaited<ReturnType<typeof freshPostgresSchema>> | undefined;
    runs.push(
      await measure(
        { target: 'postgres', label: 'gateway, PostgreSQL: card debit' },
        options,
        async () => {
          schema = await freshPostgresSchema(options.databaseUrl!);
          return startTarget('gateway-postgres', 'gateway.ts', { env: gatewayEnv(options, pgDir, schema.url), cpuProfileDir: options.cpuProfileDir });
        },
        async () => {
          rmSync(pgDir, { recursive: true, force: true });
          await schema?.drop();
        },
      ),
    );
  }

  // Measured again after the gateways: other work on the machine comes and goes, and the
  // ceiling is the best this machine did.
  if (wanted('ceiling')) runs.push(await ceilingRun('after'));

  const ceilings = runs.filter((run) => run.target === 'ceiling');
  const validCeilings = ceilings.filter((run) => run.valid && run.load);
  const ceilingRps = validCeilings.length ? Math.max(...validCeilings.map((run) => run.load!.requestsPerSecond)) : undefined;
  const ceiling = { error: validCeilings.length ? undefined : `no valid ceiling: ${ceilings.map((run) => run.error).join('; ')}` };
  for (const run of runs) if (run.load && ceilingRps) run.ratio = run.load.requestsPerSecond / ceilingRps;
  // The same ratio by CPU cost per request: what req/s would show if both servers had a core to
  // themselves. Other work on the machine moves it much less than req/s.
  const best = validCeilings.find((run) => run.load!.requestsPerSecond === ceilingRps);
  const ceilingCpu = best?.load?.serverCpuMsPerRequest;
  for (const run of runs) {
    const cpu = run.load?.serverCpuMsPerRequest;
    if (ceilingCpu && cpu) run.cpuRatio = ceilingCpu / cpu;
  }

  const pct = (ratio: number | undefined) => (ratio === undefined ? '—' : `${round(ratio * 100, 1)}%`);
  const rows = runs.map((run) => ({
    target: run.label,
    'req/s': run.load ? String(Math.round(run.load.requestsPerSecond)) : '—',
    'p50 ms': run.load ? String(run.load.latencyMs.p50) : '—',
    'p99 ms': run.load ? String(run.load.latencyMs.p99) : '—',
    'non-2xx': run.load ? String(run.load.non2xx) : '—',
    errors: run.load ? String(run.load.errors) : '—',
    'of ceiling': pct(run.ratio),
    'server CPU': run.load?.serverCpuPercent !== undefined ? `${run.load.serverCpuPercent}%` : '—',
    'CPU ms/req': run.load?.serverCpuMsPerRequest !== undefined ? run.load.serverCpuMsPerRequest.toFixed(3) : '—',
    'by CPU cost': pct(run.cpuRatio),
    valid: run.valid ? 'yes' : `NO: ${firstLine(run.error)}`,
  }));

  const checks: Check[] = [];
  const sqlite = runs.find((run) => run.target === 'sqlite');
  const postgres = runs.find((run) => run.target === 'postgres');
  const usable = (run: TargetRun | undefined) => Boolean(run?.valid && run.load && run.ratio !== undefined);
  checks.push({
    name: 'SQLite card debit',
    target: `≥ ${TARGETS.sqlite.ratio * 100}% of ceiling, p99 ≤ ${TARGETS.sqlite.p99Ms} ms`,
    measured: usable(sqlite) ? `${pct(sqlite!.ratio)}, p99 ${sqlite!.load!.latencyMs.p99} ms (by CPU cost ${pct(sqlite!.cpuRatio)})` : '—',
    pass: usable(sqlite) ? sqlite!.ratio! >= TARGETS.sqlite.ratio && sqlite!.load!.latencyMs.p99 <= TARGETS.sqlite.p99Ms : undefined,
    note: usable(sqlite) ? undefined : firstLine(sqlite?.error ?? ceiling.error ?? 'not measured'),
  });
  checks.push({
    name: 'PostgreSQL card debit',
    target: `≥ ${TARGETS.postgres.ratio * 100}% of ceiling`,
    measured: usable(postgres) ? `${pct(postgres!.ratio)}, p99 ${postgres!.load!.latencyMs.p99} ms (by CPU cost ${pct(postgres!.cpuRatio)})` : '—',
    pass: usable(postgres) ? postgres!.ratio! >= TARGETS.postgres.ratio : undefined,
    note: !options.databaseUrl ? 'skipped: DATABASE_URL is not set' : usable(postgres) ? undefined : firstLine(postgres?.error ?? ceiling.error ?? 'not measured'),
  });

  const notes = [
    `POST /v1/payments, card debit 92.00 EUR VISA 4200000000000000, ${options.connections} connections, ${options.warmupSeconds} s warm-up then ${options.durationSeconds} s; gateway LOG_LEVEL=${options.logLevel}.`,
    `The ceiling is the higher of the two ceiling runs (${ceilingRps === undefined ? '—' : Math.round(ceilingRps)} req/s); "of ceiling" divides by it.`,
    'req/s is the mean of per-second counts; server CPU is the target process in percent of one core; CPU ms/req its CPU time per request.',
    '"by CPU cost" is the ceiling\'s CPU ms/req divided by the target\'s: the share of the ceiling it would reach with a core to itself, much less moved by other work on the machine than req/s (for PostgreSQL it leaves out the database server\'s own CPU). The targets are judged on req/s, as the issue states them.',
  ];
  if (options.cpuProfileDir) notes.push(`CPU profiles of the gateway children: ${options.cpuProfileDir}`);

  return {
    name: 'server',
    title: 'Server throughput: POST /v1/payments (card debit)',
    table: { columns: Object.keys(rows[0]!), numeric: ['req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'of ceiling', 'server CPU', 'CPU ms/req', 'by CPU cost'], rows },
    checks,
    notes,
    data: { options: { ...options, log: undefined, databaseUrl: options.databaseUrl ? redactUrl(options.databaseUrl) : undefined }, targets: TARGETS, ceilingRequestsPerSecond: ceilingRps, runs },
  };
}

function firstLine(text: string | undefined): string {
  const line = (text ?? '').split('\n')[0]!;
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

function redactUrl(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}
