import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Quad } from '@rdfjs/types';
import { StreamParser } from 'n3';
import { StoreLoader } from '../storage/StoreLoader';
import { DirectoryLock } from '../util/DirectoryLock';
import { errnoOf } from '../util/Errors';
import type { StoreUrls } from '../util/StoreUrls';
import { storeUrlsOf } from '../util/StoreUrls';
import { say, UsageError } from './Console';
import { runMoveCommand } from './MoveCommand';
import type { ExportManifest } from './ExportManifest';
import { DATASET_FILE, filePath, MANIFEST_FILE, parseManifest, shownEndpoint } from './ExportManifest';
import { ExportTally } from './ExportTally';
import { batchesOf } from './QuadBatches';

type Argv = Record<string, unknown>;

/** Graphs per query when asking the target about the export's graphs. */
const GRAPHS_PER_QUERY = 200;
const PROGRESS_QUADS = 100_000;

/** The quads of an export's dataset.nq, streamed. */
async function *quadsIn(file: string): AsyncGenerator<Quad> {
  const parser = new StreamParser({ format: 'N-Quads' });
  const input = createReadStream(file);
  input.on('error', (error): void => {
    parser.destroy(error);
  });
  for await (const entry of input.pipe(parser) as AsyncIterable<Quad>) {
    yield entry;
  }
}

function readManifest(dir: string): ExportManifest {
  const file = join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error: unknown) {
    throw new UsageError(errnoOf(error) === 'ENOENT' ? `${dir} holds no ${MANIFEST_FILE}: give --in a directory written by fedpod export` :
      `cannot read ${file}: ${String(error)}`);
  }
  return parseManifest(text, file);
}

/**
 * First pass over the export, before the target is touched: dataset.nq holds what the manifest
 * counted (an export cut short is refused), blank nodes can be loaded without merging or splitting
 * any, and every file it names is there.
 */
async function checkExport(dir: string, manifest: ExportManifest): Promise<ExportTally> {
  const tally = new ExportTally();
  for await (const entry of quadsIn(join(dir, DATASET_FILE))) {
    tally.add(entry);
  }
  if (tally.quads !== manifest.quads || tally.graphs.size !== manifest.graphs) {
    throw new UsageError(`${join(dir, DATASET_FILE)} holds ${tally.quads} quads in ${tally.graphs.size} graphs, but the manifest ` +
      `counted ${manifest.quads} in ${manifest.graphs}: the export is incomplete or was changed; export again`);
  }
  if (tally.sharedLabels.size > 0) {
    // Loaded a batch at a time, a blank node spread over graphs would become several nodes.
    throw new UsageError(`the export has blank nodes shared between graphs (${[ ...tally.sharedLabels ].slice(0, 3).join(', ')}); ` +
      'Fedpod writes no blank nodes, so another program made them: load dataset.nq with the target store\'s own loader instead');
  }
  const missing = [ ...tally.files ].filter((name): boolean => !manifest.missingFiles.includes(name) && !existsSync(filePath(dir, name)));
  if (missing.length > 0) {
    throw new UsageError(`${missing.length} file(s) named in the export are missing from ${join(dir, 'files')}: ${missing.slice(0, 3).join(', ')}`);
  }
  return tally;
}

/** Copies the export's files into the data directory; one already there must be the same size (names are random). */
async function copyFiles(dir: string, dataDir: string, names: Iterable<string>, skip: readonly string[]): Promise<number> {
  let copied = 0;
  for (const name of names) {
    if (skip.includes(name)) {
      continue;
    }
    const from = filePath(dir, name);
    const to = filePath(dataDir, name);
    const size = (await stat(from)).size;
    const existing = await stat(to).catch((): undefined => undefined);
    if (existing) {
      if (existing.size !== size) {
        throw new Error(`${to} exists with other content (${existing.size} bytes, not ${size}); not overwritten`);
      }
      continue;
    }
    await mkdir(dirname(to), { recursive: true });
    await copyFile(from, to);
    copied += 1;
  }
  return copied;
}

interface Target {
  urls: StoreUrls;
  user: string;
  password: string;
  /** Shown in messages. */
  name: string;
  stop: () => Promise<void>;
}

