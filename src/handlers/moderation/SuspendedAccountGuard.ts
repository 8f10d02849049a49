import type { ActivityRepository } from '../../plugins/activitypub/ActivityRepository';
import { idOf } from '../../plugins/activitypub/ActivityJson';
import { ActorUrls } from '../../plugins/activitypub/ActorUrls';
import type { AccountModerations } from '../../plugins/moderation/AccountModerations';
import { FedpodHttpError } from '../../util/HttpErrors';
import type { Guard } from '../pipeline/Guard';
import type { Operation } from '../http/Operation';

const gone = (): FedpodHttpError => new FedpodHttpError(410, 'account_suspended', 'This account is suspended.');

/**
 * 410 Gone for what a suspended local account published: its actor and collections (routes with
 * `:user`), its objects and activities and their parts (routes with `:id`: the author is read only
 * while some local account is suspended, so a server with none pays nothing). The data stays:
 * unsuspending serves it again. Without measures (no moderation part) it passes everything.
 */
export class SuspendedAccountGuard implements Guard {
  private readonly urls: ActorUrls;

  public constructor(baseUrl: string, private readonly measures?: AccountModerations,
    private readonly activities?: ActivityRepository) {
    this.urls = new ActorUrls(baseUrl);
  }

  public async check(operation: Operation): Promise<void> {
    if (!this.measures) {
      return;
    }
    const { user, id } = operation.params;
    if (user !== undefined) {
      if (await this.measures.isSuspended(this.urls.actor(user))) {
        throw gone();
      }
      return;
    }
    if (id === undefined || !this.activities) {
      return;
    }
    const suspended = (await this.measures.list()).filter((record): boolean =>
      record.suspended !== undefined && this.urls.usernameOf(record.actor) !== undefined);
    if (suspended.length === 0) {
      return;
    }
    // /objects/:id/:collection names its object's parts: the object is the path up to :id.
    const target = operation.target.iri;
    const iri = operation.route.name === 'object-collection' ? target.slice(0, target.lastIndexOf('/')) : target;
    const stored = await this.activities.read(iri);
    const author = idOf(stored?.attributedTo) ?? idOf(stored?.actor);
    if (author && suspended.some((record): boolean => record.actor === author)) {
      throw gone();
    }
  }
}
