import type { Readable } from 'node:stream';
import type { Quad } from '@rdfjs/types';
import arrayifyStream from 'arrayify-stream';
import type {
  DataAccessor,
  Guarded,
  IdentifierStrategy,
  RepresentationConverter,
  ResourceIdentifier,
} from '@solid/community-server';
import {
  BasicRepresentation,
  CONTENT_TYPE_TERM,
  guardedStreamFrom,
  guardStream,
  parseContentType,
  INTERNAL_QUADS,
  isContainerIdentifier,
  NotFoundHttpError,
  NotImplementedHttpError,
  RepresentationMetadata,
  UnsupportedMediaTypeHttpError,
} from '@solid/community-server';
import { DataFactory } from 'n3';
import { withCharset } from '../util/ContentTypes';
import type { ResourceGraphStore } from './ResourceGraphStore';
import type { ResourceFiles } from './ResourceFiles';
import { FEDPOD_PREFIX } from './DocumentPrefixes';
import { FILE_PREDICATES, fileDescriptionOf, fileMetadata, fileNameOf } from './ResourceFiles';
import { FEDPOD_FILE, isAuxiliary, PIM_STORAGE, RDF_TYPE } from './StoreVocabulary';

const { namedNode } = DataFactory;

/** The triples of a document: quads in a named graph are refused (415), a document is one graph. */
export function defaultGraphOnly(quads: Quad[]): Quad[] {
  if (quads.some((entry): boolean => entry.graph.termType !== 'DefaultGraph')) {
    throw new UnsupportedMediaTypeHttpError('Only triples in the default graph are supported: a document is one graph.');
  }
  return quads;
}

/**
 * CSS DataAccessor over Fedpod's SPARQL layout (see ResourceGraphStore). RDF documents are triples in
 * their graph; any other document (a non-RDF source: text, image, HTML...) is a file of ResourceFiles,
 * named in its metadata graph with its media type and size.
 *
 * Replaces CSS's SparqlDataAccessor because that one sends everything to a single endpoint URL through
 * fetch-sparql-endpoint (which posts `application/sparql-query`, hanging Virtuoso), does not skolemise
 * blank nodes (refused by Virtuoso) and cannot use separate query/update URLs or credentials.
 */
export class SparqlStoreAccessor implements DataAccessor {
  public constructor(
    private readonly store: ResourceGraphStore,
    private readonly identifierStrategy: IdentifierStrategy,
    private readonly files: ResourceFiles,
    private readonly converter: RepresentationConverter,
  ) {}

  /** RDF (as quads) and any other bytes. */
  public async canHandle(): Promise<void> {
    // Everything is stored: triples in the store, other bytes as files.
  }

  public async getData(identifier: ResourceIdentifier): Promise<Guarded<Readable>> {
    const stored = await this.store.read(identifier.path);
    const file = stored && fileNameOf(stored.metadata);
    if (file) {
      return guardStream(this.files.open(file));
    }
    return guardedStreamFrom(stored?.data ?? []);
  }

  public async getMetadata(identifier: ResourceIdentifier): Promise<RepresentationMetadata> {
    const quads = await this.store.readMetadata(identifier.path);
    if (quads.length === 0) {
      throw new NotFoundHttpError();
    }
    const file = fileNameOf(quads);
    const metadata = new RepresentationMetadata(identifier).addQuads(quads);
    // The document's own prefixes are for its Turtle (LdpReadHandler), not part of its description.
    metadata.removeAll(namedNode(FEDPOD_PREFIX));
    if (file) {
      // Its media type and size are in the metadata; where its bytes are is nobody else's business.
      metadata.removeAll(namedNode(FEDPOD_FILE));
      // A charset is kept in the stored type ("text/html; charset=utf-8"): CSS keeps parameters apart.
      const stored = metadata.contentType;
      if (stored?.includes(';')) {
        metadata.contentTypeObject = parseContentType(stored);
      }
    } else if (!isContainerIdentifier(identifier)) {
      metadata.contentType = INTERNAL_QUADS;
    }
    return metadata;
  }

