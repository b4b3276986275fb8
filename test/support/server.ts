// The real server, started as npm start starts it (server/main.ts), in a child process.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { merchantsFile } from './gateway.ts';

const root = new URL('../..', import.meta.url).pathname;

export interface Server {
  child: ChildProcess;
  base: string;
  output: () => string;
}

/**
 * Start `node --import tsx server/main.ts` (what npm start runs) on a free port (PORT=0) and wait
 * for the address it prints. `preload`: a module imported before the server's (a fault to inject).
 */
export async function startServer(dataDir: string, env: Record<string, string> = {}, preload?: string): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...(preload ? ['--import', preload] : []), 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      MERCHANTS_FILE: merchantsFile,
      LOG_LEVEL: 'warn',
      // The embedded SQLite store, whatever the environment of the test run says.
      DATABASE_URL: '',
      REDIS_URL: '',
      CARD_KEY: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server printed no address within 30 s:\n${output}`)), 30_000);
    const look = () => {
      const match = /Payment gateway \((?:test|live)\) on (http:\/\/[^\s,]+), store: SQLite/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', look);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code ?? signal}) before listening:\n${output}`));
    });
  });
  return { child, base, output: () => output };
}

export async function kill(server: Server): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = once(server.child, 'exit');
  server.child.kill('SIGKILL');
  await exited;
}
