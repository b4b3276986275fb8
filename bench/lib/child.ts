// Servers under test run in child processes of their own, so that the load generator (this
// process) never shares an event loop with them. A child reports its port over IPC once it
// listens and shuts down cleanly when asked (so that a --cpu-prof profile gets written).
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface Target {
  name: string;
  pid: number;
  base: string;
  /** CPU seconds (user + system) the child has used so far; undefined off Linux. */
  cpuSeconds(): number | undefined;
  stop(): Promise<void>;
}

export interface TargetOptions {
  /** Extra environment variables for the child. */
  env?: Record<string, string | undefined>;
  /** Write a V8 CPU profile of the child into this directory. */
  cpuProfileDir?: string;
  startTimeoutMs?: number;
}

type ChildMessage = { type: 'ready'; port: number } | { type: 'failed'; error: string };

/** Start `bench/targets/<script>` under tsx and wait until it listens. */
export async function startTarget(name: string, script: string, options: TargetOptions = {}): Promise<Target> {
  const execArgv = ['--import', 'tsx'];
  // One directory per target; V8 writes a profile per thread there (main, and tsx's loader).
  if (options.cpuProfileDir) execArgv.push('--cpu-prof', `--cpu-prof-dir=${join(options.cpuProfileDir, name)}`);
  const child = fork(fileURLToPath(new URL(`../targets/${script}`, import.meta.url)), [], {
    cwd: repoRoot,
    execArgv,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start within ${options.startTimeoutMs ?? 60_000} ms`));
    }, options.startTimeoutMs ?? 60_000);
    child.on('message', (message: ChildMessage) => {
      clearTimeout(timer);
      if (message.type === 'ready') resolve(message.port);
      else reject(new Error(`${name} failed to start: ${message.error}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited before it was ready (code ${code}, signal ${signal})`));
    });
  });
  const pid = child.pid!;
  return {
    name,
    pid,
    base: `http://127.0.0.1:${port}`,
    cpuSeconds: () => processCpuSeconds(pid),
    stop: () => stopChild(child),
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    if (child.connected) child.send({ type: 'stop' });
    else child.kill('SIGTERM');
  });
}

/** utime + stime of a process from /proc, in seconds. */
function processCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start at field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return ticks / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}
