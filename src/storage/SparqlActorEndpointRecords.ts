import { DataFactory } from 'n3';
import type { ActorEndpointRecords, ActorEndpoints } from './ActorEndpointRecords';
import type { SparqlClient } from './SparqlClient';
import { sparqlIri, sparqlLiteral } from './SparqlTerms';
import { FEDPOD_NS, XSD_DATETIME } from './StoreVocabulary';

const { literal, namedNode } = DataFactory;

const GRAPH = 'urn:fedpod:graph:remote-actors';
const INBOX = `${FEDPOD_NS}inbox`;
const SHARED_INBOX = `${FEDPOD_NS}sharedInbox`;
const CHECKED_AT = `${FEDPOD_NS}checkedAt`;

/**
 * Remote actors' endpoints in one graph, `urn:fedpod:graph:remote-actors`:
 * `<actor> fedpod:inbox <inbox>; fedpod:sharedInbox <shared>; fedpod:checkedAt "..."^^xsd:dateTime`.
 * The caller keeps each call to a few hundred actors (each request a few hundred kilobytes).
 */
export class SparqlActorEndpointRecords implements ActorEndpointRecords {
  public constructor(private readonly client: SparqlClient) {}

  public async lookup(actorIds: readonly string[]): Promise<Map<string, ActorEndpoints>> {
    const found = new Map<string, ActorEndpoints>();
    if (actorIds.length === 0) {
      return found;
    }
    const rows = await this.client.select(`SELECT ?a ?inbox ?shared ?at WHERE { VALUES ?a { ${actorIds.map(sparqlIri).join(' ')} }
  GRAPH ${sparqlIri(GRAPH)} { ?a ${sparqlIri(INBOX)} ?inbox ; ${sparqlIri(CHECKED_AT)} ?at .
    OPTIONAL { ?a ${sparqlIri(SHARED_INBOX)} ?shared } } }`);
    for (const row of rows) {
      const checkedAt = Date.parse(row.at.value);
      const previous = found.get(row.a.value);
      // Duplicates (a write racing another node's) resolve to the newest.
      if (!Number.isNaN(checkedAt) && (!previous || previous.checkedAt < checkedAt)) {
        found.set(row.a.value, { inbox: row.inbox.value, sharedInbox: row.shared?.value, checkedAt });
      }
    }
    return found;
  }

  public async replace(entries: readonly (readonly [string, ActorEndpoints])[]): Promise<void> {
    if (entries.length === 0) {
      return;
    }
    const graph = sparqlIri(GRAPH);
    const values = entries.map(([ id ]): string => sparqlIri(id)).join(' ');
    const triples = entries.map(([ id, endpoints ]): string => {
      const subject = sparqlIri(id);
      const at = sparqlLiteral(literal(new Date(endpoints.checkedAt).toISOString(), namedNode(XSD_DATETIME)));
      return `${subject} ${sparqlIri(INBOX)} ${sparqlIri(endpoints.inbox)} ; ${sparqlIri(CHECKED_AT)} ${at}${
        endpoints.sharedInbox ? ` ; ${sparqlIri(SHARED_INBOX)} ${sparqlIri(endpoints.sharedInbox)}` : ''} .`;
    });
    await this.client.update(`DELETE { GRAPH ${graph} { ?a ?p ?o } } WHERE { VALUES ?a { ${values} } GRAPH ${graph} { ?a ?p ?o } } ;
INSERT DATA { GRAPH ${graph} {
${triples.join('\n')}
} }`);
  }
}
