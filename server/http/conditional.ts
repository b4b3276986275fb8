// Conditional GETs of the gateway's static answers (widget files, frame script, OpenAPI document).

/**
 * Whether If-None-Match names the answer's ETag: weak comparison (RFC 9110 §13.1.2), since a
 * proxy that compresses marks the tags it passes on as weak (W/"…"), and `*` names any.
 */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  return ifNoneMatch.split(',').some((tag) => {
    const sent = tag.trim();
    return sent === '*' || (sent.startsWith('W/') ? sent.slice(2) : sent) === opaque;
  });
}
