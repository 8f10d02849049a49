import { join } from 'node:path';
import { UsageError } from './Console';

/** What an export directory holds, besides its manifest. */
export const MANIFEST_FILE = 'manifest.json';
export const DATASET_FILE = 'dataset.nq';
export const FILES_DIR = 'files';

/** Where a file of a non-RDF resource lives under a data directory or an export (as ResourceFiles keeps it). */
export function filePath(root: string, name: string): string {
  return join(root, FILES_DIR, name.slice(0, 2), name.slice(2, 4), name);
}

/** An endpoint as it may be shown and recorded: without credentials in its URL. */
export function shownEndpoint(endpoint: string): string {
  const url = new URL(endpoint);
  url.username = '';
  url.password = '';
  return url.href;
}

const FORMAT = 'fedpod-export';
const FORMAT_VERSION = 1;

/** The manifest of an export (manifest.json): what it holds, counted while it was written. */
export interface ExportManifest {
  format: typeof FORMAT;
  formatVersion: typeof FORMAT_VERSION;
  fedpodVersion: string;
  /** When the export was made (ISO 8601). */
  created: string;
  source: {
    /** `embedded` (the files of a data directory's embedded store), or the SPARQL endpoint read. */
    store: string;
    dataset: string;
    /** How the store was read: its files, one Graph Store Protocol GET, or SELECTs. */
    method: 'files' | 'graph-store' | 'select';
  };
  /** Every quad of dataset.nq. */
  quads: number;
  /** Named graphs. */
  graphs: number;
  /** Quads of the default graph (also counted in quads). */
  defaultGraphQuads: number;
  /** Quads holding a blank node. */
  blankNodeQuads: number;
  /** Files of non-RDF resources under files/, and their bytes. */
  files: number;
  fileBytes: number;
  /** Files the store names but the data directory did not hold (a damaged installation). */
  missingFiles: string[];
}

export type ManifestCounts = Omit<ExportManifest, 'format' | 'formatVersion' | 'created'>;

/** A manifest for the counts given, made now. */
export function manifestOf(counts: ManifestCounts, now = new Date()): ExportManifest {
  return { format: FORMAT, formatVersion: FORMAT_VERSION, ...counts, created: now.toISOString() };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** The manifest in `text`; a UsageError saying what is wrong when it is not one this version reads. */
export function parseManifest(text: string, file: string): ExportManifest {
  let value: Partial<ExportManifest>;
  try {
    value = JSON.parse(text) as Partial<ExportManifest>;
  } catch {
    throw new UsageError(`${file} is not JSON: is this a directory written by fedpod export?`);
  }
  if (typeof value !== 'object' || value === null || value.format !== FORMAT) {
    throw new UsageError(`${file} is not the manifest of a fedpod export`);
  }
  if (value.formatVersion !== FORMAT_VERSION) {
    throw new UsageError(`${file} is an export of format version ${String(value.formatVersion)}; this Fedpod reads version ${FORMAT_VERSION}`);
  }
  for (const key of [ 'quads', 'graphs', 'defaultGraphQuads', 'blankNodeQuads', 'files', 'fileBytes' ] as const) {
    if (!isCount(value[key])) {
      throw new UsageError(`${file}: ${key} is not a count`);
    }
  }
  if (!Array.isArray(value.missingFiles) || !value.missingFiles.every((name): boolean => typeof name === 'string')) {
    throw new UsageError(`${file}: missingFiles is not a list of names`);
  }
  return value as ExportManifest;
}
