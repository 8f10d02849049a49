/**
 * The SPARQL stores the integration tests run the server on: the embedded store, the shared
 * Virtuoso (a plain /sparql endpoint) and the shared Apache Jena Fuseki (TDB2, the dataset
 * made by Fedpod at start-up through Fuseki's admin protocol), with how to read what the server
 * stored.
 */
import { sharedServers } from './env';
import type { FedpodServer } from './fedpod';
import { FUSEKI_AUTH } from './fuseki';
import { httpRequest } from './sparql';

/** The dataset Fedpod uses (its --dataset default) and creates on a Fuseki-style store. */
const DATASET = 'localData';

export interface TestStore {
  name: string;
  /** startFedpod options that select the store. */
  extraArgs: () => { sparqlEndpoint?: string };
  /** Query endpoint for checking what the server stored. */
  queryUrl: (server: FedpodServer) => string;
  auth?: string;
}

export const TEST_STORES: TestStore[] = [
  {
    name: 'embedded store',
    extraArgs: () => ({}),
    queryUrl: (server) => `http://127.0.0.1:${server.storePort}/localData/query`,
    auth: `Basic ${Buffer.from('admin:admin').toString('base64')}`,
  },
  {
    name: 'Virtuoso',
    extraArgs: () => ({ sparqlEndpoint: sharedServers().sparqlEndpoint }),
    queryUrl: () => sharedServers().sparqlEndpoint,
  },
  {
    name: 'Fuseki',
    extraArgs: () => ({ sparqlEndpoint: sharedServers().fusekiUrl }),
    queryUrl: () => `${sharedServers().fusekiUrl}/${DATASET}/query`,
    auth: FUSEKI_AUTH,
  },
];

/** A SELECT on the store itself (not through Fedpod): the result rows. */
export async function selectOnStore(store: TestStore, server: FedpodServer, query: string):
Promise<Record<string, { type: string; value: string }>[]> {
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/sparql-results+json',
  };
  if (store.auth) {
    headers.authorization = store.auth;
  }
  const answer = await httpRequest(store.queryUrl(server), { method: 'POST', headers, body: `query=${encodeURIComponent(query)}` });
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.body) as { results: { bindings: Record<string, { type: string; value: string }>[] } }).results.bindings;
}
