import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Quad } from '@rdfjs/types';
import { DataFactory, Parser } from 'n3';
import { runEmbeddedStore } from '../../../src/storage/embedded';
import type { EmbeddedStoreHandle } from '../../../src/storage/embedded';
import { EmbeddedDatasetReader } from '../../../src/storage/EmbeddedDatasetReader';
import { graphBatches, StoreDump } from '../../../src/storage/StoreDump';
import { StoreLoader } from '../../../src/storage/StoreLoader';
import { StoreDatasetInitializer } from '../../../src/storage/StoreDatasetInitializer';

const { blankNode, literal, namedNode, quad } = DataFactory;
const p = namedNode('http://example.org/p');

/** Quads of `graphs` graphs of `size` quads each, and one graph with a literal that needs escaping. */
function sample(graphs: number, size: number): Quad[] {
  const quads: Quad[] = [];
  for (let g = 0; g < graphs; g++) {
    for (let index = 0; index < size; index++) {
      quads.push(quad(namedNode(`http://pod.example/r${g}`), p, literal(`value ${index}`), namedNode(`http://pod.example/r${g}`)));
    }
  }
  quads.push(quad(namedNode('http://pod.example/x'), p, literal('line\n"two"\\', 'en'), namedNode('meta:http://pod.example/x')));
  return quads;
}

async function collect(source: AsyncIterable<Quad>): Promise<Quad[]> {
  const out: Quad[] = [];
  for await (const entry of source) {
    out.push(entry);
  }
  return out;
}

function keys(quads: Iterable<Quad>): string[] {
  return [ ...quads ].map((entry): string => `${entry.subject.value} ${entry.predicate.value} ${entry.object.value} ` +
    `${entry.object.termType === 'Literal' ? entry.object.language : ''} ${entry.graph.value}`).sort();
}

describe('graphBatches', (): void => {
  it('groups graphs up to the size given, a larger graph alone', (): void => {
    expect(graphBatches([[ 'a', 2 ], [ 'b', 2 ], [ 'c', 1 ], [ 'd', 9 ], [ 'e', 1 ]], 4))
      .toEqual([[[ 'a', 2 ], [ 'b', 2 ]], [[ 'c', 1 ]], [[ 'd', 9 ]], [[ 'e', 1 ]]]);
    expect(graphBatches([], 4)).toEqual([]);
  });
});

