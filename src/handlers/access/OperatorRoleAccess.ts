import type { ModerationRoles } from '../../plugins/moderation/ModerationRoles';
import { FedpodHttpError } from '../../util/HttpErrors';
import type { AccessPolicy } from './AccessPolicy';
import { LocalUserAccess } from './LocalUserAccess';
import type { Operation } from '../http/Operation';

/**
 * Only a local account with the operator role (ModerationRoles, given by `fedpod accounts role`):
 * the moderation routes of the Mastodon admin API and the moderation pages. Anyone else logged in
 * gets 403 (Mastodon's text), nobody logged in 401.
 */
export class OperatorRoleAccess implements AccessPolicy {
  private readonly localUser = new LocalUserAccess();

  public constructor(private readonly roles: ModerationRoles) {}

  public async authorize(operation: Operation): Promise<void> {
    await this.localUser.authorize(operation);
    if (operation.method !== 'OPTIONS' && !await this.roles.isOperator(operation.agent.username)) {
      throw new FedpodHttpError(403, 'This action is not allowed', 'Only an operator of this server may do this.');
    }
  }
}
