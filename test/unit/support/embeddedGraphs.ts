import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Quad } from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { EmbeddedStoreHandle } from '../../../src/storage/embedded';
import { runEmbeddedStore } from '../../../src/storage/embedded';
import { CollectionStore } from '../../../src/storage/CollectionStore';
import { ResourceGraphStore } from '../../../src/storage/ResourceGraphStore';
import { Skolemizer } from '../../../src/storage/Skolemizer';
import { SparqlClient } from '../../../src/storage/SparqlClient';
import { DC_MODIFIED, LDP_RESOURCE, RDF_TYPE, XSD_DATETIME } from '../../../src/storage/StoreVocabulary';
import { createDataset } from '../storage/embedded/support/storeHttp';

const { literal, namedNode, quad } = DataFactory;

/** A real embedded store with a fresh dataset, and the storage classes over it. */
export interface EmbeddedGraphs {
  client: SparqlClient;
  resources: ResourceGraphStore;
  collections: CollectionStore;
  /** Writes a resource (data triples about `iri`, predicate → object IRIs or literals) with its metadata. */
  put: (iri: string, properties: [string, string, 'iri' | 'literal'][], parent?: string) => Promise<void>;
  /** Writes a resource whose data are these triples (subject, predicate, object IRI). */
  putTriples: (iri: string, triples: [string, string, string][]) => Promise<void>;
  stop: () => Promise<void>;
}

export async function startEmbeddedGraphs(baseUrl: string): Promise<EmbeddedGraphs> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fedpod-graphs-'));
  const store: EmbeddedStoreHandle = await runEmbeddedStore({ port: 0, dataDir });
  const created = await createDataset(store.url, 'ds');
  if (created.status >= 300) {
    throw new Error(`dataset not created: ${created.status}`);
  }
  const client = new SparqlClient(`${store.url}/ds/query`, `${store.url}/ds/update`, 'admin', 'admin');
  const resources = new ResourceGraphStore(client, new Skolemizer(baseUrl));
  return {
    client,
    resources,
    collections: new CollectionStore(client, undefined, undefined, undefined, resources),
    put: async(iri, properties, parent): Promise<void> => {
      const data: Quad[] = properties.map(([ predicate, value, kind ]): Quad =>
        quad(namedNode(iri), namedNode(predicate), kind === 'iri' ? namedNode(value) : literal(value)));
      await resources.write(iri, parent, [
        quad(namedNode(iri), namedNode(RDF_TYPE), namedNode(LDP_RESOURCE)),
        quad(namedNode(iri), namedNode(DC_MODIFIED), literal(new Date().toISOString(), namedNode(XSD_DATETIME))),
      ], data);
    },
    putTriples: async(iri, triples): Promise<void> => {
      await resources.write(iri, undefined, [ quad(namedNode(iri), namedNode(RDF_TYPE), namedNode(LDP_RESOURCE)) ],
        triples.map(([ subject, predicate, object ]): Quad => quad(namedNode(subject), namedNode(predicate), namedNode(object))));
    },
    stop: async(): Promise<void> => {
      await store.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
