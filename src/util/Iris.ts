/** Characters RFC 3987 forbids anywhere in an IRI (controls, space, and `<>"{}|\^` and backtick). */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const FORBIDDEN_CHAR = /[\u0000-\u0020<>"{}|\\^`]/u;
/** The same set, for replacing. */
const FORBIDDEN = new RegExp(FORBIDDEN_CHAR.source, 'gu');

/** Where the first character RFC 3987 forbids anywhere in an IRI is, or -1. */
export function forbiddenCharIndex(iri: string): number {
  return iri.search(FORBIDDEN_CHAR);
}

/** An absolute IRI's start: a scheme (ASCII letters only, unlike `/[a-z]/iu`, which also takes `ſ` and `K`). */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/u;

/** Whether the IRI starts with a scheme: an ASCII letter, then letters, digits, `+`, `-` or `.`, then `:`. */
export function hasScheme(iri: string): boolean {
  return SCHEME.test(iri);
}

/** Whether the IRI has at most one `#` (a fragment cannot hold another). */
export function hasOneFragmentAtMost(iri: string): boolean {
  const hash = iri.indexOf('#');
  return hash < 0 || !iri.includes('#', hash + 1);
}

/**
 * An IRI made valid the way a browser would send it: the characters RFC 3987 forbids, and every `#`
 * after the first (a fragment cannot hold one; the WordPress ActivityPub plugin sends ids such as
 * `…/post/#activity#activity`), are percent-encoded. A valid IRI comes back unchanged. Used on
 * documents from other servers only, whose ids are theirs to mint but must still be stored.
 */
export function repairIri(iri: string): string {
  if (forbiddenCharIndex(iri) < 0 && hasOneFragmentAtMost(iri)) {
    return iri;
  }
  const hash = iri.indexOf('#');
  const repaired = hash < 0 ? iri : `${iri.slice(0, hash + 1)}${iri.slice(hash + 1).replaceAll('#', '%23')}`;
  return repaired.replace(FORBIDDEN, (char): string => encodeURIComponent(char));
}

/** Whether two IRIs are on the same origin (scheme, host and port); false when either is not a URL. */
export function sameOrigin(first: string, second: string): boolean {
  try {
    return new URL(first).origin === new URL(second).origin;
  } catch {
    return false;
  }
}
