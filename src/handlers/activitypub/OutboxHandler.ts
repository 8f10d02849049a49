import type { HttpHandlerInput } from '@solid/community-server';
import { ActorUrls } from '../../plugins/activitypub/ActorDocument';
import type { OutboxService } from '../../plugins/activitypub/OutboxService';
import type { TokenService } from '../../plugins/accounts/TokenService';
import { FedpodHttpError, forbidden, unsupportedMediaType } from '../../util/HttpErrors';
import { bearerToken } from '../auth/BearerToken';
import { mediaTypeOf, readBody, sendJson } from '../HttpUtil';
import { JsonHttpHandler } from '../JsonHttpHandler';
import { NOT_HANDLED } from '../NotHandled';
import { ACTIVITY_JSON } from './ActivityJson';

const ACCEPTED = new Set([ 'application/ld+json', ACTIVITY_JSON, 'application/json' ]);

/**
 * POST /actors/<username>/outbox (ActivityPub client-to-server). No Authorization header: 403, as the
 * interface says; an invalid token: 401; another user's token: 403. Answers 201 with Location of the
 * activity and the activity as JSON.
 */
export class OutboxHandler extends JsonHttpHandler {
  private readonly urls: ActorUrls;
  private readonly origin: string;

  public constructor(
    baseUrl: string,
    private readonly outbox: OutboxService,
    private readonly tokens: TokenService,
    private readonly maxBodyBytes = 1_048_576,
  ) {
    super();
    this.urls = new ActorUrls(baseUrl);
    this.origin = new URL(this.urls.base).origin;
  }

  public override async canHandle({ request }: HttpHandlerInput): Promise<void> {
    if (request.method !== 'POST' || !this.owner(request.url)) {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response }: HttpHandlerInput): Promise<void> {
    const username = this.owner(request.url)!;
    const token = bearerToken(request);
    if (!request.headers.authorization) {
      request.resume();
      throw forbidden('Posting to an outbox needs the Authorization header with the token from signup or login.',
        'authorization_required');
    }
    if (!token) {
      request.resume();
      throw new FedpodHttpError(401, 'invalid_token', 'Send the token as "Authorization: Bearer <token>".',
        { 'www-authenticate': 'Bearer' });
    }
    const claims = await this.tokens.verify(token);
    if (claims.username !== username) {
      request.resume();
      throw forbidden('This outbox belongs to another actor.', 'not_owner');
    }
    if (!ACCEPTED.has(mediaTypeOf(request.headers['content-type']))) {
      request.resume();
      throw unsupportedMediaType('Send the activity as application/ld+json, application/activity+json or application/json.');
    }
    const body = await readBody(request, this.maxBodyBytes);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      throw new FedpodHttpError(400, 'invalid_json', 'The body is not valid JSON.');
    }
    const posted = await this.outbox.post(username, parsed);
    sendJson(response, 201, posted.activity, { location: posted.id }, ACTIVITY_JSON);
  }

  private owner(url: string | undefined): string | undefined {
    const path = (url ?? '').split('?')[0];
    if (!path.endsWith('/outbox')) {
      return undefined;
    }
    return this.urls.usernameOf(`${this.origin}${path.slice(0, -'/outbox'.length)}`);
  }
}
