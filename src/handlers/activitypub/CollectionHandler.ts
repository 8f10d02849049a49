import type { ActorCollection } from '../../plugins/activitypub/ActorUrls';
import { ActorUrls } from '../../plugins/activitypub/ActorUrls';
import type { AccountStore } from '../../plugins/accounts/AccountStore';
import type { AudienceRules } from '../../plugins/activitypub/AudienceRules';
import type { ActivityRepository } from '../../plugins/activitypub/ActivityRepository';
import type { Json } from '../../plugins/activitypub/ActivityJson';
import { withoutBlindCopies } from '../../plugins/activitypub/ActivityJson';
import { ACTIVITYPUB_CONTEXT } from '../../plugins/activitypub/ActivityStreamsSerializer';
import { ACTIVITYSTREAMS_CONTEXT_URL } from '../../plugins/ldp/Contexts';
import type { Collections } from '../../storage/Collections';
import { InvalidCursorError } from '../../storage/InvalidCursorError';
import { badRequest, notFound } from '../../util/HttpErrors';
import { sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import { agentIri } from '../http/Agent';
import type { OperationInput, OperationTarget } from '../http/Operation';
import { activityContentType } from './ActivityContentType';

const BOXES = new Set<ActorCollection>([ 'inbox', 'outbox' ]);
/** Collections whose pages embed their items: the boxes, and the pinned objects (as Mastodon serves them). */
const EMBEDDING = new Set<ActorCollection>([ ...BOXES, 'featured' ]);

/**
 * GET of an actor's inbox, outbox, followers, following, liked and featured, as an OrderedCollection
 * (`totalItems`, `first`, `last`) and OrderedCollectionPages (`?page=true`, then `before=` / `after=`
 * cursors; `partOf`, `next` (older), `prev` (newer), `orderedItems` newest first: in inbox and
 * outbox the activities themselves, objects embedded, in featured the pinned objects; in followers,
 * following and liked IRIs, as Mastodon serves them).
 * A page costs one store query whatever the collection's size (three for inbox and outbox: their
 * items, then the objects those embed).
 *
 * Inbox and outbox show everything only to their owner; anyone else sees the items the audience
 * rules let them read (public ones, those addressed to them, followers-only ones to followers), as
 * authenticated by the request pipeline (a token, or a remote actor's signed GET).
 */
export class CollectionHandler extends JsonHttpHandler {
  private readonly urls: ActorUrls;

  public constructor(
    baseUrl: string,
    private readonly accounts: AccountStore,
    private readonly collections: Collections,
    private readonly audience: AudienceRules,
    private readonly activities: ActivityRepository,
    private readonly pageSize = 20,
  ) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public override async canHandle({ request, operation }: OperationInput): Promise<void> {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !this.target(operation.target) ||
      !activityContentType(request)) {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const { username, name, query } = this.target(operation.target)!;
    const account = await this.accounts.findByUsername(username);
    if (!account) {
      throw notFound(`No actor ${username}`);
    }
    const collection = this.urls.collection(username, name);
    const reader = agentIri(await operation.resolveAgent());
    const addressedTo = await this.audienceFilter(reader, name, account.webId);
    const headers = { 'cache-control': 'no-cache' };
    const contentType = activityContentType(request)!.split(';')[0];
    if (!query.has('page')) {
      const totalItems = await this.collections.count(collection, addressedTo);
      sendJson(response, 200, {
        '@context': ACTIVITYSTREAMS_CONTEXT_URL,
        id: collection,
        type: 'OrderedCollection',
        totalItems,
        first: `${collection}?page=true`,
        last: `${collection}?page=true&after=`,
      }, headers, contentType);
      return;
    }
    const before = query.get('before') || undefined;
    const after = query.has('after') ? query.get('after') ?? '' : undefined;
    let result;
    try {
      result = await this.collections.page(collection, { limit: this.pageSize, before, after,
        addressedTo });
    } catch (error: unknown) {
      if (error instanceof InvalidCursorError) {
        throw badRequest('That page cursor is not valid.', 'invalid_cursor');
      }
      throw error;
    }
    const { items, more } = result;
    const id = `${collection}?page=true${before ? `&before=${before}` : ''}${after !== undefined ? `&after=${after}` : ''}`;
    const embedded = EMBEDDING.has(name);
    const page: Record<string, unknown> = {
      '@context': embedded ? ACTIVITYPUB_CONTEXT : ACTIVITYSTREAMS_CONTEXT_URL,
      id,
      type: 'OrderedCollectionPage',
      partOf: collection,
      orderedItems: embedded ?
        await this.embeddedItems(items.map((item): string => item.iri), reader === account.webId) :
        items.map((item): string => item.iri),
    };
    // Older items: there are more when paging backwards, or when coming from newer ones.
    const hasOlder = after === undefined ? more : items.length > 0 && after !== '';
    const hasNewer = after === undefined ? before !== undefined && items.length > 0 : more;
    if (hasOlder && items.length > 0) {
      page.next = `${collection}?page=true&before=${items.at(-1)!.cursor}`;
    }
    if (hasNewer && items.length > 0) {
      page.prev = `${collection}?page=true&after=${items[0].cursor}`;
    }
    sendJson(response, 200, page, headers, contentType);
  }

  /**
   * Inbox and outbox items as the activities themselves, objects embedded (as Mastodon serves an
   * outbox), so that a client needs no request per item and remote activities, whose ids often
   * serve nothing, can be read. Blind copies are shown to the box's owner only; an item with
   * nothing stored stays its IRI.
   */
  private async embeddedItems(iris: string[], forOwner: boolean): Promise<(string | Json)[]> {
    const documents = await this.activities.readMany(iris);
    return iris.map((iri): string | Json => {
      const document = documents.get(iri);
      if (!document) {
        return iri;
      }
      // The page's @context covers its items.
      delete document['@context'];
      return forOwner ? document : withoutBlindCopies(document);
    });
  }

  private async audienceFilter(reader: string | undefined, name: ActorCollection, ownerWebId: string):
  Promise<string[] | undefined> {
    return BOXES.has(name) ? this.audience.boxFilter(ownerWebId, reader) : undefined;
  }

  private target({ iri, query }: OperationTarget): { username: string; name: ActorCollection; query: URLSearchParams } | undefined {
    const collection = this.urls.collectionOf(iri);
    return collection ? { ...collection, query } : undefined;
  }
}
