/**
 * The SPARQL stores the integration tests run the server on: the embedded store, the shared
 * Virtuoso (a plain /sparql endpoint) and the shared Jena test server (ARQ and TDB2 behind
 * Fuseki's URL layout, the dataset made by Fedpod at start-up), with how to read what the server
 * stored.
 */
import { sharedServers } from './env';
import type { FedpodServer } from './fedpod';
import { JENA_PASSWORD, JENA_USER } from './jena';
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
    name: 'Jena test server',
    extraArgs: () => ({ sparqlEndpoint: sharedServers().jenaUrl }),
    queryUrl: () => `${sharedServers().jenaUrl}/${DATASET}/query`,
    auth: `Basic ${Buffer.from(`${JENA_USER}:${JENA_PASSWORD}`).toString('base64')}`,
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
