import { readFileSync } from 'node:fs';
import { fileChunks } from '../util/FileChunks';
import { join } from 'node:path';
import { defaultGraph, Store } from 'oxigraph';
import type { NamedNode } from 'oxigraph';
import { DatasetFiles } from './embedded/DatasetFiles';
import { DatasetOperationApplier } from './embedded/DatasetOperationApplier';
import { DatasetOperationCodec } from './embedded/DatasetOperationCodec';
import { WalFrameCodec } from './wal/WalFrameCodec';
import { WalReader } from './wal/WalReader';
import { sparqlIri } from './SparqlTerms';
import { errnoOf } from '../util/Errors';

const READ_CHUNK = 4 * 1024 * 1024;

/**
 * Reads a dataset of a stopped embedded store from its files (newest snapshot, then the newer
 * update logs), without writing anything to them: unlike DatasetRecovery (which prepares the
 * directory for new writes) it cuts no torn tail and removes no leftover, so an export can never
 * change the installation it copies. A torn tail ends the replay of that log, as recovery would.
 */
export class EmbeddedDatasetReader {
  private readonly applier = new DatasetOperationApplier();
  private readonly codec = new DatasetOperationCodec();
  private readonly reader = new WalReader(new WalFrameCodec());

  /** @param storeDir - The embedded store's directory (`<data-dir>/store`). */
  public constructor(private readonly storeDir: string) {}

  /** The durable dataset `name` as an Oxigraph store; an Error saying why when there is none. */
  public async read(name: string, warn: (message: string) => void): Promise<Store> {
    this.checkListed(name);
    const files = new DatasetFiles(join(this.storeDir, 'datasets', name));
    const listing = await files.list();
    const snapshot = listing.snapshots.at(-1) ?? 0;
    const store = new Store();
    if (snapshot > 0) {
      store.load(fileChunks(files.snapshotPath(snapshot), READ_CHUNK), { format: 'application/n-quads', no_transaction: true });
    }
    const logs = listing.logs.filter((sequence): boolean => sequence > snapshot);
    for (const [ index, sequence ] of logs.entries()) {
      if (sequence !== snapshot + 1 + index) {
        throw new Error(`Dataset ${files.directory}: update log ${snapshot + 1 + index} is missing; the files are damaged`);
      }
      const result = await this.reader.read(files.logPath(sequence), (payload): void => {
        this.applier.apply(store, this.codec.decode(payload));
      });
      if (result.validLength < result.fileLength && !result.tailIsZero) {
        warn(`${files.logPath(sequence)}: ignoring ${result.fileLength - result.validLength} bytes of an interrupted write at its end`);
      }
    }
    return store;
  }

  /**
   * Every quad of `store` as N-Quads text, in chunks of about `chunkBytes`, graph by graph. Oxigraph
   * writes each graph's N-Triples itself (turning its quads into JavaScript terms one by one was
   * ten times slower), and the graph is added to each line: in N-Triples every line is one triple
   * ending in ` .`, a line break within a literal being written `\n`.
   */
  public *nquadsOf(store: Store, chunkBytes = 1024 * 1024): Generator<string> {
    let pending = store.dump({ format: 'application/n-triples', from_graph_name: defaultGraph() });
    const graphs = store.query('SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }') as Map<string, NamedNode>[];
    for (const row of graphs) {
      const graph = row.get('g')!;
      const suffix = ` ${sparqlIri(graph.value)} .`;
      const triples = store.dump({ format: 'application/n-triples', from_graph_name: graph });
      for (const line of triples.split('\n')) {
        if (line !== '') {
          pending += `${line.slice(0, -2)}${suffix}\n`;
        }
      }
      if (pending.length >= chunkBytes) {
        yield pending;
        pending = '';
      }
    }
    if (pending !== '') {
      yield pending;
    }
  }

  private checkListed(name: string): void {
    let listed: { datasets?: { name: string; type: string }[] };
    try {
      listed = JSON.parse(readFileSync(join(this.storeDir, 'datasets.json'), 'utf8')) as typeof listed;
    } catch (error: unknown) {
      if (errnoOf(error) === 'ENOENT') {
        throw new Error(`${this.storeDir} holds no embedded store (no datasets.json)`);
      }
      throw error;
    }
    const entry = listed.datasets?.find((dataset): boolean => dataset.name === name);
    if (!entry) {
      throw new Error(`The embedded store in ${this.storeDir} has no dataset ${JSON.stringify(name)} ` +
        `(it has: ${listed.datasets?.map((dataset): string => dataset.name).join(', ') || 'none'})`);
    }
    if (entry.type !== 'tdb2') {
      throw new Error(`Dataset ${name} is an in-memory dataset: it keeps nothing on disk to export`);
    }
  }
}
