import type { ResourceOwners } from './ResourceOwners';
import type { SparqlClient } from './SparqlClient';
import { sparqlIri } from './SparqlTerms';

const OWNERS_GRAPH = 'urn:fedpod:owners';
const OWNER = 'urn:fedpod:ns:owner';

/**
 * Who owns an LDP resource that an authenticated agent created: `<resource> fedpod:owner <webId>`
 * in one graph of its own, apart from the resource's data and metadata graphs, so that rewriting a
 * resource (a PUT through CSS replaces its metadata) never loses it. A record outlives a DELETE of its
 * resource on purpose: the name stays its owner's, and nobody else can take it over.
 */
export class OwnerStore implements ResourceOwners {
  public constructor(private readonly client: SparqlClient) {}

  public async ownerOf(iri: string): Promise<string | undefined> {
    const rows = await this.client.select(
      `SELECT ?owner WHERE { GRAPH ${sparqlIri(OWNERS_GRAPH)} { ${sparqlIri(iri)} ${sparqlIri(OWNER)} ?owner } } LIMIT 1`,
    );
    return rows[0]?.owner.value;
  }

  /** Records the owner of a resource that has none yet; an existing owner is kept. */
  public async claim(iri: string, webId: string): Promise<void> {
    const graph = sparqlIri(OWNERS_GRAPH);
    const subject = sparqlIri(iri);
    // A COUNT, not a bare FILTER NOT EXISTS: Virtuoso ignores a FILTER NOT EXISTS that is the whole WHERE.
    await this.client.update(`INSERT { GRAPH ${graph} { ${subject} ${sparqlIri(OWNER)} ${sparqlIri(webId)} } }
WHERE { { SELECT (COUNT(*) AS ?owners) WHERE { GRAPH ${graph} { ${subject} ${sparqlIri(OWNER)} ?any } } } FILTER(?owners = 0) }`);
  }
}
