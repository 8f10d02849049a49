import type { ResourceChangeListener } from './ResourceChangeListener';
import type { ReadWriteLocker } from '@solid/community-server';
import type { Bindings, SparqlClient } from './SparqlClient';
import { sparqlIri, sparqlLiteral } from './SparqlTerms';
import { DataFactory } from 'n3';
import { FEDPOD_NS, metadataGraphOf, RDF_TYPE, XSD_DATETIME } from './StoreVocabulary';
import type { CollectionAddition, CollectionItem, CollectionQuery, Collections } from './Collections';
import type { ResourceGraphStore } from './ResourceGraphStore';
import type { ResourceWrite } from './ResourceGraphs';
import { InvalidCursorError } from './InvalidCursorError';
import { MemberIndex } from './MemberIndex';

const { literal, namedNode } = DataFactory;

const ADDED_AT = `${FEDPOD_NS}addedAt`;
/** A collection's number of items, in its index's graph, kept by every add and remove once it is there. */
const TOTAL = `${FEDPOD_NS}total`;
/**
 * A collection with no total yet gets one when counting it finds at least this many items: a small
 * one (most statuses' likes and shares are empty) costs little to count and nothing to write.
 */
const TOTAL_FROM = 64;
const AS_ITEMS = 'https://www.w3.org/ns/activitystreams#items';
const AS_OBJECT = 'https://www.w3.org/ns/activitystreams#object';
/** Items whose object is their sender's own: an Announce or Like of another's post does not make it readable. */
const OBJECT_CREATING_TYPES = [ 'https://www.w3.org/ns/activitystreams#Create', 'https://www.w3.org/ns/activitystreams#Update' ];

/**
 * Ordered collections (inbox, outbox, followers, following, liked) in the graph named by the
 * collection: `<collection> as:items <item>` and `<item> fedpod:addedAt <time>`, with a paging index
 * (MemberIndex) so that a page reads a few buckets whatever the collection's size: keyset paging on
 * (bucket, addedAt, item), never OFFSET.
 */
export class CollectionStore implements Collections {
  private readonly index: MemberIndex;

  /**
   * @param locker - Serialises adds of one item to one collection (CSS's resource locker, on Redis
   *   with several nodes): two concurrent "insert unless present" updates would both insert, leaving
   *   the item twice in pages (two addedAt). Without it, concurrent adds of one item may do that.
   */
  public constructor(
    private readonly client: SparqlClient,
    private readonly locker?: ReadWriteLocker,
    /** Told that a collection changed (Solid notifications: an Update of the collection). */
    private readonly changes?: ResourceChangeListener,
    /** The paging index; one per process, shared with the resource graphs. */
    index?: MemberIndex,
    /** Where resources written along with items (addAll) are: the resource graphs of this store. */
    private readonly resources?: ResourceGraphStore,
  ) {
    this.index = index ?? new MemberIndex(client);
  }

  public async add(collection: string, item: string, at = new Date()): Promise<void> {
    await this.addAll([{ collection, item, at }]);
  }

  public async addAll(additions: readonly CollectionAddition[], alongWith: readonly ResourceWrite[] = []): Promise<void> {
    if (alongWith.length > 0 && !this.resources) {
      throw new Error('CollectionStore needs its resources (a ResourceGraphStore) to write resources along with items');
    }
    const insert = async(): Promise<void> => {
      const operations: string[] = [];
      for (const { collection, item, at = new Date() } of additions) {
        operations.push(await this.addition(collection, item, at));
      }
      const resources = alongWith.length > 0 ? await this.resources!.prepareWrites(alongWith) : undefined;
      if (operations.length === 0 && !resources) {
        return;
      }
      await this.client.update([ ...resources?.operations ?? [], ...operations ].join(' ;\n'));
      resources?.stored();
    };
    // Per item, so adds of different items to a busy collection (an inbox) never wait for each other.
    await this.holdingLocks(additions.map(({ collection, item }): string =>
      `urn:fedpod:collection:${encodeURIComponent(collection)}:${encodeURIComponent(item)}`), insert);
    for (const collection of new Set(additions.map((addition): string => addition.collection))) {
      this.changes?.updated(collection);
    }
  }

