import type { ActivityRepository } from '../../plugins/activitypub/ActivityRepository';
import { withoutBlindCopies } from '../../plugins/activitypub/ActivityJson';
import { ActorUrls } from '../../plugins/activitypub/ActorUrls';
import type { ObjectThreads } from '../../plugins/activitypub/ObjectThreads';
import { ACTIVITYSTREAMS_CONTEXT_URL } from '../../plugins/ldp/Contexts';
import { badRequest } from '../../util/HttpErrors';
import { prefersHtml } from '../http/BrowserAccept';
import { escapeHtml } from '../http/Html';
import { sendHtml, sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import type { OperationInput } from '../http/Operation';
import { renderPage } from '../http/PageLayout';
import { renderPost } from '../html/PostView';
import { activityContentType } from './ActivityContentType';

/** A hashtag's name as Mastodon takes it: letters, digits, marks and underscores. */
const TAG_NAME = /^[\p{L}\p{M}\p{N}_]{1,100}$/u;

/**
 * `/tags/<name>`: the local public posts with that hashtag (a `tag` of type Hashtag, whoever put it
 * there), newest first, 20 a page: an OrderedCollection (`?page=true`, then `&before=<cursor>`) of
 * post IRIs for ActivityPub clients, a page of the posts for browsers. Unlisted, followers-only and
 * direct posts are never listed.
 */
export class TagHandler extends JsonHttpHandler {
  private readonly urls: ActorUrls;

  public constructor(
    baseUrl: string,
    private readonly threads: ObjectThreads,
    private readonly activities: ActivityRepository,
    private readonly pageSize = 20,
  ) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public override async canHandle({ request, operation }: OperationInput): Promise<void> {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || operation.params.tag === undefined ||
      (!prefersHtml(request) && !activityContentType(request))) {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const tag = operation.params.tag!;
    if (!TAG_NAME.test(tag)) {
      throw badRequest('A hashtag is letters, digits and underscores.', 'invalid_tag');
    }
    const query = operation.target.query;
    const before = query.get('before') || undefined;
    if (before !== undefined && Number.isNaN(Date.parse(before))) {
      throw badRequest('That page cursor is not valid.', 'invalid_cursor');
    }
    const collection = `${this.urls.base}tags/${encodeURIComponent(tag)}`;
    const items = await this.threads.tagged(tag, this.pageSize + 1, before);
    const page = items.slice(0, this.pageSize);
    const next = items.length > this.pageSize ? `${collection}?page=true&before=${encodeURIComponent(page.at(-1)!.time)}` : undefined;
    if (prefersHtml(request)) {
      const posts = await this.activities.readMany(page.map((item): string => item.iri));
      const body = `<h1>#${escapeHtml(tag)}</h1>
${page.length === 0 ? '<p>No public posts with this hashtag here yet.</p>' : page.map((item): string => {
    const post = posts.get(item.iri);
    return post ? `<article>${renderPost(withoutBlindCopies(post), { link: item.iri, heading: 'h2' })}</article>` : '';
  }).join('\n')}
${next ? `<p><a href="${escapeHtml(next.replace('page=true&', ''))}">Older posts</a></p>` : ''}`;
      sendHtml(response, 200, renderPage(this.urls.base, `#${tag}`, body), { 'cache-control': 'no-cache' }, request.method === 'HEAD');
      return;
    }
    const contentType = activityContentType(request)!.split(';')[0];
    if (!query.has('page') && before === undefined) {
      sendJson(response, 200, { '@context': ACTIVITYSTREAMS_CONTEXT_URL, id: collection, type: 'OrderedCollection',
        first: `${collection}?page=true` }, { 'cache-control': 'no-cache' }, contentType);
      return;
    }
    sendJson(response, 200, {
      '@context': ACTIVITYSTREAMS_CONTEXT_URL,
      id: `${collection}?page=true${before ? `&before=${encodeURIComponent(before)}` : ''}`,
      type: 'OrderedCollectionPage',
      partOf: collection,
      orderedItems: page.map((item): string => item.iri),
      ...next ? { next } : {},
    }, { 'cache-control': 'no-cache' }, contentType);
  }
}
