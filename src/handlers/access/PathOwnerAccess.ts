import { FedpodHttpError, forbidden } from '../../util/HttpErrors';
import type { AccessPolicy } from './AccessPolicy';
import type { Operation } from '../http/Operation';
import { WRITE_METHODS } from './AccessPolicy';

/**
 * Only the local user the path names (the route's `:user`) may use the route: an actor's outbox, a
 * user's webhook data. Without credentials the answer is `anonymousStatus` (the documented API fixes 403
 * for an outbox POST without Authorization), with another user's 403.
 */
export class PathOwnerAccess implements AccessPolicy {
  /**
   * @param readsArePublic - Whether GET and HEAD are open to anyone (an outbox's collection page is
   *   filtered per reader by its handler).
   * @param anonymousStatus - Status without credentials: 401, or 403 where the documented API says so.
   */
  public constructor(
    private readonly readsArePublic = false,
    private readonly anonymousStatus = 401,
  ) {}

  public async authorize({ method, agent, params }: Operation): Promise<void> {
    if (method === 'OPTIONS' || (this.readsArePublic && !WRITE_METHODS.has(method))) {
      return;
    }
    if (agent.username === undefined) {
      if (agent.webId !== undefined || agent.remoteActor !== undefined) {
        throw forbidden('Only the local user this path belongs to may do this.', 'not_owner');
      }
      throw new FedpodHttpError(this.anonymousStatus, 'authorization_required',
        'This needs the Authorization header with the token from signup or login.', { 'www-authenticate': 'Bearer' });
    }
    if (agent.username !== params.user) {
      throw forbidden('This belongs to another user.', 'not_owner');
    }
  }
}