/** The store to load into: the external one, or the data directory's embedded store, run here on a free port. */
async function openTarget(argv: Argv, dataDir: string, dataset: string): Promise<Target> {
  const endpoint = String(argv['sparql-endpoint'] ?? '').trim();
  if (endpoint) {
    return { urls: storeUrlsOf(endpoint, dataset), user: String(argv['sparql-user']), password: String(argv['sparql-password']),
      name: `dataset ${dataset} of ${shownEndpoint(endpoint)}`, stop: async(): Promise<void> => undefined };
  }
  const { runEmbeddedStore } = await import('../storage/embedded');
  // Its own credentials: the store listens on 127.0.0.1 only while the import runs.
  const password = randomBytes(16).toString('hex');
  let running: { url: string; stop: () => Promise<void> };
  try {
    // Not compacted while loading (see compactEmbedded).
    running = await runEmbeddedStore({ host: '127.0.0.1', port: 0, dataDir: join(dataDir, 'store'), user: 'import', password,
      compactThresholdBytes: Number.MAX_SAFE_INTEGER },
      (message): void => say(message, 'warn'));
  } catch (error: unknown) {
    throw new UsageError(`cannot open the embedded store of ${dataDir}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { urls: storeUrlsOf(running.url, dataset), user: 'import', password, name: `the embedded store of ${dataDir} (dataset ${dataset})`,
    stop: async(): Promise<void> => {
      await running.stop();
      say('writing the embedded store\'s snapshot');
      await compactEmbedded(join(dataDir, 'store'), dataset);
    } };
}

/**
 * Writes the embedded dataset's snapshot once the import is done: loaded without compacting on the
 * way (each compaction writes the whole dataset, so a large import would write it again and again),
 * its log holds the whole import, and a server would otherwise replay all of it at start-up.
 */
async function compactEmbedded(storeDir: string, dataset: string): Promise<void> {
  const { EmbeddedDatasetFactory } = await import('../storage/embedded');
  const lock = await DirectoryLock.acquire(storeDir, { fileName: 'store.lock', label: 'Data directory', exclusiveInProcess: true });
  try {
    const opened = await new EmbeddedDatasetFactory({ compactThresholdBytes: Number.MAX_SAFE_INTEGER,
      warn: (message): void => say(message, 'warn') }).openDurable(join(storeDir, 'datasets', dataset));
    try {
      await opened.compact();
    } catch (error: unknown) {
      // E.g. a dump past V8's longest string (512 MiB of N-Quads): past what the embedded store handles.
      throw new Error(`the quads are loaded (in the store's update log) but the embedded store could not write its snapshot ` +
        `(${error instanceof Error ? error.message : String(error)}): this dataset is past what the embedded store handles ` +
        '(see "Limits of the embedded store" in docs/operations.md); import it into Fuseki or Virtuoso instead');
    } finally {
      await opened.close();
    }
  } finally {
    await lock.release();
  }
}

/** The dataset made on a Fuseki-style store (or the embedded one) as `fedpod start` makes it. */
async function ensureDataset(target: Target, dataset: string): Promise<void> {
  if (!target.urls.adminUrl) {
    return;
  }
  const { StoreDatasetInitializer } = await import('../storage/StoreDatasetInitializer');
  await new StoreDatasetInitializer(target.urls.adminUrl, dataset, target.user, target.password).handle();
}

/** Graphs in groups of GRAPHS_PER_QUERY. */
function graphGroups(graphs: Set<string>): string[][] {
  const list = [ ...graphs ];
  const groups: string[][] = [];
  for (let index = 0; index < list.length; index += GRAPHS_PER_QUERY) {
    groups.push(list.slice(index, index + GRAPHS_PER_QUERY));
  }
  return groups;
}

