import { DataFactory } from 'n3';
import { v7 as uuidv7 } from 'uuid';
import type { CollectionTimeline } from '../../storage/CollectionTimeline';
import type { SparqlClient } from '../../storage/SparqlClient';
import { sparqlIri, sparqlLiteral } from '../../storage/SparqlTerms';
import { FEDPOD_NS, RDF_TYPE, XSD_DATETIME } from '../../storage/StoreVocabulary';
import { AS_NS } from '../activitypub/ActivityVocabulary';
import { NOT_A_VOTE } from '../activitypub/ObjectThreads';
import { FedpodHttpError } from '../../util/HttpErrors';

const { literal, namedNode } = DataFactory;

/** The graph that names the Mastodon ids of IRIs this server did not mint (other servers' posts and actors). */
export const MASTODON_IDS_GRAPH = 'urn:fedpod:mastodon:ids';
const MASTODON_ID = `${FEDPOD_NS}mastodonId`;
const ADDED_AT = `${FEDPOD_NS}addedAt`;
const ITEMS = `${AS_NS}items`;
const TIMELINE_TYPES = [ `${AS_NS}Create`, `${AS_NS}Announce` ];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/u;

/** Which items of which collections a timeline lists. */
export interface TimelineSource {
  /** The collections (inboxes, outboxes) it merges. */
  collections?: string[];
  /** Or every local actor's collection whose IRI ends so (`/outbox`, `/inbox`). */
  everyActorCollection?: string[];
  /** Only items addressed (to, cc, audience) to one of these; none: every item. */
  addressedTo?: string[];
  /** Only items whose `to` names one of `addressedTo` (public posts: not unlisted ones, whose cc names Public). */
  inToOnly?: boolean;
  /** Only items whose `actor` is one of these (a list's members); an empty list: no item. */
  actors?: string[];
}

/** A page of a timeline: Mastodon's max_id / since_id / min_id, as times (see MastodonRecords.timeOf). */
export interface TimelineQuery {
  limit: number;
  /** Items older than this. */
  before?: Date;
  /** Items newer than this: the newest ones (since_id) or those right after it (min_id, `ascending`). */
  after?: Date;
  ascending?: boolean;
}

export interface TimelineItem {
  /** The activity (a Create or an Announce). */
  iri: string;
  /** Its time in timelines: its `published`, else (or when that is later) when it was added. */
  time: Date;
}

/**
 * What the Mastodon API keeps and asks of the store beside the ActivityStreams data:
 *
 * - ids: a status or account id is a string that sorts by time. Objects and activities minted here
 *   are named by a UUIDv7 (`/objects/<uuid>`, `/activities/<uuid>`) whose time is their `published`
 *   (see generatedName): that name is their id. Other servers' objects, activities and actors get a
 *   UUIDv7 minted the first time the API shows them, from their time in the timeline, kept in the
 *   graph `urn:fedpod:mastodon:ids` (`<iri> fedpod:mastodonId "id"`) and looked up both ways.
 *   Local accounts' ids are their usernames.
 * - timelines: the Create and Announce items of inboxes and outboxes, newest first, by time.
 */
export class MastodonRecords {
  private readonly objects: string;
  private readonly activities: string;
  private readonly actors: string;

  /**
   * @param merged - Reads timelines of named collections (home, an account's, a list's) through
   *   their paging index, at a cost that follows the page; without it every timeline is one query
   *   that sorts all the items of its collections.
   */
  public constructor(private readonly client: SparqlClient, baseUrl: string, private readonly merged?: CollectionTimeline) {
    const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
    this.objects = `${base}objects/`;
    this.activities = `${base}activities/`;
    this.actors = `${base}actors/`;
  }

