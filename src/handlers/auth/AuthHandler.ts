import type { AccountService, PendingSignup, Session } from '../../plugins/accounts/AccountService';
import { methodNotAllowed, unsupportedMediaType } from '../../util/HttpErrors';
import { mediaTypeOf, parseJson, readBody, sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import type { OperationInput } from '../http/Operation';

const MAX_AUTH_BODY = 16 * 1024;

/**
 * POST /auth/signup (201, Location: the WebID, `{ token, webId, newUser: true }`; 202
 * `{ webId, pending: true, waitsFor, newUser: true }` while the account waits for its email's
 * confirmation or an operator's approval) and
 * POST /auth/login (200, `{ token, webId, newUser: false }`). JSON bodies only.
 */
export class AuthHandler extends JsonHttpHandler {
  public constructor(private readonly accounts: AccountService) {
    super();
  }

  public override async canHandle({ operation }: OperationInput): Promise<void> {
    const path = operation.target.path;
    if (path !== '/auth/signup' && path !== '/auth/login') {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const path = operation.target.path;
    if (request.method !== 'POST') {
      request.resume();
      throw methodNotAllowed(`${path} takes POST only.`, 'POST');
    }
    if (mediaTypeOf(request.headers['content-type']) !== 'application/json') {
      // Forms are the pages' (AccountPagesHandler, for browsers); the API takes JSON.
      request.resume();
      throw unsupportedMediaType(`Content-Type ${String(request.headers['content-type'])} is not accepted here; send one of: application/json.`);
    }
    const body = await readBody(request, MAX_AUTH_BODY);
    const parsed = parseJson(body.toString('utf8'));
    const signup = path === '/auth/signup';
    const session: Session | PendingSignup = signup ? await this.accounts.signup(parsed) : await this.accounts.login(parsed);
    if (session.pending) {
      sendJson(response, 202, { webId: session.webId, pending: true, waitsFor: session.waitsFor, newUser: true }, { 'cache-control': 'no-store' });
      return;
    }
    sendJson(response, signup ? 201 : 200, { token: session.token, webId: session.webId, newUser: signup },
      { 'cache-control': 'no-store', ...signup ? { location: session.webId } : {}});
  }
}
