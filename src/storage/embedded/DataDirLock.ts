import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';

const LOCK_FILE = 'store.lock';

/**
 * Keeps two store processes from opening the same data directory (say, the
 * `fedpod start` worker and a stray `fedpod store` on another port), which would
 * interleave their logs. The lock file holds the owner's pid; a lock whose pid is
 * dead, or is our own pid (a previous incarnation of this container's process),
 * is stale and taken over, so a kill -9 never leaves the directory locked.
 */
export class DataDirLock {
  private constructor(
    private readonly path: string,
    private readonly content: string,
  ) {}

  public static async acquire(dataDir: string): Promise<DataDirLock> {
    await fs.mkdir(dataDir, { recursive: true });
    const path = join(dataDir, LOCK_FILE);
    const content = `${process.pid} ${randomUUID()}\n`;
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await fs.writeFile(path, content, { flag: 'wx' });
        return new DataDirLock(path, content);
      } catch (error: unknown) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw error;
        }
      }
      const holder = Number.parseInt(await fs.readFile(path, 'utf8').catch((): string => ''), 10);
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && DataDirLock.isAlive(holder)) {
        throw new Error(`Data directory ${dataDir} is in use by process ${holder} (lock file ${path}); ` +
          'stop that store first, or delete the lock file if no store is running');
      }
      await fs.rm(path, { force: true });
    }
    throw new Error(`Could not lock data directory ${dataDir}: lock file ${path} keeps reappearing`);
  }

  private static isAlive(pid: number): boolean {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error: unknown) {
      // EPERM: it exists but belongs to someone else.
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  }

  /** Removes the lock file if it is still ours. */
  public async release(): Promise<void> {
    const current = await fs.readFile(this.path, 'utf8').catch((): string => '');
    if (current === this.content) {
      await fs.rm(this.path, { force: true });
    }
  }
}
