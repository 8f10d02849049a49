import { FedpodHttpError, forbidden } from '../../util/HttpErrors';
import type { AccessPolicy } from './AccessPolicy';
import type { Operation } from '../http/Operation';

/**
 * Only a local user, with a token of this server or a Solid-OIDC login of their WebID, may use the
 * route (an account's own settings); the handler then acts on that user's records only.
 */
export class LocalUserAccess implements AccessPolicy {
  public async authorize({ method, agent }: Operation): Promise<void> {
    if (method === 'OPTIONS' || agent.username !== undefined) {
      return;
    }
    if (agent.webId !== undefined || agent.remoteActor !== undefined) {
      throw forbidden('Only a user of this server may do this.', 'not_local_user');
    }
    throw new FedpodHttpError(401, 'authorization_required',
      'This needs the Authorization header with the token from signup or login.', { 'www-authenticate': 'Bearer' });
  }
}
