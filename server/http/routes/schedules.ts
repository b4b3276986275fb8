// POST /scheduling/v1/schedules, GET and DELETE /scheduling/v1/schedules/{id}: scheduled
// payments with a registration (job.*). Firing is the gateway's scheduler (registrations/scheduler.ts).
import type { FastifyInstance } from 'fastify';
import type { Context, Invalid } from '../../payments/deps.ts';
import { resultOf } from '../../payments/response.ts';
import { successCode } from '../../payments/resultCodes.ts';
import { createSchedule, readSchedule, removeSchedule, scheduleView, type Scheduled, type UnknownSchedule } from '../../registrations/schedules.ts';
import { parseScheduleRequest } from '../../schema/schedules.ts';
import { errorBody, meta, type Reply } from '../envelope.ts';
import { failureReply } from '../outcomes.ts';
import { handle, type Gateway } from '../pipeline.ts';
import { methods, parseBody } from './common.ts';

export function scheduleRoutes(app: FastifyInstance, g: Gateway) {
  const reply = (value: Scheduled | UnknownSchedule | Invalid, ctx: Context): Reply => {
    const m = meta(g.buildNumber, g.deps.clock());
    if (value.kind === 'invalid') return failureReply(g, ctx, value);
    // Another entity's schedule is as unknown as one that never was.
    if (value.kind === 'unknown') return { status: 404, body: errorBody('200.300.404', m, ctx.ndc, [{ name: 'id', value: value.id, message: 'id names no schedule of this entity' }]) };
    const testMode = (JSON.parse(value.schedule.request) as { testMode?: string }).testMode;
    return {
      status: 200,
      body: { ...scheduleView(value.schedule), result: resultOf(successCode(g.deps.env, testMode)), buildNumber: m.buildNumber, timestamp: m.timestamp, ndc: ctx.ndc },
    };
  };
  const idOf = (request: { params: unknown }) => (request.params as { id: string }).id;

  methods(app, g, '/scheduling/v1/schedules', {
    POST: (request, res) =>
      handle<Scheduled | Invalid>(g, request, res, {
        operation: 'schedules',
        respond: reply,
        async run(ctx, params, alsoWrite) {
          const parsed = parseBody(g, params, parseScheduleRequest);
          if (!parsed.ok) return parsed.invalid;
          return createSchedule(g.deps, ctx, parsed.value, alsoWrite as never);
        },
      }),
  });

  methods(app, g, '/scheduling/v1/schedules/:id', {
    GET: (request, res) =>
      handle<Scheduled | UnknownSchedule>(g, request, res, { operation: 'reads', respond: reply, run: (ctx) => readSchedule(g.deps, ctx, idOf(request)) }),
    DELETE: (request, res) =>
      handle<Scheduled | UnknownSchedule>(g, request, res, { operation: 'schedules', respond: reply, run: (ctx) => removeSchedule(g.deps, ctx, idOf(request)) }),
  });
}
