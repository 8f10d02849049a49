// The validators of a GET (ETag, Last-Modified) and the check of a conditional GET against them: for
// any handler that serves stored resources (the LDP fast paths, media).

/** Same ETag shape as CSS's BasicETagHandler, so conditional requests work across both paths. */
export function eTagFor(modified: Date | undefined, contentType: string): string | undefined {
  return modified ? `"${modified.getTime()}-${contentType}"` : undefined;
}

/** Whether a GET's If-None-Match (else its If-Modified-Since) says the client holds this version. */
export function isNotModified(ifNoneMatch: string | undefined, ifModifiedSince: string | undefined, eTag: string, modified: Date):
boolean {
  if (ifNoneMatch) {
    return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag): boolean => tag.trim().replace(/^W\//u, '') === eTag);
  }
  if (ifModifiedSince) {
    const since = Date.parse(ifModifiedSince);
    return Number.isFinite(since) && Math.floor(modified.getTime() / 1000) <= Math.floor(since / 1000);
  }
  return false;
}
