// What a load balancer or an orchestrator asks of a process: is it alive (GET /health/live), and
// should it be sent requests (GET /health/ready: its database answers and it is not stopping).
// No token: they tell nothing of merchants or payments.
import { sql } from 'kysely';
import { DeadlinePassed, withDeadline } from '../../deadline.ts';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../pipeline.ts';
import { methods } from './common.ts';

/** The health checks' paths: answered without Host, in clear on a live gateway, and while stopping (server/http/app.ts). */
export const isHealthCheck = (url: string): boolean => url.startsWith('/health/');

/** A database that takes longer than this to answer `select 1` is not ready for payments. */
const DATABASE_CHECK_MS = 2_000;

export function healthRoutes(app: FastifyInstance, g: Gateway, isStopping: () => boolean) {
  const answer = { 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8' };
  methods(app, g, '/health/live', {
    GET: async (_request, reply) => reply.code(200).headers(answer).send({ status: 'live' }),
  });
  methods(app, g, '/health/ready', {
    GET: async (_request, reply) => {
      const problem = isStopping() ? 'stopping' : await databaseProblem(g, app);
      // The widget's files are the checkout's, not the API's: a process without them still takes payments.
      const widget = g.assets.ready ? 'built' : 'not built';
      if (problem) return reply.code(503).headers(answer).send({ status: 'not ready', reason: problem, widget });
      return reply.code(200).headers(answer).send({ status: 'ready', database: g.deps.store.dialect, widget });
    },
  });
}

/**
 * Why the database is not ready, as anyone may read it: these answers take no token and a live
 * gateway gives them in clear, so the database's own error (PostgreSQL's names its address and
 * port, its user or database) goes to the log, for the operator, and the answer only says it failed.
 */
function databaseProblem(g: Gateway, app: FastifyInstance): Promise<string | undefined> {
  return withDeadline(sql`select 1`.execute(g.deps.store.db), DATABASE_CHECK_MS).then(
    () => undefined,
    (error: Error) => {
      if (error instanceof DeadlinePassed) return `the database did not answer within ${DATABASE_CHECK_MS} ms`;
      app.log.warn({ err: error.message }, 'readiness check: the database failed');
      return 'the database failed';
    },
  );
}
