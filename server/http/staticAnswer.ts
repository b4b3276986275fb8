// Static answers (widget files, the frame and 3-D Secure scripts, locale texts, the OpenAPI
// document): their ETag and conditional GET, and their bytes compressed for browsers that take it.
// A built file's compressed copies are made by the build (scripts/build-manifest.ts: brotli at its
// best, which takes a tenth of a second for the widget); other answers are gzipped once, on first ask.
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

export type Coding = 'br' | 'gzip';

export interface StaticContent {
  bytes: Buffer;
  /** A strong ETag ("…") of the bytes; a compressed copy's is the same with +br or +gzip inside the quotes. */
  etag: string;
  /** The same bytes compressed, as the build made them or as first asked. */
  coded?: Partial<Record<Coding, Buffer>>;
}

/** Below this size compression saves less than it costs. */
const MIN_COMPRESSED = 1024;

/**
 * Whether If-None-Match names the content's ETag: weak comparison (RFC 9110 §13.1.2), since a
 * proxy that compresses marks the tags it passes on as weak (W/"…"); `*` names any; a compressed
 * copy's tag names the same bytes.
 */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = bare(etag);
  return ifNoneMatch.split(',').some((tag) => {
    const sent = tag.trim();
    return sent === '*' || bare(sent) === opaque;
  });
}

const bare = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag).replace(/\+(?:br|gzip)"$/, '"');

/** The coding the client takes best of those we have: br, then gzip (q=0 refuses one). */
export function codingFor(acceptEncoding: string | undefined, content: StaticContent): Coding | undefined {
  if (!acceptEncoding || content.bytes.length < MIN_COMPRESSED) return undefined;
  const taken = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    const q = params.find((param) => param.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) taken.add(name);
  }
  if (taken.has('br') && content.coded?.br) return 'br';
  if (taken.has('gzip') || taken.has('x-gzip')) {
    content.coded ??= {};
    content.coded.gzip ??= gzipSync(content.bytes, { level: 9 });
    return 'gzip';
  }
  return undefined;
}

/** The content with its headers (and `headers`), 304 when the client holds it. */
export function sendStatic(request: FastifyRequest, reply: FastifyReply, content: StaticContent, headers: Record<string, string>) {
  const coding = codingFor(request.headers['accept-encoding'], content);
  reply.headers({
    ...headers,
    etag: coding ? `${content.etag.slice(0, -1)}+${coding}"` : content.etag,
    ...(content.bytes.length >= MIN_COMPRESSED ? { vary: 'Accept-Encoding' } : {}),
  });
  // A 304 has no body to code: a cache that took its headers onto the copy it holds must not relabel it.
  if (notModified(request.headers['if-none-match'], content.etag)) return reply.code(304).send();
  if (coding) reply.header('content-encoding', coding);
  return reply.code(200).send(coding ? content.coded![coding] : content.bytes);
}

/** A built file's compressed copy, when it holds exactly `bytes` (a stale copy is not served). */
export function verifiedCopy(coding: Coding, copy: Buffer, bytes: Buffer): Buffer | undefined {
  try {
    return (coding === 'br' ? brotliDecompressSync(copy) : gunzipSync(copy)).equals(bytes) ? copy : undefined;
  } catch {
    return undefined;
  }
}
