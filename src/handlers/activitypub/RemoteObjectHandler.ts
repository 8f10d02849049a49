import type { ActivityRepository } from '../../plugins/activitypub/ActivityRepository';
import { ActorUrls } from '../../plugins/activitypub/ActorUrls';
import { ActivityDocumentHandler } from './ActivityDocumentHandler';
import type { Operation } from '../http/Operation';

/**
 * Copies of other servers' activities and objects that reached this server (`GET {base}remote?id=<iri>`),
 * for readers whose client cannot fetch them from their origin (their ids often serve nothing, or only
 * to signed requests). Who may read is RemoteObjectAccess's decision (see ActivityDocumentHandler).
 */
export class RemoteObjectHandler extends ActivityDocumentHandler {
  private readonly path: string;

  public constructor(baseUrl: string, activities: ActivityRepository) {
    super(activities);
    this.path = new URL(new ActorUrls(baseUrl).url('remote')).pathname;
  }

  protected target({ target }: Operation): string | undefined {
    return target.path === this.path ? target.query.get('id') ?? '' : undefined;
  }
}
