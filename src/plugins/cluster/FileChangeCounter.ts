import { promises as fs, statSync } from 'node:fs';
import path from 'node:path';
import type { ChangeCounter } from './ChangeCounter';
import { TurnSharedRead } from '../../util/TurnSharedRead';

const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/u;

/**
 * A ChangeCounter for processes sharing a data directory without Redis (the server and the
 * `fedpod webhooks` console): the value is the size of `<dataDir>/changes/<name>`, and a bump
 * appends one byte. Appends are atomic, so concurrent bumps from several processes all count;
 * a read is one stat, shared by the reads asked for in the same turn (the WebACL decision reads on
 * every request). A missing file reads as 0.
 */
export class FileChangeCounter implements ChangeCounter {
  private readonly file: string;
  private readonly shared = new TurnSharedRead<string>(async(): Promise<string> => this.stat());

  /**
   * @param dataDir - The data directory.
   * @param name - What is counted (letters, digits, '-').
   */
  public constructor(dataDir: string, name: string) {
    if (!NAME.test(name)) {
      throw new Error(`Invalid change counter name ${JSON.stringify(name)}`);
    }
    this.file = path.join(dataDir, 'changes', name);
  }

  public async read(): Promise<string> {
    return this.shared.get();
  }

  /**
   * Synchronous on purpose: the file is a local one of this node's data directory (the local backend
   * is one node), whose stat is answered from the kernel's cache in 1-2 µs of the main thread, where
   * an asynchronous stat costs 36-52 µs of CPU across threads (a thread-pool job, its wake-ups and,
   * for a missing file, an error made and thrown away). It is read once per turn of a busy server.
   */
  private stat(): string {
    const stats = statSync(this.file, { throwIfNoEntry: false });
    return stats ? String(stats.size) : '0';
  }

  public async bump(): Promise<void> {
    await fs.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    await fs.appendFile(this.file, '.', { mode: 0o600 });
  }
}
