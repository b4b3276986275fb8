// A request schema as the flat parameters merchants send ("card.number", "cart.items[n].name",
// "customParameters[key]"), for the OpenAPI document: z.toJSONSchema of the nested schema, whose
// object tree is walked into flat names, each with its own JSON Schema (type, lengths, pattern,
// enum, and a description made of the schema's own messages) and whether it is required.
// Nothing here is written twice: every name, limit and rule comes from the zod schema.
import { z } from 'zod';
import { flatName, MAX_INDEX } from '../http/params.ts';

export type JsonSchema = { [keyword: string]: unknown };

/** One flat parameter of a request. */
export interface FlatParam {
  /** As merchants read it: card.number, cart.items[n].name, customParameters[key]. */
  name: string;
  /** For names with [n] or [key]: the regular expression every such name matches. */
  namePattern?: string;
  /** The parameter group: the first part of a nested name (card, customer, cart); '' for a top-level field. */
  group: string;
  /** Required in every request. */
  required: boolean;
  /** Required whenever another parameter of this part of the request is sent (card, registrations[n]). */
  requiredWith?: string;
  /** The value's JSON Schema. */
  schema: JsonSchema;
}

const isObject = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

type Segment = { kind: 'name'; name: string } | { kind: 'index'; max: number } | { kind: 'key'; pattern: string };

/** Whether the body parser reads `[x]` after this name as a free-form key (params.ts decides; we ask it). */
const isKeyed = (name: string) => flatName([name, 'x']) === `${name}[x]`;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** Decimal integers from 0 to max without leading zeros, as a regular expression (999: 0|[1-9][0-9]{0,2}). */
export function indexPattern(max: number): string {
  const digits = String(max);
  if (max < 10) return max === 0 ? '0' : `[0-${max}]`;
  if (/^9+$/.test(digits)) return `0|[1-9][0-9]{0,${digits.length - 1}}`;
  const alternatives = ['0', digits.length > 2 ? `[1-9][0-9]{0,${digits.length - 2}}` : '[1-9]'];
  for (let i = 0; i < digits.length; i++) {
    const low = i === 0 ? 1 : 0;
    const high = Number(digits[i]) - 1;
    if (high < low) continue;
    const rest = digits.length - i - 1;
    alternatives.push(`${digits.slice(0, i)}${low === high ? low : `[${low}-${high}]`}${rest ? `[0-9]{${rest}}` : ''}`);
  }
  alternatives.push(digits);
  return alternatives.join('|');
}

/** The name as merchants read it. */
function displayName(segments: Segment[]): string {
  let name = '';
  segments.forEach((segment, i) => {
    const previous = segments[i - 1];
    const bracketed = previous?.kind === 'name' && isKeyed(previous.name);
    if (segment.kind === 'index') name += '[n]';
    else if (segment.kind === 'key') name += bracketed ? '[key]' : `${i === 0 ? '' : '.'}{key}`;
    else name += bracketed ? `[${segment.name}]` : `${i === 0 ? '' : '.'}${segment.name}`;
  });
  return name;
}

/** A key pattern of a record (^[A-Za-z0-9._]{3,64}$) as a part of a name pattern. */
function keyPart(pattern: string): string {
  const inner = pattern.startsWith('^') && pattern.endsWith('$') && !pattern.endsWith('\\$') ? pattern.slice(1, -1) : '[^\\].[]+';
  return `(?:${inner})`;
}

/** The regular expression of a name with [n] or [key]; undefined for a plain name. */
function namePattern(segments: Segment[]): string | undefined {
  if (segments.every((s) => s.kind === 'name')) return undefined;
  let source = '';
  segments.forEach((segment, i) => {
    const previous = segments[i - 1];
    const bracketed = previous?.kind === 'name' && isKeyed(previous.name);
    if (segment.kind === 'index') source += `\\[(?:${indexPattern(segment.max)})\\]`;
    else if (segment.kind === 'key') source += bracketed ? `\\[${keyPart(segment.pattern)}\\]` : `${i === 0 ? '' : '\\.'}${keyPart(segment.pattern)}`;
    else source += bracketed ? `\\[${escapeRegex(segment.name)}\\]` : `${i === 0 ? '' : '\\.'}${escapeRegex(segment.name)}`;
  });
  return `^${source}$`;
}

