import type { CollectionStore } from '../../../../../src/storage/CollectionStore';

/** Collections in a Map: a stand-in for the store-backed CollectionStore (no store runs in unit tests). */
export class MemoryCollections {
  public readonly items = new Map<string, Set<string>>();

  public store(): CollectionStore {
    return {
      add: async(collection: string, item: string): Promise<void> => {
        const items = this.items.get(collection) ?? new Set<string>();
        items.add(item);
        this.items.set(collection, items);
      },
      remove: async(collection: string, item: string): Promise<void> => {
        this.items.get(collection)?.delete(item);
      },
      count: async(collection: string): Promise<number> => this.of(collection).length,
      counts: async(collections: readonly string[]): Promise<number[]> => collections.map((collection): number => this.of(collection).length),
      all: async(collection: string): Promise<string[]> => this.of(collection),
      contains: async(collection: string, item: string): Promise<boolean> => this.of(collection).includes(item),
      collectionsContaining: async(item: string, ...suffixes: string[]): Promise<string[]> => [ ...this.items.keys() ]
        .filter((collection): boolean => suffixes.some((suffix): boolean => collection.endsWith(suffix)) &&
          this.of(collection).includes(item)),
    } as unknown as CollectionStore;
  }

  public of(collection: string): string[] {
    return [ ...this.items.get(collection) ?? [] ];
  }
}
