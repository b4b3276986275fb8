// A yes-or-"ask zod" check compiled from a zod schema, for the hot path of requests with many
// groups. It answers true only when zod would accept the input and return it unchanged (same
// values; zod's object key order may differ), so a valid request skips zod's parse, which
// allocates a result object per group and an issue list per field. Every "no" goes to zod, which
// stays the one source of truth for what is valid and for every error message.
//
// It runs zod's own check objects (lengths, patterns, refinements), so no rule is written twice.
// Anything it does not know — transforms, defaults, coercion, async refinements, stripped keys —
// compiles to "ask zod".
import type { z } from 'zod';

type Accept = (value: unknown) => boolean;

interface Check {
  _zod: { def: { check: string }; check(payload: Payload): unknown };
}
interface Payload {
  value: unknown;
  issues: unknown[];
}
interface Def {
  type: string;
  checks?: Check[];
  coerce?: boolean;
  entries?: Record<string, string | number>;
  values?: unknown[];
  innerType?: Schema;
  shape?: Record<string, Schema>;
  catchall?: Schema;
  element?: Schema;
  keyType?: Schema;
  valueType?: Schema;
  options?: Schema[];
}
interface Schema {
  _zod: { def: Def };
}

const NEVER: Accept = () => false;
const compiled = new WeakMap<object, Accept>();

/** The compiled check of a schema (compiled once). */
export function acceptor(schema: z.ZodType): Accept {
  return compile(schema as unknown as Schema);
}

function compile(schema: Schema): Accept {
  let accept = compiled.get(schema);
  if (!accept) {
    // Recursive schemas meet themselves while compiling: ask zod for those.
    compiled.set(schema, NEVER);
    accept = withChecks(schema._zod.def, byType(schema._zod.def));
    compiled.set(schema, accept);
  }
  return accept;
}

function byType(def: Def): Accept {
  switch (def.type) {
    case 'string':
      return def.coerce ? NEVER : (v) => typeof v === 'string';
    case 'enum': {
      const values = new Set(Object.values(def.entries ?? {}));
      return (v) => values.has(v as string);
    }
    case 'literal': {
      const values = new Set(def.values);
      return (v) => values.has(v);
    }
    case 'optional': {
      const inner = compile(def.innerType!);
      return (v) => v === undefined || inner(v);
    }
    case 'nullable': {
      const inner = compile(def.innerType!);
      return (v) => v === null || inner(v);
    }
    case 'object':
      return objectOf(def);
    case 'array': {
      const element = compile(def.element!);
      return (v) => {
        if (!Array.isArray(v)) return false;
        // A hole (cart.items[0] and [2] sent, [1] not) is undefined to zod as well.
        for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
        return true;
      };
    }
    case 'record':
      return recordOf(def);
    case 'union': {
      const options = (def.options ?? []).map(compile);
      return (v) => options.some((option) => option(v));
    }
    default:
      // pipe, transform, default, catch, lazy, …: their output is not their input, or not known here.
      return NEVER;
  }
}

function objectOf(def: Def): Accept {
  const shape = def.shape ?? {};
  const keys = Object.keys(shape);
  const fields = keys.map((key) => compile(shape[key]!));
  const required = new Set(keys.filter((key) => shape[key]!._zod.def.type !== 'optional'));
  const catchall = def.catchall?._zod.def.type;
  // No catchall: zod drops unknown keys (the output differs); never: it refuses them; unknown/any keeps them.
  const keepsUnknown = catchall === 'unknown' || catchall === 'any';
  if (catchall !== undefined && catchall !== 'never' && !keepsUnknown) return NEVER;
  const index = new Map(keys.map((key, i) => [key, fields[i]!]));
  return (v) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
    const value = v as Record<string, unknown>;
    let requiredSeen = 0;
    for (const key in value) {
      const field = index.get(key);
      if (field === undefined) {
        if (!keepsUnknown || !Object.hasOwn(value, key)) return false;
        continue;
      }
      if (!field(value[key])) return false;
      if (required.has(key)) requiredSeen++;
    }
    return requiredSeen === required.size;
  };
}

function recordOf(def: Def): Accept {
  const keyType = def.keyType!._zod.def.type;
  // An enum or literal key type makes zod demand every key: not decided here.
  if (keyType !== 'string') return NEVER;
  const key = compile(def.keyType!);
  const value = compile(def.valueType!);
  return (v) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
    const record = v as Record<string, unknown>;
    for (const name in record) if (!Object.hasOwn(record, name) || !key(name) || !value(record[name])) return false;
    return true;
  };
}

/** One payload for every check run: checks only read it, or push an issue, which ends the run (and gets a fresh list). */
const payload: Payload = { value: undefined, issues: [] };

/** The type's own test, then each of zod's checks on the value: every one must pass and leave the value as it was. */
function withChecks(def: Def, accept: Accept): Accept {
  const checks = def.checks ?? [];
  if (checks.length === 0 || accept === NEVER) return accept;
  return (v) => {
    if (!accept(v)) return false;
    for (const check of checks) {
      payload.value = v;
      let outcome: unknown;
      try {
        outcome = check._zod.check(payload);
      } catch {
        return false;
      }
      // An issue, an asynchronous refinement, or an overwrite (trim, toLowerCase) that changed the value.
      if (payload.issues.length > 0 || outcome instanceof Promise || payload.value !== v) {
        payload.issues = [];
        return false;
      }
    }
    return true;
  };
}
