import type { AccountDeletion } from '../../plugins/lifecycle/AccountDeletion';
import { methodNotAllowed } from '../../util/HttpErrors';
import { readJsonBody, sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';

const MAX_BODY = 16 * 1024;

/**
 * Deletes an account (AccountDeletion): `POST /auth/delete` `{ password }` by the logged-in user
 * (403 `wrong_password`), and the operator's `POST /operator/accounts/:user/delete`, which also
 * finishes a deletion that was interrupted. 200 `{ username, deleted: true }` once the actor's Delete
 * is queued and the data removed.
 */
export class AccountDeletionHandler extends JsonHttpHandler {
  public constructor(private readonly deletion: AccountDeletion) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    if (request.method !== 'POST') {
      request.resume();
      throw methodNotAllowed(`${operation.target.path} takes POST only.`, 'POST');
    }
    const operatorTarget = operation.params.user;
    let username: string;
    if (operatorTarget) {
      request.resume();
      username = (await this.deletion.delete(operatorTarget)).username;
    } else {
      const body = await readJsonBody(request, MAX_BODY) as Record<string, unknown> | null;
      username = operation.agent.username!;
      await this.deletion.deleteWithPassword(username, body && typeof body === 'object' ? body.password : undefined);
    }
    sendJson(response, 200, { username, deleted: true }, { 'cache-control': 'no-store' });
  }
}