/** A refinement's or regex's message as a sentence: "is not an ISO 4217 currency" → "Must be an ISO 4217 currency." */
function sentence(message: string): string {
  const positive = message.replace(/^is not /, 'must be ');
  const text = positive.charAt(0).toUpperCase() + positive.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

interface CheckDef {
  check?: string;
  format?: string;
  error?: (issue: unknown) => unknown;
}

/**
 * What a string schema's checks say beyond its keywords: the messages of its regexes and
 * refinements (lengths are minLength and maxLength already). A refinement (a real calendar
 * day, an ISO 4217 currency) has no JSON Schema keyword: its message is the only trace of it.
 */
function checkMessages(schema: z.core.$ZodType): string[] {
  const def = schema._zod.def as { type?: string; checks?: Array<{ _zod: { def: CheckDef } }> };
  if (def.type !== 'string') return [];
  const messages: string[] = [];
  for (const check of def.checks ?? []) {
    const d = check._zod.def;
    if (!(d.check === 'custom' || (d.check === 'string_format' && d.format === 'regex'))) continue;
    let message: unknown;
    try {
      message = d.error?.({ code: d.check === 'custom' ? 'custom' : 'invalid_format', input: '', path: [] });
    } catch {
      // An error function that needs a real issue says nothing here.
    }
    if (typeof message === 'string' && message && !messages.includes(sentence(message))) messages.push(sentence(message));
  }
  return messages;
}

/** The nested request's JSON Schema (draft 2020-12, the input side), every string described by its own messages. */
export function nestedJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    // A transform or a custom type has no JSON Schema: it is documented as any value rather than break the document.
    unrepresentable: 'any',
    reused: 'inline',
    override: ({ zodSchema, jsonSchema }) => {
      if (jsonSchema.description !== undefined) return;
      const messages = checkMessages(zodSchema as z.core.$ZodType);
      if (messages.length) jsonSchema.description = messages.join(' ');
    },
  }) as JsonSchema;
  delete json.$schema;
  return inlineDefs(json);
}

/**
 * A schema with its $defs (schemas that carry a meta id) put in place: a $ref to #/$defs/… would
 * point at the root of whatever document the schema is placed in.
 */
function inlineDefs(json: JsonSchema): JsonSchema {
  const defs = isObject(json.$defs) ? json.$defs : undefined;
  if (!defs) return json;
  delete json.$defs;
  const resolve = (node: unknown, depth: number): unknown => {
    if (Array.isArray(node)) return node.map((item) => resolve(item, depth));
    if (!isObject(node)) return node;
    const ref = typeof node.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(node.$ref) : null;
    if (ref && isObject(defs[ref[1]!])) {
      if (depth > 32) throw new Error(`${ref[1]} refers to itself: a request schema cannot be recursive`);
      const { $ref: _ref, ...rest } = node;
      return resolve({ ...(defs[ref[1]!] as JsonSchema), ...rest }, depth + 1);
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolve(value, depth)]));
  };
  return resolve(json, 0) as JsonSchema;
}

