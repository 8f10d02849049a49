import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { KeyValueStorage } from '@solid/community-server';
import { makeDirectoryDurably, writeFileDurably } from '../util/DurableFiles';
import { errnoOf } from '../util/Errors';

/** Cached answers at most (keys known absent included): past it the cache starts again. */
const MAX_CACHED = 10_000;

interface StoredEntry {
  key: string;
  value: unknown;
}

/**
 * A key-value storage with one JSON file per key in a directory of the data directory, each write
 * durable before it resolves (see writeFileDurably). It keeps the identity provider's keys, sessions,
 * grants and refresh tokens across restarts. CSS's own choices do not fit here: its memory storage
 * forgets everything on restart, its JSON file storage rewrites one file for every change without
 * fsync, and its resource-store storage would put secrets in the LDP store next to users' data.
 */
export class FileKeyValueStorage<TValue = unknown> implements KeyValueStorage<string, TValue> {
  private readonly directory: string;
  private ready?: Promise<void>;
  /** With cacheMs: entries read or written, and keys known absent (undefined), while the directory stays unchanged. */
  private readonly cache = new Map<string, StoredEntry | undefined>();
  private checkedAt = 0;
  private seenChange?: bigint;
  /** With cacheMs: the directory's file names, listed once per change, so an absent key costs no read. */
  private names?: Promise<Set<string>>;

  /**
   * @param dataDir - The data directory.
   * @param relativePath - The directory of this storage inside the data directory.
   * @param cacheMs - 0 (the default): every read reads its file. Above 0: answers are kept in memory
   *   and dropped whenever the directory changed, which is checked at most every `cacheMs`, so a
   *   write by another node of a shared data directory is seen within that time. For data read far
   *   more than written (notification subscriptions, asked for on every write of a resource); not
   *   for data whose change must be seen at once everywhere (the identity provider's codes and tokens).
   */
  public constructor(dataDir: string, relativePath: string, private readonly cacheMs = 0) {
    this.directory = path.join(dataDir, relativePath);
  }

  public async get(key: string): Promise<TValue | undefined> {
    return (await this.lookup(key))?.value as TValue | undefined;
  }

  public async has(key: string): Promise<boolean> {
    return await this.lookup(key) !== undefined;
  }

  public async set(key: string, value: TValue): Promise<this> {
    await this.ensureDirectory();
    const entry: StoredEntry = { key, value };
    const text = JSON.stringify(entry);
    await writeFileDurably(this.fileOf(key), text);
    if (this.cacheMs > 0) {
      // As a read of the file would give it (not the caller's object, which it may change).
      this.cache.set(key, JSON.parse(text) as StoredEntry);
      this.names = undefined;
    }
    return this;
  }

  public async delete(key: string): Promise<boolean> {
    if (this.cacheMs > 0) {
      this.cache.set(key, undefined);
      this.names = undefined;
    }
    try {
      await fs.unlink(this.fileOf(key));
      return true;
    } catch (error: unknown) {
      if (errnoOf(error) === 'ENOENT') {
        return false;
      }
      throw error;
    }
  }

  private async lookup(key: string): Promise<StoredEntry | undefined> {
    if (this.cacheMs <= 0) {
      return this.read(this.fileOf(key));
    }
    await this.freshen();
    if (this.cache.has(key)) {
      return this.cache.get(key);
    }
    const file = this.fileOf(key);
    // Most keys asked for are absent (a new resource has no subscriptions): the listing says so without a read.
    const entry = (await this.listing()).has(path.basename(file)) ? await this.read(file) : undefined;
    if (this.cache.size >= MAX_CACHED) {
      this.cache.clear();
    }
    this.cache.set(key, entry);
    return entry;
  }

  /**
   * Drops the cache when the directory changed since the last check (a file added, replaced or
   * removed, here or by another node), checking at most every cacheMs. A change less than two
   * seconds old might hide behind a coarse file-system clock, so until the directory has been still
   * that long the cache is dropped at every check.
   */
  private async freshen(): Promise<void> {
    const now = Date.now();
    if (now - this.checkedAt < this.cacheMs) {
      return;
    }
    this.checkedAt = now;
    let changed: bigint | undefined;
    try {
      changed = (await fs.stat(this.directory, { bigint: true })).mtimeNs;
    } catch (error: unknown) {
      if (errnoOf(error) !== 'ENOENT') {
        throw error;
      }
    }
    const recent = changed !== undefined && Number(changed / 1_000_000n) > now - 2000;
    if (recent || changed !== this.seenChange) {
      this.cache.clear();
      this.names = undefined;
    }
    this.seenChange = changed;
  }

  private async listing(): Promise<Set<string>> {
    this.names ??= fs.readdir(this.directory).then((names): Set<string> => new Set(names), (error: NodeJS.ErrnoException): Set<string> => {
      if (error.code === 'ENOENT') {
        return new Set();
      }
      this.names = undefined;
      throw error;
    });
    return this.names;
  }

  public async* entries(): AsyncIterableIterator<[string, TValue]> {
    let names: string[];
    try {
      names = await fs.readdir(this.directory);
    } catch (error: unknown) {
      if (errnoOf(error) === 'ENOENT') {
        return;
      }
      throw error;
    }
    for (const name of names.filter((file): boolean => file.endsWith('.json'))) {
      const entry = await this.read(path.join(this.directory, name));
      if (entry) {
        yield [ entry.key, entry.value as TValue ];
      }
    }
  }

  /** Keys may hold any character; file names are their hashes. */
  private fileOf(key: string): string {
    return path.join(this.directory, `${createHash('sha256').update(key).digest('hex')}.json`);
  }

  private async read(file: string): Promise<StoredEntry | undefined> {
    try {
      return JSON.parse(await fs.readFile(file, 'utf8')) as StoredEntry;
    } catch (error: unknown) {
      if (errnoOf(error) === 'ENOENT') {
        return undefined;
      }
      throw error;
    }
  }

  private async ensureDirectory(): Promise<void> {
    this.ready ??= makeDirectoryDurably(this.directory, 0o700);
    await this.ready;
  }
}