  /**
   * The update operation that adds `item` unless present (adding twice keeps the first position). A
   * COUNT, not a bare FILTER NOT EXISTS: Virtuoso ignores a FILTER NOT EXISTS that is the whole WHERE
   * and inserts again.
   */
  private async addition(collection: string, item: string, at: Date): Promise<string> {
    const graph = sparqlIri(collection);
    const itemTerm = sparqlIri(item);
    const bucket = await this.index.bucketFor(collection, async(): Promise<string[]> => this.all(collection));
    const total = this.totalPattern(collection, '?before');
    // The total (where the collection has one) moves by one in the same operation, only when the item was not there.
    return `DELETE { ${total} }
INSERT { GRAPH ${graph} { ${graph} ${sparqlIri(AS_ITEMS)} ${itemTerm} .
  ${itemTerm} ${sparqlIri(ADDED_AT)} ${sparqlLiteral(literal(at.toISOString(), namedNode(XSD_DATETIME)))} }
  ${this.index.entries(collection, item, bucket)} ${this.totalPattern(collection, '?after')} }
WHERE { { SELECT (COUNT(*) AS ?present) WHERE { GRAPH ${graph} { ${graph} ${sparqlIri(AS_ITEMS)} ${itemTerm} } } }
  OPTIONAL { ${total} } BIND(?before + 1 AS ?after) FILTER(?present = 0) }`;
  }

  /** The GRAPH block of the collection's total, `variable` standing for its value. */
  private totalPattern(collection: string, variable: string): string {
    return `GRAPH ${sparqlIri(MemberIndex.graphOf(collection))} { ${sparqlIri(collection)} ${sparqlIri(TOTAL)} ${variable} }`;
  }

  /**
   * Runs `work` holding the write locks named `names`, when there is a locker: each taken in one
   * order (sorted), so that two callers wanting some of the same locks never wait for each other.
   */
  private async holdingLocks(names: readonly string[], work: () => Promise<void>): Promise<void> {
    if (!this.locker) {
      return work();
    }
    const locker = this.locker;
    const ordered = [ ...new Set(names) ].sort();
    const hold = async(index: number): Promise<void> => index === ordered.length ?
      work() :
      locker.withWriteLock({ path: ordered[index] }, async(): Promise<void> => hold(index + 1));
    return hold(0);
  }

  public async remove(collection: string, item: string): Promise<void> {
    const graph = sparqlIri(collection);
    const itemTerm = sparqlIri(item);
    const total = this.totalPattern(collection, '?before');
    // The total moves by one only when the item was there (the WHERE finds no row otherwise).
    await this.client.update(`DELETE { GRAPH ${graph} { ${graph} ${sparqlIri(AS_ITEMS)} ${itemTerm} . ${itemTerm} ${sparqlIri(ADDED_AT)} ?t } ${total} }
INSERT { ${this.totalPattern(collection, '?after')} }
WHERE { GRAPH ${graph} { ${graph} ${sparqlIri(AS_ITEMS)} ${itemTerm} OPTIONAL { ${itemTerm} ${sparqlIri(ADDED_AT)} ?t } }
  OPTIONAL { ${total} } BIND(?before - 1 AS ?after) } ;
${this.index.remove(collection, item)}`);
    this.changes?.updated(collection);
  }

  public async clear(collection: string): Promise<void> {
    // DELETE WHERE rather than DROP GRAPH: Virtuoso answers 500 to DROP of a missing graph.
    await this.client.update([ collection, metadataGraphOf(collection) ].map((graph): string =>
      `DELETE WHERE { GRAPH ${sparqlIri(graph)} { ?s ?p ?o } }`).concat(this.index.drop(collection)).join(' ;\n'));
    this.changes?.updated(collection);
  }

  public async contains(collection: string, item: string): Promise<boolean> {
    const graph = sparqlIri(collection);
    return this.client.ask(`ASK { GRAPH ${graph} { ${graph} ${sparqlIri(AS_ITEMS)} ${sparqlIri(item)} } }`);
  }

