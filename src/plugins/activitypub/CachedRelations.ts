import { LRUCache } from 'lru-cache';
import type { CollectionAddition, CollectionItem, CollectionQuery, Collections } from '../../storage/Collections';
import type { ResourceWrite } from '../../storage/ResourceGraphs';
import type { ChangeCounter } from '../cluster/ChangeCounter';
import { CounterWatch } from '../cluster/CounterWatch';

/**
 * The collections (Collections, e.g. the CollectionStore) with the relations between actors kept in
 * memory, for the collections named by `watched` suffixes (`/followers`, `/following`, `/blocked`):
 * - which of them list an actor (`collectionsContaining`): every activity delivered to an inbox asks
 *   that of its sender, and in the store it was the costliest query of an inbox job, a third of the
 *   store's work while a busy inbox drained;
 * - every item of one of them (`all`): each post reads its author's followers, 1,000 of them a
 *   quarter of the CPU a post to ten shared inboxes cost.
 *
 * The answers hold until such a collection changes: any add or remove through this object drops them
 * (on this node at once) and bumps the shared `changes` counter, which every node reads before
 * answering from memory (one read serves the lookups that arrive while it is under way), as the
 * WebACL decisions do. An answer read while a change was under way is not kept. Writes made on the
 * triple store directly, bypassing Fedpod, are not seen until the next change.
 */
export class CachedRelations implements Collections {
  private readonly answers: LRUCache<string, string[]>;
  private readonly lists: LRUCache<string, string[]>;
  /** Its generation moves on with every change seen: an answer is kept only if it did not move while it was read. */
  private readonly changes: CounterWatch;

  /**
   * @param collections - Where the collections are.
   * @param watched - Suffixes of the collections whose memberships are kept, e.g. `/following`.
   * @param changes - Counts changes of those collections for every node; none: this node's own only.
   * @param maxEntries - Actors whose memberships are kept at most.
   * @param maxListed - Items of whole collections kept at most, all collections together.
   */
  public constructor(
    private readonly collections: Collections,
    private readonly watched: string[],
    changes?: ChangeCounter,
    maxEntries = 50_000,
    maxListed = 1_000_000,
  ) {
    this.changes = new CounterWatch(changes);
    this.answers = new LRUCache({ max: maxEntries });
    this.lists = new LRUCache({ maxSize: maxListed, sizeCalculation: (items): number => items.length + 1 });
  }

  public async collectionsContaining(item: string, ...suffixes: string[]): Promise<string[]> {
    if (suffixes.length === 0 || !suffixes.every((suffix): boolean => this.watched.includes(suffix))) {
      return this.collections.collectionsContaining(item, ...suffixes);
    }
    return this.remembered(this.answers, `${suffixes.join(' ')}\n${item}`,
      async(): Promise<string[]> => this.collections.collectionsContaining(item, ...suffixes));
  }

  public async add(collection: string, item: string, at?: Date): Promise<void> {
    await this.changing([ collection ], async(): Promise<void> => this.collections.add(collection, item, at));
  }

  public async addAll(additions: readonly CollectionAddition[], alongWith?: readonly ResourceWrite[]): Promise<void> {
    await this.changing(additions.map(({ collection }): string => collection),
      async(): Promise<void> => this.collections.addAll(additions, alongWith));
  }

  public async remove(collection: string, item: string): Promise<void> {
    await this.changing([ collection ], async(): Promise<void> => this.collections.remove(collection, item));
  }

  public async clear(collection: string): Promise<void> {
    await this.changing([ collection ], async(): Promise<void> => this.collections.clear(collection));
  }

  public async contains(collection: string, item: string): Promise<boolean> {
    return this.collections.contains(collection, item);
  }

  public async holdsItemAbout(collection: string, iri: string): Promise<boolean> {
    return this.collections.holdsItemAbout(collection, iri);
  }

  public async all(collection: string): Promise<string[]> {
    if (!this.isWatched(collection)) {
      return this.collections.all(collection);
    }
    return this.remembered(this.lists, collection, async(): Promise<string[]> => this.collections.all(collection));
  }

  public async count(collection: string, addressedTo?: string[]): Promise<number> {
    return this.collections.count(collection, addressedTo);
  }

  public async counts(collections: readonly string[]): Promise<number[]> {
    return this.collections.counts(collections);
  }

  public async page(collection: string, query: CollectionQuery): Promise<{ items: CollectionItem[]; more: boolean }> {
    return this.collections.page(collection, query);
  }

  /** Runs a write; for watched collections, drops the answers before and after it and tells the other nodes. */
  private async changing(collections: readonly string[], write: () => Promise<void>): Promise<void> {
    if (!collections.some((collection): boolean => this.isWatched(collection))) {
      return write();
    }
    this.forget();
    try {
      await write();
    } finally {
      // Whatever the outcome: a write that failed may still have been applied.
      this.forget();
      await this.changes.bump();
    }
  }

  /** The answer kept under `key`, else `read` (kept unless a change was seen while it was read). */
  private async remembered(cache: LRUCache<string, string[]>, key: string, read: () => Promise<string[]>): Promise<string[]> {
    await this.checkCounter();
    const known = cache.get(key);
    if (known) {
      return [ ...known ];
    }
    const generation = this.changes.generation;
    const found = await read();
    if (generation === this.changes.generation) {
      cache.set(key, [ ...found ]);
    }
    return found;
  }

  private isWatched(collection: string): boolean {
    return this.watched.some((suffix): boolean => collection.endsWith(suffix));
  }

  private forget(): void {
    this.answers.clear();
    this.lists.clear();
    this.changes.changing();
  }

  private async checkCounter(): Promise<void> {
    if (await this.changes.moved()) {
      this.forget();
    }
  }
}
