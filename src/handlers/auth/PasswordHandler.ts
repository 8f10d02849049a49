import type { AccountService } from '../../plugins/accounts/AccountService';
import { readJsonBody, sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';

const MAX_BODY = 16 * 1024;

/**
 * `POST /auth/password` `{ currentPassword, newPassword }` by a logged-in local user: 200 with a new
 * `{ token, webId }`; every other token of the account is revoked. A wrong current password: 403,
 * nothing changed.
 */
export class PasswordHandler extends JsonHttpHandler {
  public constructor(private readonly accounts: AccountService) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const body = await readJsonBody(request, MAX_BODY);
    const session = await this.accounts.changePassword(operation.agent.username!, body);
    sendJson(response, 200, { token: session.token, webId: session.webId }, { 'cache-control': 'no-store' });
  }
}
