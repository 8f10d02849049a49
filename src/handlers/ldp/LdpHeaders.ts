import type { ServerResponse } from 'node:http';
import type { Quad } from '@rdfjs/types';
import { DC_MODIFIED, LDP_BASIC_CONTAINER, LDP_CONTAINER, LDP_NON_RDF_SOURCE, LDP_RESOURCE } from '../../storage/StoreVocabulary';

// Here too for the LDP handlers, which import all their headers from this file.
export { eTagFor, isNotModified } from '../http/ConditionalGet';

/** The response headers Solid clients read on LDP resources, in one place for the fast handlers. */
export function modifiedOf(metadata: readonly Quad[], iri: string): Date | undefined {
  const modified = metadata.find((entry): boolean => entry.subject.value === iri && entry.predicate.value === DC_MODIFIED);
  return modified ? new Date(modified.object.value) : undefined;
}

/** What an LDP resource is: a container, an RDF document, or a non-RDF source (a file). */
export type LdpKind = 'container' | 'rdf' | 'file';

/** The types of a container, in the order CSS lists them. */
export const CONTAINER_TYPES = [ LDP_CONTAINER, LDP_BASIC_CONTAINER, LDP_RESOURCE ];

const TYPES: Record<LdpKind, string[]> = {
  container: CONTAINER_TYPES,
  rdf: [ LDP_RESOURCE ],
  file: [ LDP_NON_RDF_SOURCE, LDP_RESOURCE ],
};

/**
 * The headers CSS gives an LDP resource, so that a client sees the same whichever handler answered:
 * its types, its description (`.meta`) and ACL (`.acl`) documents, the storage description.
 *
 * @param storage - The root of the storage the resource is in (its description is named).
 * @param iri - The resource.
 * @param access - The headers of the request's access decision (Operation.access): `WAC-Allow`, and
 *   under WebACL the `Link rel="acl"` of the ACL that governs it.
 */
export function ldpHeaders(storage: string, iri: string, kind: LdpKind, access: Record<string, string> = {}):
Record<string, string | string[]> {
  const isContainer = kind === 'container';
  return {
    link: [
      ...TYPES[kind].map((type): string => `<${type}>; rel="type"`),
      `<${iri}.meta>; rel="describedby"`,
      access.link ?? `<${iri}.acl>; rel="acl"`,
      `<${storage}.well-known/solid>; rel="http://www.w3.org/ns/solid/terms#storageDescription"`,
    ],
    allow: isContainer ? 'OPTIONS, HEAD, GET, PATCH, PUT, POST, DELETE' : 'OPTIONS, HEAD, GET, PATCH, PUT, DELETE',
    'accept-patch': 'text/n3, application/sparql-update',
    'accept-put': '*/*',
    ...isContainer ? { 'accept-post': 'application/ld+json, application/json, text/turtle, application/n-triples' } : {},
    'ms-author-via': 'SPARQL',
    ...access['wac-allow'] ? { 'wac-allow': access['wac-allow'] } : {},
  };
}

/**
 * 304 Not Modified with the ETag. Without the X-Request-Id the pipeline set (the log line keeps it):
 * RFC 9110 (15.4.5) lets a 304 carry what a cache updates with, so a client can compare its headers
 * with the 200's, as CSS's conditional-request tests do, and find them the same.
 */
export function notModified(response: ServerResponse, eTag: string): void {
  response.removeHeader('x-request-id');
  response.writeHead(304, { etag: eTag });
  response.end();
}
