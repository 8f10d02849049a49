import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join, resolve } from 'node:path';
import { errnoOf } from './Errors';

export interface DirectoryLockOptions {
  /** Name of the lock file inside the directory. */
  fileName: string;
  /** How the directory is named in errors, e.g. "Queue directory". */
  label: string;
  /** Also refuse a second lock of the same directory within this process (thread). */
  exclusiveInProcess?: boolean;
}

/**
 * Keeps two processes from writing into one directory (the embedded store's data, a queue's journal):
 * a lock file holding the owner's pid, created exclusively. A lock whose pid is dead, or is our own pid
 * (a previous incarnation of this container's process), is stale and taken over, so a kill -9 never
 * leaves the directory locked. The pid check cannot see other machines or PID namespaces: never share
 * such a directory between hosts or containers.
 */
export class DirectoryLock {
  private static readonly heldInProcess = new Set<string>();

  private constructor(
    private readonly directory: string,
    private readonly path: string,
    private readonly content: string,
  ) {}

  public static async acquire(directory: string, options: DirectoryLockOptions): Promise<DirectoryLock> {
    const absolute = resolve(directory);
    if (options.exclusiveInProcess) {
      if (DirectoryLock.heldInProcess.has(absolute)) {
        throw new Error(`${options.label} ${absolute} is already open in this process`);
      }
      DirectoryLock.heldInProcess.add(absolute);
    }
    try {
      return await DirectoryLock.takeFile(absolute, options);
    } catch (error: unknown) {
      DirectoryLock.heldInProcess.delete(absolute);
      throw error;
    }
  }

  private static async takeFile(directory: string, options: DirectoryLockOptions): Promise<DirectoryLock> {
    await fs.mkdir(directory, { recursive: true });
    const path = join(directory, options.fileName);
    const content = `${process.pid} ${randomUUID()}\n`;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        await fs.writeFile(path, content, { flag: 'wx' });
        return new DirectoryLock(directory, path, content);
      } catch (error: unknown) {
        if (errnoOf(error) !== 'EEXIST') {
          throw error;
        }
      }
      const holder = Number.parseInt(await fs.readFile(path, 'utf8').catch((): string => ''), 10);
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && DirectoryLock.isAlive(holder)) {
        throw new Error(`${options.label} ${directory} is in use by process ${holder} (lock file ${path}); ` +
          'only one process may use it: stop the other one, or delete the lock file if none runs');
      }
      await fs.rm(path, { force: true });
    }
    throw new Error(`Could not lock ${options.label.toLowerCase()} ${directory}: lock file ${path} keeps reappearing`);
  }

  private static isAlive(pid: number): boolean {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error: unknown) {
      // EPERM: it exists but belongs to someone else.
      return errnoOf(error) === 'EPERM';
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
      DirectoryLock.heldInProcess.delete(this.directory);
    }
  }
}
