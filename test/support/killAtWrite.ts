// Preloaded (node --import) into a server process by a test: the process is killed with SIGKILL
// at its first write into a file whose name starts with KILL_AT_WRITE (a base name), once that
// file was opened (created), as a kill landing on that write(2) would leave it. Linux (/proc).
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { basename } from 'node:path';

const prefix = process.env.KILL_AT_WRITE;
if (!prefix) throw new Error('KILL_AT_WRITE names the file whose first write kills the process');
const named = (path: unknown) => (typeof path === 'string' || path instanceof URL) && basename(String(path)).startsWith(prefix);
const openNamed = (fd: unknown) => {
  if (typeof fd !== 'number') return false;
  try {
    return named(fs.readlinkSync(`/proc/self/fd/${fd}`));
  } catch {
    return false;
  }
};
const die = (): never => {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
};

const { writeFileSync, writeSync } = fs;
fs.writeFileSync = ((file: fs.PathOrFileDescriptor, data: string | NodeJS.ArrayBufferView, options?: fs.WriteFileOptions) => {
  if (openNamed(file)) die();
  if (named(file)) {
    // writeFileSync opens (creates) the file first, then writes: the kill comes between the two.
    const flag = typeof options === 'object' && options?.flag ? String(options.flag) : 'w';
    const mode = typeof options === 'object' && options?.mode !== undefined ? options.mode : 0o666;
    fs.closeSync(fs.openSync(file as fs.PathLike, flag, mode));
    die();
  }
  return writeFileSync(file, data, options);
}) as typeof fs.writeFileSync;
fs.writeSync = ((fd: number, ...rest: unknown[]) => {
  if (openNamed(fd)) die();
  return (writeSync as (fd: number, ...rest: unknown[]) => number)(fd, ...rest);
}) as typeof fs.writeSync;
syncBuiltinESMExports();
