import { DataFactory } from 'n3';
import type { Collections } from '../../storage/Collections';
import type { ResourceGraphs } from '../../storage/ResourceGraphs';
import type { SparqlClient } from '../../storage/SparqlClient';
import { sparqlIri, sparqlLiteral } from '../../storage/SparqlTerms';
import { FEDPOD_NS, RDF_TYPE, XSD_DATETIME } from '../../storage/StoreVocabulary';
import { AS_NS, AS_PUBLIC } from './ActivityVocabulary';
import { ActorUrls } from './ActorUrls';
import type { AudienceRules } from './AudienceRules';

const { literal, namedNode } = DataFactory;
const ITEMS = `${AS_NS}items`;
const ADDED_AT = `${FEDPOD_NS}addedAt`;

/** A reply or a tagged post, with the time it is ordered by (its `published`). */
export interface ThreadItem {
  iri: string;
  time: string;
}

/** What a vote in a poll looks like (Mastodon's: a Note with the option's `name` and no `content`): not a reply. `?o` is the object. */
const VOTE = `?o ${sparqlIri(`${AS_NS}name`)} ?vote FILTER NOT EXISTS { ?o ${sparqlIri(`${AS_NS}content`)} ?text }`;
export const NOT_A_VOTE = `FILTER NOT EXISTS { ${VOTE} }`;
const text = (value: string): string => sparqlLiteral(literal(value));

/**
 * Threads and counts read from the stored objects rather than kept apart, so they cannot drift from
 * what is stored: the replies to an object (every stored object whose `inReplyTo` names it, posted
 * here or received, votes left out), the reactions a local object received (its `likes` and
 * `shares` collections, kept by ReactionReceivedEffect), the local public posts with a hashtag, and
 * the usage NodeInfo reports. A reader gets only the replies the audience rules let them read.
 */
export class ObjectThreads {
  private readonly urls: ActorUrls;

  public constructor(
    baseUrl: string,
    private readonly client: SparqlClient,
    private readonly store: ResourceGraphs,
    private readonly rules: AudienceRules,
    private readonly collections: Collections,
  ) {
    this.urls = new ActorUrls(baseUrl);
  }

  /** Every reply to `iri`, oldest first (by `published`, then IRI); votes in a poll only when asked for. */
  public async replies(iri: string, votes = false): Promise<ThreadItem[]> {
    const rows = await this.client.select(`SELECT DISTINCT ?o ?p WHERE { GRAPH ?o {
  ?o ${sparqlIri(`${AS_NS}inReplyTo`)} ${sparqlIri(iri)} OPTIONAL { ?o ${sparqlIri(`${AS_NS}published`)} ?p } ${votes ? '' : NOT_A_VOTE} } }`);
    return rows.map((row): ThreadItem => ({ iri: row.o.value, time: row.p?.value ?? '' }))
      .sort((first, second): number => first.time.localeCompare(second.time) || first.iri.localeCompare(second.iri));
  }

  /** The replies to `iri` that `reader` may read (a remote one also when it reached the reader's inbox), oldest first. */
  public async readableReplies(iri: string, reader: string | undefined): Promise<ThreadItem[]> {
    const replies = await this.replies(iri);
    const data = await this.store.readDataMany(replies.map((reply): string => reply.iri));
    const followers = new Map<string, Promise<boolean>>();
    const readable: ThreadItem[] = [];
    for (const reply of replies) {
      const addressing = this.rules.addressingIn(reply.iri, data.get(reply.iri) ?? []);
      const local = reply.iri.startsWith(this.urls.base);
      if (local ? await this.rules.mayRead(addressing, reader, followers) :
        await this.rules.mayReadReceived(reply.iri, addressing, reader)) {
        readable.push(reply);
      }
    }
    return readable;
  }

  /** How many Likes (`likes`) or Announces (`shares`) a local object received and were not undone. */
  public async reactionCount(iri: string, kind: 'likes' | 'shares'): Promise<number> {
    return this.collections.count(`${iri}/${kind}`);
  }

  /**
   * Local public posts (to or cc Public) with a Hashtag tag named `tag` (with or without `#`, any
   * case), newest first, `limit` of them published before `before` when given.
   */
  public async tagged(tag: string, limit: number, before?: string): Promise<ThreadItem[]> {
    const names = [ ...new Set([ tag, tag.toLowerCase() ]) ].flatMap((name): string[] => [ name, `#${name}` ]);
    const objects = this.urls.url('objects');
    const rows = await this.client.select(`SELECT DISTINCT ?o ?p WHERE { GRAPH ?o {
  ?o ${sparqlIri(`${AS_NS}tag`)} ?t . ?t ${sparqlIri(RDF_TYPE)} ${sparqlIri(`${AS_NS}Hashtag`)} ; ${sparqlIri(`${AS_NS}name`)} ?n .
  ?o ${sparqlIri(`${AS_NS}to`)}|${sparqlIri(`${AS_NS}cc`)} ${sparqlIri(AS_PUBLIC)} .
  ?o ${sparqlIri(`${AS_NS}published`)} ?p }
  FILTER(STRSTARTS(STR(?o), ${text(objects)}) && LCASE(STR(?n)) IN (${names.map((name): string => text(name.toLowerCase())).join(', ')}))
  ${before ? `FILTER(STR(?p) < ${text(before)})` : ''}
} ORDER BY DESC(STR(?p)) DESC(STR(?o)) LIMIT ${Math.max(1, Math.floor(limit))}`);
    return rows.map((row): ThreadItem => ({ iri: row.o.value, time: row.p.value }));
  }

  /** The posts in local outboxes (Creates still listed there: a deleted post leaves its outbox), votes left out. */
  public async localPosts(): Promise<number> {
    const rows = await this.client.select(`SELECT (COUNT(DISTINCT ?a) AS ?n) WHERE {
  GRAPH ?box { ?box ${sparqlIri(ITEMS)} ?a }
  FILTER(STRSTARTS(STR(?box), ${text(this.urls.url('actors'))}) && STRENDS(STR(?box), "/outbox"))
  GRAPH ?a { ?a ${sparqlIri(RDF_TYPE)} ${sparqlIri(`${AS_NS}Create`)} ; ${sparqlIri(`${AS_NS}object`)} ?o }
  FILTER NOT EXISTS { GRAPH ?o { ${VOTE} } }
}`);
    return Number(rows[0]?.n?.value ?? 0);
  }

  /** How many local actors posted anything to their outbox since `since`. */
  public async activeUsers(since: Date): Promise<number> {
    const rows = await this.client.select(`SELECT (COUNT(DISTINCT ?box) AS ?n) WHERE {
  GRAPH ?box { ?box ${sparqlIri(ITEMS)} ?a . ?a ${sparqlIri(ADDED_AT)} ?t }
  FILTER(STRSTARTS(STR(?box), ${text(this.urls.url('actors'))}) && STRENDS(STR(?box), "/outbox"))
  FILTER(?t >= ${sparqlLiteral(literal(since.toISOString(), namedNode(XSD_DATETIME)))})
}`);
    return Number(rows[0]?.n?.value ?? 0);
  }
}
