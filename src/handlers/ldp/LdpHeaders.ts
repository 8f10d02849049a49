import type { Quad } from '@rdfjs/types';
import { DC_MODIFIED, LDP_BASIC_CONTAINER, LDP_CONTAINER, LDP_RESOURCE } from '../../storage/Vocabulary';

/** The response headers Solid clients read on LDP resources, in one place for the fast handlers. */
export function modifiedOf(metadata: readonly Quad[], iri: string): Date | undefined {
  const modified = metadata.find((entry): boolean => entry.subject.value === iri && entry.predicate.value === DC_MODIFIED);
  return modified ? new Date(modified.object.value) : undefined;
}

/** Same ETag shape as CSS's BasicETagHandler, so conditional requests work across both paths. */
export function eTagFor(modified: Date | undefined, contentType: string): string | undefined {
  return modified ? `"${modified.getTime()}-${contentType}"` : undefined;
}

/**
 * @param access - The headers of the request's access decision (AccessHeaders): `WAC-Allow`, and
 *   under WebACL the `Link rel="acl"`.
 */
export function ldpHeaders(baseUrl: string, isContainer: boolean, access: Record<string, string> = {}): Record<string, string | string[]> {
  const types = isContainer ? [ LDP_CONTAINER, LDP_BASIC_CONTAINER, LDP_RESOURCE ] : [ LDP_RESOURCE ];
  return {
    link: [
      ...types.map((type): string => `<${type}>; rel="type"`),
      `<${baseUrl}.well-known/solid>; rel="http://www.w3.org/ns/solid/terms#storageDescription"`,
      ...access.link ? [ access.link ] : [],
    ],
    allow: isContainer ? 'OPTIONS, HEAD, GET, PATCH, PUT, POST, DELETE' : 'OPTIONS, HEAD, GET, PATCH, PUT, DELETE',
    'accept-patch': 'text/n3, application/sparql-update',
    'accept-put': '*/*',
    ...isContainer ? { 'accept-post': 'application/ld+json, application/json, text/turtle, application/n-triples' } : {},
    'ms-author-via': 'SPARQL',
    ...access['wac-allow'] ? { 'wac-allow': access['wac-allow'] } : {},
  };
}
