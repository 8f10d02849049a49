import type { Json } from '../../plugins/activitypub/ActivityJson';
import { isObject, typeOf } from '../../plugins/activitypub/ActivityJson';
import type { ActivityRepository } from '../../plugins/activitypub/ActivityRepository';
import type { ActorCollection } from '../../plugins/activitypub/ActorUrls';
import { ActorUrls } from '../../plugins/activitypub/ActorUrls';
import type { AudienceRules } from '../../plugins/activitypub/AudienceRules';
import type { Collections } from '../../storage/Collections';
import { sendHtml } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import { agentIri } from '../http/Agent';
import type { OperationInput } from '../http/Operation';
import { prefersHtml } from '../http/BrowserAccept';
import { escapeHtml, isWebUrl } from '../http/Html';
import { renderPage } from '../http/PageLayout';
import { renderPost } from './PostView';

const TITLES: Record<ActorCollection, string> = {
  inbox: 'Inbox', outbox: 'Posts', followers: 'Followers', following: 'Following', liked: 'Liked', featured: 'Pinned posts',
};
const PAGE_SIZE = 40;

/**
 * An actor's collections as pages, for browsers at the collections' own URLs (content negotiation):
 * the newest items, with what the audience rules let the reader see (the same filter as the JSON
 * pages: the boxes show everything to their owner only). Posts are shown as posts; followers,
 * following and liked as links.
 */
export class CollectionPageHandler extends JsonHttpHandler {
  private readonly urls: ActorUrls;

  public constructor(
    baseUrl: string,
    private readonly collections: Collections,
    private readonly audience: AudienceRules,
    private readonly activities: ActivityRepository,
  ) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public override async canHandle({ request, operation }: OperationInput): Promise<void> {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !prefersHtml(request) || !this.target(operation.target.iri)) {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const { username, name } = this.target(operation.target.iri)!;
    const actor = this.urls.actor(username);
    const collection = this.urls.collection(username, name);
    const reader = agentIri(await operation.resolveAgent());
    const boxes = name === 'inbox' || name === 'outbox';
    const addressedTo = boxes ? await this.audience.boxFilter(actor, reader) : undefined;
    const { items } = await this.collections.page(collection, { limit: PAGE_SIZE, addressedTo });
    const iris = items.map((item): string => item.iri);
    let list: string;
    if (boxes || name === 'featured') {
      const documents = await this.activities.readMany(iris);
      list = iris.map((iri): Json | undefined => documents.get(iri))
        .filter((document): document is Json => document !== undefined)
        .map((document): string => typeOf(document) === 'Create' && isObject(document.object) ?
          renderPost(document.object) :
          name === 'featured' ? renderPost(document) : this.activityLine(document)).join('\n');
    } else {
      list = iris.length > 0 ?
        `<ul>${iris.map((iri): string => `<li>${isWebUrl(iri) ? `<a href="${escapeHtml(iri)}">${escapeHtml(iri)}</a>` : escapeHtml(iri)}</li>`).join('')}</ul>` :
        '';
    }
    const title = `${TITLES[name]} of @${username}`;
    const html = renderPage(this.urls.base, title, `<p><a href="${escapeHtml(actor)}">@${escapeHtml(username)}</a></p>
<h1>${escapeHtml(TITLES[name])}</h1>
${list || '<p class="meta">Nothing to show.</p>'}`);
    sendHtml(response, 200, html, { 'cache-control': 'no-cache' }, request.method === 'HEAD');
  }

  /** An activity other than a Create, as one line: its type and what it is about. */
  private activityLine(activity: Json): string {
    const object = isObject(activity.object) ? activity.object.id : activity.object;
    return `<article><p>${escapeHtml(typeOf(activity) ?? 'Activity')} ${isWebUrl(object) ?
      `<a href="${escapeHtml(object)}">${escapeHtml(object)}</a>` :
      ''}</p></article>`;
  }

  private target(iri: string): { username: string; name: ActorCollection } | undefined {
    return this.urls.collectionOf(iri);
  }
}
