import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { WalDirectory } from '../wal/WalDirectory';
import { makeDirectoryDurably } from '../../util/DurableFiles';

const SNAPSHOT = /^snapshot-(\d{12})\.nq$/u;
const TEMP = /\.tmp$/u;

/** What a dataset directory holds, sorted ascending. */
export interface DatasetDirectoryListing {
  /** Sequence numbers n of complete snapshots `snapshot-n.nq` (state after logs 1..n). */
  readonly snapshots: number[];
  /** Sequence numbers of update logs `log-n.wal`. */
  readonly logs: number[];
  /** Leftover temporary files of an interrupted snapshot write. */
  readonly temps: string[];
}

/**
 * Names and durably manipulates the files of one dataset directory.
 * A snapshot's name carries the last log sequence it covers, so the rename that
 * publishes it also records, atomically, which logs are now obsolete; boot never
 * replays a log twice even if a crash hits before the old logs are deleted.
 */
export class DatasetFiles {
  /** The update logs, `log-n.wal`. */
  public readonly logs: WalDirectory;

  public constructor(public readonly directory: string) {
    this.logs = new WalDirectory(directory, 'log-', '.wal');
  }

  public snapshotPath(sequence: number): string {
    return join(this.directory, `snapshot-${this.pad(sequence)}.nq`);
  }

  public logPath(sequence: number): string {
    return this.logs.path(sequence);
  }

  public async ensureDirectory(): Promise<void> {
    await makeDirectoryDurably(this.directory);
  }

  public async list(): Promise<DatasetDirectoryListing> {
    const snapshots: number[] = [];
    const logs: number[] = [];
    const temps: string[] = [];
    for (const name of await fs.readdir(this.directory)) {
      const snapshot = SNAPSHOT.exec(name);
      const log = this.logs.sequenceOf(name);
      if (snapshot) {
        snapshots.push(Number(snapshot[1]));
      } else if (log !== undefined) {
        logs.push(log);
      } else if (TEMP.test(name)) {
        temps.push(join(this.directory, name));
      }
    }
    const ascending = (left: number, right: number): number => left - right;
    return { snapshots: snapshots.sort(ascending), logs: logs.sort(ascending), temps };
  }

  /** Writes `content` as the snapshot covering logs up to `sequence`, crash-safely. */
  /** Writes a snapshot from its N-Quads, given whole or in pieces (SnapshotDump), and publishes it. */
  public async writeSnapshot(sequence: number, content: string | readonly string[]): Promise<void> {
    const finalPath = this.snapshotPath(sequence);
    const tempPath = `${finalPath}.tmp`;
    const handle = await fs.open(tempPath, 'w');
    try {
      for (const piece of typeof content === 'string' ? [ content ] : content) {
        // writeFile on a handle writes all of it from the current position: each piece after the last.
        await handle.writeFile(piece, 'utf8');
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(tempPath, finalPath);
    await this.syncDirectory();
  }

  /** Deletes logs and snapshots made obsolete by the snapshot covering `sequence`. */
  public async removeCoveredBy(sequence: number): Promise<void> {
    const listing = await this.list();
    let removed = false;
    for (const log of listing.logs) {
      if (log <= sequence) {
        await fs.rm(this.logPath(log), { force: true });
        removed = true;
      }
    }
    for (const snapshot of listing.snapshots) {
      if (snapshot < sequence) {
        await fs.rm(this.snapshotPath(snapshot), { force: true });
        removed = true;
      }
    }
    if (removed) {
      await this.syncDirectory();
    }
  }

  public async removeTemps(temps: readonly string[]): Promise<void> {
    for (const temp of temps) {
      await fs.rm(temp, { force: true });
    }
  }

  /** Makes creations, renames and deletions in the directory durable. */
  public async syncDirectory(): Promise<void> {
    await this.logs.syncDirectory();
  }

  private pad(sequence: number): string {
    return String(sequence).padStart(12, '0');
  }
}
