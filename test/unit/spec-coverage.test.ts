// docs/spec-coverage.md names, for every row of the spec's tables, the test that pins it. These
// tests keep those names honest: no row is left pending or none, every test file a row names
// exists, and the last title a reference names is a test or describe title of that file (read
// off its source: a title written out, or a title template of the file that yields it).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const ROOT = new URL('../../', import.meta.url);
const DOC = 'docs/spec-coverage.md';

interface Row {
  line: number;
  spec: string;
  pinned: string;
}

/** The rows of every table with a "Pinned by" column. */
function rowsOf(markdown: string): Row[] {
  const rows: Row[] = [];
  let column = -1;
  markdown.split('\n').forEach((text, i) => {
    if (!text.startsWith('|')) {
      column = -1;
      return;
    }
    if (/^\|[-|: ]+\|$/.test(text)) return;
    const cells = text.replace(/^\|\s?/, '').replace(/\s?\|$/, '').split(' | ').map((cell) => cell.trim());
    if (cells.includes('Pinned by')) column = cells.indexOf('Pinned by');
    else if (column >= 0) rows.push({ line: i + 1, spec: cells[0]!, pinned: cells[column] ?? '' });
  });
  return rows;
}

/** A reference to a test: the file it is in, the titles from describe to test, and the prose after it. */
interface Reference {
  file: string;
  titles: string[];
  /** Parts after it that name no test: a title may hold "; " itself. */
  after: string[];
}

const TEST_FILE = /(?:^|\s)((?:[\w-]+\/)*[\w.-]+\.test\.ts)\b/;

/**
 * The test references of a cell, separated by "; ": "file › describe › test", and "› test" for
 * another test of the file named before it. Prose between them (decisions.md, "the rows above")
 * names no test.
 */
function referencesOf(cell: string): Reference[] {
  const references: Reference[] = [];
  let file: string | undefined;
  for (const part of cell.split(/;\s+/)) {
    const named = TEST_FILE.exec(part);
    const titles = (text: string) => text.split(' › ').map((t) => t.trim()).filter(Boolean);
    if (named) {
      file = named[1]!;
      references.push({ file, titles: titles(part.slice(named.index + named[0].length)), after: [] });
    } else if (part.startsWith('› ') && file) {
      references.push({ file, titles: titles(part.slice(2)), after: [] });
    } else references.at(-1)?.after.push(part);
  }
  return references;
}

/** test/unit/ for a bare file name (the doc's convention), else under test/. */
function pathOf(file: string): string {
  return file.includes('/') ? `test/${file}` : `test/unit/${file}`;
}

interface Template {
  /** The text between the template's ${…} holes. */
  pieces: string[];
}

const sources = new Map<string, { text: string; literals: string[]; templates: Template[] }>();

/** The titles a test file's source writes out, and its title templates as patterns. */
function sourceOf(path: string) {
  let source = sources.get(path);
  if (!source) {
    const raw = readFileSync(new URL(path, ROOT), 'utf8');
    const text = normalize(raw);
    const literals: string[] = [];
    const templates: Template[] = [];
    for (const [, quote, body] of raw.matchAll(/(?:describe|it|test)\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g)) {
      const title = normalize(unescape(body!));
      if (quote === '`' && title.includes('${')) {
        templates.push({ pieces: title.split(/\$\{[^}]*\}/) });
      } else literals.push(title);
    }
    source = { text, literals, templates };
    sources.set(path, source);
  }
  return source;
}

