import type { Json } from '../../plugins/activitypub/ActivityJson';
import { idOf, isObject, typeOf } from '../../plugins/activitypub/ActivityJson';
import type { ActivityRepository } from '../../plugins/activitypub/ActivityRepository';
import { ActorUrls } from '../../plugins/activitypub/ActorUrls';
import type { ActorProfiles } from '../../plugins/activitypub/ActorProfiles';
import type { AudienceRules } from '../../plugins/activitypub/AudienceRules';
import type { Collections } from '../../storage/Collections';
import { notFound } from '../../util/HttpErrors';
import { sendHtml } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import { agentIri } from '../http/Agent';
import type { OperationInput } from '../http/Operation';
import { prefersHtml } from '../http/BrowserAccept';
import { escapeHtml, isWebUrl, safeHtml } from '../http/Html';
import { renderPage } from '../http/PageLayout';
import { renderPost } from './PostView';

const RECENT_POSTS = 10;

/**
 * An actor's profile page, for browsers at the actor's own URL (content negotiation: ActivityPub and
 * RDF clients still get the actor document): name, handle, avatar, summary, counts, how to follow,
 * and the recent posts of its outbox that the reader may read (the audience rules, as the outbox's
 * pages apply them: public ones to anyone, more to followers, addressees and the owner).
 */
export class ProfilePageHandler extends JsonHttpHandler {
  private readonly urls: ActorUrls;

  public constructor(
    baseUrl: string,
    private readonly profiles: ActorProfiles,
    private readonly collections: Collections,
    private readonly audience: AudienceRules,
    private readonly activities: ActivityRepository,
  ) {
    super();
    this.urls = new ActorUrls(baseUrl);
  }

  public override async canHandle({ request, operation }: OperationInput): Promise<void> {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !prefersHtml(request) || !this.username(operation.target.iri)) {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const username = this.username(operation.target.iri)!;
    const actor = this.urls.actor(username);
    const document = await this.profiles.read(actor);
    if (!document) {
      throw notFound(`No actor at ${actor}`);
    }
    const reader = agentIri(await operation.resolveAgent());
    const addressedTo = await this.audience.boxFilter(actor, reader);
    const outbox = this.urls.collection(username, 'outbox');
    const [ activityCount, followers, following, page ] = await Promise.all([
      this.collections.count(outbox, addressedTo),
      this.collections.count(this.urls.collection(username, 'followers')),
      this.collections.count(this.urls.collection(username, 'following')),
      this.collections.page(outbox, { limit: RECENT_POSTS, addressedTo }),
    ]);
    const items = await this.activities.readMany(page.items.map((item): string => item.iri));
    const recent = page.items.map((item): Json | undefined => items.get(item.iri))
      .filter((activity): activity is Json => activity !== undefined && typeOf(activity) === 'Create' && isObject(activity.object))
      .map((activity): string => renderPost(activity.object as Json));
    const name = typeof document.name === 'string' && document.name !== '' ? document.name : username;
    const handle = `@${username}@${new URL(this.urls.base).host}`;
    const icon = isObject(document.icon) ? document.icon.url : document.icon;
    const moved = idOf(document.movedTo);
    const html = renderPage(this.urls.base, `${name} (${handle})`, `<section class="profile">
${isWebUrl(icon) ? `<img class="avatar" src="${escapeHtml(icon)}" alt="">` : ''}
<h1>${escapeHtml(name)}</h1>
<p class="handle">${escapeHtml(handle)}</p>
${moved && isWebUrl(moved) ? `<p><strong>This account has moved to <a href="${escapeHtml(moved)}">${escapeHtml(moved)}</a>.</strong></p>` : ''}
${typeof document.summary === 'string' ? `<div class="summary">${safeHtml(document.summary)}</div>` : ''}
<ul class="counts">
<li><a href="${escapeHtml(outbox)}"><strong>${activityCount}</strong> ${activityCount === 1 ? 'activity' : 'activities'}</a></li>
<li><a href="${escapeHtml(this.urls.collection(username, 'following'))}"><strong>${following}</strong> following</a></li>
<li><a href="${escapeHtml(this.urls.collection(username, 'followers'))}"><strong>${followers}</strong> followers</a></li>
</ul>
<p>To follow, search for <code>${escapeHtml(handle)}</code> in Mastodon or any fediverse app.</p>
</section>
<section class="posts">
<h2>Recent posts</h2>
${recent.length > 0 ? recent.join('\n') : '<p class="meta">No posts to show.</p>'}
</section>`);
    sendHtml(response, 200, html, { 'cache-control': 'no-cache' }, request.method === 'HEAD');
  }

  private username(iri: string): string | undefined {
    return this.urls.usernameOf(iri);
  }
}
