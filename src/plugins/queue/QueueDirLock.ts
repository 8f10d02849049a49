import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join, resolve } from 'node:path';

const LOCK_FILE = 'lock';

/**
 * Keeps two queues from opening the same queue directory: two writers would
 * interleave their journals and each would run the other's jobs.
 *
 * Across processes: a lock file holding the owner's pid, created exclusively.
 * A lock whose pid is dead, or is our own pid (a previous incarnation of this
 * container's process), is stale and taken over, so a kill -9 never leaves the
 * directory locked. Within a process: a registry of the directories open.
 *
 * The pid check cannot see processes of other machines or PID namespaces: never
 * share a data dir between hosts or containers (use Redis for that).
 */
export class QueueDirLock {
  private static readonly heldInProcess = new Set<string>();

  private constructor(
    private readonly directory: string,
    private readonly path: string,
    private readonly content: string,
  ) {}

  public static async acquire(directory: string): Promise<QueueDirLock> {
    const absolute = resolve(directory);
    if (QueueDirLock.heldInProcess.has(absolute)) {
      throw new Error(`Queue directory ${absolute} is already open in this process`);
    }
    QueueDirLock.heldInProcess.add(absolute);
    try {
      return await QueueDirLock.takeFile(absolute);
    } catch (error: unknown) {
      QueueDirLock.heldInProcess.delete(absolute);
      throw error;
    }
  }

  private static async takeFile(directory: string): Promise<QueueDirLock> {
    await fs.mkdir(directory, { recursive: true });
    const path = join(directory, LOCK_FILE);
    const content = `${process.pid} ${randomUUID()}\n`;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        await fs.writeFile(path, content, { flag: 'wx' });
        return new QueueDirLock(directory, path, content);
      } catch (error: unknown) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw error;
        }
      }
      const holder = Number.parseInt(await fs.readFile(path, 'utf8').catch((): string => ''), 10);
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && QueueDirLock.isAlive(holder)) {
        throw new Error(`Queue directory ${directory} is in use by process ${holder} (lock file ${path}); ` +
          'only one process may use a data dir: stop the other one, or delete the lock file if none runs');
      }
      await fs.rm(path, { force: true });
    }
    throw new Error(`Could not lock queue directory ${directory}: lock file ${path} keeps reappearing`);
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
    try {
      const current = await fs.readFile(this.path, 'utf8').catch((): string => '');
      if (current === this.content) {
        await fs.rm(this.path, { force: true });
      }
    } finally {
      QueueDirLock.heldInProcess.delete(this.directory);
    }
  }
}
