import type { Json } from '../../plugins/activitypub/ActivityJson';
import { idOf, typeOf, withoutBlindCopies } from '../../plugins/activitypub/ActivityJson';
import type { ActivityRepository } from '../../plugins/activitypub/ActivityRepository';
import { ActorUrls } from '../../plugins/activitypub/ActorUrls';
import type { ActorProfiles } from '../../plugins/activitypub/ActorProfiles';
import { FedpodHttpError, notFound } from '../../util/HttpErrors';
import { sendHtml } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import { prefersHtml } from '../http/BrowserAccept';
import { escapeHtml } from '../http/Html';
import { renderPage } from '../http/PageLayout';
import { renderPost } from './PostView';
import type { Operation, OperationInput } from '../http/Operation';

/**
 * A post's page (`/objects/<id>`), for browsers at the post's own URL (content negotiation, as for
 * profiles): its author, content made safe, attachments, poll and replies count. The route's access
 * check has already let the reader through (the post's audience); a deleted post is a 410 page.
 */
export class PostPageHandler extends JsonHttpHandler {
  protected readonly urls: ActorUrls;
  private readonly prefix: string;

  public constructor(
    baseUrl: string,
    private readonly activities: ActivityRepository,
    private readonly profiles: ActorProfiles,
  ) {
    super();
    this.urls = new ActorUrls(baseUrl);
    this.prefix = new URL(this.urls.url('objects')).pathname;
  }

  public override async canHandle({ request, operation }: OperationInput): Promise<void> {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !prefersHtml(request) || !this.target(operation)) {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const iri = this.target(operation)!;
    const object = await this.activities.read(iri);
    if (!object) {
      throw notFound(`No post at ${iri}`);
    }
    if (typeOf(object) === 'Tombstone') {
      throw new FedpodHttpError(410, 'gone', 'This post was deleted.');
    }
    withoutBlindCopies(object);
    const author = idOf(object.attributedTo);
    const username = author ? this.urls.usernameOf(author) : undefined;
    const profile = author && username ? await this.profiles.read(author) : undefined;
    const authorName = typeof profile?.name === 'string' && profile.name !== '' ? profile.name : username ?? author ?? 'Someone';
    const handle = username ? `@${username}@${new URL(this.urls.base).host}` : author;
    const title = `${authorName}: ${this.excerpt(object)}`;
    const html = renderPage(this.urls.base, title, `<p class="author">${author ?
      `<a href="${escapeHtml(author)}">${escapeHtml(authorName)}</a> <span class="handle">${escapeHtml(handle)}</span>` :
      ''}</p>
<h1>${escapeHtml(typeof object.name === 'string' && typeOf(object) !== 'Question' ? object.name : `Post by ${authorName}`)}</h1>
${renderPost({ ...object, name: undefined }, { link: iri })}`);
    sendHtml(response, 200, html, { 'cache-control': 'no-cache' }, request.method === 'HEAD');
  }

  /** The first words of the post's text, for the page title: its name (plain text), else its content without markup. */
  private excerpt(object: Json): string {
    const name = object.name ?? undefined;
    const raw = name === undefined ? String(object.content ?? '').replace(/<[^>]*>/gu, ' ') : String(name);
    const text = raw.replace(/\s+/gu, ' ').trim();
    return text.length > 60 ? `${text.slice(0, 57)}…` : text || String(typeOf(object) ?? 'post');
  }

  /** The IRI of the post the request is for, when it is for one this handler serves. */
  protected target({ target: { path, iri }}: Operation): string | undefined {
    return path.startsWith(this.prefix) && path.length > this.prefix.length && !path.slice(this.prefix.length).includes('/') ?
      iri :
      undefined;
  }
}
