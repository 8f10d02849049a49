import type { Registrations } from '../../plugins/accounts/Registrations';
import { forbidden, methodNotAllowed } from '../../util/HttpErrors';
import { readJsonBody, sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';

const MAX_BODY = 16 * 1024;

/**
 * A local user's invite codes (registrations by invite): `POST /auth/invites` makes one
 * (`{ maxUses?, expiresInSeconds? }` → 201 with the code and the signup link), `GET` lists the user's
 * own with their uses. 403 where only the operator makes invites (`--invite-creators operators`).
 */
export class InvitesHandler extends JsonHttpHandler {
  private readonly base: string;

  public constructor(baseUrl: string, private readonly registrations: Registrations) {
    super();
    this.base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const username = operation.agent.username!;
    if (request.method === 'GET' || request.method === 'HEAD') {
      request.resume();
      const invites = await this.registrations.listInvites(username);
      return sendJson(response, 200, invites.map((invite): Record<string, unknown> => ({ ...invite, url: this.link(invite.code) })),
        { 'cache-control': 'no-store' });
    }
    if (request.method !== 'POST') {
      request.resume();
      throw methodNotAllowed(`${operation.target.path} takes GET and POST.`, 'GET, HEAD, POST');
    }
    if (this.registrations.inviteCreators !== 'users') {
      request.resume();
      throw forbidden('Only the operator makes invite codes on this server.', 'invites_by_operator');
    }
    const body = await readJsonBody(request, MAX_BODY) as Record<string, unknown> | null;
    const invite = await this.registrations.createInvite(username, body && typeof body === 'object' ? body : {});
    sendJson(response, 201, { ...invite, url: this.link(invite.code) }, { 'cache-control': 'no-store' });
  }

  private link(code: string): string {
    return `${this.base}auth/signup?invite=${encodeURIComponent(code)}`;
  }
}
