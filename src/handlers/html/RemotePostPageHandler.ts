import type { IncomingMessage } from 'node:http';
import type { ActivityRepository } from '../../plugins/activitypub/ActivityRepository';
import { ActorUrls } from '../../plugins/activitypub/ActorDocument';
import type { ActorProfiles } from '../../plugins/activitypub/ActorProfiles';
import { remoteIdOf } from '../access/RemoteIds';
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
    this.path = new URL(new ActorUrls(baseUrl).url('remote')).pathname;
  }

  protected override target(request: IncomingMessage): string | undefined {
    return (request.url ?? '').split('?')[0] === this.path ? remoteIdOf(request) : undefined;
  }
}
