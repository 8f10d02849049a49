import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEmbeddedStore, type EmbeddedStoreHandle } from '../../../../src/storage/embedded';
import { SparqlClient } from '../../../../src/storage/SparqlClient';
import { sharedServers } from '../../../support/env';
import { FUSEKI_PASSWORD, FUSEKI_USER } from '../../../support/fuseki';

/** A store that Fedpod's storage classes are tried on directly (not through a server). */
export interface TestedStore {
  name: string;
  /** A new client of the store (each its own connections and update groups, as each node has). */
  client: () => SparqlClient;
  /** Readies the store for these tests (once per file). */
  prepare: () => Promise<void>;
  /** Ends what prepare started. */
  finish: () => Promise<void>;
}

/** Makes the tests' dataset the way Fedpod makes its own on Fuseki (409: made already). */
async function makeDataset(baseUrl: string, user: string, password: string, type: string): Promise<void> {
  const answer = await fetch(`${baseUrl}/$/datasets`, { method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` },
    body: new URLSearchParams({ dbName: DATASET, dbType: type }) });
  expect([ 200, 409 ]).toContain(answer.status);
}

let embedded: { store: EmbeddedStoreHandle; dataDir: string } | undefined;

const DATASET = 'storageTests';

/** The three stores Fedpod is tested on: the embedded one (started here), the run's Virtuoso and Fuseki (TDB2). */
export const STORES: TestedStore[] = [
  {
    name: 'the embedded store',
    client: () => new SparqlClient(`${embedded!.store.url}/${DATASET}/query`, `${embedded!.store.url}/${DATASET}/update`, 'admin', 'admin'),
    prepare: async() => {
      const dataDir = mkdtempSync(join(tmpdir(), 'fedpod-storage-'));
      embedded = { store: await runEmbeddedStore({ port: 0, dataDir }), dataDir };
      await makeDataset(embedded.store.url, 'admin', 'admin', 'tdb2');
    },
    finish: async() => {
      await embedded?.store.stop();
      rmSync(embedded?.dataDir ?? '', { recursive: true, force: true });
      embedded = undefined;
    },
  },
  {
    name: 'Virtuoso',
    client: () => new SparqlClient(sharedServers().sparqlEndpoint, sharedServers().sparqlEndpoint),
    prepare: async() => undefined,
    finish: async() => undefined,
  },
  {
    name: 'Fuseki',
    client: () => new SparqlClient(`${sharedServers().fusekiUrl}/${DATASET}/query`, `${sharedServers().fusekiUrl}/${DATASET}/update`,
      FUSEKI_USER, FUSEKI_PASSWORD),
    prepare: async() => makeDataset(sharedServers().fusekiUrl, FUSEKI_USER, FUSEKI_PASSWORD, 'tdb2'),
    finish: async() => undefined,
  },
];
