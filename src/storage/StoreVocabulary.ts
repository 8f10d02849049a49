/** Fedpod's own vocabulary (a URN: stable, and claims no domain). */
export const FEDPOD_NS = 'urn:fedpod:ns:';

/** IRIs the storage layer writes itself (containment and CSS-compatible metadata). */
export const LDP_NS = 'http://www.w3.org/ns/ldp#';
export const LDP_CONTAINS = `${LDP_NS}contains`;
export const LDP_RESOURCE = `${LDP_NS}Resource`;
export const LDP_CONTAINER = `${LDP_NS}Container`;
export const LDP_BASIC_CONTAINER = `${LDP_NS}BasicContainer`;
export const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
export const DC_MODIFIED = 'http://purl.org/dc/terms/modified';
export const XSD_DATETIME = 'http://www.w3.org/2001/XMLSchema#dateTime';
/** CSS keeps response-only metadata in this graph; it is never stored. */
export const RESPONSE_METADATA_GRAPH = 'urn:npm:solid:community-server:meta:ResponseMetadata';

/** ACL and description documents: always RDF, never members of a container. */
export const AUXILIARY_SUFFIX = /\.(?:acl|meta)$/u;

/** Whether a resource is an ACL or a description document (`.acl`, `.meta`). */
export function isAuxiliary(iri: string): boolean {
  return AUXILIARY_SUFFIX.test(iri);
}

/** Metadata of a resource lives in its own graph, named as CSS's SPARQL accessor names it. */
export function metadataGraphOf(iri: string): string {
  return `meta:${iri}`;
}

export const MA_FORMAT = 'http://www.w3.org/ns/ma-ont#format';
export const POSIX_SIZE = 'http://www.w3.org/ns/posix/stat#size';
export const LDP_NON_RDF_SOURCE = `${LDP_NS}NonRDFSource`;
/** Metadata of a non-RDF resource: the name of the file that holds its bytes (never served). */
export const FEDPOD_FILE = 'urn:fedpod:ns:file';
export const PIM_STORAGE = 'http://www.w3.org/ns/pim/space#Storage';
