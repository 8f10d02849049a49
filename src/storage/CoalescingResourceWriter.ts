import type { ResourceGraphs, ResourceWrite } from './ResourceGraphs';
import { statusOf } from '../util/Errors';

interface PendingWrite {
  write: ResourceWrite;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Writes resources like ResourceGraphs.write, but the writes asked for while another group is
 * being written (or in the same turn of the event loop) go to the store together, as one update
 * request: a group commit. Many small writers (webhook jobs running side by side) then cost one
 * request per group instead of one each, and the groups grow by themselves when the store is slow.
 *
 * Each write() resolves once its group is stored. When a group fails, its writes are tried again one
 * by one, so one bad write fails alone; a store that is away (503) fails the whole group at once.
 */
export class CoalescingResourceWriter {
  private pending: PendingWrite[] = [];
  private scheduled = false;
  private writing = false;

  /**
   * @param store - Where the resources go.
   * @param maxGroup - Most writes in one update request.
   */
  public constructor(
    private readonly store: ResourceGraphs,
    private readonly maxGroup = 128,
  ) {}

  public async write(write: ResourceWrite): Promise<void> {
    return new Promise<void>((resolve, reject): void => {
      this.pending.push({ write, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.writing) {
      return;
    }
    this.scheduled = true;
    // After this turn's I/O callbacks: every write asked for in it joins the group.
    setImmediate((): void => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    const group = this.pending.splice(0, this.maxGroup);
    if (group.length === 0) {
      return;
    }
    this.writing = true;
    try {
      await this.store.writeMany(group.map((pending): ResourceWrite => pending.write));
      for (const pending of group) {
        pending.resolve();
      }
    } catch (error: unknown) {
      if (group.length === 1 || statusOf(error) === 503) {
        for (const pending of group) {
          pending.reject(error);
        }
      } else {
        await Promise.all(group.map(async(pending): Promise<void> =>
          this.store.writeMany([ pending.write ]).then(pending.resolve, pending.reject)));
      }
    } finally {
      this.writing = false;
      if (this.pending.length > 0) {
        this.schedule();
      }
    }
  }
}