  public async* getChildren(identifier: ResourceIdentifier): AsyncIterableIterator<RepresentationMetadata> {
    for (const child of await this.store.children(identifier.path)) {
      yield new RepresentationMetadata({ path: child });
    }
  }

  public async writeContainer(identifier: ResourceIdentifier, metadata: RepresentationMetadata): Promise<void> {
    await this.store.write(identifier.path, this.parentOf(identifier), this.withStorageType(identifier, metadata).quads());
  }

  /** The root container is the storage (pim:Storage), whatever writes its metadata. */
  private withStorageType(identifier: ResourceIdentifier, metadata: RepresentationMetadata): RepresentationMetadata {
    if (this.identifierStrategy.isRootContainer(identifier)) {
      metadata.add(namedNode(RDF_TYPE), namedNode(PIM_STORAGE));
    }
    return metadata;
  }

  public async writeDocument(identifier: ResourceIdentifier, data: Guarded<Readable>, metadata: RepresentationMetadata):
  Promise<void> {
    if (identifier.path.startsWith('meta:')) {
      throw new NotImplementedHttpError('Resource names may not start with meta:');
    }
    const previous = fileNameOf(await this.store.readMetadata(identifier.path));
    // RDF or a file: decided here, where the document's IRI is known (see RdfOrFileConverter).
    const stored = await this.converter.handleSafe({ identifier, representation: new BasicRepresentation(data, metadata),
      preferences: { type: { [INTERNAL_QUADS]: 1 }}});
    if (stored.metadata.contentType === INTERNAL_QUADS) {
      const quads = defaultGraphOnly(await arrayifyStream<Quad>(stored.data));
      stored.metadata.removeAll(CONTENT_TYPE_TERM);
      await this.store.write(identifier.path, this.parentOf(identifier), stored.metadata.quads(), quads);
    } else {
      await this.writeFile(identifier, stored.data, stored.metadata);
    }
    if (previous) {
      // Only now that the new version is described: a crash before leaves the old one whole.
      await this.files.remove(previous);
    }
  }

  /** A non-RDF document: its bytes to a new file (on disk before it is named), then its metadata. */
  private async writeFile(identifier: ResourceIdentifier, data: Guarded<Readable>, metadata: RepresentationMetadata):
  Promise<void> {
    const contentType = withCharset(metadata.contentType ?? 'application/octet-stream', metadata.contentTypeObject?.parameters.charset);
    for (const predicate of FILE_PREDICATES) {
      metadata.removeAll(namedNode(predicate));
    }
    await this.files.saveDescribed(data, async(saved): Promise<void> => {
      metadata.addQuads(fileMetadata(identifier.path, saved, contentType));
      await this.store.write(identifier.path, this.parentOf(identifier), metadata.quads(), []);
    });
  }

  /**
   * A new description of a resource (a PATCH or PUT of its `.meta`). What describes a file's bytes
   * (where they are, their size and media type) is the server's: kept as stored, whatever the new
   * description says, or the resource would lose its bytes.
   */
  public async writeMetadata(identifier: ResourceIdentifier, metadata: RepresentationMetadata): Promise<void> {
    const file = fileDescriptionOf(await this.store.readMetadata(identifier.path));
    if (file.length > 0) {
      for (const predicate of FILE_PREDICATES) {
        metadata.removeAll(namedNode(predicate));
      }
      metadata.addQuads(file);
    }
    await this.store.writeMetadata(identifier.path, this.withStorageType(identifier, metadata).quads());
  }

  public async deleteResource(identifier: ResourceIdentifier): Promise<void> {
    const file = fileNameOf(await this.store.readMetadata(identifier.path));
    await this.store.delete(identifier.path, this.parentOf(identifier));
    if (file) {
      await this.files.remove(file);
    }
  }

  /** The container a resource is a member of; none for the root, ACLs and descriptions (as CSS lists). */
  private parentOf(identifier: ResourceIdentifier): string | undefined {
    if (this.identifierStrategy.isRootContainer(identifier) || isAuxiliary(identifier.path)) {
      return undefined;
    }
    return this.identifierStrategy.getParentContainer(identifier).path;
  }
}
