import type { HttpHandlerInput } from '@solid/community-server';
import { ActorUrls } from '../../plugins/activitypub/ActorDocument';
import { FedpodHttpError } from '../../util/HttpErrors';
import { JsonHttpHandler } from '../JsonHttpHandler';
import { NOT_HANDLED } from '../NotHandled';

const WRITES = new Set([ 'POST', 'PUT', 'PATCH', 'DELETE' ]);

/**
 * Actors are made by signup only: writes to the /actors/ container and to actor documents through LDP
 * are refused before any body is read, so no password can ever be stored as data. A POST to /actors
 * (the path the interface's sample request line shows) gets a 405 naming /auth/signup.
 * Inbox and outbox POSTs are not writes to the container and pass on to their own handlers.
 */
export class ActorsWriteGuardHandler extends JsonHttpHandler {
  private readonly urls: ActorUrls;
  private readonly actorsPath: string;

  public constructor(baseUrl: string) {
    super();
    this.urls = new ActorUrls(baseUrl);
    this.actorsPath = new URL(`${this.urls.base}actors`).pathname;
  }

  public override async canHandle({ request }: HttpHandlerInput): Promise<void> {
    if (!WRITES.has(request.method ?? '')) {
      throw NOT_HANDLED;
    }
    const path = (request.url ?? '').split('?')[0];
    if (path !== this.actorsPath && path !== `${this.actorsPath}/` && !this.isActorDocument(path)) {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request }: HttpHandlerInput): Promise<void> {
    request.resume();
    const path = (request.url ?? '').split('?')[0];
    if (request.method === 'POST' && (path === this.actorsPath || path === `${this.actorsPath}/`)) {
      throw new FedpodHttpError(405, 'use_signup',
        `Actors are created by signing up: POST {"username","email","password"} as JSON to ${this.urls.base}auth/signup.`,
        { allow: 'GET, HEAD', link: `<${this.urls.base}auth/signup>; rel="create-form"` });
    }
    throw new FedpodHttpError(403, 'forbidden', 'Actor documents are managed by the server and cannot be written directly.');
  }

  private isActorDocument(path: string): boolean {
    const rest = path.slice(this.actorsPath.length + 1);
    return path.startsWith(`${this.actorsPath}/`) && /^[a-z0-9_][a-z0-9._-]{0,63}$/u.test(rest);
  }
}