describe('StoreLoader and StoreDump on the embedded store', (): void => {
  let dataDir: string;
  let store: EmbeddedStoreHandle | undefined;
  const urls = (dataset: string): { queryUrl: string; updateUrl: string; graphStoreUrl: string } => ({
    queryUrl: `${store!.url}/${dataset}/query`, updateUrl: `${store!.url}/${dataset}/update`, graphStoreUrl: `${store!.url}/${dataset}/data` });
  const credentials = { user: 'admin', password: 'secret', timeoutMs: 30_000 };

  beforeEach(async(): Promise<void> => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-dump-'));
    store = await runEmbeddedStore({ port: 0, dataDir, user: 'admin', password: 'secret' });
    for (const name of [ 'one', 'two' ]) {
      await new StoreDatasetInitializer(`${store.url}/`, name, 'admin', 'secret').handle();
    }
  });

  afterEach(async(): Promise<void> => {
    await store?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loads over the Graph Store Protocol or SPARQL updates, and reads back the same quads by GET or by SELECT', async(): Promise<void> => {
    const quads = sample(5, 7);
    const byGraphStore = new StoreLoader({ ...urls('one'), ...credentials });
    const byUpdate = new StoreLoader({ ...urls('two'), graphStoreUrl: '', ...credentials });
    try {
      expect(await byGraphStore.holdsAnything()).toBe(false);
      await byGraphStore.add(quads.slice(0, 20));
      await byGraphStore.add(quads.slice(20));
      await byUpdate.add(quads);
      expect([ byGraphStore.method, byUpdate.method ]).toEqual([ 'graph-store', 'update' ]);
      expect(await byGraphStore.holdsAnything()).toBe(true);
      expect(await byUpdate.countIn([ 'http://pod.example/r0', 'meta:http://pod.example/x', 'http://pod.example/none' ])).toBe(8);
      expect(await byUpdate.countAll()).toBe(quads.length);
      expect(await byUpdate.holdsAnyOf([ 'http://pod.example/none' ])).toBe(false);
      expect(await byUpdate.holdsAnyOf([ 'http://pod.example/none', 'http://pod.example/r4' ])).toBe(true);
    } finally {
      byGraphStore.close();
      byUpdate.close();
    }
    const get = new StoreDump({ ...urls('one'), ...credentials, pageQuads: 5000 });
    expect(keys(await collect(get.quads()))).toEqual(keys(quads));
    expect(get.method).toBe('graph-store');
    // Pages smaller than a graph: the graph is read in ordered pages; every answer checked against the listed sizes.
    const select = new StoreDump({ ...urls('two'), graphStoreUrl: '', ...credentials, pageQuads: 3 });
    expect(keys(await collect(select.quads()))).toEqual(keys(quads));
    expect(select.method).toBe('select');
  });

  it('clears only the graphs named', async(): Promise<void> => {
    const loader = new StoreLoader({ ...urls('one'), ...credentials });
    try {
      await loader.add(sample(3, 2));
      await loader.clear([ 'http://pod.example/r0', 'http://pod.example/r1' ]);
      expect(await loader.countIn([ 'http://pod.example/r0', 'http://pod.example/r1', 'http://pod.example/r2' ])).toBe(2);
    } finally {
      loader.close();
    }
  });

  it('keeps a blank node one node within a batch, and a SELECT dump refuses blank nodes', async(): Promise<void> => {
    const loader = new StoreLoader({ ...urls('one'), ...credentials });
    try {
      await loader.add([
        quad(namedNode('http://pod.example/a'), p, blankNode('b'), namedNode('http://pod.example/a')),
        quad(blankNode('b'), p, literal('inner'), namedNode('http://pod.example/a')),
      ]);
    } finally {
      loader.close();
    }
    const dumped = await collect(new StoreDump({ ...urls('one'), ...credentials, pageQuads: 100 }).quads());
    const inner = dumped.find((entry): boolean => entry.object.value === 'inner')!;
    const outer = dumped.find((entry): boolean => entry.subject.value === 'http://pod.example/a')!;
    expect(inner.subject.termType).toBe('BlankNode');
    expect(inner.subject.value).toBe(outer.object.value);
    await expect(collect(new StoreDump({ ...urls('one'), graphStoreUrl: '', ...credentials, pageQuads: 100 }).quads()))
      .rejects.toThrow(/holds a blank node/u);
  });

  it('says so when the store refuses the credentials', async(): Promise<void> => {
    await expect(collect(new StoreDump({ ...urls('one'), ...credentials, password: 'wrong', pageQuads: 100 }).quads()))
      .rejects.toThrow(/refused the credentials \(401\)/u);
  });

  it('reads a stopped store\'s dataset from its files without writing to them', async(): Promise<void> => {
    // With the default graph, and a blank node that stays one node across the graphs' chunks.
    const quads = [ ...sample(4, 3), quad(namedNode('http://pod.example/d'), p, literal('default')),
      quad(namedNode('http://pod.example/r0'), p, blankNode('shared'), namedNode('http://pod.example/r0')),
      quad(blankNode('shared'), p, literal('inner'), namedNode('http://pod.example/r3')) ];
    const loader = new StoreLoader({ ...urls('one'), ...credentials });
    try {
      await loader.add(quads);
    } finally {
      loader.close();
    }
    await store!.stop();
    store = undefined;
    const datasetDir = join(dataDir, 'datasets', 'one');
    const before = readdirSync(datasetDir).map((name): string => `${name} ${statSync(join(datasetDir, name)).size} ${statSync(join(datasetDir, name)).mtimeMs}`);
    const reader = new EmbeddedDatasetReader(dataDir);
    const warnings: string[] = [];
    const read = [ ...reader.nquadsOf(await reader.read('one', (message): number => warnings.push(message)), 100) ]
      .flatMap((chunk): Quad[] => new Parser({ format: 'N-Quads', blankNodePrefix: '' }).parse(chunk));
    expect(keys(read.map((entry): Quad => entry.subject.termType === 'BlankNode' ? quad(blankNode('shared'), entry.predicate, entry.object, entry.graph) :
      entry.object.termType === 'BlankNode' ? quad(entry.subject, entry.predicate, blankNode('shared'), entry.graph) : entry))).toEqual(keys(quads));
    const labels = new Set(read.flatMap((entry): string[] => [ entry.subject, entry.object ]
      .filter((term): boolean => term.termType === 'BlankNode').map((term): string => term.value)));
    expect(labels.size).toBe(1);
    expect(warnings).toEqual([]);
    expect(readdirSync(datasetDir).map((name): string => `${name} ${statSync(join(datasetDir, name)).size} ${statSync(join(datasetDir, name)).mtimeMs}`))
      .toEqual(before);
    await expect(reader.read('three', (): void => undefined)).rejects.toThrow(/has no dataset "three" \(it has: one, two\)/u);
  });
});
