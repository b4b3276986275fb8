// Flat request parameters ("card.number", "cart.items[0].name", "customParameters[KEY]")
// turned into nested objects, and paths of nested values turned back into the flat names
// merchants sent, so that errors name the parameter exactly as it was written.
import { isUtf8 } from 'node:buffer';

export type Flat = Record<string, string>;
export type Nested = { [key: string]: NestedValue };
export type NestedValue = string | Nested | NestedValue[];

export interface ParamError {
  name: string;
  value: string;
  message: string;
}

/** Groups whose [key] segments are free-form names rather than indexes. */
const KEYED = new Set(['customParameters', 'overridePaymentType', 'data', 'parameters', 'schemeData', 'resultDetails']);
/** The highest [n] index a parameter name may have (cart.items[999]). */
export const MAX_INDEX = 999;
/**
 * The most segments a parameter name may have: the spec's deepest has 6
 * (airline.passengers[n].legs[n].ticketNumber); deeper nesting is refused before any recursion could overflow.
 */
export const MAX_DEPTH = 12;
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
const SEGMENT = /\.([^.[\]]+)|\[([^\]]*)\]/y;
const HEAD = /^[^.[\]]+/;

type Segment = string | number;

function parseSegments(name: string): Segment[] | string {
  const head = HEAD.exec(name);
  if (!head) return 'is not a valid parameter name';
  const segments: Segment[] = [head[0]];
  SEGMENT.lastIndex = head[0].length;
  while (SEGMENT.lastIndex < name.length) {
    if (segments.length >= MAX_DEPTH) return `is nested deeper than ${MAX_DEPTH} levels`;
    const match = SEGMENT.exec(name);
    if (!match) return 'is not a valid parameter name';
    if (match[1] !== undefined) {
      segments.push(match[1]);
    } else {
      const inside = match[2] ?? '';
      const parent = segments[segments.length - 1];
      if (typeof parent === 'string' && KEYED.has(parent)) {
        if (inside === '') return 'has an empty [key]';
        segments.push(inside);
      } else if (/^\d{1,4}$/.test(inside)) {
        const index = Number(inside);
        if (index > MAX_INDEX) return `has an index above ${MAX_INDEX}`;
        segments.push(index);
      } else {
        return 'has an index that is not a number';
      }
    }
  }
  if (segments.some((s) => typeof s === 'string' && FORBIDDEN.has(s))) return 'is not a valid parameter name';
  return segments;
}

// Merchants send the same names again and again: each name is parsed once. The caches hold names
// of real length only and are cleared when full, so random or huge names cannot grow them. The
// segments are shared: never modify them.
const MAX_CACHED_NAMES = 20_000;
const MAX_CACHED_NAME_LENGTH = 128;
const segmentCache = new Map<string, readonly Segment[] | string>();

function segmentsOf(name: string): readonly Segment[] | string {
  let segments = segmentCache.get(name);
  if (segments === undefined) {
    segments = parseSegments(name);
    if (name.length <= MAX_CACHED_NAME_LENGTH) {
      if (segmentCache.size >= MAX_CACHED_NAMES) segmentCache.clear();
      segmentCache.set(name, segments);
    }
  }
  return segments;
}

/** Nest flat parameters; every name that cannot be placed is reported, none is dropped silently. */
export function nest(flat: Flat): { value: Nested; errors: ParamError[] } {
  const root: Nested = {};
  const errors: ParamError[] = [];
  for (const name of Object.keys(flat)) {
    const value = flat[name]!;
    const segments = segmentsOf(name);
    if (typeof segments === 'string') {
      errors.push({ name, value, message: `${name} ${segments}` });
      continue;
    }
    let node: Nested | NestedValue[] = root;
    let clash = false;
    for (let i = 0; i < segments.length - 1; i++) {
      const key = segments[i] as string & number;
      const nextIsIndex = typeof segments[i + 1] === 'number';
      // Own properties only: an inherited member (toString, valueOf) is not a parameter.
      let child: NestedValue | undefined = Object.hasOwn(node, key) ? (node as Record<string | number, NestedValue>)[key] : undefined;
      if (child === undefined) {
        child = nextIsIndex ? [] : {};
        (node as Record<string | number, NestedValue>)[key] = child;
      } else if (typeof child === 'string' || Array.isArray(child) !== nextIsIndex) {
        clash = true;
        break;
      }
      node = child as Nested | NestedValue[];
    }
    const last = segments[segments.length - 1] as string & number;
    if (clash || Object.hasOwn(node, last)) {
      errors.push({ name, value, message: `${name} conflicts with another parameter of the same name` });
      continue;
    }
    (node as Record<string | number, NestedValue>)[last] = value;
  }
  return { value: root, errors };
}

