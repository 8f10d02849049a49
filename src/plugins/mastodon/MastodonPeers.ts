import type { SparqlClient } from '../../storage/SparqlClient';
import { sparqlIri } from '../../storage/SparqlTerms';
import { AS_NS } from '../activitypub/ActivityVocabulary';
import type { DomainBlocks } from '../moderation/DomainBlocks';

/** How long the list is reused: it is asked for when an app starts, and reading it scans the stored activities. */
const CACHE_MS = 60_000;
/** Most actors read to find the domains (a bound on the query's answer, not on the domains). */
const MAX_ACTORS = 50_000;

/**
 * The domains this server has federated with (`GET /api/v1/instance/peers`): the hosts of the actors
 * of stored activities and of the local actors' followers and following, other than this server's
 * own, sorted; a domain under a `suspend` block is left out, as Mastodon leaves it out.
 */
export class MastodonPeers {
  private readonly host: string;
  private cached?: { at: number; hosts: Promise<string[]> };

  public constructor(private readonly client: SparqlClient, baseUrl: string, private readonly domainBlocks?: DomainBlocks) {
    this.host = new URL(baseUrl).host.toLowerCase();
  }

  public async peers(): Promise<string[]> {
    if (!this.cached || Date.now() - this.cached.at > CACHE_MS) {
      const hosts = this.read();
      this.cached = { at: Date.now(), hosts };
      hosts.catch((): void => {
        this.cached = undefined;
      });
    }
    const hosts = await this.cached.hosts;
    const shown: string[] = [];
    for (const host of hosts) {
      if (!await this.domainBlocks?.refuses(host)) {
        shown.push(host);
      }
    }
    return shown;
  }

  private async read(): Promise<string[]> {
    const items = sparqlIri(`${AS_NS}items`);
    const rows = await this.client.select(`SELECT DISTINCT ?actor WHERE {
  { GRAPH ?a { ?a ${sparqlIri(`${AS_NS}actor`)} ?actor } }
  UNION
  { GRAPH ?g { ?g ${items} ?actor } FILTER(STRENDS(STR(?g), "/followers") || STRENDS(STR(?g), "/following")) }
  FILTER(isIRI(?actor))
} LIMIT ${MAX_ACTORS}`);
    const hosts = new Set<string>();
    for (const row of rows) {
      try {
        const url = new URL(row.actor.value);
        if ([ 'http:', 'https:' ].includes(url.protocol) && url.host.toLowerCase() !== this.host) {
          hosts.add(url.host.toLowerCase());
        }
      } catch {
        // Not a URL: no domain.
      }
    }
    return [ ...hosts ].sort();
  }
}
