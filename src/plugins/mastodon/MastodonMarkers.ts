import { DataFactory } from 'n3';
import type { SparqlClient } from '../../storage/SparqlClient';
import { sparqlIri, sparqlLiteral } from '../../storage/SparqlTerms';
import { FEDPOD_NS, XSD_DATETIME } from '../../storage/StoreVocabulary';
import type { AccountDataRemover } from '../accounts/AccountDataRemover';

const { literal, namedNode } = DataFactory;

/** The timelines a marker is kept for, as Mastodon has them. */
export const MARKER_TIMELINES = [ 'home', 'notifications' ] as const;
export type MarkerTimeline = typeof MARKER_TIMELINES[number];

/** Mastodon's Marker entity. */
export interface MastodonMarker {
  last_read_id: string;
  version: number;
  updated_at: string;
}

const P = {
  lastRead: `${FEDPOD_NS}markerLastRead`,
  version: `${FEDPOD_NS}markerVersion`,
  updated: `${FEDPOD_NS}markerUpdated`,
};

/**
 * Where each user stopped reading their home timeline and notifications (Mastodon's markers), so
 * that another app of theirs starts there. Kept in the store, a graph per user named by their actor
 * (`urn:fedpod:mastodon:markers:<actor>`, so servers sharing a store never share one), a subject per
 * timeline: small, read by every node, kept across restarts. `user` below is the user's actor IRI.
 */
export class MastodonMarkers implements AccountDataRemover {
  public constructor(private readonly client: SparqlClient) {}

  /** The user's markers of these timelines, those that were ever set. */
  public async get(user: string, timelines: readonly MarkerTimeline[]): Promise<Partial<Record<MarkerTimeline, MastodonMarker>>> {
    const markers: Partial<Record<MarkerTimeline, MastodonMarker>> = {};
    if (timelines.length === 0) {
      return markers;
    }
    const rows = await this.client.select(`SELECT ?m ?last ?version ?updated WHERE {
  VALUES ?m { ${timelines.map((timeline): string => sparqlIri(this.subjectOf(user, timeline))).join(' ')} }
  GRAPH ${sparqlIri(this.graphOf(user))} { ?m ${sparqlIri(P.lastRead)} ?last ; ${sparqlIri(P.version)} ?version ; ${sparqlIri(P.updated)} ?updated } }`);
    for (const timeline of timelines) {
      const row = rows.find((candidate): boolean => candidate.m.value === this.subjectOf(user, timeline));
      if (row) {
        markers[timeline] = { last_read_id: row.last.value, version: Number(row.version.value),
          updated_at: new Date(row.updated.value).toISOString() };
      }
    }
    return markers;
  }

  /** Sets where the user stopped reading a timeline; each change counts one more version. */
  public async set(user: string, timeline: MarkerTimeline, lastReadId: string): Promise<MastodonMarker> {
    const version = ((await this.get(user, [ timeline ]))[timeline]?.version ?? 0) + 1;
    const now = new Date();
    const subject = sparqlIri(this.subjectOf(user, timeline));
    const graph = sparqlIri(this.graphOf(user));
    await this.client.update(`DELETE WHERE { GRAPH ${graph} { ${subject} ?p ?o } };
INSERT DATA { GRAPH ${graph} { ${subject} ${sparqlIri(P.lastRead)} ${sparqlLiteral(literal(lastReadId))} ;
  ${sparqlIri(P.version)} ${version} ;
  ${sparqlIri(P.updated)} ${sparqlLiteral(literal(now.toISOString(), namedNode(XSD_DATETIME)))} . } }`);
    return { last_read_id: lastReadId, version, updated_at: now.toISOString() };
  }

  /** A deleted account's markers. */
  public async removeAccountData(username: string, webId: string): Promise<void> {
    await this.client.update(`DELETE WHERE { GRAPH ${sparqlIri(this.graphOf(webId))} { ?s ?p ?o } }`);
  }

  private graphOf(user: string): string {
    return `urn:fedpod:mastodon:markers:${user}`;
  }

  private subjectOf(user: string, timeline: MarkerTimeline): string {
    return `urn:fedpod:mastodon:marker:${timeline}:${user}`;
  }
}
