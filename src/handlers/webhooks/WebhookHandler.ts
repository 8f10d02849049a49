import type { IncomingMessage } from 'node:http';
import type { HttpHandlerInput } from '@solid/community-server';
import type { LoginPolicy } from '../../plugins/accounts/LoginPolicy';
import type { WebhookService } from '../../plugins/webhooks/WebhookService';
import { WEBHOOK_SEGMENT } from '../../plugins/webhooks/WebhookVocabulary';
import { badRequest, FedpodHttpError, methodNotAllowed, notFound, unauthorized } from '../../util/HttpErrors';
import { parseJson, readBody, sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import type { RequestMatcher } from '../http/RequestMatcher';
import { WebhookPaths } from './WebhookPaths';
import type { Agent } from '../http/Agent';
import type { Operation, OperationInput } from '../http/Operation';

const JSON_LD = 'application/ld+json';

/**
 * Owns every path of the webhooks container, so no other handler (LDP fast paths, CSS) ever serves
 * it and no webhook URI can be discovered. Who the caller is comes from the pipeline (its
 * authentication, and the routes' LocalUserAccess where a local user is needed), so any credential
 * the pipeline accepts works here: a Fedpod token or a Solid-OIDC (DPoP) login of a local WebID.
 * - POST /webhooks {action} by a local user: 201, Location: the new webhook URI, JSON-LD body
 *   {@context, id, user, action, created}. Unknown or missing action: 400 listing the allowed ones;
 *   missing or invalid credentials: 401 (from the pipeline).
 * - GET /webhooks by a local user: their own webhooks (record IRIs, never URIs); 401 without.
 * - POST <webhook URI> with JSON of any shape and no credentials: 202 {status: "accepted", job}
 *   once the job is durable. Not JSON: 415; invalid JSON: 400; too large: 413; unknown or revoked: 404.
 * - DELETE <webhook URI or record IRI> by its owner: 204 (revoked); another user: 403; no credentials: 401.
 * - Anything else under the container: 405 (GET of a webhook URI included, known or not) or 404.
 */
export class WebhookHandler extends JsonHttpHandler implements RequestMatcher {
  private readonly paths: WebhookPaths;

  /**
   * @param baseUrl - Public base URL.
   * @param service - The webhook service.
   * @param maxBodyBytes - Largest body accepted by a webhook (413 above).
   * @param loginPolicy - The accounts an operator locked out (suspended, disabled): their webhooks act no more.
   */
  public constructor(
    baseUrl: string,
    private readonly service: WebhookService,
    private readonly maxBodyBytes = 1_048_576,
    private readonly loginPolicy?: LoginPolicy,
  ) {
    super();
    this.paths = new WebhookPaths(baseUrl);
  }

  public accepts({ operation }: OperationInput): boolean {
    return this.paths.match(operation.target, this.service.containerUri) !== undefined;
  }

  public override async canHandle(input: OperationInput): Promise<void> {
    if (!this.accepts(input)) {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const iri = this.paths.match(operation.target, this.service.containerUri);
    const container = this.service.containerUri;
    if (!iri) {
      request.resume();
      throw notFound('No such resource.');
    }
    if (iri === container || iri === container.slice(0, -1)) {
      await this.serveContainer(request, response, operation);
      return;
    }
    const segment = iri.slice(container.length);
    if (!WEBHOOK_SEGMENT.test(segment)) {
      request.resume();
      throw notFound('No such webhook.', 'unknown_webhook');
    }
    switch (request.method) {
      case 'POST': {
        const job = await this.receive(request, segment);
        sendJson(response, 202, { status: 'accepted', job });
        return;
      }
      case 'DELETE': {
        request.resume();
        await this.service.revoke(iri, this.localUser(operation).webId);
        response.writeHead(204).end();
        return;
      }
      default:
        request.resume();
        throw methodNotAllowed('A webhook takes POST (and DELETE by its owner); it cannot be read.', 'POST, DELETE');
    }
  }

  private async serveContainer(request: IncomingMessage, response: HttpHandlerInput['response'], operation: Operation):
  Promise<void> {
    switch (request.method) {
      case 'POST': {
        const claims = this.localUser(operation);
        const body = this.parse(await readBody(request, 64 * 1024));
        const action = typeof body === 'object' && body !== null && !Array.isArray(body) ?
          (body as Record<string, unknown>).action :
          undefined;
        // An unknown action is a 400 whose body lists the allowed ones (UnknownActionError's details).
        const webhook = await this.service.generate({ webId: claims.webId, username: claims.username }, action);
        sendJson(response, 201, this.service.describe(webhook), { location: webhook.id }, JSON_LD);
        return;
      }
      case 'GET':
      case 'HEAD': {
        const records = await this.service.list(this.localUser(operation).webId);
        const body = { '@context': this.service.context, id: this.service.containerUri,
          items: records.map((record): Record<string, unknown> => this.service.describeRecord(record)) };
        if (request.method === 'HEAD') {
          response.writeHead(200, { 'content-type': `${JSON_LD}; charset=utf-8` }).end();
          return;
        }
        sendJson(response, 200, body, { 'cache-control': 'private, no-store' }, JSON_LD);
        return;
      }
      default:
        request.resume();
        throw methodNotAllowed('The webhooks container takes POST (generate) and GET (your webhooks).', 'GET, HEAD, POST');
    }
  }

  private async receive(request: IncomingMessage, secret: string): Promise<string> {
    const record = await this.service.lookup(secret);
    if (!record) {
      request.resume();
      throw notFound('No such webhook (unknown or revoked).', 'unknown_webhook');
    }
    // A webhook acts as its owner: not while the owner is locked out (the body is never read).
    if (await this.loginPolicy?.isLocked(record.user)) {
      request.resume();
      throw new FedpodHttpError(403, 'account_suspended', 'The account this webhook acts for is suspended: nothing was queued.');
    }
    const body = await readBody(request, this.maxBodyBytes);
    return this.service.acceptFor(record, this.parse(body), body.length);
  }

  private parse(body: Buffer): unknown {
    if (body.length === 0) {
      throw badRequest('The body is empty: send JSON.', 'invalid_json');
    }
    return parseJson(body.toString('utf8'));
  }

  /**
   * The local user the pipeline authenticated. The routes that need one let nobody else through
   * (LocalUserAccess); checked again here, since this handler must never act for anyone else.
   */
  private localUser({ request, agent }: Operation): Required<Pick<Agent, 'webId' | 'username'>> {
    if (agent.username === undefined || agent.webId === undefined) {
      request.resume();
      throw unauthorized('Send the token from signup or login as "Authorization: Bearer <token>", or log in with Solid-OIDC.',
        'authorization_required');
    }
    return { webId: agent.webId, username: agent.username };
  }
}