  /** The time a UUIDv7 id carries; undefined for any other id (a cursor that cannot be placed). */
  public static timeOf(id: string): Date | undefined {
    if (!UUID.test(id)) {
      return undefined;
    }
    return new Date(Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16));
  }

  /** The id of an object, activity or remote actor; minted (with `at` as its time) when it has none yet. */
  public async idOf(iri: string, at: Date = new Date()): Promise<string> {
    for (const prefix of [ this.objects, this.activities ]) {
      const name = iri.startsWith(prefix) ? iri.slice(prefix.length) : '';
      if (UUID.test(name)) {
        return name;
      }
    }
    return (await this.idsOf([ iri ], () => at)).get(iri)!;
  }

  /** The ids of several IRIs this server did not mint, in two store requests at most. */
  public async idsOf(iris: readonly string[], timeOf: (iri: string) => Date): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    const unique = [ ...new Set(iris) ];
    if (unique.length === 0) {
      return ids;
    }
    const graph = sparqlIri(MASTODON_IDS_GRAPH);
    const rows = await this.client.select(`SELECT ?iri ?id WHERE { VALUES ?iri { ${unique.map(sparqlIri).join(' ')} }
  GRAPH ${graph} { ?iri ${sparqlIri(MASTODON_ID)} ?id } }`);
    for (const row of rows) {
      // Two mints at once may both have been kept: the smallest id is the one everyone uses.
      const known = ids.get(row.iri.value);
      if (known === undefined || row.id.value < known) {
        ids.set(row.iri.value, row.id.value);
      }
    }
    const missing = unique.filter((iri): boolean => !ids.has(iri));
    if (missing.length > 0) {
      const minted = missing.map((iri): [string, string] => [ iri, uuidv7({ msecs: timeOf(iri).getTime() }) ]);
      await this.client.update(`INSERT DATA { GRAPH ${graph} { ${minted.map(([ iri, id ]): string =>
        `${sparqlIri(iri)} ${sparqlIri(MASTODON_ID)} ${sparqlLiteral(literal(id))} .`).join('\n')} } }`);
      for (const [ iri, id ] of minted) {
        ids.set(iri, id);
      }
    }
    return ids;
  }

  /**
   * The IRIs an id may stand for, most likely first: the one the ids graph names, else this server's
   * object and activity of that name. The caller reads them in that order.
   */
  public async candidatesFor(id: string): Promise<string[]> {
    const graph = sparqlIri(MASTODON_IDS_GRAPH);
    const rows = await this.client.select(`SELECT ?iri WHERE { GRAPH ${graph} { ?iri ${sparqlIri(MASTODON_ID)}
  ${sparqlLiteral(literal(id))} } } LIMIT 1`);
    if (rows.length > 0) {
      return [ rows[0].iri.value ];
    }
    return UUID.test(id) ? [ `${this.objects}${id}`, `${this.activities}${id}` ] : [];
  }

  /**
   * The Create and Announce items of a timeline, newest first (oldest first when `ascending`), by
   * their time. Named collections are read through their paging index (CollectionTimeline: the
   * time is `published`, unless that is after the item reached the collection, then that time);
   * every actor's collections (the public timelines) in one query whose work grows with them.
   */
  public async timeline(source: TimelineSource, query: TimelineQuery): Promise<TimelineItem[]> {
    let collections: string;
    if (source.collections) {
      if (source.collections.length === 0) {
        return [];
      }
      // The merge reads whole collections; a timeline of some actors only (a list's) filters in the one query.
      if (this.merged && !source.actors) {
        const items = await this.merged.page({ ...query, collections: source.collections, types: TIMELINE_TYPES,
          addressedTo: source.addressedTo, inToOnly: source.inToOnly });
        return items.map(({ iri, time }): TimelineItem => ({ iri, time }));
      }
      collections = `VALUES ?g { ${source.collections.map(sparqlIri).join(' ')} }`;
    } else {
      const ends = (source.everyActorCollection ?? []).map((end): string => `STRENDS(STR(?g), ${sparqlLiteral(literal(end))})`);
      collections = `FILTER(STRSTARTS(STR(?g), ${sparqlLiteral(literal(this.actors))}) && (${ends.join(' || ') || 'false'}))`;
    }
    const filters: string[] = [];
    const time = (date: Date): string => sparqlLiteral(literal(date.toISOString(), namedNode(XSD_DATETIME)));
    if (query.before) {
      filters.push(`?t < ${time(query.before)}`);
    }
    if (query.after) {
      filters.push(`?t > ${time(query.after)}`);
    }
    const audience = (source.inToOnly ? [ 'to' ] : [ 'to', 'cc', 'audience' ]).map((name): string => sparqlIri(`${AS_NS}${name}`)).join('|');
    const addressed = source.addressedTo ?
      `VALUES ?recipient { ${source.addressedTo.map(sparqlIri).join(' ')} } GRAPH ?item { ?item ${audience} ?recipient }` :
      '';
    if (source.actors?.length === 0) {
      return [];
    }
    const actors = source.actors ?
      `VALUES ?actor { ${source.actors.map(sparqlIri).join(' ')} } GRAPH ?item { ?item ${sparqlIri(`${AS_NS}actor`)} ?actor }` :
      '';
    const direction = query.ascending ? 'ASC' : 'DESC';
    const rows = await this.client.select(`SELECT DISTINCT ?item ?t WHERE {
  GRAPH ?g { ?g ${sparqlIri(ITEMS)} ?item . ?item ${sparqlIri(ADDED_AT)} ?added }
  ${collections}
  GRAPH ?item { ?item ${sparqlIri(RDF_TYPE)} ?type FILTER(?type IN (${TIMELINE_TYPES.map(sparqlIri).join(', ')}))
    OPTIONAL { ?item ${sparqlIri(`${AS_NS}published`)} ?published } }
  ${addressed}
  ${actors}
  BIND(COALESCE(?published, ?added) AS ?t)
  ${filters.length > 0 ? `FILTER(${filters.join(' && ')})` : ''}
} ORDER BY ${direction}(?t) ${direction}(STR(?item)) LIMIT ${query.limit * 2}`);
    // An item in two of the collections (a post to oneself) comes once.
    const items = new Map<string, TimelineItem>();
    for (const row of rows) {
      if (!items.has(row.item.value)) {
        items.set(row.item.value, { iri: row.item.value, time: new Date(row.t.value) });
      }
    }
    return [ ...items.values() ].slice(0, query.limit);
  }

  /** The actor's activities of `type` (a full IRI) on `object` still in its outbox (a Like, an Announce). */
  public async activitiesOn(outbox: string, actor: string | undefined, type: string, object: string): Promise<string[]> {
    const graph = sparqlIri(outbox);
    // No actor: anyone's (the Follows of an account in its inbox).
    const rows = await this.client.select(`SELECT DISTINCT ?a WHERE { GRAPH ${graph} { ${graph} ${sparqlIri(ITEMS)} ?a }
  GRAPH ?a { ?a ${sparqlIri(RDF_TYPE)} ${sparqlIri(type)} ; ${sparqlIri(`${AS_NS}actor`)} ${actor === undefined ? '?actor' : sparqlIri(actor)} ;
    ${sparqlIri(`${AS_NS}object`)} ${sparqlIri(object)} } }`);
    return rows.map((row): string => row.a.value);
  }

  /** Of these objects, those `actor` has an activity of `type` on among the items of `outbox` (one query for a page). */
  public async objectsActedOn(outbox: string, actor: string, type: string, objects: readonly string[]): Promise<Set<string>> {
    if (objects.length === 0) {
      return new Set();
    }
    const graph = sparqlIri(outbox);
    const rows = await this.client.select(`SELECT DISTINCT ?o WHERE { VALUES ?o { ${[ ...new Set(objects) ].map(sparqlIri).join(' ')} }
  GRAPH ?a { ?a ${sparqlIri(`${AS_NS}object`)} ?o ; ${sparqlIri(RDF_TYPE)} ${sparqlIri(type)} ; ${sparqlIri(`${AS_NS}actor`)} ${sparqlIri(actor)} }
  GRAPH ${graph} { ${graph} ${sparqlIri(ITEMS)} ?a } }`);
    return new Set(rows.map((row): string => row.o.value));
  }

  /** Which of these items the collection holds (one query for a page). */
  public async itemsIn(collection: string, items: readonly string[]): Promise<Set<string>> {
    if (items.length === 0) {
      return new Set();
    }
    const graph = sparqlIri(collection);
    const rows = await this.client.select(`SELECT ?item WHERE { VALUES ?item { ${[ ...new Set(items) ].map(sparqlIri).join(' ')} }
  GRAPH ${graph} { ${graph} ${sparqlIri(ITEMS)} ?item } }`);
    return new Set(rows.map((row): string => row.item.value));
  }

  /** How many objects reply to each of these (as repliesTo counts them: votes are no replies), in one query; none: absent. */
  public async replyCounts(iris: readonly string[]): Promise<Map<string, number>> {
    if (iris.length === 0) {
      return new Map();
    }
    const rows = await this.client.select(`SELECT ?parent (COUNT(DISTINCT ?o) AS ?n) WHERE {
  VALUES ?parent { ${[ ...new Set(iris) ].map(sparqlIri).join(' ')} } GRAPH ?o { ?o ${sparqlIri(`${AS_NS}inReplyTo`)} ?parent ${NOT_A_VOTE} } } GROUP BY ?parent`);
    return new Map(rows.map((row): [string, number] => [ row.parent.value, Number(row.n.value) ]));
  }

  /**
   * The objects replying to `iri` (as:inReplyTo), whatever their type, but votes in a poll: a vote is
   * a Note in reply to the poll naming an option, without content, and no reply (as on Mastodon).
   */
  public async repliesTo(iri: string): Promise<string[]> {
    const rows = await this.client.select(`SELECT DISTINCT ?o WHERE { GRAPH ?o { ?o ${sparqlIri(`${AS_NS}inReplyTo`)} ${sparqlIri(iri)} ${NOT_A_VOTE} } }`);
    return rows.map((row): string => row.o.value);
  }
}

/**
 * Mastodon's 404 for an unknown record, or one of another user's: `{ "error": "Record not found" }`,
 * the shape apps read; `message` says which record for the JSON error's message.
 */
export function recordNotFound(message = 'Record not found'): FedpodHttpError {
  return new FedpodHttpError(404, 'Record not found', message);
}
