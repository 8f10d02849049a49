import type { Readable } from 'node:stream';
import type { Quad } from '@rdfjs/types';
import arrayifyStream from 'arrayify-stream';
import type {
  DataAccessor,
  Guarded,
  IdentifierStrategy,
  Representation,
  ResourceIdentifier,
} from '@solid/community-server';
import {
  CONTENT_TYPE_TERM,
  guardedStreamFrom,
  INTERNAL_QUADS,
  isContainerIdentifier,
  NotFoundHttpError,
  NotImplementedHttpError,
  RepresentationMetadata,
  UnsupportedMediaTypeHttpError,
} from '@solid/community-server';
import type { ResourceGraphStore } from './ResourceGraphStore';

/**
 * CSS DataAccessor over Fedpod's SPARQL layout (see ResourceGraphStore).
 *
 * Replaces CSS's SparqlDataAccessor because that one sends everything to a single endpoint URL through
 * fetch-sparql-endpoint (which posts `application/sparql-query`, hanging Virtuoso), does not skolemise
 * blank nodes (refused by Virtuoso) and cannot use separate query/update URLs or credentials.
 */
export class SparqlStoreAccessor implements DataAccessor {
  public constructor(
    private readonly store: ResourceGraphStore,
    private readonly identifierStrategy: IdentifierStrategy,
  ) {}

  public async canHandle(representation: Representation): Promise<void> {
    if (representation.binary || representation.metadata.contentType !== INTERNAL_QUADS) {
      throw new UnsupportedMediaTypeHttpError('This server stores RDF only: send JSON-LD, Turtle or N-Triples.');
    }
  }

  public async getData(identifier: ResourceIdentifier): Promise<Guarded<Readable>> {
    return guardedStreamFrom(await this.store.readData(identifier.path));
  }

  public async getMetadata(identifier: ResourceIdentifier): Promise<RepresentationMetadata> {
    const quads = await this.store.readMetadata(identifier.path);
    if (quads.length === 0) {
      throw new NotFoundHttpError();
    }
    const metadata = new RepresentationMetadata(identifier).addQuads(quads);
    if (!isContainerIdentifier(identifier)) {
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
    await this.store.write(identifier.path, this.parentOf(identifier), metadata.quads());
  }

  public async writeDocument(identifier: ResourceIdentifier, data: Guarded<Readable>, metadata: RepresentationMetadata):
  Promise<void> {
    if (identifier.path.startsWith('meta:')) {
      throw new NotImplementedHttpError('Resource names may not start with meta:');
    }
    const quads = await arrayifyStream<Quad>(data);
    if (quads.some((entry): boolean => entry.graph.termType !== 'DefaultGraph')) {
      throw new NotImplementedHttpError('Only triples in the default graph are supported.');
    }
    metadata.removeAll(CONTENT_TYPE_TERM);
    await this.store.write(identifier.path, this.parentOf(identifier), metadata.quads(), quads);
  }

  public async writeMetadata(identifier: ResourceIdentifier, metadata: RepresentationMetadata): Promise<void> {
    await this.store.writeMetadata(identifier.path, metadata.quads());
  }

  public async deleteResource(identifier: ResourceIdentifier): Promise<void> {
    await this.store.delete(identifier.path, this.parentOf(identifier));
  }

  private parentOf(identifier: ResourceIdentifier): string | undefined {
    if (this.identifierStrategy.isRootContainer(identifier)) {
      return undefined;
    }
    return this.identifierStrategy.getParentContainer(identifier).path;
  }
}
