// A Vite plugin for the widget build: the static parts of Lit's html`` and css`` templates lose
// their source indentation (line breaks and the spaces around them), and css`` its comments. Only whitespace that holds a
// line break is touched, so text and attribute spacing written on one line stays as it is.
import type { Plugin } from 'vite';

/** The template literal starting at `start` (just after the backtick): its static chunks' ranges and its end. */
function scanTemplate(code: string, start: number): { chunks: [number, number][]; end: number } {
  const chunks: [number, number][] = [];
  let chunkStart = start;
  let i = start;
  while (i < code.length) {
    const c = code[i];
    if (c === '\\') {
      i += 2;
    } else if (c === '`') {
      chunks.push([chunkStart, i]);
      return { chunks, end: i + 1 };
    } else if (c === '$' && code[i + 1] === '{') {
      chunks.push([chunkStart, i]);
      i = skipExpression(code, i + 2);
      chunkStart = i;
    } else {
      i++;
    }
  }
  throw new Error('unterminated template literal');
}

/** Index after the `}` closing an expression that starts at `i`, stepping over nested strings and templates. */
function skipExpression(code: string, i: number): number {
  let depth = 1;
  while (i < code.length) {
    const c = code[i]!;
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
    else if (c === '`') {
      i = scanTemplate(code, i + 1).end;
      continue;
    } else if (c === '"' || c === "'") {
      i++;
      while (i < code.length && code[i] !== c) i += code[i] === '\\' ? 2 : 1;
    }
    i++;
  }
  throw new Error('unterminated template expression');
}

const minifyHtml = (text: string): string => text.replace(/>\s*\n\s*</g, '><').replace(/\s*\n\s*/g, ' ');
// CSS comments go too: they say why a rule is there to the source's reader, not to the shopper's browser.
const minifyCss = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s*\n\s*/g, ' ').replace(/\s*([{};,])\s*/g, '$1').replace(/:\s+/g, ':');

export function minifyTemplates(): Plugin {
  return {
    name: 'pw-minify-templates',
    apply: 'build',
    transform(code, id) {
      if (!/\/src\/widget\/.*\.ts$/.test(id) || !/\b(html|css)`/.test(code)) return null;
      // Every template, nested ones too (they sit inside an outer template's expressions, so
      // their static chunks never overlap the outer ones).
      const ranges: [number, number, (text: string) => string][] = [];
      const tag = /\b(html|css)`/g;
      for (let match = tag.exec(code); match; match = tag.exec(code)) {
        const minify = match[1] === 'css' ? minifyCss : minifyHtml;
        for (const [from, to] of scanTemplate(code, match.index + match[0].length).chunks) ranges.push([from, to, minify]);
      }
      ranges.sort((a, b) => a[0] - b[0]);
      let out = '';
      let last = 0;
      for (const [from, to, minify] of ranges) {
        out += code.slice(last, from) + minify(code.slice(from, to));
        last = to;
      }
      return { code: out + code.slice(last), map: null };
    },
  };
}