const normalize = (text: string) => text.replace(/\\u2019/g, '’').replace(/’/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
const unescape = (text: string) => text.replace(/\\(['"`\\])/g, '$1');

/**
 * A title of the file: written out; or, ending in "…", the beginning of one; or the text a title
 * template yields, each value put into it found in the file (a case table's name, a group's key).
 */
function isTitleOf(path: string, title: string): boolean {
  const { text, literals, templates } = sourceOf(path);
  const wanted = normalize(title);
  if (wanted.endsWith('…')) {
    const start = wanted.slice(0, -1).trim();
    return literals.some((t) => t.startsWith(start)) || templates.some((template) => startsLike(template, start, text));
  }
  return literals.includes(wanted) || templates.some(({ pieces }) => yields(new RegExp(`^${pieces.map(escape).join('(.+?)')}$`), wanted, text));
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The template yields `title`, and every value it puts in is a string of the file: it begins or
 * ends a quoted literal there (a case table's name, a group's key), not merely a word of its text.
 */
function yields(pattern: RegExp, title: string, text: string): boolean {
  const match = pattern.exec(title);
  return match !== null && match.slice(1).every((value) => ['\'', '"', '`'].some((quote) => text.includes(quote + value) || text.includes(value + quote)));
}

/** Some title of the template begins with `start`: its pieces up to one, and the beginning of that one. */
function startsLike({ pieces }: Template, start: string, text: string): boolean {
  return pieces.some((piece, k) => {
    const before = pieces.slice(0, k).map(escape);
    return Array.from({ length: piece.length + 1 }, (_, n) => piece.slice(0, n)).some((beginning) => {
      if (k > 0 && beginning === '' && new RegExp(`^${before.join('(.+?)')}(.+)$`).test(start)) return true;
      return yields(new RegExp(`^${[...before, escape(beginning)].join('(.+?)')}$`), start, text);
    });
  });
}

/** The last title of a reference (with the parts after it, should it hold "; "), or each of several it lists with " / ". */
function unresolved(reference: Reference): string | undefined {
  const path = pathOf(reference.file);
  if (!existsSync(new URL(path, ROOT))) return `${reference.file}: no such test file (${path})`;
  const last = reference.titles.at(-1);
  if (last === undefined) return undefined;
  const candidates = [last, ...reference.after.map((_, i) => [last, ...reference.after.slice(0, i + 1)].join('; '))];
  if (candidates.some((title) => isTitleOf(path, title) || title.split(' / ').every((one) => isTitleOf(path, one)))) return undefined;
  return `${reference.file}: no test or describe titled "${last}"`;
}

const rows = rowsOf(readFileSync(new URL(DOC, ROOT), 'utf8'));

describe('docs/spec-coverage.md: every row names the tests that pin it', () => {
  it('reads the rows of the tables (there are hundreds)', () => {
    assert.ok(rows.length > 500, `only ${rows.length} rows read: has the table format changed?`);
  });

  it('leaves no "Pinned by" empty, pending or none', () => {
    const gaps = rows.filter(({ pinned }) => pinned === '' || pinned.split(/;\s+/).some((part) => /^(\*\*)?(pending|none)\b/i.test(part.trim())));
    assert.deepEqual(gaps.map(({ line, spec, pinned }) => `${DOC}:${line} ${spec}: ${pinned}`), []);
  });

  it('names test files that exist, and titles their source holds', () => {
    const problems = rows.flatMap(({ line, spec, pinned }) => referencesOf(pinned).flatMap((reference) => {
      const problem = unresolved(reference);
      return problem ? [`${DOC}:${line} ${spec}: ${problem}`] : [];
    }));
    assert.deepEqual(problems, []);
  });
});

describe('reading a "Pinned by" cell', () => {
  it('takes "file › describe › test", "› test" of the same file, and leaves prose out', () => {
    assert.deepEqual(referencesOf('schema.test.ts › card group: expiry; › refuses a past expiry; decisions.md; api/groups.test.ts'), [
      { file: 'schema.test.ts', titles: ['card group: expiry'], after: [] },
      { file: 'schema.test.ts', titles: ['refuses a past expiry'], after: ['decisions.md'] },
      { file: 'api/groups.test.ts', titles: [], after: [] },
    ]);
  });

  it('finds a title written out, by its beginning before "…", or from a template; not a title the file lacks', () => {
    const path = 'test/unit/spec-coverage.test.ts';
    assert.ok(isTitleOf(path, 'reads the rows of the tables (there are hundreds)'));
    assert.ok(isTitleOf(path, 'leaves no "Pinned by" empty …'));
    assert.ok(!isTitleOf(path, 'reads the rows of the tables'));
    assert.ok(!isTitleOf(path, 'pins a row nobody wrote'));
    // A template's value must be a string of the file, not any word of it: groups.test.ts has
    // `${group}.*` titles, and "describe" is no group of them.
    assert.ok(isTitleOf('test/api/groups.test.ts', 'customer.*'));
    assert.ok(!isTitleOf('test/api/groups.test.ts', 'describe.*'));
    assert.equal(unresolved({ file: 'unit/no-such.test.ts', titles: [], after: [] }), 'unit/no-such.test.ts: no such test file (test/unit/no-such.test.ts)');
  });
});
