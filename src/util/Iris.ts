/** Characters RFC 3987 forbids anywhere in an IRI (controls, space, and `<>"{}|\^` and backtick). */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const FORBIDDEN = /[\u0000-\u0020<>"{}|\\^`]/gu;

/**
 * An IRI made valid the way a browser would send it: the characters RFC 3987 forbids, and every `#`
 * after the first (a fragment cannot hold one; the WordPress ActivityPub plugin sends ids such as
 * `…/post/#activity#activity`), are percent-encoded. A valid IRI comes back unchanged. Used on
 * documents from other servers only, whose ids are theirs to mint but must still be stored.
 */
export function repairIri(iri: string): string {
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
