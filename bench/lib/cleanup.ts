// Clean-ups that must run even when the bench is interrupted (Ctrl-C): temporary data
// directories, PostgreSQL schemas, child servers.
const pending = new Set<() => Promise<void>>();

/** Run `fn` on interruption until the returned function is called (then it is dropped). */
export function onInterrupt(fn: () => Promise<void>): () => void {
  pending.add(fn);
  return () => pending.delete(fn);
}

export function installInterruptHandler(log: (line: string) => void): void {
  process.once('SIGINT', () => {
    log('bench: interrupted, cleaning up');
    void Promise.allSettled([...pending].map((fn) => fn())).finally(() => process.exit(130));
  });
}
