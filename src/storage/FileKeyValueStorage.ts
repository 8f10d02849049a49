import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { KeyValueStorage } from '@solid/community-server';
import { writeFileDurably } from '../util/DurableFiles';

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

  /**
   * @param dataDir - The data directory.
   * @param relativePath - The directory of this storage inside the data directory.
   */
  public constructor(dataDir: string, relativePath: string) {
    this.directory = path.join(dataDir, relativePath);
  }

  public async get(key: string): Promise<TValue | undefined> {
    return (await this.read(this.fileOf(key)))?.value as TValue | undefined;
  }

  public async has(key: string): Promise<boolean> {
    return await this.read(this.fileOf(key)) !== undefined;
  }

  public async set(key: string, value: TValue): Promise<this> {
    await this.ensureDirectory();
    const entry: StoredEntry = { key, value };
    await writeFileDurably(this.fileOf(key), JSON.stringify(entry));
    return this;
  }

  public async delete(key: string): Promise<boolean> {
    try {
      await fs.unlink(this.fileOf(key));
      return true;
    } catch (error: unknown) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return false;
      }
      throw error;
    }
  }

  public async* entries(): AsyncIterableIterator<[string, TValue]> {
    let names: string[];
    try {
      names = await fs.readdir(this.directory);
    } catch (error: unknown) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
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
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return undefined;
      }
      throw error;
    }
  }

  private async ensureDirectory(): Promise<void> {
    this.ready ??= fs.mkdir(this.directory, { recursive: true, mode: 0o700 }).then((): void => undefined);
    await this.ready;
  }
}
