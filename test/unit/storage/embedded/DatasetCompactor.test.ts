import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { namedNode, Store } from 'oxigraph';
import type { CompactionThresholds } from '../../../../src/storage/embedded/DatasetCompactor';
import { DatasetCompactor } from '../../../../src/storage/embedded/DatasetCompactor';
import { DatasetFiles } from '../../../../src/storage/embedded/DatasetFiles';
import { DatasetOperationApplier } from '../../../../src/storage/embedded/DatasetOperationApplier';
import { DatasetOperationCodec } from '../../../../src/storage/embedded/DatasetOperationCodec';
import { EngineHealth } from '../../../../src/storage/embedded/EngineHealth';
import { LiveStore } from '../../../../src/storage/embedded/LiveStore';
import { SlicedQuadLoader } from '../../../../src/storage/embedded/SlicedQuadLoader';
import type { SliceRunner } from '../../../../src/storage/embedded/SlicedQuadLoader';
import { DatasetRecovery } from '../../../../src/storage/embedded/DatasetRecovery';
import { WalFrameCodec } from '../../../../src/storage/wal/WalFrameCodec';
import { WalReader } from '../../../../src/storage/wal/WalReader';
import { WalWriter } from '../../../../src/storage/wal/WalWriter';

const operations = new DatasetOperationCodec();
const applier = new DatasetOperationApplier();

