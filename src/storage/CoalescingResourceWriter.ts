import type { ResourceGraphs, ResourceWrite } from './ResourceGraphs';
import { statusOf } from '../util/Errors';
import { GroupCommit } from '../util/GroupCommit';

/**
 * Writes resources like ResourceGraphs.write, but the writes asked for while another group is
 * being written (or in the same turn of the event loop) go to the store together, as one writeMany:
 * a group commit (GroupCommit), which also touches each container once per group. Many small
 * writers (webhook jobs running side by side) then cost one request per group instead of one each.
 *
 * Each write() resolves once its group is stored. When a group fails, its writes are tried again one
 * by one, so one bad write fails alone; a store that is away (503) fails the whole group at once.
 */
export class CoalescingResourceWriter {
  private readonly groups: GroupCommit<ResourceWrite>;

  /**
   * @param store - Where the resources go.
   * @param maxGroup - Most writes in one update request.
   */
  public constructor(store: ResourceGraphs, maxGroup = 128) {
    this.groups = new GroupCommit(async(writes): Promise<void> => store.writeMany(writes),
      { maxItems: maxGroup, failsAll: (error): boolean => statusOf(error) === 503 });
  }

  public async write(write: ResourceWrite): Promise<void> {
    return this.groups.add(write);
  }
}
