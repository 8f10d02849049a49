import type { HttpHandlerInput } from '@solid/community-server';
import type { ActivityRepository } from '../../plugins/activitypub/ActivityRepository';
import { typeOf, withoutBlindCopies } from '../../plugins/activitypub/ActivityJson';
import { FedpodHttpError, notFound } from '../../util/HttpErrors';
import { JsonHttpHandler } from '../JsonHttpHandler';
import { NOT_HANDLED } from '../NotHandled';
import { PrefetchedResources } from '../access/PrefetchedResources';
import { activityContentType } from './ActivityJson';
import { ActorUrls } from '../../plugins/activitypub/ActorDocument';

/**
 * GET/HEAD of activities and objects (`/activities/<id>`, `/objects/<id>`) as ActivityStreams JSON for
 * ActivityPub peers, with the object of an activity embedded; bto and bcc are never shown. A deleted
 * object answers 410 Gone with its Tombstone. Turtle and Fedpod's JSON-LD context stay with LDP.
 */
export class ObjectHandler extends JsonHttpHandler {
  private readonly origin: string;
  private readonly prefixes: string[];

  public constructor(baseUrl: string, private readonly activities: ActivityRepository) {
    super();
    const urls = new ActorUrls(baseUrl);
    this.origin = new URL(urls.base).origin;
    this.prefixes = [ new URL(urls.url('activities')).pathname, new URL(urls.url('objects')).pathname ];
  }

  public override async canHandle({ request }: HttpHandlerInput): Promise<void> {
    const path = (request.url ?? '').split('?')[0];
    if ((request.method !== 'GET' && request.method !== 'HEAD') ||
      !this.prefixes.some((prefix): boolean => path.startsWith(prefix) && path.length > prefix.length && !path.slice(prefix.length).includes('/')) ||
      !activityContentType(request) || (request.headers.accept ?? '').includes('text/turtle')) {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response }: HttpHandlerInput): Promise<void> {
    const iri = `${this.origin}${(request.url ?? '').split('?')[0]}`;
    const document = await this.activities.read(iri, PrefetchedResources.take(request, iri));
    if (!document) {
      throw notFound(`Nothing at ${iri}`);
    }
    if (typeOf(document) === 'Tombstone') {
      throw new FedpodHttpError(410, 'gone', `${iri} was deleted.`);
    }
    const text = JSON.stringify(withoutBlindCopies(document));
    response.writeHead(200, {
      'content-type': activityContentType(request)!,
      'content-length': Buffer.byteLength(text),
      vary: 'Accept',
    });
    response.end(request.method === 'HEAD' ? undefined : text);
  }
}
