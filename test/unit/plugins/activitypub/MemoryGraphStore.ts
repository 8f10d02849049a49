import type { Quad } from '@rdfjs/types';
import type { ResourceGraphStore } from '../../../../src/storage/ResourceGraphStore';
import type { StoredResource } from '../../../../src/storage/ResourceGraphs';
import { RDF_TYPE } from '../../../../src/storage/StoreVocabulary';

/**
 * Resources in a Map, each its data quads and metadata: a stand-in for the SPARQL-backed
 * ResourceGraphStore with the reads and writes the ActivityPub plugins use (no store runs in unit tests).
 */
export class MemoryGraphStore {
  public readonly resources = new Map<string, StoredResource>();

  public put(iri: string, data: readonly Quad[]): void {
    this.resources.set(iri, { data: [ ...data ], metadata: []});
  }

  public store(): ResourceGraphStore {
    return {
      read: async(iri: string): Promise<StoredResource | undefined> => this.resources.get(iri),
      readData: async(iri: string): Promise<Quad[]> => this.resources.get(iri)?.data ?? [],
      exists: async(iri: string): Promise<boolean> => this.resources.has(iri),
      write: async(iri: string, parent: string | undefined, metadata: readonly Quad[], data: readonly Quad[] = []): Promise<void> => {
        this.resources.set(iri, { data: [ ...data ], metadata: [ ...metadata ]});
      },
      resourcesWith: async(type: string, predicate: string, object: string): Promise<string[]> => [ ...this.resources ]
        .filter(([ iri, { data }]): boolean => data.some((entry): boolean => entry.subject.value === iri &&
          entry.predicate.value === RDF_TYPE && entry.object.value === type) &&
          data.some((entry): boolean => entry.subject.value === iri && entry.predicate.value === predicate &&
            entry.object.value === object))
        .map(([ iri ]): string => iri),
    } as unknown as ResourceGraphStore;
  }
}
