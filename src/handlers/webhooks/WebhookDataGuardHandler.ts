import type { HttpHandlerInput } from '@solid/community-server';
import type { TokenService } from '../../plugins/accounts/TokenService';
import { forbidden, notFound, unauthorized } from '../../util/HttpErrors';
import { bearerToken } from '../auth/BearerToken';
import { JsonHttpHandler } from '../JsonHttpHandler';
import { NOT_HANDLED } from '../NotHandled';
import { WebhookPaths } from './WebhookPaths';

/**
 * Keeps what `store-in-container` webhooks stored private: `{base}webhook-data/<username>/...` is
 * served (by the LDP handlers, to which this one then steps aside) only to a request with that user's
 * Bearer token; without a token 401, with another user's 403. The root `webhook-data/` itself (which
 * would list every user's container) is refused.
 */
export class WebhookDataGuardHandler extends JsonHttpHandler {
  private readonly paths: WebhookPaths;
  private readonly root: string;

  /**
   * @param baseUrl - Public base URL.
   * @param tokens - Access tokens.
   * @param containerPath - The data root, relative to the base URL (as StoreInContainerAction's).
   */
  public constructor(
    baseUrl: string,
    private readonly tokens: TokenService,
    containerPath = 'webhook-data/',
  ) {
    super();
    this.paths = new WebhookPaths(baseUrl);
    const root = new URL(containerPath, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).href;
    this.root = root.endsWith('/') ? root : `${root}/`;
  }

  public override async canHandle({ request }: HttpHandlerInput): Promise<void> {
    const iri = this.paths.match(request, this.root);
    if (iri === undefined) {
      throw NOT_HANDLED;
    }
    const owner = iri ? this.ownerOf(iri) : undefined;
    if (!owner) {
      return;
    }
    const token = bearerToken(request);
    if (!token) {
      return;
    }
    try {
      if ((await this.tokens.verify(token)).username === owner) {
        // The owner: the LDP handlers serve the request.
        throw NOT_HANDLED;
      }
    } catch (error: unknown) {
      if (error === NOT_HANDLED) {
        throw error;
      }
    }
  }

  protected async serve({ request }: HttpHandlerInput): Promise<void> {
    request.resume();
    const iri = this.paths.match(request, this.root);
    const owner = iri ? this.ownerOf(iri) : undefined;
    if (!iri) {
      throw notFound('No such resource.');
    }
    if (!owner) {
      throw forbidden('Webhook data is read per user, at webhook-data/<username>/ with that user\'s token.', 'not_listed');
    }
    const token = bearerToken(request);
    if (!token) {
      throw unauthorized('Webhook data is private: send the owner\'s token as "Authorization: Bearer <token>".');
    }
    await this.tokens.verify(token);
    throw forbidden('This webhook data belongs to another user.', 'not_owner');
  }

  private ownerOf(iri: string): string | undefined {
    const rest = iri.startsWith(this.root) ? iri.slice(this.root.length) : '';
    const slash = rest.indexOf('/');
    if (slash <= 0) {
      return undefined;
    }
    try {
      return decodeURIComponent(rest.slice(0, slash));
    } catch {
      return undefined;
    }
  }
}
