import { DataFactory } from 'n3';
import type { Collections } from './Collections';
import type { MemberIndex } from './MemberIndex';
import type { SparqlClient } from './SparqlClient';
import { sparqlIri, sparqlLiteral } from './SparqlTerms';
import { FEDPOD_NS, RDF_TYPE, XSD_DATETIME } from './StoreVocabulary';

const { literal, namedNode } = DataFactory;

const AS_NS = 'https://www.w3.org/ns/activitystreams#';
const ADDED_AT = `${FEDPOD_NS}addedAt`;
/**
 * How much later than a bucket's earliest addition an older bucket's may be: two additions at once
 * take their times, then their buckets, so the later time may land in the older bucket.
 */
const SLACK_MS = 1000;

/** Which items of several collections to merge, and which page of them. */
export interface MergedQuery {
  /** The collections (an inbox, an outbox) whose items are merged. */
  collections: readonly string[];
  /** Only items of these types (full IRIs). */
  types: readonly string[];
  /** Only items addressed (to, cc, audience) to one of these; none: every item. */
  addressedTo?: readonly string[];
  /** Only items whose `to` names one of `addressedTo`. */
  inToOnly?: boolean;
  limit: number;
  /** Items whose time is before this. */
  before?: Date;
  /** Items whose time is after this. */
  after?: Date;
  /** The oldest items first (those right after `after`); else the newest first. */
  ascending?: boolean;
}

export interface MergedItem {
  iri: string;
  /** Its time: its `published`, unless it has none or that is after it was added; then when it was added. */
  time: Date;
}

/** How far one collection has been read: the buckets after `next`, and what they can still hold. */
interface Reader {
  collection: string;
  next?: number;
  span: number;
  /** The earliest addition in the buckets read; the unread (older) buckets were added before it. */
  floor?: number;
  done: boolean;
}

/**
 * The items of several collections (a user's inbox and outbox) merged by time, a page at a time, at a
 * cost that follows the page rather than the collections: each collection is read newest bucket first
 * through its paging index (MemberIndex), a few buckets a round, and only as far as its unread buckets
 * could still hold an item of the page.
 *
 * Why that is exact: an item's time is never after it was added (a `published` later than that,
 * another server's clock ahead, gives way to the time it was added), and a bucket holds items added
 * after those of older buckets. So once the page has its `limit` items and the last of them is
 * newer than the earliest addition read so far in a collection, nothing older in it can come before
 * that item. Items that arrived late (an old post delivered now) sit in new buckets and are found
 * there. A page far back in time (`before` long ago) reads every bucket added since: its cost
 * follows how far back it is. With several nodes, one may fill a bucket of a list a little out of
 * order (see MemberIndex); an item then shows at most a bucket's worth of additions late.
 */
export class CollectionTimeline {
  public constructor(
    private readonly client: SparqlClient,
    private readonly index: MemberIndex,
    /** For a collection made before the paging index: its items, oldest first, to index it. */
    private readonly collections: Collections,
  ) {}

  public async page(query: MergedQuery): Promise<MergedItem[]> {
    const readers: Reader[] = [ ...new Set(query.collections) ].map((collection): Reader =>
      ({ collection, span: Math.ceil(query.limit / 256) + 1, done: false }));
    const found = new Map<string, MergedItem>();
    let page: MergedItem[] = [];
    for (;;) {
      const open = readers.filter((reader): boolean => this.mayHoldMore(reader, query, page));
      if (open.length === 0) {
        return page;
      }
      await Promise.all(open.map(async(reader): Promise<void> => {
        for (const item of await this.readRound(reader, query)) {
          const known = found.get(item.iri);
          // An item in two of the collections (a post to oneself) comes once, at its later time.
          if (!known || known.time < item.time) {
            found.set(item.iri, item);
          }
        }
      }));
      page = [ ...found.values() ].sort(query.ascending ? inOrder : (first, second): number => inOrder(second, first))
        .slice(0, query.limit);
    }
  }

  /** Whether the collection's unread buckets may hold an item of the page. */
  private mayHoldMore(reader: Reader, query: MergedQuery, page: readonly MergedItem[]): boolean {
    if (reader.done) {
      return false;
    }
    if (reader.floor === undefined) {
      return true;
    }
    // Everything unread was added, and so is timed, at or before the floor (give or take SLACK_MS).
    const floor = reader.floor + SLACK_MS;
    if (query.after && floor <= query.after.getTime()) {
      return false;
    }
    // Newest first: a full page whose last item is newer than anything unread is final. Oldest first
    // needs every item after `after`, which only the floor passing it ends.
    return query.ascending === true || page.length < query.limit || page.at(-1)!.time.getTime() <= floor;
  }

