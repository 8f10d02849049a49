import type { ActivityRepository } from '../../plugins/activitypub/ActivityRepository';
import type { ActorProfiles } from '../../plugins/activitypub/ActorProfiles';
import type { Operation } from '../http/Operation';
import { PostPageHandler } from './PostPageHandler';

/**
 * The page of another server's post that reached this one (`/remote?id=<iri>`), for browsers: the
 * same page as a local post's. Who may read it is the route's decision (RemoteObjectAccess), as for
 * its JSON.
 */
export class RemotePostPageHandler extends PostPageHandler {
  private readonly path: string;

  public constructor(baseUrl: string, activities: ActivityRepository, profiles: ActorProfiles) {
    super(baseUrl, activities, profiles);
    this.path = new URL(this.urls.url('remote')).pathname;
  }

  protected override target({ target }: Operation): string | undefined {
    return target.path === this.path ? target.query.get('id') ?? undefined : undefined;
  }
}
