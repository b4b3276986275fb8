// The child side of bench/lib/child.ts: report the port once listening, close on request.
import type { FastifyInstance } from 'fastify';

export async function serve(app: FastifyInstance, close: () => Promise<void>): Promise<void> {
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (error) {
    process.send?.({ type: 'failed', error: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // process.exit (rather than a signal's default action) lets --cpu-prof write its profile.
    void close()
      .catch(() => undefined)
      .finally(() => process.exit(0));
  };
  process.on('message', (message: { type?: string }) => {
    if (message?.type === 'stop') stop();
  });
  process.on('disconnect', stop);
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.send?.({ type: 'ready', port });
}

export function failed(error: unknown): never {
  process.send?.({ type: 'failed', error: error instanceof Error ? error.stack ?? error.message : String(error) });
  process.exit(1);
}
