import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Quad } from '@rdfjs/types';
import { DataFactory } from 'n3';
import { CoalescingResourceWriter } from '../../../src/storage/CoalescingResourceWriter';
import type { EmbeddedStoreHandle } from '../../../src/storage/embedded';
import { runEmbeddedStore } from '../../../src/storage/embedded';
import type { ResourceWrite } from '../../../src/storage/ResourceGraphs';
import { ResourceGraphStore } from '../../../src/storage/ResourceGraphStore';
import { Skolemizer } from '../../../src/storage/Skolemizer';
import { SparqlClient } from '../../../src/storage/SparqlClient';
import { DC_MODIFIED, LDP_RESOURCE, RDF_TYPE } from '../../../src/storage/StoreVocabulary';
import { StoreUnavailableHttpError } from '../../../src/storage/StoreUnavailableHttpError';
import { createDataset } from './embedded/support/storeHttp';

const { namedNode, literal, quad } = DataFactory;
const BASE = 'https://pod.example/';
const CONTAINER = `${BASE}data/`;

function document(name: string): ResourceWrite & { data: Quad[] } {
  const iri = `${CONTAINER}${name}`;
  return {
    iri,
    parent: CONTAINER,
    metadata: [ quad(namedNode(iri), namedNode(RDF_TYPE), namedNode(LDP_RESOURCE)) ],
    data: [ quad(namedNode(iri), namedNode('https://vocab.example/name'), literal(name)) ],
  };
}

describe('CoalescingResourceWriter (on the embedded store)', () => {
  let dataDir: string;
  let store: EmbeddedStoreHandle;
  let client: SparqlClient;
  let graphs: ResourceGraphStore;
  let updates: jest.SpyInstance;

  beforeAll(async() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fedpod-coalescing-'));
    store = await runEmbeddedStore({ port: 0, dataDir });
    expect((await createDataset(store.url, 'ds')).status).toBeLessThan(300);
    client = new SparqlClient(`${store.url}/ds/query`, `${store.url}/ds/update`, 'admin', 'admin');
    graphs = new ResourceGraphStore(client, new Skolemizer(BASE));
    // The container exists, with a modification date that writes of its documents move.
    await graphs.write(CONTAINER, undefined, [ quad(namedNode(CONTAINER), namedNode(DC_MODIFIED), literal('2000-01-01T00:00:00.000Z')) ]);
  });

  beforeEach(() => {
    // Counts the update requests sent to the (real) store.
    updates = jest.spyOn(client, 'update');
  });

  afterEach(() => {
    updates.mockRestore();
  });

  afterAll(async() => {
    await store.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('stores the writes of one turn with one update request, each resource whole', async() => {
    const writer = new CoalescingResourceWriter(graphs);
    const names = [ 'a1', 'a2', 'a3', 'a4', 'a5' ];
    await Promise.all(names.map(async(name) => writer.write(document(name))));
    expect(updates).toHaveBeenCalledTimes(1);
    for (const name of names) {
      const stored = await graphs.read(`${CONTAINER}${name}`);
      expect(stored?.data.map((entry) => entry.object.value)).toEqual([ name ]);
    }
    const members = await graphs.children(CONTAINER);
    expect(members).toEqual(expect.arrayContaining(names.map((name) => `${CONTAINER}${name}`)));
    // Touched once, and moved.
    expect(await graphs.readModified(CONTAINER)).not.toBe('2000-01-01T00:00:00.000Z');
  });

  it('groups the writes asked for while a group is being stored into the next one', async() => {
    const writer = new CoalescingResourceWriter(graphs);
    const first = writer.write(document('b0'));
    // The first group is on its way once this turn's I/O is done; these come later.
    await new Promise((resolve) => setImmediate(resolve));
    const later = [ 'b1', 'b2', 'b3' ].map(async(name) => writer.write(document(name)));
    await Promise.all([ first, ...later ]);
    expect(updates).toHaveBeenCalledTimes(2);
    expect((updates.mock.calls[1][0] as string).match(/INSERT DATA/gu)).toHaveLength(3);
  });

  it('replaces what a resource held before', async() => {
    const writer = new CoalescingResourceWriter(graphs);
    await writer.write(document('c1'));
    const changed = document('c1');
    changed.data = [ quad(namedNode(changed.iri), namedNode('https://vocab.example/name'), literal('changed')) ];
    await writer.write(changed);
    expect((await graphs.read(changed.iri))?.data.map((entry) => entry.object.value)).toEqual([ 'changed' ]);
  });

  it('fails only the bad write of a group: the others are stored one by one', async() => {
    const writer = new CoalescingResourceWriter(graphs);
    const bad = { ...document('d-bad'), iri: 'not an iri' };
    const results = await Promise.allSettled([ writer.write(document('d1')), writer.write(bad), writer.write(document('d2')) ]);
    expect(results.map((result) => result.status)).toEqual([ 'fulfilled', 'rejected', 'fulfilled' ]);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ statusCode: 400 });
    expect(await graphs.exists(`${CONTAINER}d1`)).toBe(true);
    expect(await graphs.exists(`${CONTAINER}d2`)).toBe(true);
  });

  it('fails the whole group at once while the store is away, without one request per write', async() => {
    const writer = new CoalescingResourceWriter(graphs);
    updates.mockImplementation(async() => {
      throw new StoreUnavailableHttpError('The store is not reachable');
    });
    const results = await Promise.allSettled([ 'e1', 'e2', 'e3' ].map(async(name) => writer.write(document(name))));
    expect(results.every((result) => result.status === 'rejected' && (result.reason as { statusCode: number }).statusCode === 503)).toBe(true);
    expect(updates).toHaveBeenCalledTimes(1);
  });

  it('keeps each update request under its group size', async() => {
    const writer = new CoalescingResourceWriter(graphs, 4);
    await Promise.all(Array.from({ length: 10 }, async(_, index) => writer.write(document(`f${index}`))));
    expect(updates.mock.calls.map((call) => (call[0] as string).match(/INSERT DATA/gu)!.length)).toEqual([ 4, 4, 2 ]);
    expect(await graphs.children(CONTAINER)).toEqual(expect.arrayContaining(
      Array.from({ length: 10 }, (_, index) => `${CONTAINER}f${index}`),
    ));
  });
});
