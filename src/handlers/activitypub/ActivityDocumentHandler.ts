import type { ActivityRepository } from '../../plugins/activitypub/ActivityRepository';
import { typeOf, withoutBlindCopies, type Json } from '../../plugins/activitypub/ActivityJson';
import { FedpodHttpError, notFound } from '../../util/HttpErrors';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import type { Operation, OperationInput } from '../http/Operation';
import { activityContentType } from './ActivityContentType';

/**
 * GET/HEAD of one stored activity or object as ActivityStreams JSON, with the object of an activity
 * embedded; bto and bcc are never shown; a deleted object answers 410 Gone. Subclasses say which IRI
 * a request asks for; the route's access policy has decided who may read it (and may have read it).
 */
export abstract class ActivityDocumentHandler extends JsonHttpHandler {
  protected constructor(private readonly activities: ActivityRepository) {
    super();
  }

  /** The IRI the request asks for, or undefined when it is not this handler's. */
  protected abstract target(operation: Operation): string | undefined;

  public override async canHandle({ request, operation }: OperationInput): Promise<void> {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || this.target(operation) === undefined ||
      !activityContentType(request) || (request.headers.accept ?? '').includes('text/turtle')) {
      throw NOT_HANDLED;
    }
  }

  /** The document as served: subclasses may add what is not stored with it. */
  protected async completed(document: Json, _iri: string): Promise<Json> {
    return document;
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const iri = this.target(operation)!;
    const document = await this.activities.read(iri, operation.prefetched(iri));
    if (!document) {
      throw notFound(`Nothing at ${iri}`);
    }
    if (typeOf(document) === 'Tombstone') {
      throw new FedpodHttpError(410, 'gone', `${iri} was deleted.`);
    }
    const text = JSON.stringify(await this.completed(withoutBlindCopies(document), iri));
    response.writeHead(200, {
      'content-type': activityContentType(request)!,
      'content-length': Buffer.byteLength(text),
    });
    response.end(request.method === 'HEAD' ? undefined : text);
  }
}
