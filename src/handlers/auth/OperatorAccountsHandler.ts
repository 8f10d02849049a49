import type { Account } from '../../plugins/accounts/Account';
import type { AccountService } from '../../plugins/accounts/AccountService';
import type { Registrations } from '../../plugins/accounts/Registrations';
import { methodNotAllowed, notFound } from '../../util/HttpErrors';
import { readJsonBody, sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';

const MAX_BODY = 16 * 1024;

/** What the operator sees of an account: never its password hash. */
function summary(account: Account): Record<string, unknown> {
  return { username: account.username, email: account.email, webId: account.webId, created: account.created,
    status: account.status ?? 'active', ...account.reason ? { reason: account.reason } : {}, ...account.invite ? { invite: account.invite } : {}};
}

/**
 * The operator's account commands (`fedpod accounts ...`), answered by the running server behind
 * OperatorAccess: `GET /operator/accounts/pending` (the approval queue), `POST
 * /operator/accounts/:user/approve`, `.../reject` and `.../reset-password` (a new random password,
 * every token revoked), `GET` and `POST /operator/invites` (invite codes
 * made by the operator: `{ maxUses?, expiresInSeconds? }`).
 */
export class OperatorAccountsHandler extends JsonHttpHandler {
  public constructor(
    private readonly accounts: AccountService,
    private readonly registrations: Registrations,
  ) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const path = operation.route.template ?? '';
    const method = request.method ?? 'GET';
    if (path.endsWith('/invites')) {
      if (method === 'POST') {
        const body = await readJsonBody(request, MAX_BODY) as Record<string, unknown> | null;
        const invite = await this.registrations.createInvite('operator', body && typeof body === 'object' ? body : {});
        return sendJson(response, 201, invite, { 'cache-control': 'no-store' });
      }
      request.resume();
      return sendJson(response, 200, await this.registrations.listInvites(), { 'cache-control': 'no-store' });
    }
    if (path.endsWith('/pending')) {
      request.resume();
      return sendJson(response, 200, (await this.accounts.pending()).map(summary), { 'cache-control': 'no-store' });
    }
    request.resume();
    if (method !== 'POST') {
      throw methodNotAllowed(`${operation.target.path} takes POST only.`, 'POST');
    }
    const user = operation.params.user ?? '';
    switch (operation.params.action) {
      case 'approve':
        return sendJson(response, 200, summary(await this.accounts.approve(user)));
      case 'reject':
        return sendJson(response, 200, { ...summary(await this.accounts.reject(user)), status: 'rejected' });
      case 'reset-password': {
        const { account, password } = await this.accounts.resetPassword(user);
        return sendJson(response, 200, { ...summary(account), password }, { 'cache-control': 'no-store' });
      }
      default:
        throw notFound(`No action ${operation.params.action} on accounts.`);
    }
  }
}