  /**
   * Whether `iri` is an item of the collection, or the object of a Create or Update among its items
   * (a received Create's Note). Not of other items: anyone can send an Announce naming any object.
   */
  public async holdsItemAbout(collection: string, iri: string): Promise<boolean> {
    const graph = sparqlIri(collection);
    const target = sparqlIri(iri);
    const items = sparqlIri(AS_ITEMS);
    const types = OBJECT_CREATING_TYPES.map(sparqlIri).join(', ');
    return this.client.ask(`ASK { { GRAPH ${graph} { ${graph} ${items} ${target} } }
  UNION { GRAPH ${graph} { ${graph} ${items} ?item }
    GRAPH ?item { ?item ${sparqlIri(AS_OBJECT)} ${target} ; ${sparqlIri(RDF_TYPE)} ?type FILTER (?type IN (${types})) } } }`);
  }

  /** Every item, oldest first. */
  public async all(collection: string): Promise<string[]> {
    const graph = sparqlIri(collection);
    const rows = await this.client.selectAll(`SELECT ?item WHERE { GRAPH ${graph} { ${graph} ${sparqlIri(AS_ITEMS)} ?item .
  ?item ${sparqlIri(ADDED_AT)} ?t } } ORDER BY ?t ?item`);
    return rows.map((row): string => row.item.value);
  }

  /**
   * The collections (graph names ending in one of `suffixes`) that hold `item`, e.g. every `/following`
   * listing an actor, in one query.
   */
  public async collectionsContaining(item: string, ...suffixes: string[]): Promise<string[]> {
    const ends = suffixes.map((suffix): string => `STRENDS(STR(?c), ${sparqlLiteral(literal(suffix))})`).join(' || ');
    const rows = await this.client.select(`SELECT DISTINCT ?c WHERE { GRAPH ?c { ?c ${sparqlIri(AS_ITEMS)} ${sparqlIri(item)} }
  FILTER(${ends}) }`);
    return rows.map((row): string => row.c.value);
  }

  public async count(collection: string, addressedTo?: string[]): Promise<number> {
    if (addressedTo) {
      return this.counted(collection, addressedTo);
    }
    return (await this.counts([ collection ]))[0];
  }

  /**
   * How many items each collection holds, in one query for those that keep a total (a lookup, whatever
   * their size); the others are counted, and given a total when they are large.
   */
  public async counts(collections: readonly string[]): Promise<number[]> {
    if (collections.length === 0) {
      return [];
    }
    const pairs = [ ...new Set(collections) ].map((collection): string =>
      `(${sparqlIri(collection)} ${sparqlIri(MemberIndex.graphOf(collection))})`);
    const rows = await this.client.select(`SELECT ?list ?n WHERE { VALUES (?list ?index) { ${pairs.join(' ')} }
  GRAPH ?index { ?list ${sparqlIri(TOTAL)} ?n } }`);
    const totals = new Map<string, number[]>();
    for (const row of rows) {
      totals.set(row.list.value, [ ...totals.get(row.list.value) ?? [], Number(row.n.value) ]);
    }
    const kept = (collection: string): number | undefined => {
      const found = totals.get(collection);
      // None yet, or more than one (written by two nodes at once): counted, and the total set again.
      return found?.length === 1 && Number.isSafeInteger(found[0]) && found[0] >= 0 ? found[0] : undefined;
    };
    const counted = await this.countAndKeep(collections.filter((collection): boolean => kept(collection) === undefined));
    return collections.map((collection): number => kept(collection) ?? counted.get(collection) ?? 0);
  }

  /** Counts the collections' items in one query; a large one gets its total (counted again in the update, as one step with it). */
  private async countAndKeep(collections: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (collections.length === 0) {
      return counts;
    }
    const rows = await this.client.select(`SELECT ?list (COUNT(DISTINCT ?item) AS ?n) WHERE {
  VALUES ?list { ${[ ...new Set(collections) ].map(sparqlIri).join(' ')} } GRAPH ?list { ?list ${sparqlIri(AS_ITEMS)} ?item } } GROUP BY ?list`);
    for (const row of rows) {
      counts.set(row.list.value, Number(row.n.value));
    }
    await Promise.all([ ...counts ].filter(([ , count ]): boolean => count >= TOTAL_FROM)
      .map(async([ collection ]): Promise<void> => this.keepTotal(collection)));
    return counts;
  }

