// Headers a proxy and the gateway could read apart: a body coding the gateway does not decode, a
// charset other than UTF-8, and a header that names one thing sent twice (Node keeps the first, a
// proxy may keep the last). Each is refused, naming the header, rather than guessed at.
import type { IncomingMessage } from 'node:http';
import type { ParamError } from './params.ts';

/** Headers that carry one value: lower case, and as the error names them. */
const SINGLE: ReadonlyMap<string, string> = new Map(
  ['Authorization', 'Content-Type', 'Content-Length', 'Content-Encoding', 'Transfer-Encoding', 'Host', 'Idempotency-Key'].map((name) => [name.toLowerCase(), name]),
);
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/** What is wrong with a request's headers, or undefined. */
export function headerProblem(request: IncomingMessage): ParamError | undefined {
  const raw = request.rawHeaders;
  let seen: Set<string> | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    // Only names starting a, c, h, i or t can be one of them: the others are not lowercased (every request runs this).
    const first = raw[i]!.charCodeAt(0) | 32;
    if (first !== 97 && first !== 99 && first !== 104 && first !== 105 && first !== 116) continue;
    const name = SINGLE.get(raw[i]!.toLowerCase());
    if (name === undefined) continue;
    seen ??= new Set();
    if (seen.has(name)) return { name, value: '', message: `${name} was sent more than once` };
    seen.add(name);
  }
  const coding = request.headers['content-encoding'];
  if (coding !== undefined && coding.trim().toLowerCase() !== 'identity') {
    return { name: 'Content-Encoding', value: coding.slice(0, 64), message: 'Content-Encoding must be identity (or absent): request bodies are read as sent, not decompressed' };
  }
  const transfer = request.headers['transfer-encoding'];
  if (transfer !== undefined && transfer.trim().toLowerCase() !== 'chunked') {
    return { name: 'Transfer-Encoding', value: transfer.slice(0, 64), message: 'Transfer-Encoding must be chunked (or absent)' };
  }
  const charset = CHARSET.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    return { name: 'Content-Type', value: request.headers['content-type']!.slice(0, 128), message: 'Content-Type charset must be utf-8: bodies are read as UTF-8' };
  }
  return undefined;
}
