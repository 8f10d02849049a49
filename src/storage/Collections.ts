import type { ResourceWrite } from './ResourceGraphs';

export interface CollectionItem {
  iri: string;
  /** Opaque position for paging: the time the item was added, then its IRI. */
  cursor: string;
}

/** An item to add to a collection, at a time (now when not given). */
export interface CollectionAddition {
  collection: string;
  item: string;
  at?: Date;
}

export interface CollectionQuery {
  limit: number;
  /** Items older than this cursor (the next page); newest first. */
  before?: string;
  /** Items newer than this cursor (the previous page); still returned newest first. */
  after?: string;
  /** Only items addressed (to, cc, bto, bcc, audience) to one of these IRIs. */
  addressedTo?: string[];
}

/**
 * What the domain asks of the store about ordered collections (inbox, outbox, followers, following,
 * liked, featured): items kept with the time they were added, read newest first in pages whose cost
 * does not grow with the collection. `CollectionStore` is the SPARQL implementation.
 */
export interface Collections {
  /** Adds an item (an item already there stays once, with its first time). */
  add: (collection: string, item: string, at?: Date) => Promise<void>;
  /**
   * Adds items as add() does, and writes the resources `alongWith` as ResourceGraphs.writeMany does,
   * all in one update: all of it is stored or none (a received activity with its inbox entries, for
   * one wait on the store where two would be needed).
   */
  addAll: (additions: readonly CollectionAddition[], alongWith?: readonly ResourceWrite[]) => Promise<void>;
  remove: (collection: string, item: string) => Promise<void>;
  /** Removes the whole collection, its total and its paging index (its owner is gone). */
  clear: (collection: string) => Promise<void>;
  contains: (collection: string, item: string) => Promise<boolean>;
  /** Whether `iri` is an item of the collection, or the object of a Create or Update among its items (a received Create's Note). */
  holdsItemAbout: (collection: string, iri: string) => Promise<boolean>;
  /** Every item, oldest first. */
  all: (collection: string) => Promise<string[]>;
  /** The collections (IRIs ending in one of `suffixes`) that hold `item`, e.g. every `/following` listing an actor. */
  collectionsContaining: (item: string, ...suffixes: string[]) => Promise<string[]>;
  /** How many items, or how many addressed to one of `addressedTo`. */
  count: (collection: string, addressedTo?: string[]) => Promise<number>;
  /** How many items each of these collections holds, in their order (one round trip where the store keeps totals). */
  counts: (collections: readonly string[]) => Promise<number[]>;
  /** One page, newest first; an unknown cursor throws InvalidCursorError. */
  page: (collection: string, query: CollectionQuery) => Promise<{ items: CollectionItem[]; more: boolean }>;
}