  /** Reads the next buckets of one collection: the best `limit` items of them, and their earliest addition. */
  private async readRound(reader: Reader, query: MergedQuery): Promise<MergedItem[]> {
    const buckets = await this.index.bucketsAfter(reader.collection, 'newest', reader.span, reader.next,
      async(): Promise<string[]> => this.collections.all(reader.collection));
    reader.done = buckets.length < reader.span;
    if (buckets.length === 0) {
      return [];
    }
    reader.next = buckets.at(-1);
    reader.span *= 2;
    // Two queries rather than one UNION of two subqueries: Virtuoso paired the items with other items' times in that one.
    const [ rows, floors ] = await Promise.all([
      this.client.select(this.itemsQuery(reader.collection, buckets, query)),
      this.client.select(this.floorQuery(reader.collection, buckets)),
    ]);
    if (floors[0]?.floor) {
      const floor = Date.parse(floors[0].floor.value);
      reader.floor = reader.floor === undefined ? floor : Math.min(reader.floor, floor);
    }
    return rows.map((row): MergedItem => ({ iri: row.item.value, time: new Date(row.t.value) }));
  }

  /** The best `limit` items of the buckets, in the page's order. */
  private itemsQuery(collection: string, buckets: readonly number[], query: MergedQuery): string {
    const time = (date: Date): string => sparqlLiteral(literal(date.toISOString(), namedNode(XSD_DATETIME)));
    // On `published` and the addition rather than on ?t: Virtuoso paired the rows with other rows'
    // ?t when a FILTER named it. Before B: either is before B; after A: both are (when published).
    const filters = [
      ...query.before ? [ `(?added < ${time(query.before)} || ?published < ${time(query.before)})` ] : [],
      ...query.after ? [ `(?added > ${time(query.after)} && (!BOUND(?published) || ?published > ${time(query.after)}))` ] : [],
    ];
    const audience = (query.inToOnly ? [ 'to' ] : [ 'to', 'cc', 'audience' ]).map((name): string => sparqlIri(`${AS_NS}${name}`)).join('|');
    const addressed = query.addressedTo ?
      `VALUES ?recipient { ${query.addressedTo.map(sparqlIri).join(' ')} } GRAPH ?item { ?item ${audience} ?recipient }` :
      '';
    const direction = query.ascending ? 'ASC' : 'DESC';
    // The OPTIONAL last, on its own, and no UNION: Oxigraph evaluated a UNION, or an OPTIONAL inside
    // the item's GRAPH block, over the whole store before joining it with the buckets' items.
    return `SELECT DISTINCT ?item ?t WHERE { ${this.index.values(buckets)}
  ${this.index.memberPattern(collection, '?item')}
  GRAPH ${sparqlIri(collection)} { ?item ${sparqlIri(ADDED_AT)} ?added }
  GRAPH ?item { ?item ${sparqlIri(RDF_TYPE)} ?type FILTER(?type IN (${query.types.map(sparqlIri).join(', ')})) }
  ${addressed}
  OPTIONAL { GRAPH ?item { ?item ${sparqlIri(`${AS_NS}published`)} ?published } }
  ${filters.length > 0 ? `FILTER(${filters.join(' && ')})` : ''}
  BIND(IF(BOUND(?published) && ?published < ?added, ?published, ?added) AS ?t)
} ORDER BY ${direction}(?t) ${direction}(STR(?item)) LIMIT ${query.limit}`;
  }

  /** The earliest addition in the buckets. */
  private floorQuery(collection: string, buckets: readonly number[]): string {
    return `SELECT (MIN(?when) AS ?floor) WHERE { ${this.index.values(buckets)}
  ${this.index.memberPattern(collection, '?member')}
  GRAPH ${sparqlIri(collection)} { ?member ${sparqlIri(ADDED_AT)} ?when } }`;
  }
}

/** Oldest first, then by IRI (the order of the store's query). */
function inOrder(first: MergedItem, second: MergedItem): number {
  return first.time.getTime() - second.time.getTime() || (first.iri < second.iri ? -1 : first.iri > second.iri ? 1 : 0);
}
