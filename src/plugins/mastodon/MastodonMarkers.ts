import { DataFactory } from 'n3';
import type { SparqlClient } from '../../storage/SparqlClient';
import { sparqlIri, sparqlLiteral } from '../../storage/SparqlTerms';
import { FEDPOD_NS, XSD_DATETIME } from '../../storage/StoreVocabulary';

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

const GRAPH = 'urn:fedpod:mastodon:markers';
const P = {
  lastRead: `${FEDPOD_NS}markerLastRead`,
  version: `${FEDPOD_NS}markerVersion`,
  updated: `${FEDPOD_NS}markerUpdated`,
};

/**
 * Where each user stopped reading their home timeline and notifications (Mastodon's markers), so
 * that another app of theirs starts there. Kept in the store (graph `urn:fedpod:mastodon:markers`,
 * one subject per user and timeline): small, read by every node, kept across restarts.
 */
export class MastodonMarkers {
  public constructor(private readonly client: SparqlClient) {}

  /** The user's markers of these timelines, those that were ever set. */
  public async get(username: string, timelines: readonly MarkerTimeline[]): Promise<Partial<Record<MarkerTimeline, MastodonMarker>>> {
    const markers: Partial<Record<MarkerTimeline, MastodonMarker>> = {};
    if (timelines.length === 0) {
      return markers;
    }
    const rows = await this.client.select(`SELECT ?m ?last ?version ?updated WHERE {
  VALUES ?m { ${timelines.map((timeline): string => sparqlIri(this.subjectOf(username, timeline))).join(' ')} }
  GRAPH ${sparqlIri(GRAPH)} { ?m ${sparqlIri(P.lastRead)} ?last ; ${sparqlIri(P.version)} ?version ; ${sparqlIri(P.updated)} ?updated } }`);
    for (const timeline of timelines) {
      const row = rows.find((candidate): boolean => candidate.m.value === this.subjectOf(username, timeline));
      if (row) {
        markers[timeline] = { last_read_id: row.last.value, version: Number(row.version.value),
          updated_at: new Date(row.updated.value).toISOString() };
      }
    }
    return markers;
  }

  /** Sets where the user stopped reading a timeline; each change counts one more version. */
  public async set(username: string, timeline: MarkerTimeline, lastReadId: string): Promise<MastodonMarker> {
    const version = ((await this.get(username, [ timeline ]))[timeline]?.version ?? 0) + 1;
    const now = new Date();
    const subject = sparqlIri(this.subjectOf(username, timeline));
    const graph = sparqlIri(GRAPH);
    await this.client.update(`DELETE WHERE { GRAPH ${graph} { ${subject} ?p ?o } };
INSERT DATA { GRAPH ${graph} { ${subject} ${sparqlIri(P.lastRead)} ${sparqlLiteral(literal(lastReadId))} ;
  ${sparqlIri(P.version)} ${version} ;
  ${sparqlIri(P.updated)} ${sparqlLiteral(literal(now.toISOString(), namedNode(XSD_DATETIME)))} . } }`);
    return { last_read_id: lastReadId, version, updated_at: now.toISOString() };
  }

  private subjectOf(username: string, timeline: MarkerTimeline): string {
    return `urn:fedpod:mastodon:marker:${encodeURIComponent(username)}:${timeline}`;
  }
}
