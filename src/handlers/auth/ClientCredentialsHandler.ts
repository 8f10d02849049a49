import type { ClientCredentialsFileStore, StoredClientCredentials } from '../../plugins/accounts/ClientCredentialsFileStore';
import { badRequest, methodNotAllowed, notFound } from '../../util/HttpErrors';
import { parseJson, readBody, sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import type { OperationInput } from '../http/Operation';

const MAX_BODY = 4 * 1024;
const PATH = /^\/auth\/clients(?:\/([^/]+))?\/?$/u;

/**
 * Client credentials for scripts and bots (Solid-OIDC's client_credentials grant), made and revoked by
 * the logged-in user (the route's LocalUserAccess):
 * - POST /auth/clients `{ "name"? }` (body optional) → 201 `{ id, secret, webId, issuer, created }`, the
 *   id starting with the name; the secret is shown this once;
 * - GET /auth/clients → the user's clients, without secrets;
 * - DELETE /auth/clients/<id> → 204; the client's next token request fails (tokens already issued live
 *   out their hour).
 */
export class ClientCredentialsHandler extends JsonHttpHandler {
  /**
   * @param baseUrl - Public base URL: the OpenID issuer clients log in with.
   * @param credentials - Where client credentials are kept.
   */
  public constructor(
    private readonly baseUrl: string,
    private readonly credentials: ClientCredentialsFileStore,
  ) {
    super();
  }

  public override async canHandle({ operation }: OperationInput): Promise<void> {
    if (!PATH.test(operation.target.path)) {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const id = PATH.exec(operation.target.path)![1];
    const agent = operation.agent;
    const username = agent.username!;
    const method = request.method ?? 'GET';
    if (id === undefined && method === 'POST') {
      const text = (await readBody(request, MAX_BODY)).toString('utf8');
      const body = text.trim() === '' ? {} : parseJson(text);
      const name = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).name : undefined;
      if (name !== undefined && (typeof name !== 'string' || name.length > 100)) {
        throw badRequest('name must be a string of at most 100 characters.', 'invalid_name');
      }
      const record = await this.credentials.create(name ?? 'client', agent.webId!, username);
      sendJson(response, 201, { ...this.describe(record), secret: record.secret, issuer: this.baseUrl },
        { location: `${this.baseUrl}auth/clients/${record.id}`, 'cache-control': 'no-store' });
      return;
    }
    if (id === undefined && (method === 'GET' || method === 'HEAD')) {
      const records = await this.credentials.findByAccount(username);
      sendJson(response, 200, records.map((record): Record<string, string> => this.describe(record)), { 'cache-control': 'no-store' });
      return;
    }
    if (id !== undefined && method === 'DELETE') {
      const record = await this.credentials.get(id);
      if (record?.accountId !== username) {
        throw notFound('You have no client with that id.');
      }
      await this.credentials.delete(id);
      response.writeHead(204);
      response.end();
      return;
    }
    request.resume();
    throw methodNotAllowed(id === undefined ? '/auth/clients takes GET and POST.' : 'A client takes DELETE.',
      id === undefined ? 'GET, HEAD, POST' : 'DELETE');
  }

  private describe(record: StoredClientCredentials): Record<string, string> {
    return { id: record.id, webId: record.webId, created: record.created };
  }
}
