import { once } from 'node:events';
import { createWriteStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Quad } from '@rdfjs/types';
import { Parser, Writer } from 'n3';
import { EmbeddedDatasetReader } from '../storage/EmbeddedDatasetReader';
import { StoreDump } from '../storage/StoreDump';
import { DirectoryLock } from '../util/DirectoryLock';
import { errnoOf } from '../util/Errors';
import { storeUrlsOf } from '../util/StoreUrls';
import { say, UsageError } from './Console';
import { runMoveCommand } from './MoveCommand';
import type { ExportManifest } from './ExportManifest';
import { DATASET_FILE, FILES_DIR, filePath, MANIFEST_FILE, manifestOf, shownEndpoint } from './ExportManifest';
import { ExportTally } from './ExportTally';
import { ROOT } from './Setups';

type Argv = Record<string, unknown>;

/** Bytes of N-Quads gathered before one write: fewer, larger writes. */
const WRITE_BYTES = 1024 * 1024;
const PROGRESS_QUADS = 100_000;

/** The version of this Fedpod, for the manifest. */
export function fedpodVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The quads of a stopped embedded store as N-Quads text, read from its files (the lock keeps a server from starting meanwhile). */
async function *embeddedQuads(dataDir: string, dataset: string): AsyncGenerator<string> {
  const storeDir = join(dataDir, 'store');
  if (!existsSync(join(storeDir, 'datasets.json'))) {
    throw new UsageError(`${dataDir} holds no embedded store (no store/datasets.json). ` +
      'Give --data-dir of a Fedpod installation, or --sparql-endpoint for an external store');
  }
  let lock: DirectoryLock;
  try {
    lock = await DirectoryLock.acquire(storeDir, { fileName: 'store.lock', label: 'Data directory', exclusiveInProcess: true });
  } catch (error: unknown) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}. A server runs on it: stop it, or export ` +
      'while it runs through its embedded store\'s HTTP face: --sparql-endpoint http://127.0.0.1:<store-port>/');
  }
  try {
    const reader = new EmbeddedDatasetReader(storeDir);
    yield* reader.nquadsOf(await reader.read(dataset, (message): void => say(message, 'warn')));
  } finally {
    await lock.release();
  }
}

/** The export directory, new or empty; a UsageError otherwise. */
async function prepareOut(out: string): Promise<void> {
  try {
    if (readdirSync(out).length > 0) {
      throw new UsageError(`--out ${out} is not empty: give a new or empty directory`);
    }
  } catch (error: unknown) {
    if (errnoOf(error) !== 'ENOENT') {
      throw error;
    }
  }
  await mkdir(out, { recursive: true });
}

/** Copies the files the store names into the export; returns their total size and the names missing. */
async function copyFiles(dataDir: string, out: string, names: Iterable<string>): Promise<{ bytes: number; copied: number; missing: string[] }> {
  let bytes = 0;
  let copied = 0;
  const missing: string[] = [];
  for (const name of names) {
    const from = filePath(dataDir, name);
    const to = filePath(out, name);
    try {
      bytes += (await stat(from)).size;
    } catch (error: unknown) {
      if (errnoOf(error) === 'ENOENT') {
        missing.push(name);
        continue;
      }
      throw error;
    }
    await mkdir(dirname(to), { recursive: true });
    await copyFile(from, to);
    copied += 1;
  }
  return { bytes, copied, missing };
}

/**
 * `fedpod export --out <dir>`: every quad of every graph of the store as `dataset.nq` (streamed),
 * the files of non-RDF resources under `files/`, and `manifest.json` with the counts. The store
 * is the external one of --sparql-endpoint, or the embedded store of --data-dir read from its files
 * (the server stopped; nothing is written to them). Resolves with the exit code.
 */
export async function runExport(argv: Argv): Promise<number> {
  return runMoveCommand(argv, exportData);
}

async function exportData(argv: Argv): Promise<number> {
  const out = resolve(String(argv.out));
  const dataDir = resolve(String(argv['data-dir']));
  const dataset = String(argv.dataset);
  const endpoint = String(argv['sparql-endpoint'] ?? '').trim();
  await prepareOut(out);

  let dump: StoreDump | undefined;
  /** Quads, or N-Quads text (parsed here only to be counted). */
  let source: AsyncIterable<Quad | string>;
  if (endpoint) {
    const urls = storeUrlsOf(endpoint, dataset);
    dump = new StoreDump({ queryUrl: urls.queryUrl, graphStoreUrl: urls.adminUrl ? `${urls.adminUrl}${dataset}/data` : '',
      user: String(argv['sparql-user']), password: String(argv['sparql-password']), pageQuads: Number(argv['batch-size']),
      timeoutMs: 300_000 });
    source = dump.quads();
    say(`exporting dataset ${dataset} of ${shownEndpoint(endpoint)} to ${out}`);
  } else {
    source = embeddedQuads(dataDir, dataset);
    say(`exporting the embedded store of ${dataDir} (dataset ${dataset}) to ${out}`);
  }

  const tally = new ExportTally();
  const temporary = join(out, `${DATASET_FILE}.tmp`);
  const stream = createWriteStream(temporary);
  const writer = new Writer({ format: 'N-Quads' });
  let pending = '';
  try {
    for await (const entry of source) {
      const before = tally.quads;
      if (typeof entry === 'string') {
        // Labels kept as they are (n3 would prefix them per parser), so that the chunks' blank nodes are counted as one set.
        for (const parsed of new Parser({ format: 'N-Quads', blankNodePrefix: '' }).parse(entry)) {
          tally.add(parsed);
        }
        pending += entry;
      } else {
        tally.add(entry);
        pending += writer.quadToString(entry.subject, entry.predicate, entry.object, entry.graph);
      }
      if (pending.length >= WRITE_BYTES) {
        if (!stream.write(pending)) {
          await once(stream, 'drain');
        }
        pending = '';
      }
      if (Math.floor(tally.quads / PROGRESS_QUADS) > Math.floor(before / PROGRESS_QUADS)) {
        say(`${Math.floor(tally.quads / PROGRESS_QUADS) * PROGRESS_QUADS} quads`);
      }
    }
    stream.end(pending);
    await once(stream, 'finish');
  } catch (error: unknown) {
    // No half-written file left behind: the directory can be used again.
    stream.destroy();
    await rm(temporary, { force: true });
    throw error;
  }
  await rename(temporary, join(out, DATASET_FILE));

  if (tally.badFileNames.size > 0) {
    say(`${tally.badFileNames.size} file name(s) in the store are not names Fedpod makes; left out: ${[ ...tally.badFileNames ].slice(0, 5).join(', ')}`, 'warn');
  }
  const files = await copyFiles(dataDir, out, tally.files);
  if (files.missing.length > 0) {
    say(`${files.missing.length} file(s) the store names are missing from ${join(dataDir, FILES_DIR)} ` +
      `(listed in the manifest): ${files.missing.slice(0, 5).join(', ')}`, 'warn');
  }
  const manifest: ExportManifest = manifestOf({
    fedpodVersion: fedpodVersion(),
    source: { store: endpoint ? shownEndpoint(endpoint) : 'embedded', dataset, method: dump?.method ?? 'files' },
    quads: tally.quads,
    graphs: tally.graphs.size,
    defaultGraphQuads: tally.defaultGraphQuads,
    blankNodeQuads: tally.blankNodeQuads,
    files: files.copied,
    fileBytes: files.bytes,
    missingFiles: files.missing,
  });
  await writeFile(join(out, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  say(`exported ${manifest.quads} quads in ${manifest.graphs} graphs${manifest.defaultGraphQuads > 0 ?
    ` (${manifest.defaultGraphQuads} in the default graph)` : ''} and ${manifest.files} files (${manifest.fileBytes} bytes) to ${out}`);
  if (manifest.blankNodeQuads > 0) {
    say(`${manifest.blankNodeQuads} quads hold blank nodes (Fedpod writes none; another program did)`, 'warn');
  }
  return 0;
}
