// The flat parameter names of a request schema, read off its zod shapes (objects, lists, keyed
// maps), with each leaf's own schema: tests enumerate the real names of every group from here
// instead of keeping lists of their own.
import { z } from 'zod';
import { flatName } from '../../server/http/params.ts';

export type Segment = string | { index: true } | { key: z.ZodType };

export interface ParamTemplate {
  /** As documented: card.number, cart.items[n].name, customParameters[key]. */
  name: string;
  segments: Segment[];
  leaf: z.ZodType;
}

/** The schema inside optional, nullable and default wrappers. */
export function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) s = s._zod.def.innerType as z.ZodType;
  return s;
}

/** Every leaf of a request schema, depth first in the schema's order. */
export function parameterTemplates(schema: z.ZodType, prefix: Segment[] = []): ParamTemplate[] {
  const s = unwrap(schema);
  if (s instanceof z.ZodObject) return Object.entries(s.shape as Record<string, z.ZodType>).flatMap(([key, child]) => parameterTemplates(child, [...prefix, key]));
  if (s instanceof z.ZodArray) return parameterTemplates(s.element as z.ZodType, [...prefix, { index: true }]);
  if (s instanceof z.ZodRecord) return parameterTemplates(s._zod.def.valueType as z.ZodType, [...prefix, { key: s._zod.def.keyType as z.ZodType }]);
  return [{ name: displayName(prefix), segments: prefix, leaf: s }];
}

/** The flat name of a template with its indexes and keys filled in (cart.items[3].name, customParameters[SHOPPER_x]). */
export function nameOf(segments: Segment[], index: (at: number) => number, key: (at: number, schema: z.ZodType) => string): string {
  return flatName(segments.map((segment, at) => (typeof segment === 'string' ? segment : 'index' in segment ? index(at) : key(at, segment.key))));
}

/** The documented form of a template's name: [n] for indexes, [key] for keys. */
function displayName(segments: Segment[]): string {
  return nameOf(segments, () => -1, () => 'key').replace(/\[-1\]/g, '[n]');
}
