import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Quad } from '@rdfjs/types';
import { DataFactory } from 'n3';
import { makeDirectoryDurably, syncDirectory } from '../util/DurableFiles';
import { FEDPOD_FILE, LDP_NON_RDF_SOURCE, MA_FORMAT, POSIX_SIZE, RDF_TYPE } from './StoreVocabulary';
import { errnoOf } from '../util/Errors';

const { literal, namedNode, quad } = DataFactory;

/** A file written by ResourceFiles. */
export interface SavedFile {
  /** Its name, as kept in the resource's metadata. */
  name: string;
  /** Its length in bytes. */
  size: number;
}

const NAME = /^[0-9a-f]{32}$/u;
/** New files written to one directory before another is chosen (see ResourceFiles.newName). */
const FILES_PER_DIRECTORY = 4096;

/** What the metadata of a non-RDF resource says of its bytes: where they are, their size and media type. */
export function fileMetadata(iri: string, saved: SavedFile, contentType: string): Quad[] {
  const subject = namedNode(iri);
  return [
    quad(subject, namedNode(RDF_TYPE), namedNode(LDP_NON_RDF_SOURCE)),
    quad(subject, namedNode(MA_FORMAT), literal(contentType)),
    quad(subject, namedNode(POSIX_SIZE), literal(String(saved.size), namedNode('http://www.w3.org/2001/XMLSchema#integer'))),
    quad(subject, namedNode(FEDPOD_FILE), literal(saved.name)),
  ];
}

/** The metadata a non-RDF resource's file gives it, kept by the server whatever a client writes. */
export const FILE_PREDICATES = [ FEDPOD_FILE, POSIX_SIZE, MA_FORMAT ];

/** The part of a resource's metadata that describes its file (none for RDF resources and containers). */
export function fileDescriptionOf(metadata: readonly Quad[]): Quad[] {
  if (!fileNameOf(metadata)) {
    return [];
  }
  return metadata.filter((entry): boolean => FILE_PREDICATES.includes(entry.predicate.value) ||
    (entry.predicate.value === RDF_TYPE && entry.object.value === LDP_NON_RDF_SOURCE));
}

/** The file of a non-RDF resource, from its metadata; undefined for RDF resources and containers. */
export function fileNameOf(metadata: readonly Quad[]): string | undefined {
  return metadata.find((entry): boolean => entry.predicate.value === FEDPOD_FILE)?.object.value;
}

/**
 * The bytes of non-RDF resources, as files under `<dataDir>/files/` (the SPARQL store keeps their
 * description). Each version of a resource is a new file with a random name, written and fsynced,
 * its directory fsynced too: the metadata is switched to it only once it is
 * on disk, and the previous version is removed only after that, so a crash at any point leaves either
 * the old resource or the new one whole (and at worst an orphan file, never a missing one).
 */
export class ResourceFiles {
  private readonly root: string;
  /** Directories known to exist (65,536 at most). */
  private readonly directories = new Set<string>();
  /** The directory new files go to, and how many went there. */
  private current?: { prefix: string; count: number };

  public constructor(dataDir: string) {
    this.root = join(dataDir, 'files');
  }

  /**
   * A new file name: 32 hex digits, the first four naming its directory. They are kept for
   * FILES_PER_DIRECTORY files before four others are drawn, so a directory is made (and synced in its
   * parent) once per a few thousand files, not for almost every file as fully random names would
   * until all 65,536 directories exist; the other 112 bits stay random.
   */
  private newName(): string {
    if (!this.current || this.current.count >= FILES_PER_DIRECTORY) {
      this.current = { prefix: randomBytes(2).toString('hex'), count: 0 };
    }
    this.current.count += 1;
    return `${this.current.prefix}${randomBytes(14).toString('hex')}`;
  }

  /** Writes `body` to a new file, durably. */
  public async save(body: Readable): Promise<SavedFile> {
    const name = this.newName();
    const directory = this.directoryOf(name);
    if (!this.directories.has(directory)) {
      await makeDirectoryDurably(directory);
      this.directories.add(directory);
    }
    // Written under its final name: the name is new and random, and nothing names it before the
    // store update that follows, so a crash mid-write leaves an orphan, never a torn resource.
    const file = join(directory, name);
    let size = 0;
    try {
      // One handle from create to fsync: the bytes are counted as they are written, no stat needed.
      const handle = await open(file, 'wx');
      try {
        for await (const chunk of body as AsyncIterable<Buffer | string>) {
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          await handle.writeFile(bytes); // from the current position, looping over short writes
          size += bytes.length;
        }
        await handle.sync();
      } finally {
        await handle.close();
      }
      await syncDirectory(directory);
    } catch (error: unknown) {
      await rm(file, { force: true });
      throw error;
    }
    return { name, size };
  }

  /**
   * Saves `body`, then runs `describe` with the new file (the store update that names it); when that
   * fails the file is removed, so no store update failure leaves a file behind.
   */
  public async saveDescribed(body: Readable, describe: (saved: SavedFile) => Promise<void>): Promise<SavedFile> {
    const saved = await this.save(body);
    try {
      await describe(saved);
    } catch (error: unknown) {
      await this.remove(saved.name);
      throw error;
    }
    return saved;
  }

  /** The bytes of a file, whole or from `start` to `end` (inclusive). */
  public open(name: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.pathOf(name), range);
  }

  /** Removes a file; a missing one is no error (a repeated delete, or one removed before a crash). */
  public async remove(name: string): Promise<void> {
    try {
      await unlink(this.pathOf(name));
    } catch (error: unknown) {
      if (errnoOf(error) !== 'ENOENT') {
        throw error;
      }
    }
  }

  private pathOf(name: string): string {
    if (!NAME.test(name)) {
      throw new Error(`Not a resource file name: ${name}`);
    }
    return join(this.directoryOf(name), name);
  }

  /** Two levels of 256 directories, so that no directory grows past a few thousand entries. */
  private directoryOf(name: string): string {
    return join(this.root, name.slice(0, 2), name.slice(2, 4));
  }
}
