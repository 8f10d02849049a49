import { idOf } from '../ActivityJson';
import type { ActivityRepository } from '../ActivityRepository';
import type { ReceivedActivity } from './InboundActivityEffect';
import { InboundActivityEffect } from './InboundActivityEffect';

/** Delete, by the object's owner (checked before): a stored copy of the object becomes a Tombstone. */
export class DeleteEffect extends InboundActivityEffect {
  public readonly types = [ 'Delete' ];

  public constructor(private readonly activities: ActivityRepository) {
    super();
  }

  public async apply({ activity, now }: ReceivedActivity): Promise<void> {
    const objectId = idOf(activity.object);
    if (objectId) {
      await this.activities.tombstone(objectId, now);
    }
  }
}
