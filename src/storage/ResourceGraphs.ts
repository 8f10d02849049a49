import type { Quad } from '@rdfjs/types';
import { DataFactory } from 'n3';
import { DC_MODIFIED, LDP_RESOURCE, RDF_TYPE, XSD_DATETIME } from './StoreVocabulary';

const { namedNode, literal, quad } = DataFactory;

export interface StoredResource {
  /** The resource's own triples (default graph). */
  data: Quad[];
  /** Its metadata triples (types, dc:modified...). */
  metadata: Quad[];
}

/** The metadata of a document written at `modified`: an ldp:Resource with its dc:modified. */
export function documentMetadata(iri: string, modified: Date | string): Quad[] {
  const date = typeof modified === 'string' ? modified : modified.toISOString();
  return [
    quad(namedNode(iri), namedNode(RDF_TYPE), namedNode(LDP_RESOURCE)),
    quad(namedNode(iri), namedNode(DC_MODIFIED), literal(date, namedNode(XSD_DATETIME))),
  ];
}

/** One resource to replace: see ResourceGraphs.write. */
export interface ResourceWrite {
  iri: string;
  /** The container it is a member of (containment added; touched when `data` is given). */
  parent: string | undefined;
  metadata: readonly Quad[];
  /** Its data triples; undefined to keep the data and replace the metadata only. */
  data?: readonly Quad[];
  /** The write makes a new member of `parent` (announced as its Create and the parent's Add, not as an Update). */
  created?: boolean;
}

export interface ContainerMember {
  iri: string;
  data: Quad[];
}

export interface ContainerPage {
  metadata: Quad[];
  members: ContainerMember[];
  /** When there are more members after this page: the cursor that reads on from its last member. */
  nextAfter?: string;
}

/**
 * What the domain asks of the store about resources: each resource a graph of data with its metadata,
 * containers listing their members. `ResourceGraphStore` is the SPARQL implementation; a store that
 * is not SPARQL over HTTP implements this (and `Collections`) and is wired in config in its place.
 * Every method is one round trip to the store, and every write is atomic.
 */
export interface ResourceGraphs {
  /** Data and metadata of a resource; undefined when it has no metadata (does not exist). */
  read: (iri: string) => Promise<StoredResource | undefined>;
  /** Several resources as read() gives each, in one round trip; one that does not exist is absent from the map. */
  readMany: (iris: readonly string[]) => Promise<Map<string, StoredResource>>;
  readMetadata: (iri: string) => Promise<Quad[]>;
  readData: (iri: string) => Promise<Quad[]>;
  /** The data of several resources, by IRI; a resource with no data is absent from the map. */
  readDataMany: (iris: readonly string[]) => Promise<Map<string, Quad[]>>;
  /** The resources of type `type` whose own subject has `predicate` `object` (e.g. the Creates of a note). */
  resourcesWith: (type: string, predicate: string, object: string) => Promise<string[]>;
  /** A resource's metadata and which of `others` exist (a write's checks: its parent, a container of the same name). */
  readMetadataAndPresence: (iri: string, others: readonly string[]) => Promise<{ metadata: Quad[]; present: Set<string> }>;
  exists: (iri: string) => Promise<boolean>;
  /** The IRIs of a container's members. */
  children: (container: string) => Promise<string[]>;
  /**
   * Every member of a container with its data; with `predicate` and `object`, only the members whose
   * own subject has them (e.g. the webhooks of one user). For small containers: not paged.
   */
  readMembers: (container: string, predicate?: string, object?: string) => Promise<ContainerMember[]>;
  /**
   * One page of a container with its members' data, the most recently added first, paged by keyset:
   * `after` is the previous page's `nextAfter`. Undefined when the container does not exist; an
   * `after` the store did not make throws InvalidCursorError. Its cost follows the page, not the container.
   */
  readContainerPage: (container: string, limit: number, after?: string) => Promise<ContainerPage | undefined>;
  /** Creates a document in a container: data, metadata, containment and the container's new modification date. */
  createInContainer: (container: string, iri: string, data: readonly Quad[], metadata: readonly Quad[],
    modified: Date) => Promise<void>;
  /** Replaces a resource's data and metadata, adding it to its parent (whose modification date moves with a document's data). */
  write: (iri: string, parent: string | undefined, metadata: readonly Quad[], data?: readonly Quad[]) => Promise<void>;
  /** Several writes, all of them or none. */
  writeMany: (writes: readonly ResourceWrite[]) => Promise<void>;
  /** Adds metadata triples (existing ones stay, a repeated one is not doubled). */
  addMetadata: (iri: string, metadata: readonly Quad[]) => Promise<void>;
  writeMetadata: (iri: string, metadata: readonly Quad[]) => Promise<void>;
  /** Removes a resource, and its containment in `parent`. */
  delete: (iri: string, parent?: string) => Promise<void>;
  /** The resource's dc:modified as stored; undefined when it has none. */
  readModified: (iri: string) => Promise<string | undefined>;
}