describe('DatasetCompactor', (): void => {
  let root: string;
  let files: DatasetFiles;
  let store: Store;
  let writer: WalWriter;
  let warnings: string[];

  beforeEach(async(): Promise<void> => {
    root = mkdtempSync(join(tmpdir(), 'fedpod-compactor-'));
    files = new DatasetFiles(join(root, 'ds'));
    await files.ensureDirectory();
    store = new Store();
    writer = await WalWriter.open(files.logs, 1, 0);
    warnings = [];
  });

  afterEach(async(): Promise<void> => {
    await writer.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** Applies an insert and logs it, as the live dataset does. */
  async function insert(value: string): Promise<void> {
    const operation = { kind: 'update' as const, sparql: `INSERT DATA { <urn:s> <urn:p> "${value}" }` };
    applier.apply(store, operation);
    await writer.append(operations.encode(operation));
  }

  function compactor(threshold: number, of: Store = store, more: Omit<CompactionThresholds, 'bytes'> = {}): DatasetCompactor {
    return new DatasetCompactor(new LiveStore(of, applier), writer, files, { bytes: threshold, ...more }, (message): void => {
      warnings.push(message);
    });
  }

  /** What a restart would load from the directory. */
  async function recovered(from: DatasetFiles = files): Promise<string[]> {
    const { store: reloaded, writer: reopened } = await new DatasetRecovery(from, new WalReader(new WalFrameCodec()), operations, applier,
      (message): void => {
        warnings.push(message);
      }).recover();
    await reopened.close();
    return reloaded.match().map((entry): string => entry.object.value).sort();
  }

  it('folds the logs into a snapshot, removes the covered log and goes on in the next one', async(): Promise<void> => {
    await insert('a');
    await insert('b');
    await compactor(1024 * 1024).compact();
    expect(await files.list()).toMatchObject({ snapshots: [ 1 ], logs: [ 2 ]});
    expect(readFileSync(files.snapshotPath(1), 'utf8')).toContain('"a"');
    expect(writer.sequence).toBe(2);
    await insert('c');
    await writer.flush();
    expect(await recovered()).toEqual([ 'a', 'b', 'c' ]);
    expect(warnings).toEqual([]);
  });

  it('starts nothing while the current log is under the threshold', async(): Promise<void> => {
    await insert('a');
    const idle = compactor(1024 * 1024);
    idle.maybeStart();
    await idle.whenIdle();
    expect((await files.list()).snapshots).toEqual([]);
  });

  it('compacts in the background once the current log outgrows the threshold', async(): Promise<void> => {
    await insert('a');
    const background = compactor(1);
    background.maybeStart();
    await background.whenIdle();
    expect(await files.list()).toMatchObject({ snapshots: [ 1 ], logs: [ 2 ]});
  });

  it('runs one compaction at a time: a second call waits for the first', async(): Promise<void> => {
    await insert('a');
    const once = compactor(1024 * 1024);
    await Promise.all([ once.compact(), once.compact() ]);
    expect(await files.list()).toMatchObject({ snapshots: [ 1 ], logs: [ 2 ]});
  });

  it('warns of a failed background compaction and waits for more log before trying again', async(): Promise<void> => {
    await insert('a');
    let dumps = 0;
    const failing = Object.assign(new Store(), { dump: (): string => {
      dumps += 1;
      throw new Error('out of memory');
    } });
    const broken = compactor(1, failing);
    broken.maybeStart();
    await broken.whenIdle();
    expect(warnings).toEqual([ `Compaction of ${files.directory} failed: out of memory` ]);
    broken.maybeStart();
    await broken.whenIdle();
    expect(dumps).toBe(1);
    // The logs still hold everything.
    await writer.flush();
    expect((await files.list()).snapshots).toEqual([]);
    expect(await recovered()).toEqual([ 'a' ]);
  });

  it('compacts in the background once the current log holds the threshold number of records', async(): Promise<void> => {
    await insert('a');
    const counting = compactor(1024 * 1024, store, { records: 2 });
    counting.recordAppended();
    counting.maybeStart();
    await counting.whenIdle();
    expect((await files.list()).snapshots).toEqual([]);
    await insert('b');
    counting.recordAppended();
    counting.maybeStart();
    await counting.whenIdle();
    expect(await files.list()).toMatchObject({ snapshots: [ 1 ], logs: [ 2 ]});
    // The count starts again in the new log.
    await insert('c');
    counting.recordAppended();
    counting.maybeStart();
    await counting.whenIdle();
    expect((await files.list()).snapshots).toEqual([ 1 ]);
  });

  it('counts the records a recovered log already holds', async(): Promise<void> => {
    await insert('a');
    const recovered = new DatasetCompactor(new LiveStore(store, applier), writer, files, { bytes: 1024 * 1024, records: 3 }, (): void => undefined, 2);
    await insert('b');
    recovered.recordAppended();
    recovered.maybeStart();
    await recovered.whenIdle();
    expect((await files.list()).snapshots).toEqual([ 1 ]);
  });

  it('compacts at close when the log holds at least the close threshold, and not otherwise', async(): Promise<void> => {
    await insert('a');
    const small = compactor(1024 * 1024, store, { atCloseBytes: 1024 * 1024 });
    await small.compactAtClose();
    expect((await files.list()).snapshots).toEqual([]);
    const eager = compactor(1024 * 1024, store, { atCloseBytes: 1 });
    await eager.compactAtClose();
    expect(await files.list()).toMatchObject({ snapshots: [ 1 ], logs: [ 2 ]});
    // Nothing new since: an empty log is not compacted again.
    await eager.compactAtClose();
    expect(await files.list()).toMatchObject({ snapshots: [ 1 ], logs: [ 2 ]});
    expect(await recovered()).toEqual([ 'a' ]);
  });

  it('does not compact at close without a close threshold', async(): Promise<void> => {
    await insert('a');
    await compactor(1).compactAtClose();
    expect((await files.list()).snapshots).toEqual([]);
  });

  it('only warns when compaction at close fails: the log keeps everything', async(): Promise<void> => {
    await insert('a');
    const failing = Object.assign(new Store(), { dump: (): string => {
      throw new RangeError('Invalid string length');
    } });
    await compactor(1024 * 1024, failing, { atCloseBytes: 1 }).compactAtClose();
    expect(warnings).toEqual([ `Compaction of ${files.directory} at close failed (the next start replays its log): Invalid string length` ]);
    await writer.flush();
    expect(await recovered()).toEqual([ 'a' ]);
  });

  it('never dumps a store whose engine has faulted, neither at close nor in the background', async(): Promise<void> => {
    await insert('a');
    const health = new EngineHealth();
    health.report(new WebAssembly.RuntimeError('memory access out of bounds'));
    const faulted = new DatasetCompactor(new LiveStore(store, applier), writer, files, { bytes: 1, atCloseBytes: 0 }, (message): void => {
      warnings.push(message);
    }, 0, health);
    await faulted.compactAtClose();
    faulted.maybeStart();
    await faulted.whenIdle();
    expect((await files.list()).snapshots).toEqual([]);
    expect(warnings).toEqual([ expect.stringContaining('The store engine failed (memory access out of bounds)') ]);
  });
  describe('with store rebuilds', (): void => {
    const EX = 'http://example.org/';
    /** Replaces the one value of graph `doc<n>`: what a PUT of a pod document does. */
    const overwrite = (n: number, value: string): { kind: 'update'; sparql: string } => ({ kind: 'update', sparql:
      `DELETE WHERE { GRAPH <${EX}doc${n}> { ?s ?p ?o } }; INSERT DATA { GRAPH <${EX}doc${n}> { <${EX}doc${n}> <urn:p> "${value}" } }` });

    /** The live dataset's write path: apply, log, count, maybe compact; resolves once durable. */
    async function write(live: LiveStore, compacting: DatasetCompactor, operation: { kind: 'update'; sparql: string }): Promise<void> {
      live.apply(operation);
      const durable = writer.append(operations.encode(operation));
      compacting.recordAppended();
      compacting.maybeStart();
      await durable;
    }

    async function seed(live: LiveStore, compacting: DatasetCompactor): Promise<void> {
      const triples = Array.from({ length: 500 }, (_, index): string => `<${EX}s${index}> <${EX}filler> "${'f'.repeat(40)} ${index}" .`);
      await write(live, compacting, { kind: 'update', sparql: `INSERT DATA { ${triples.join(' ')} }` });
    }

    it('rebuilds the store after enough removing writes, and writes the snapshot from the same dump', async(): Promise<void> => {
      const informed: string[] = [];
      const live = new LiveStore(store, applier, { afterRemovals: 20 });
      const compacting = new DatasetCompactor(live, writer, files, { bytes: 1024 * 1024 * 1024 }, (message): void => {
        warnings.push(message);
      }, 0, undefined, (message): void => {
        informed.push(message);
      });
      await seed(live, compacting);
      for (let index = 0; index < 19; index++) {
        await write(live, compacting, overwrite(index % 3, `v${index}`));
      }
      await compacting.whenIdle();
      expect(live.store).toBe(store);
      await write(live, compacting, overwrite(0, 'last'));
      await compacting.whenIdle();
      expect(live.store).not.toBe(store);
      expect(live.removals).toBe(0);
      expect(informed).toEqual([ expect.stringMatching(/store rebuilt after 20 removing writes, 503 quads/u) ]);
      expect(await files.list()).toMatchObject({ snapshots: [ 1 ], logs: [ 2 ]});
      expect(live.store.query(`SELECT ?v WHERE { GRAPH ?g { ?s <urn:p> ?v } } ORDER BY ?v`)).toHaveLength(3);
      expect(live.store.dump({ format: 'application/n-quads' }).split('\n').sort())
        .toEqual(readFileSync(files.snapshotPath(1), 'utf8').split('\n').sort());
      expect(warnings).toEqual([]);
    });

    it('loses nothing acknowledged when a crash hits while the store is rebuilt', async(): Promise<void> => {
      // Small slices, and each one waits for another acknowledged write: every slice boundary of
      // the rebuild is a moment a crash hits, with writes both before and after it.
      let acknowledged = 0;
      const waitForWrite = async(runSlice: SliceRunner, work: () => void): Promise<void> => {
        const seen = acknowledged;
        await runSlice(work);
        while (acknowledged === seen) {
          await new Promise((resolve): void => {
            setImmediate(resolve);
          });
        }
      };
      const loader = new class extends SlicedQuadLoader {
        public override async load(into: Store, pieces: readonly string[], runSlice: SliceRunner): Promise<number> {
          return super.load(into, pieces, async(work): Promise<void> => waitForWrite(runSlice, work));
        }
      }(2000);
      const live = new LiveStore(store, applier, { afterRemovals: 5 }, 0, undefined, loader);
      const compacting = new DatasetCompactor(live, writer, files, { bytes: 1024 * 1024 * 1024 }, (message): void => {
        warnings.push(message);
      });
      await seed(live, compacting);
      const images: { directory: string; values: string[] }[] = [];
      let sawRebuild = false;
      for (let index = 0; index < 400 && !(sawRebuild && !live.rebuilding); index++) {
        await write(live, compacting, overwrite(index % 3, `v${index}`));
        acknowledged += 1;
        if (live.rebuilding) {
          sawRebuild = true;
          // What a crash now would leave on disk (retried if a file moved while it was copied).
          const directory = join(root, `crash-${images.length}`);
          for (let attempt = 0; ; attempt++) {
            try {
              rmSync(directory, { recursive: true, force: true });
              cpSync(files.directory, directory, { recursive: true });
              break;
            } catch (error: unknown) {
              if (attempt > 20) {
                throw error;
              }
            }
          }
          images.push({ directory, values: live.store.match(null, namedNode('urn:p')).map((quad): string => quad.object.value).sort() });
        }
      }
      await compacting.whenIdle();
      expect(images.length).toBeGreaterThan(10);
      for (const image of images) {
        const values = (await recovered(new DatasetFiles(image.directory))).filter((value): boolean => value.startsWith('v'));
        expect(values).toEqual(image.values);
      }
      expect(warnings).toEqual([]);
    });
  });
});
