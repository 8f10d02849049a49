import type { ActivityStreamsSerializer } from '../../plugins/activitypub/ActivityStreamsSerializer';
import { ActorUrls } from '../../plugins/activitypub/ActorUrls';
import type { ResourceGraphs } from '../../storage/ResourceGraphs';
import { notFound } from '../../util/HttpErrors';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import { activityContentType } from './ActivityContentType';
import type { OperationTarget, OperationInput } from '../http/Operation';

/**
 * GET/HEAD of an actor as ActivityStreams JSON-LD (`application/activity+json`, `application/ld+json`
 * with or without the ActivityStreams profile, `application/json`), read from the store in one query.
 * Turtle and other types are left to the LDP handlers, which serve the same triples.
 */
export class ActorHandler extends JsonHttpHandler {
  private readonly urls: ActorUrls;

  public constructor(
    baseUrl: string,
    private readonly store: ResourceGraphs,
    private readonly serializer: ActivityStreamsSerializer,
  ) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public override async canHandle({ request, operation }: OperationInput): Promise<void> {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !this.actorIri(operation.target) ||
      !activityContentType(request)) {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const iri = this.actorIri(operation.target)!;
    const stored = await this.store.read(iri);
    if (!stored) {
      throw notFound(`No actor at ${iri}`);
    }
    const text = JSON.stringify(await this.serializer.toJson(stored.data, iri));
    response.writeHead(200, {
      'content-type': activityContentType(request)!,
      'content-length': Buffer.byteLength(text),
      'cache-control': 'max-age=60',
    });
    response.end(request.method === 'HEAD' ? undefined : text);
  }

  private actorIri({ iri }: OperationTarget): string | undefined {
    return this.urls.usernameOf(iri) ? iri : undefined;
  }
}