/** The flat name of a nested path: ['cart','items',0,'name'] → "cart.items[0].name". */
export function flatName(path: readonly PropertyKey[]): string {
  let name = '';
  for (let i = 0; i < path.length; i++) {
    const segment = path[i];
    const parent = path[i - 1];
    if (typeof segment === 'number') name += `[${segment}]`;
    else if (typeof parent === 'string' && KEYED.has(parent)) name += `[${String(segment)}]`;
    else name += (i === 0 ? '' : '.') + String(segment);
  }
  return name;
}

/** A number as JSON writes it. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * A valid JSON text with every number that is not a plain whole number of at most 15 digits
 * turned into a string of its text (1.0000000000000001 → "1.0000000000000001"); the same text
 * when it has none. Strings are skipped whole; what lies outside them and starts like a number
 * is a number token.
 */
function numbersAsWritten(text: string): string {
  const parts: string[] = [];
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      let end = text.indexOf('"', i + 1);
      // A quote after an odd number of backslashes is escaped: the string goes on.
      for (let slashes = 0; end !== -1; slashes = 0, end = text.indexOf('"', end + 1)) {
        while (text.charCodeAt(end - 1 - slashes) === 92 /* \ */) slashes++;
        if (slashes % 2 === 0) break;
      }
      if (end === -1) break;
      i = end + 1;
    } else if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      let end = i;
      let digitsOnly = true;
      for (let d = c; (d >= 48 && d <= 57) || d === 45 || d === 43 || d === 46 || d === 69 || d === 101; d = text.charCodeAt(++end)) {
        if (d < 48 || d > 57) digitsOnly = false;
      }
      const token = text.slice(i, end);
      if (!(digitsOnly && token.length <= 15) && JSON_NUMBER.test(token)) {
        parts.push(text.slice(copied, i), `"${token}"`);
        copied = end;
      }
      i = end;
    } else {
      i++;
    }
  }
  return copied === 0 ? text : parts.join('') + text.slice(copied);
}

/**
 * Read a JSON body into flat string parameters. A number is taken as written, as a form value
 * would be ({"amount":92.00} is amount "92.00"): JSON.parse alone would make a binary float of
 * it, reading 1.0000000000000001 as 1 and 0.1 as no tenth. The body is first parsed as it is, so
 * that only valid JSON is read.
 */
export function readJson(text: string, notUtf8 = false): { value: Flat; errors: ParamError[] } {
  // A byte order mark is no part of the JSON text (RFC 8259 lets a reader ignore it).
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (!text.length) return { value: {}, errors: [] };
  let json: unknown;
  try {
    json = JSON.parse(text);
    const written = numbersAsWritten(text);
    if (written !== text) json = JSON.parse(written);
  } catch {
    // The parser's own message would quote the body, card number included.
    return { value: {}, errors: [{ name: 'body', value: '', message: 'body is not valid JSON' }] };
  }
  // JSON.parse keeps the last of a key sent twice in one object: a form's second value is refused, so is this.
  const read = flattenJson(json);
  // Bytes that were no UTF-8 (`notUtf8`: the body's bytes said so) became U+FFFD when it was read.
  // A lone surrogate, which only an escape (\ud800) can write, is no character UTF-8 can carry
  // either: kept, each store would write it otherwise (PostgreSQL one U+FFFD, SQLite three), and
  // a read would not answer what was sent.
  const surrogates = ESCAPED_SURROGATE.test(text);
  if (notUtf8 || surrogates) {
    for (const [name, v] of Object.entries(read.value)) {
      const bad = (s: string) => (notUtf8 && s.includes(REPLACEMENT)) || (surrogates && LONE_SURROGATE.test(s));
      if (bad(name) || bad(v)) read.errors.push({ name, value: v, message: `${name} is not UTF-8: a JSON body is UTF-8` });
    }
  }
  const twice = keySentTwice(text);
  if (twice !== undefined) read.errors.push({ name: twice, value: read.value[twice] ?? '', message: `${twice} was sent more than once` });
  return read;
}