  /** Writes the collection's total, counted in the update itself (so no add or remove between a count and the write is missed). */
  private async keepTotal(collection: string): Promise<void> {
    const graph = sparqlIri(collection);
    // Two operations of one update (Virtuoso inserted nothing from one DELETE/INSERT whose OPTIONAL found no total).
    await this.client.update(`DELETE WHERE { ${this.totalPattern(collection, '?old')} } ;
INSERT { ${this.totalPattern(collection, '?n')} }
WHERE { { SELECT (COUNT(DISTINCT ?item) AS ?n) WHERE { GRAPH ${graph} { ${graph} ${sparqlIri(AS_ITEMS)} ?item } } } }`);
  }

  /** Counts the items in the store (their number grows the query's cost). */
  private async counted(collection: string, addressedTo?: string[]): Promise<number> {
    const graph = sparqlIri(collection);
    const rows = await this.client.select(`SELECT (COUNT(DISTINCT ?item) AS ?n) WHERE {
  GRAPH ${graph} { ${graph} ${sparqlIri(AS_ITEMS)} ?item } ${this.addressJoin(addressedTo)} }`);
    return Number(rows[0]?.n?.value ?? 0);
  }

  public async page(collection: string, query: CollectionQuery): Promise<{ items: CollectionItem[]; more: boolean }> {
    const graph = sparqlIri(collection);
    const ascending = query.after !== undefined;
    const cursor = this.decode(query.before ?? query.after);
    const direction = ascending ? 'ASC' : 'DESC';
    const rows = await this.index.collect(collection, ascending ? 'oldest' : 'newest', query.limit + 1, cursor?.bucket,
      async(): Promise<string[]> => this.all(collection),
      async(buckets, wanted): Promise<Bindings[]> => {
        let filter = '';
        if (cursor && buckets.includes(cursor.bucket)) {
          const time = sparqlLiteral(literal(cursor.time, namedNode(XSD_DATETIME)));
          const item = sparqlLiteral(literal(cursor.item));
          const beyond = ascending ?
            `?t > ${time} || (?t = ${time} && STR(?item) > ${item})` :
            `?t < ${time} || (?t = ${time} && STR(?item) < ${item})`;
          filter = `FILTER(?bucket != ${cursor.bucket} || ${beyond})`;
        }
        return this.client.select(`SELECT DISTINCT ?item ?t ?bucket WHERE { ${this.index.values(buckets)}
  ${this.index.memberPattern(collection, '?item')}
  GRAPH ${graph} { ?item ${sparqlIri(ADDED_AT)} ?t }
  ${filter} ${this.addressJoin(query.addressedTo)}
} ORDER BY ${direction}(?bucket) ${direction}(?t) ${direction}(STR(?item)) LIMIT ${wanted}`);
      });
    const items = rows.slice(0, query.limit).map((row): CollectionItem => ({
      iri: row.item.value,
      cursor: MemberIndex.cursor(Number(row.bucket.value), `${new Date(row.t.value).toISOString()} ${row.item.value}`),
    }));
    return { items: ascending ? items.reverse() : items, more: rows.length > query.limit };
  }

  /**
   * Joins the items with their addressing, for the readers whose audience is `addressedTo` (DISTINCT
   * removes an item addressed to them twice). One recipient (anonymous readers: Public) is a bound
   * object; measured on the embedded store, a VALUES block costs more than the rest of a page query.
   */
  private addressJoin(addressedTo?: string[]): string {
    if (!addressedTo) {
      return '';
    }
    const audience = [ 'to', 'cc', 'bto', 'bcc', 'audience' ]
      .map((name): string => sparqlIri(`https://www.w3.org/ns/activitystreams#${name}`)).join('|');
    if (addressedTo.length === 1) {
      return `GRAPH ?item { ?item ${audience} ${sparqlIri(addressedTo[0])} }`;
    }
    return `VALUES ?recipient { ${addressedTo.map(sparqlIri).join(' ')} } GRAPH ?item { ?item ${audience} ?recipient }`;
  }

  /** A cursor's bucket, time and item (the keys of a collection's rows). */
  private decode(cursor?: string): { bucket: number; time: string; item: string } | undefined {
    if (!cursor) {
      return undefined;
    }
    const { bucket, key } = MemberIndex.parseCursor(cursor);
    const match = /^(\S+) (.+)$/su.exec(key);
    if (!match || Number.isNaN(Date.parse(match[1]))) {
      throw new InvalidCursorError();
    }
    return { bucket, time: new Date(match[1]).toISOString(), item: match[2] };
  }
}
