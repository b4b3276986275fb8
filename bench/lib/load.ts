// Load generation with autocannon: a short warm-up, then the measured run, with the CPU time the
// server under test and this process used while measuring.
import autocannon from 'autocannon';
import type { Target } from './child.ts';

export interface LoadOptions {
  path: string;
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body?: string;
  /**
   * A request built anew for every request sent (autocannon's request sequence: setupRequest,
   * onResponse), e.g. a path naming a fresh checkout each time; overrides path, headers and body.
   */
  requests?: autocannon.Request[];
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
}

export interface LoadResult {
  /** Mean of autocannon's per-second request counts. */
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  total: number;
  ok: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  durationSeconds: number;
  /** CPU the server process used during the measured run, in percent of one core. */
  serverCpuPercent?: number;
  /** CPU time the server process spent per completed request, in milliseconds. */
  serverCpuMsPerRequest?: number;
  /** CPU the load generator (this process) used, in percent of one core. */
  loadGeneratorCpuPercent: number;
}

function fire(base: string, options: LoadOptions, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: base + options.path,
    method: options.method,
    headers: options.headers,
    body: options.body,
    ...(options.requests ? { requests: options.requests } : {}),
    connections: options.connections,
    duration: seconds,
    timeout: 10,
  });
}

export async function runLoad(target: Target, options: LoadOptions): Promise<LoadResult> {
  if (options.warmupSeconds > 0) await fire(target.base, options, options.warmupSeconds);
  const serverBefore = target.cpuSeconds();
  const selfBefore = process.cpuUsage();
  const started = performance.now();
  const result = await fire(target.base, options, options.durationSeconds);
  const wall = (performance.now() - started) / 1000;
  const serverAfter = target.cpuSeconds();
  const self = process.cpuUsage(selfBefore);

  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stats.count ?? 0;
  return {
    requestsPerSecond: result.requests.average,
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max, mean: result.latency.mean },
    total: result.requests.total,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    durationSeconds: result.duration,
    serverCpuPercent: serverBefore !== undefined && serverAfter !== undefined ? round(((serverAfter - serverBefore) / wall) * 100, 0) : undefined,
    serverCpuMsPerRequest:
      serverBefore !== undefined && serverAfter !== undefined && result.requests.total > 0 ? round(((serverAfter - serverBefore) * 1000) / result.requests.total, 3) : undefined,
    loadGeneratorCpuPercent: round(((self.user + self.system) / 1e6 / wall) * 100, 0),
  };
}

export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