/** An open object or array of keySentTwice's scan. */
interface JsonFrame {
  parent: JsonFrame | undefined;
  /** Its key or index in its parent. */
  at: PropertyKey | undefined;
  /** An object's keys so far; undefined for an array. */
  keys: Set<string> | undefined;
  index: number;
  awaitingKey: boolean;
  lastKey: string;
}

/**
 * The flat name of the first key that one object of a valid JSON text has twice, or undefined.
 * Each frame links to its parent (a path is built only for the name reported), and the scan stops
 * past MAX_DEPTH, where flattenJson refuses the body anyway: deep nesting costs linear time.
 */
function keySentTwice(text: string): string | undefined {
  let top: JsonFrame | undefined;
  let depth = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > MAX_DEPTH + 1) return undefined;
      top = { parent: top, at: top ? (top.keys ? top.lastKey : top.index) : undefined, keys: c === 123 ? new Set() : undefined, index: 0, awaitingKey: c === 123, lastKey: '' };
      i++;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      top = top?.parent;
      depth--;
      i++;
    } else if (c === 44 /* , */) {
      if (top?.keys) top.awaitingKey = true;
      else if (top) top.index++;
      i++;
    } else if (c === 34 /* " */) {
      let end = i + 1;
      let escaped = false;
      for (let d = text.charCodeAt(end); d !== 34 || escaped; d = text.charCodeAt(++end)) escaped = !escaped && d === 92;
      if (top?.keys && top.awaitingKey) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (top.keys.has(key)) return flatName([...pathOf(top), key]);
        top.keys.add(key);
        top.lastKey = key;
        top.awaitingKey = false;
      }
      i = end + 1;
    } else {
      i++;
    }
  }
  return undefined;
}

function pathOf(frame: JsonFrame): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let f: JsonFrame | undefined = frame; f?.at !== undefined; f = f.parent) path.unshift(f.at);
  return path;
}

/**
 * Flatten a JSON body (flat dotted names, or nested objects) into flat string parameters. Its
 * numbers are whole numbers of at most 15 digits: readJson makes the others strings.
 */
export function flattenJson(body: unknown): { value: Flat; errors: ParamError[] } {
  const value: Flat = {};
  const errors: ParamError[] = [];
  let tooDeep = false;
  const walk = (node: unknown, path: PropertyKey[]) => {
    if (node === null || node === undefined) return;
    if (path.length > MAX_DEPTH) {
      if (!tooDeep) errors.push({ name: 'body', value: '', message: `body nests parameters deeper than ${MAX_DEPTH} levels` });
      tooDeep = true;
      return;
    }
    if (typeof node === 'string' || typeof node === 'number' || typeof node === 'boolean') {
      const name = flatName(path);
      // {"card":{"number":…}} and {"card.number":…} name the same parameter: as in a form, twice is an error.
      if (Object.hasOwn(value, name)) errors.push({ name, value: '', message: `${name} was sent more than once` });
      else setParam(value, name, String(node));
    } else if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, [...path, index]));
    } else if (typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) walk(child, [...path, key]);
    } else {
      errors.push({ name: flatName(path), value: '', message: `${flatName(path)} has an unsupported JSON type` });
    }
  };
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    errors.push({ name: 'body', value: '', message: 'the JSON body must be an object of parameters' });
  } else {
    walk(body, []);
  }
  return { value, errors };
}

