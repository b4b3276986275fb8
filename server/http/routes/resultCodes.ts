// GET /v1/resultcodes: the public catalogue, with the groups each code belongs to.
import type { FastifyInstance } from 'fastify';
import { newNdc } from '../../ids.ts';
import { catalogue, groups, groupsOf, result } from '../../results.ts';
import { meta } from '../envelope.ts';
import type { Gateway } from '../pipeline.ts';
import { methods } from './common.ts';

export function resultCodeRoutes(app: FastifyInstance, g: Gateway) {
  const resultCodes = Object.entries(catalogue).map(([code, description]) => ({ code, description, groups: groupsOf(code) }));
  const patterns = Object.fromEntries(Object.entries(groups).map(([name, pattern]) => [name, pattern.source]));
  methods(app, g, '/v1/resultcodes', {
    GET: async (_request, reply) => {
      const m = meta(g.buildNumber, g.deps.clock());
      return reply.send({ result: result('000.000.100'), resultCodes, groups: patterns, buildNumber: m.buildNumber, timestamp: m.timestamp, ndc: newNdc() });
    },
  });
}
