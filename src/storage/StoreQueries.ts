import type { TransportResponse } from './HttpTransport';

/**
 * What the rest of the server asks of the store beyond resources and collections: whether it
 * answers, and a client's own SPARQL query passed through (the read-only /sparql endpoint).
 * `SparqlClient` implements it.
 */
export interface StoreQueries {
  /** Resolves when the store answers a trivial query; rejects with the reason otherwise. */
  probe: () => Promise<void>;
  /** A query as a client sent it, answered as the store answers it (status, type and body). */
  rawQuery: (query: string, accept: string) => Promise<TransportResponse>;
}