/** Read a form-urlencoded body (`notUtf8`: its bytes were no valid UTF-8); a parameter sent twice is an error, not a silent overwrite. */
export function parseForm(body: string, notUtf8 = false): { value: Flat; errors: ParamError[] } {
  const value: Flat = {};
  const errors: ParamError[] = [];
  // Bytes that were no UTF-8 became U+FFFD: raw ones when the body was read (`notUtf8`: its bytes
  // said so), escaped ones when repaired. A U+FFFD sent as UTF-8 is the character itself.
  readForm(body, (name, v, brokenEscapes) => {
    if ((brokenEscapes || notUtf8) && (name.includes(REPLACEMENT) || v.includes(REPLACEMENT))) {
      errors.push({ name, value: v, message: `${name} is not UTF-8: a form's names and values are UTF-8, percent-encoded` });
    } else if (Object.hasOwn(value, name)) errors.push({ name, value: v, message: `${name} was sent more than once` });
    else setParam(value, name, v);
  });
  return { value, errors };
}

const REPLACEMENT = '\uFFFD';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F]/;

const PLUS = /\+/g;
const decodedNames = new Map<string, string>();

/** One name or value as the WHATWG urlencoded parser reads it; undefined when it needs that parser's repair (malformed escapes). */
function decodeFormPart(raw: string): string | undefined {
  const spaced = raw.indexOf('+') === -1 ? raw : raw.replace(PLUS, ' ');
  if (spaced.indexOf('%') === -1) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return undefined;
  }
}

/** The name-value pairs of a form body, exactly as URLSearchParams reads them (see readForm). */
export function formPairs(body: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  readForm(body, (name, v) => pairs.push([name, v]));
  return pairs;
}

/**
 * Each name-value pair of a form body, in order, exactly as URLSearchParams reads them. Names
 * repeat from request to request and are decoded once; a part with malformed escapes (%zz,
 * invalid UTF-8) is left to URLSearchParams, which repairs it as browsers do.
 */
function readForm(body: string, pair: (name: string, value: string, brokenEscapes: boolean) => void): void {
  const length = body.length;
  let start = body.charCodeAt(0) === 63 /* ? */ ? 1 : 0;
  while (start < length) {
    let end = body.indexOf('&', start);
    if (end === -1) end = length;
    if (end > start) {
      let eq = body.indexOf('=', start);
      if (eq === -1 || eq > end) eq = end;
      const rawName = body.slice(start, eq);
      let name = decodedNames.get(rawName);
      if (name === undefined) {
        name = decodeFormPart(rawName);
        if (name !== undefined && rawName.length <= MAX_CACHED_NAME_LENGTH * 3) {
          if (decodedNames.size >= MAX_CACHED_NAMES) decodedNames.clear();
          decodedNames.set(rawName, name);
        }
      }
      const v = eq < end ? decodeFormPart(body.slice(eq + 1, end)) : '';
      if (name === undefined || v === undefined) {
        // The leading & keeps a ? at the start of the pair a character of its name. Its escapes
        // may still spell UTF-8 (a U+FFFD escaped beside a stray %zz): only bytes that are not broke it.
        const broken = !escapesSpellUtf8(rawName) || (eq < end && !escapesSpellUtf8(body.slice(eq + 1, end)));
        for (const [n, repaired] of new URLSearchParams(`&${body.slice(start, end)}`)) pair(n, repaired, broken);
      } else {
        pair(name, v, false);
      }
    }
    start = end + 1;
  }
}

const ESCAPE = /^%[0-9A-Fa-f]{2}$/;

/** Whether the bytes a form part's valid %XX escapes and its other characters make are UTF-8 (the slow path's check only). */
function escapesSpellUtf8(raw: string): boolean {
  const bytes = raw.split(/(%[0-9A-Fa-f]{2})/).map((part) => (ESCAPE.test(part) ? Buffer.from([Number.parseInt(part.slice(1), 16)]) : Buffer.from(part)));
  return isUtf8(Buffer.concat(bytes));
}

/** value[name] = v, also for the name __proto__, which plain assignment would drop without a word. */
function setParam(params: Flat, name: string, v: string): void {
  if (name === '__proto__') Object.defineProperty(params, name, { value: v, enumerable: true, writable: true, configurable: true });
  else params[name] = v;
}