/** Loads every quad of the export, a batch at a time; a graph with blank nodes whole, in one request. */
async function load(loader: StoreLoader, file: string, tally: ExportTally, batchSize: number): Promise<void> {
  const heldBack = new Map<string, Quad[]>();
  let loaded = 0;
  const withoutBlankGraphs = async function *(): AsyncGenerator<Quad> {
    for await (const entry of quadsIn(file)) {
      const graph = entry.graph.termType === 'DefaultGraph' ? '' : entry.graph.value;
      if (tally.blankNodeGraphs.has(graph)) {
        const quads = heldBack.get(graph);
        if (quads) {
          quads.push(entry);
        } else {
          heldBack.set(graph, [ entry ]);
        }
      } else {
        yield entry;
      }
    }
  };
  for await (const batch of batchesOf(withoutBlankGraphs(), batchSize)) {
    await loader.add(batch);
    const before = loaded;
    loaded += batch.length;
    if (Math.floor(loaded / PROGRESS_QUADS) > Math.floor(before / PROGRESS_QUADS)) {
      say(`${loaded} of ${tally.quads} quads`);
    }
  }
  for (const quads of heldBack.values()) {
    await loader.add(quads);
  }
}

/**
 * `fedpod import --in <dir>`: loads an export into the store (the external one of
 * --sparql-endpoint, or the embedded store of --data-dir, which no server may be running on), a
 * batch of quads per request, then counts what the store holds in the export's graphs and copies
 * the files into --data-dir. A store that already holds any of it is refused unless --force, which
 * replaces the export's graphs. Resolves with the exit code.
 */
export async function runImport(argv: Argv): Promise<number> {
  return runMoveCommand(argv, importData);
}

async function importData(argv: Argv): Promise<number> {
  const dir = resolve(String(argv.in));
  const dataDir = resolve(String(argv['data-dir']));
  const dataset = String(argv.dataset);
  const batchSize = Number(argv['batch-size']);
  const manifest = readManifest(dir);
  say(`checking the export in ${dir} (${manifest.quads} quads in ${manifest.graphs} graphs, ${manifest.files} files)`);
  const tally = await checkExport(dir, manifest);

  const target = await openTarget(argv, dataDir, dataset);
  try {
    await ensureDataset(target, dataset);
    const loader = new StoreLoader({ queryUrl: target.urls.queryUrl, updateUrl: target.urls.updateUrl,
      graphStoreUrl: target.urls.adminUrl ? `${target.urls.adminUrl}${dataset}/data` : '',
      user: target.user, password: target.password, timeoutMs: 300_000 });
    try {
      const groups = graphGroups(tally.graphs);
      // A dataset of its own (Fuseki-style, embedded) must be empty; on a shared endpoint (Virtuoso and
      // its system graphs) none of the export's graphs may be there already.
      const emptyBefore = target.urls.adminUrl ? !await loader.holdsAnything() : false;
      let occupied = Boolean(target.urls.adminUrl) && !emptyBefore;
      for (const group of occupied || emptyBefore ? [] : groups) {
        occupied ||= await loader.holdsAnyOf(group);
      }
      if (occupied && argv.force !== true) {
        throw new UsageError(`${target.name} already holds data${target.urls.adminUrl ? '' : ' in graphs of this export'}: ` +
          'import into an empty dataset (--dataset), or give --force to replace the graphs the export holds');
      }
      if (occupied) {
        say('--force: emptying the graphs the export holds on the target');
        for (const group of groups) {
          await loader.clear(group);
        }
      }
      say(`importing into ${target.name}`);
      await load(loader, join(dir, DATASET_FILE), tally, batchSize);
      // Into a dataset that was empty, one count of everything says it; otherwise graph by graph.
      let counted = emptyBefore ? await loader.countAll() : 0;
      for (const group of emptyBefore ? [] : groups) {
        counted += await loader.countIn(group);
      }
      const named = tally.quads - tally.defaultGraphQuads;
      if (counted !== named) {
        throw new Error(`the target holds ${counted} quads in the export's ${tally.graphs.size} graphs, not ${named}: ` +
          'it changed some on the way in (another writer, or a store that rewrites literals); check it before using it');
      }
      say(`loaded ${tally.quads} quads (${loader.method === 'graph-store' ? 'Graph Store Protocol' : 'SPARQL updates'}); ` +
        `the target counts ${counted} in the export's ${tally.graphs.size} graphs`);
    } finally {
      loader.close();
    }
  } finally {
    await target.stop();
  }
  const copied = await copyFiles(dir, dataDir, tally.files, manifest.missingFiles);
  say(`copied ${copied} files into ${join(dataDir, 'files')}${copied < manifest.files ? ` (${manifest.files - copied} were there already)` : ''}`);
  return 0;
}
