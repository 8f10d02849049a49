import type { ActivityRepository } from '../../plugins/activitypub/ActivityRepository';
import { typeOf } from '../../plugins/activitypub/ActivityJson';
import type { ObjectThreads, ThreadItem } from '../../plugins/activitypub/ObjectThreads';
import { ACTIVITYSTREAMS_CONTEXT_URL } from '../../plugins/ldp/Contexts';
import { badRequest, FedpodHttpError, notFound } from '../../util/HttpErrors';
import { agentIri } from '../http/Agent';
import { sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import type { OperationInput } from '../http/Operation';
import { activityContentType } from './ActivityContentType';

/** The collections every local object has, by the last segment of their IRI. */
export const OBJECT_COLLECTIONS = [ 'replies', 'likes', 'shares' ] as const;
export type ObjectCollection = typeof OBJECT_COLLECTIONS[number];

/** A page cursor: the last item's time and IRI, so that a page reads on after it whatever was added meanwhile. */
function cursorOf(item: ThreadItem): string {
  return Buffer.from(JSON.stringify([ item.time, item.iri ])).toString('base64url');
}

function parseCursor(cursor: string): ThreadItem {
  try {
    const [ time, iri ] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof time === 'string' && typeof iri === 'string') {
      return { time, iri };
    }
  } catch {
    // Not one of ours: refused below.
  }
  throw badRequest('That page cursor is not valid.', 'invalid_cursor');
}

/**
 * GET of a local object's `replies`, `likes` and `shares` (`/objects/<id>/replies`...). `replies`
 * is an OrderedCollection of the replies the reader may read (posted here or received), oldest
 * first as a thread reads, in pages of `pageSize` (`?page=true`, then `&after=<cursor>`); items are
 * IRIs. `likes` and `shares` answer their `totalItems` only, as Mastodon serves them: who reacted is
 * not shown. The route's policy has decided the reader may read the object (else 404).
 */
export class ObjectCollectionHandler extends JsonHttpHandler {
  public constructor(
    private readonly activities: ActivityRepository,
    private readonly threads: ObjectThreads,
    private readonly pageSize = 20,
  ) {
    super();
  }

  public override async canHandle({ request, operation }: OperationInput): Promise<void> {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !activityContentType(request) ||
      !(OBJECT_COLLECTIONS as readonly string[]).includes(operation.params.collection ?? '')) {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const name = operation.params.collection as ObjectCollection;
    const collection = operation.target.iri;
    const object = collection.slice(0, -name.length - 1);
    const document = await this.activities.read(object, operation.prefetched(object));
    if (!document) {
      throw notFound(`Nothing at ${object}`);
    }
    if (typeOf(document) === 'Tombstone') {
      throw new FedpodHttpError(410, 'gone', `${object} was deleted.`);
    }
    const contentType = activityContentType(request)!.split(';')[0];
    const headers = { 'cache-control': 'no-cache' };
    const base = { '@context': ACTIVITYSTREAMS_CONTEXT_URL, id: collection };
    if (name !== 'replies') {
      sendJson(response, 200, { ...base, type: 'OrderedCollection', totalItems: await this.threads.reactionCount(object, name) },
        headers, contentType);
      return;
    }
    const query = operation.target.query;
    const after = query.get('after') ? parseCursor(query.get('after')!) : undefined;
    const replies = await this.threads.readableReplies(object, agentIri(await operation.resolveAgent()));
    if (!query.has('page')) {
      sendJson(response, 200, { ...base, type: 'OrderedCollection', totalItems: replies.length,
        first: `${collection}?page=true` }, headers, contentType);
      return;
    }
    const rest = after ? replies.filter((reply): boolean => reply.time > after.time ||
      (reply.time === after.time && reply.iri > after.iri)) : replies;
    const items = rest.slice(0, this.pageSize);
    sendJson(response, 200, {
      ...base,
      id: `${collection}?page=true${after ? `&after=${query.get('after')}` : ''}`,
      type: 'OrderedCollectionPage',
      partOf: collection,
      orderedItems: items.map((item): string => item.iri),
      ...rest.length > items.length ? { next: `${collection}?page=true&after=${cursorOf(items.at(-1)!)}` } : {},
    }, headers, contentType);
  }
}
