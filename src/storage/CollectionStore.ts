import type { ResourceChangeListener } from './ResourceChangeListener';
import type { ReadWriteLocker } from '@solid/community-server';
import type { SparqlClient } from './SparqlClient';
import { sparqlIri, sparqlLiteral } from './SparqlTerms';
import { DataFactory } from 'n3';
import { FEDPOD_NS, XSD_DATETIME } from './Vocabulary';
import type { CollectionItem, CollectionQuery, Collections } from './Collections';
import { InvalidCursorError } from './InvalidCursorError';

const { literal, namedNode } = DataFactory;

const ADDED_AT = `${FEDPOD_NS}addedAt`;
const AS_ITEMS = 'https://www.w3.org/ns/activitystreams#items';
const AS_OBJECT = 'https://www.w3.org/ns/activitystreams#object';

/**
 * Ordered collections (inbox, outbox, followers, following, liked) in the graph named by the
 * collection: `<collection> as:items <item>` and `<item> fedpod:addedAt <time>`. A page is one
 * query whatever the collection's size: keyset paging on (addedAt, item), never OFFSET.
 */
export class CollectionStore implements Collections {
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
  ) {}

  public async add(collection: string, item: string, at = new Date()): Promise<void> {
    const graph = sparqlIri(collection);
    const itemTerm = sparqlIri(item);
    // Adding twice keeps the first position. A COUNT, not a bare FILTER NOT EXISTS: Virtuoso ignores
    // a FILTER NOT EXISTS that is the whole WHERE and inserts again.
    const insert = async(): Promise<void> => this.client.update(`INSERT { GRAPH ${graph} { ${graph} ${sparqlIri(AS_ITEMS)} ${itemTerm} .
  ${itemTerm} ${sparqlIri(ADDED_AT)} ${sparqlLiteral(literal(at.toISOString(), namedNode(XSD_DATETIME)))} } }
WHERE { { SELECT (COUNT(*) AS ?present) WHERE { GRAPH ${graph} { ${graph} ${sparqlIri(AS_ITEMS)} ${itemTerm} } } } FILTER(?present = 0) }`);
    if (this.locker) {
      // Per item, so adds of different items to a busy collection (an inbox) never wait for each other.
      await this.locker.withWriteLock({ path: `urn:fedpod:collection:${encodeURIComponent(collection)}:${encodeURIComponent(item)}` }, insert);
    } else {
      await insert();
    }
    this.changes?.updated(collection);
  }

  public async remove(collection: string, item: string): Promise<void> {
    const graph = sparqlIri(collection);
    const itemTerm = sparqlIri(item);
    await this.client.update(`DELETE WHERE { GRAPH ${graph} { ${graph} ${sparqlIri(AS_ITEMS)} ${itemTerm} . ${itemTerm} ${sparqlIri(ADDED_AT)} ?t } }`);
    this.changes?.updated(collection);
  }

  public async contains(collection: string, item: string): Promise<boolean> {
    const graph = sparqlIri(collection);
    return this.client.ask(`ASK { GRAPH ${graph} { ${graph} ${sparqlIri(AS_ITEMS)} ${sparqlIri(item)} } }`);
  }

  /** Whether `iri` is an item of the collection, or the object of one of its items (a received Create's Note). */
  public async holdsItemAbout(collection: string, iri: string): Promise<boolean> {
    const graph = sparqlIri(collection);
    const target = sparqlIri(iri);
    const items = sparqlIri(AS_ITEMS);
    return this.client.ask(`ASK { { GRAPH ${graph} { ${graph} ${items} ${target} } }
  UNION { GRAPH ${graph} { ${graph} ${items} ?item } GRAPH ?item { ?item ${sparqlIri(AS_OBJECT)} ${target} } } }`);
  }

  /** Every item, oldest first, read in chunks (some stores cut results at 10,000 rows). */
  public async all(collection: string): Promise<string[]> {
    const graph = sparqlIri(collection);
    const items: string[] = [];
    const chunk = 5000;
    for (let offset = 0; ; offset += chunk) {
      const rows = await this.client.select(`SELECT ?item WHERE { GRAPH ${graph} { ${graph} ${sparqlIri(AS_ITEMS)} ?item .
  ?item ${sparqlIri(ADDED_AT)} ?t } } ORDER BY ?t ?item LIMIT ${chunk} OFFSET ${offset}`);
      items.push(...rows.map((row): string => row.item.value));
      if (rows.length < chunk) {
        return items;
      }
    }
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
    const graph = sparqlIri(collection);
    const rows = await this.client.select(`SELECT (COUNT(DISTINCT ?item) AS ?n) WHERE {
  GRAPH ${graph} { ${graph} ${sparqlIri(AS_ITEMS)} ?item } ${this.addressJoin(addressedTo)} }`);
    return Number(rows[0]?.n?.value ?? 0);
  }

  public async page(collection: string, query: CollectionQuery): Promise<{ items: CollectionItem[]; more: boolean }> {
    const graph = sparqlIri(collection);
    const ascending = query.after !== undefined;
    const cursor = this.decode(query.before ?? query.after);
    let filter = '';
    if (cursor) {
      const time = sparqlLiteral(literal(cursor.time, namedNode(XSD_DATETIME)));
      const item = sparqlLiteral(literal(cursor.item));
      filter = ascending ?
        `FILTER(?t > ${time} || (?t = ${time} && STR(?item) > ${item}))` :
        `FILTER(?t < ${time} || (?t = ${time} && STR(?item) < ${item}))`;
    }
    const order = ascending ? 'ASC(?t) ASC(?item)' : 'DESC(?t) DESC(?item)';
    const rows = await this.client.select(`SELECT DISTINCT ?item ?t WHERE {
  GRAPH ${graph} { ${graph} ${sparqlIri(AS_ITEMS)} ?item . ?item ${sparqlIri(ADDED_AT)} ?t }
  ${filter} ${this.addressJoin(query.addressedTo)}
} ORDER BY ${order} LIMIT ${query.limit + 1}`);
    const items = rows.slice(0, query.limit).map((row): CollectionItem => ({
      iri: row.item.value,
      cursor: this.encode(new Date(row.t.value).toISOString(), row.item.value),
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

  private encode(time: string, item: string): string {
    return Buffer.from(`${time} ${item}`).toString('base64url');
  }

  private decode(cursor?: string): { time: string; item: string } | undefined {
    if (!cursor) {
      return undefined;
    }
    const text = Buffer.from(cursor, 'base64url').toString('utf8');
    const space = text.indexOf(' ');
    const time = text.slice(0, space);
    if (space < 0 || Number.isNaN(Date.parse(time))) {
      throw new InvalidCursorError();
    }
    return { time: new Date(time).toISOString(), item: text.slice(space + 1) };
  }
}
