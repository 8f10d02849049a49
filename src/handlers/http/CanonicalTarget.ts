import { normalizeUriPathSlashes, toCanonicalUriPath } from '@solid/community-server';

/** A path of characters that encodeURIComponent leaves alone and that have no special meaning in a path. */
const PLAIN_PATH = /^[A-Za-z0-9\-._~/]*$/u;
const DOT_SEGMENT = /(?:^|\/)\.{1,2}(?:\/|$)/u;

/**
 * The canonical form of a request target (origin-form: path and query), as CSS's OriginalUrlExtractor
 * makes it: each path segment decoded and re-encoded, repeated slashes merged, a fragment dropped.
 * Undefined for a target that is not a path, cannot be decoded, or has `.`/`..` segments.
 * Two spellings of one resource (`/objects/abc`, `/%6fbjects/%61bc`) have one canonical form, so
 * that routing, authorization and every handler name the same resource.
 */
export function canonicalTarget(raw: string): { pathname: string; search: string } | undefined {
  const target = raw.split('#')[0];
  if (!target.startsWith('/')) {
    return undefined;
  }
  const queryAt = target.indexOf('?');
  const rawPath = queryAt < 0 ? target : target.slice(0, queryAt);
  let pathname: string;
  let search: string;
  if (PLAIN_PATH.test(rawPath) && !rawPath.includes('//')) {
    // Already canonical: re-encoding each segment would give it back unchanged.
    pathname = rawPath;
    search = queryAt < 0 ? '' : target.slice(queryAt);
  } else {
    let canonical: string;
    try {
      canonical = toCanonicalUriPath(target);
    } catch {
      return undefined;
    }
    const parts = /^([^?]*)(.*)$/u.exec(canonical)!;
    pathname = normalizeUriPathSlashes(parts[1]);
    search = parts[2];
  }
  return DOT_SEGMENT.test(pathname) ? undefined : { pathname, search };
}
