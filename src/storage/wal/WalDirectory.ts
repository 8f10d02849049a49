import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

/** The numbered log files of a directory and the leftovers of interrupted rewrites. */
export interface WalDirectoryListing {
  /** Sequence numbers of the log files, ascending. */
  readonly sequences: number[];
  /** Paths of temporary files (`<log name>.tmp`) that a crash left behind. */
  readonly temps: string[];
}

/**
 * Names the files of one sequence of logs, `<prefix><12-digit sequence><suffix>` in one
 * directory, and makes changes to them durable.
 */
export class WalDirectory {
  public static readonly tempSuffix = '.tmp';
  private readonly pattern: RegExp;

  public constructor(
    public readonly directory: string,
    private readonly prefix: string,
    private readonly suffix: string,
  ) {
    const escape = (text: string): string => text.replaceAll(/[$()*+.?[\\\]^{|}]/gu, '\\$&');
    this.pattern = new RegExp(`^${escape(prefix)}(\\d{12})${escape(suffix)}$`, 'u');
  }

  public path(sequence: number): string {
    return join(this.directory, `${this.prefix}${String(sequence).padStart(12, '0')}${this.suffix}`);
  }

  /** The sequence number of the log file called `name`, if it is one. */
  public sequenceOf(name: string): number | undefined {
    const match = this.pattern.exec(name);
    return match ? Number(match[1]) : undefined;
  }

  public async list(): Promise<WalDirectoryListing> {
    const sequences: number[] = [];
    const temps: string[] = [];
    for (const name of await fs.readdir(this.directory)) {
      const sequence = this.sequenceOf(name);
      if (sequence !== undefined) {
        sequences.push(sequence);
      } else if (name.endsWith(WalDirectory.tempSuffix) &&
        this.sequenceOf(name.slice(0, -WalDirectory.tempSuffix.length)) !== undefined) {
        temps.push(join(this.directory, name));
      }
    }
    return { sequences: sequences.sort((left, right): number => left - right), temps };
  }

  /**
   * Cuts log `sequence` back to its first `length` bytes, durably. With `keepCutAs`, the
   * bytes cut off are first copied to that file, for an operator to look at.
   */
  public async truncate(sequence: number, length: number, keepCutAs?: string): Promise<void> {
    const path = this.path(sequence);
    if (keepCutAs !== undefined) {
      await pipeline(createReadStream(path, { start: length }), createWriteStream(keepCutAs));
    }
    const handle = await fs.open(path, 'r+');
    try {
      await handle.truncate(length);
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** Makes creations, renames and deletions in the directory durable. */
  public async syncDirectory(): Promise<void> {
    const handle = await fs.open(this.directory, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}