/** Every flat parameter of a nested JSON Schema, in the schema's (the spec's) order. */
export function flattenJsonSchema(root: JsonSchema): FlatParam[] {
  if (root.type !== 'object' || !isObject(root.properties)) throw new Error('a request schema must be an object of parameters');
  const out: FlatParam[] = [];
  const listed = new Set<string>();
  /** scope: the name of the nearest optional part (or array element) the node lies in; inScope: required within it. */
  const walk = (node: JsonSchema, segments: Segment[], scope: string | undefined, inScope: boolean) => {
    const name = displayName(segments);
    if (node.type === 'object' && (isObject(node.properties) || isObject(node.additionalProperties))) {
      const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
      for (const [key, child] of Object.entries(isObject(node.properties) ? node.properties : {})) {
        if (!isObject(child)) continue;
        const childSegments: Segment[] = [...segments, { kind: 'name', name: key }];
        if (required.has(key)) walk(child, childSegments, scope, inScope);
        else walk(child, childSegments, displayName(childSegments), true);
      }
      if (isObject(node.additionalProperties)) {
        const names = isObject(node.propertyNames) && typeof node.propertyNames.pattern === 'string' ? node.propertyNames.pattern : '';
        const childSegments: Segment[] = [...segments, { kind: 'key', pattern: names }];
        walk(node.additionalProperties, childSegments, displayName(childSegments), true);
      }
      return;
    }
    // A union of groups (z.union of objects): every branch's names, none of them required, each listed once.
    const branches = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
    if (branches && branches.length && branches.every((b) => isObject(b) && b.type === 'object')) {
      for (const branch of branches as JsonSchema[]) walk(branch, segments, name, false);
      return;
    }
    if (node.type === 'array' && isObject(node.items)) {
      const max = typeof node.maxItems === 'number' ? Math.min(MAX_INDEX, node.maxItems - 1) : MAX_INDEX;
      const childSegments: Segment[] = [...segments, { kind: 'index', max }];
      walk(node.items, childSegments, displayName(childSegments), true);
      return;
    }
    const first = segments[0];
    const pattern = namePattern(segments);
    if (listed.has(name)) return;
    listed.add(name);
    out.push({
      name,
      ...(pattern ? { namePattern: pattern } : {}),
      group: segments.length > 1 && first?.kind === 'name' ? first.name : '',
      required: inScope && scope === undefined,
      ...(inScope && scope !== undefined && scope !== name ? { requiredWith: scope } : {}),
      schema: node,
    });
  };
  walk(root, [], undefined, true);
  return out;
}

/** The flat parameters of a zod request schema. */
export function flatParams(schema: z.ZodType): FlatParam[] {
  return flattenJsonSchema(nestedJsonSchema(schema));
}

/**
 * The flat body as JSON Schema: plain names as properties, names with [n] or [key] as
 * patternProperties (each with x-flatName, the name as merchants read it), nothing else allowed
 * (unless `closed` is false); required names, and dependentRequired for the parts a parameter
 * brings along (card.holder needs card.number, card.expiryMonth and card.expiryYear). x-group and
 * x-requiredWith say the same for readers.
 */
export function flatBodySchema(params: FlatParam[], options: { closed?: boolean; dependencies?: Record<string, string[]> } = {}): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const patternProperties: Record<string, JsonSchema> = {};
  for (const p of params) {
    const schema: JsonSchema = { ...p.schema, 'x-group': p.group, ...(p.requiredWith ? { 'x-requiredWith': p.requiredWith } : {}) };
    if (p.namePattern) patternProperties[p.namePattern] = { ...schema, 'x-flatName': p.name };
    else properties[p.name] = schema;
  }
  // A plain part's required members, needed by every plain name inside that part.
  const requiredIn = new Map<string, string[]>();
  for (const p of params) {
    if (p.namePattern || !p.requiredWith || /\[(n|key)\]/.test(p.requiredWith)) continue;
    requiredIn.set(p.requiredWith, [...(requiredIn.get(p.requiredWith) ?? []), p.name]);
  }
  const dependentRequired: Record<string, string[]> = {};
  for (const p of params) {
    if (p.namePattern) continue;
    const needs = [...requiredIn.entries()]
      .filter(([part]) => p.name.startsWith(`${part}.`) || p.name.startsWith(`${part}[`))
      .flatMap(([, names]) => names)
      .filter((name) => name !== p.name);
    if (needs.length) dependentRequired[p.name] = [...new Set(needs)];
  }
  // The rules across fields (dependencies.ts) join the structural ones.
  for (const [name, needs] of Object.entries(options.dependencies ?? {})) dependentRequired[name] = [...new Set([...(dependentRequired[name] ?? []), ...needs])];
  const required = params.filter((p) => p.required).map((p) => p.name);
  return {
    type: 'object',
    properties,
    ...(Object.keys(patternProperties).length ? { patternProperties } : {}),
    ...(options.closed === false ? {} : { additionalProperties: false }),
    ...(required.length ? { required } : {}),
    ...(Object.keys(dependentRequired).length ? { dependentRequired } : {}),
  };
}
