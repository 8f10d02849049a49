import type { AccountStore } from '../../plugins/accounts/AccountStore';
import type { Registrations } from '../../plugins/accounts/Registrations';
import { AS_PUBLIC } from '../../plugins/activitypub/ActivityVocabulary';
import type { MastodonAccount } from '../../plugins/mastodon/AccountEntity';
import type { MastodonAccounts } from '../../plugins/mastodon/MastodonAccounts';
import type { MastodonFollows } from '../../plugins/mastodon/MastodonFollows';
import type { MastodonNotifications } from '../../plugins/mastodon/MastodonNotifications';
import type { TimelineSource } from '../../plugins/mastodon/MastodonRecords';
import type { MastodonSearch } from '../../plugins/mastodon/MastodonSearch';
import type { MastodonStatuses, NewStatus, Reader } from '../../plugins/mastodon/MastodonStatuses';
import type { MastodonThreads } from '../../plugins/mastodon/MastodonThreads';
import { FollowedTags, homeCollections } from '../../plugins/mastodon/FollowedTags';
import type { RemoteAccountPosts } from '../../plugins/mastodon/RemoteAccountPosts';
import type { MastodonStatus } from '../../plugins/mastodon/StatusEntity';
import { DEFAULT_INSTANCE_DESCRIPTION, DEFAULT_INSTANCE_TITLE } from '../../plugins/mastodon/InstanceEntity';
import type { MediaStore, ReceivedMedia } from '../../plugins/media/MediaStore';
import type { Mutes } from '../../plugins/moderation/Mutes';
import { badRequest, notFound } from '../../util/HttpErrors';
import { prefersHtml } from '../http/BrowserAccept';
import { escapeHtml, safeHtml } from '../http/Html';
import { mediaTypeOf, readBody, sendHtml } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import type { OperationInput } from '../http/Operation';
import { timelineQuery } from '../mastodon/Pagination';
import { readUpload } from '../media/MediaUpload';
import { ATTACHMENT_FILES, attachmentFields, commitAttachments, discardAll } from './ComposeMedia';
import type { ViewContext } from './StatusView';
import { accountPath, actionForm, formFields, renderNotification, renderStatus } from './StatusView';
import { APP_PAGE_HEADERS, renderAppPage } from './WebNav';
import type { WebReader, WebSession } from './WebSession';

export interface WebAppOptions {
  baseUrl: string;
  session: WebSession;
  statuses: MastodonStatuses;
  accounts: MastodonAccounts;
  notifications: MastodonNotifications;
  follows: MastodonFollows;
  search: MastodonSearch;
  threads: MastodonThreads;
  /** The accounts, counted on the front page. */
  accountStore: AccountStore;
  /** Who may sign up (the front page offers signup only when anyone may). */
  registrations?: Registrations;
  /** Mutes, in setups with moderation. */
  mutes?: Mutes;
  /** A remote account's recent public posts on its profile (none: a link to its server instead). */
  remotePosts?: RemoteAccountPosts;
  /** The users' uploads: the compose form's attachments with their descriptions. */
  media?: MediaStore;
  /** Followed hashtags: their posts at home, and a tag page's Follow button. */
  followedTags?: FollowedTags;
  /** The server's name and description on the front page (as the Mastodon instance entity has them). */
  title?: string;
  description?: string;
  /** Largest form body. */
  maxBodyBytes?: number;
}

const PAGE_SIZE = 20;
const STATUS_ACTIONS = new Set([ 'favourite', 'unfavourite', 'reblog', 'unreblog', 'bookmark', 'unbookmark', 'delete' ]);
const ACCOUNT_ACTIONS = new Set([ 'follow', 'unfollow', 'block', 'unblock', 'mute', 'unmute', 'authorize', 'reject' ]);
const VISIBILITIES = [[ 'public', 'Public' ], [ 'unlisted', 'Unlisted (not on public timelines)' ], [ 'private', 'Followers only' ],
  [ 'direct', 'Mentioned people only' ]] as const;

/**
 * The web app: the front page (`/` for a browser: what this server is, for anonymous readers; the
 * home timeline for a logged-in one), its reading pages (route `web-page`: home, local and federated
 * timelines, notifications, bookmarks, a thread, a profile, a tag, the compose form) and its forms
 * (route `web-action`, POST only, answered 303 back to the page). Every page is built on the services
 * of the Mastodon API with the session's user as the reader, so it shows what that user may read and
 * nothing more; every form needs the session and its form key (WebSession), and acts as that user
 * through the same services (the outbox's rules). Pages work without JavaScript; their script only
 * adds live updates (WebLiveHandler).
 */
export class WebAppHandler extends JsonHttpHandler {
  private readonly base: string;
  private readonly options: WebAppOptions;

  public constructor(options: WebAppOptions) {
    super();
    this.options = options;
    this.base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
  }

  public override async canHandle({ request, operation }: OperationInput): Promise<void> {
    // `/` is also the root container: only a browser's page request is the front page.
    if (operation.route.name === 'web-front' && !prefersHtml(request)) {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    // The app's answers are for this origin only: no CORS header lets another origin read one.
    response.removeHeader('access-control-allow-origin');
    response.removeHeader('access-control-allow-credentials');
    const name = operation.route.name;
    if (name === 'web-action') {
      const { form, reader, uploads } = mediaTypeOf(request.headers['content-type']) === 'multipart/form-data' ?
        await this.readMultipart(request) :
        await this.readForm(request);
      await this.act(operation.target.path, operation.params, reader, form, uploads);
      response.writeHead(303, { location: `${this.base}${safeBack(form.get('back'))}`, 'cache-control': 'no-store' });
      response.end();
      return;
    }
    const reader = await this.options.session.reader(request);
    if (name === 'web-front' && reader) {
      response.writeHead(303, { location: `${this.base}web/home`, 'cache-control': 'no-store' });
      response.end();
      return;
    }
    const path = operation.target.path.replace(/^\//u, '');
    const back = `${path}${operation.target.search}`;
    const context: ViewContext = { base: this.base, reader, back };
    const page = name === 'web-front' ? await this.front(context) : await this.page(path, operation.params, operation.target.query, context);
    if (!page) {
      // A page of a logged-in reader's own (home, notifications, ...) for nobody: the login first.
      response.writeHead(303, { location: `${this.base}auth/login?next=${encodeURIComponent(path)}`, 'cache-control': 'no-store' });
      response.end();
      return;
    }
    sendHtml(response, 200, renderAppPage(this.base, page.title, page.body, reader !== undefined, path), { ...APP_PAGE_HEADERS },
      request.method === 'HEAD');
  }

  private async front(context: ViewContext): Promise<Page> {
    const { title = DEFAULT_INSTANCE_TITLE, description = DEFAULT_INSTANCE_DESCRIPTION, registrations } = this.options;
    const users = (await this.options.accountStore.list()).length;
    const host = new URL(this.base).host;
    const posts = await this.timeline({ everyActorCollection: [ '/outbox' ], addressedTo: [ AS_PUBLIC ], inToOnly: true }, 10,
      new URLSearchParams(), context);
    const signup = registrations?.mode === 'closed' ? '' : `<a href="${escapeHtml(this.base)}auth/signup?next=web/home">Sign up</a> or `;
    return { title, body: `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(description)}</p>
<p>${signup}<a href="${escapeHtml(this.base)}auth/login?next=web/home">log in</a>. ${users} ${users === 1 ? 'person has' : 'people have'} an account here.</p>
<section><h2>How to follow someone here</h2>
<p>Everyone here has a handle <code>@name@${escapeHtml(host)}</code>. In your fediverse app (Mastodon, Elk, Tusky, ...), search for that handle and follow it;
or open <code>${escapeHtml(this.base)}actors/name</code> to see their profile.</p></section>
<section><h2>Recent posts</h2>
${posts}
</section>` };
  }

  /** A reading page, or undefined when it is a logged-in reader's own and nobody is logged in. */
  private async page(path: string, params: Readonly<Record<string, string | undefined>>, query: URLSearchParams, context: ViewContext):
  Promise<Page | undefined> {
    const reader = context.reader;
    const { statuses, accounts } = this.options;
    switch (path) {
      case 'web/local':
      case 'web/federated': {
        const local = path === 'web/local';
        const list = await this.timeline({ everyActorCollection: local ? [ '/outbox' ] : [ '/outbox', '/inbox' ], addressedTo: [ AS_PUBLIC ],
          inToOnly: true }, PAGE_SIZE, query, context, 'public', local ? 'public:local' : 'public');
        const title = local ? 'Local timeline' : 'Federated timeline';
        return { title, body: `<h1>${title}</h1>\n<p class="meta">${local ? 'Public posts of this server\'s people.' :
          'Public posts of this server\'s people and those that reached it.'}</p>\n${list}` };
      }
      default:
    }
    if (path.startsWith('web/tags/')) {
      const tag = params.tag ?? '';
      const found = await this.options.threads.tagTimeline(tag, readerOf(reader), PAGE_SIZE, query.get('max_id') ?? undefined);
      return { title: `#${tag}`, body: `<h1>#${escapeHtml(tag)}</h1>\n${await this.tagFollowForm(tag, context)}<div${query.has('max_id') ? '' : ` data-live="hashtag" data-stream="hashtag" data-tag="${
        escapeHtml(tag.toLowerCase())}"`}>${this.list(found, context, path)}</div>` };
    }
    if (path.startsWith('web/statuses/')) {
      return this.thread(params.id ?? '', context);
    }
    if (params.handle !== undefined) {
      // `/web/@name` or `/web/@name@host` (the path arrives with `@` encoded: a parameter of its own).
      if (!params.handle.startsWith('@')) {
        throw notFound(`No page ${path}.`);
      }
      return this.profile(params.handle.slice(1), query, context);
    }
    if (!reader) {
      return undefined;
    }
    const self = readerOf(reader);
    switch (path) {
      case 'web/home': {
        const list = await this.timeline({ collections: homeCollections(accounts.urls, reader.username, this.options.followedTags) },
          PAGE_SIZE, query, context, 'home');
        return { title: 'Home', body: `<h1>Home</h1>\n${this.composeForm(context)}\n${this.followForm(context)}\n<section aria-label="Home timeline">\n${list}\n</section>` };
      }
      case 'web/notifications': {
        const found = await this.options.notifications.list(reader.username, { limit: PAGE_SIZE, maxId: query.get('max_id') ?? undefined });
        const more = found.length === PAGE_SIZE ? `<p><a rel="next" href="${escapeHtml(this.base)}web/notifications?max_id=${
          encodeURIComponent(found.at(-1)!.id)}">Older</a></p>` : '';
        return { title: 'Notifications', body: `<h1>Notifications</h1>
<div data-live="notifications">${found.map((notification): string => renderNotification(context, notification)).join('\n') ||
  '<p class="meta" data-empty>Nothing yet.</p>'}</div>${more}` };
      }
      case 'web/bookmarks': {
        const found = await this.options.threads.list(reader.username, 'bookmarks', PAGE_SIZE, query.get('max_id') ?? undefined);
        return { title: 'Bookmarks', body: `<h1>Bookmarks</h1>\n${found.statuses.map((status): string => renderStatus(context, status)).join('\n') ||
          '<p class="meta">None yet.</p>'}${found.next ? `<p><a rel="next" href="${escapeHtml(this.base)}web/bookmarks?max_id=${
          encodeURIComponent(found.next)}">Older</a></p>` : ''}` };
      }
      case 'web/compose': {
        const replyTo = query.get('in_reply_to_id');
        const original = replyTo ? await statuses.get(replyTo, self) : undefined;
        return { title: original ? 'Reply' : 'Write', body: `<h1>${original ? 'Reply' : 'Write a post'}</h1>
${original ? renderStatus({ ...context, reader: undefined }, original) : ''}
${this.composeForm(context, original, original !== undefined)}` };
      }
      default:
        throw notFound(`No page ${path}.`);
    }
  }

  private async thread(id: string, context: ViewContext): Promise<Page> {
    const reader = readerOf(context.reader);
    const status = await this.options.statuses.get(id, reader);
    const { ancestors, descendants } = await this.options.statuses.context(id, reader);
    const shown = status.reblog ?? status;
    // The reader's own votes decide whether the poll is a form or its results.
    const ownPoll = shown.poll && context.reader ? await this.options.threads.poll(shown.id, reader) : undefined;
    return { title: `Post by @${shown.account.acct}`, body: `<h1>Post by ${escapeHtml(shown.account.display_name || shown.account.username)}</h1>
${ancestors.map((item): string => renderStatus(context, item)).join('\n')}
${renderStatus(context, status, ownPoll)}
${context.reader ? this.composeForm(context, shown) : ''}
<section aria-label="Replies">
${descendants.map((item): string => renderStatus(context, item)).join('\n')}
</section>` };
  }

  private async profile(acct: string, query: URLSearchParams, context: ViewContext): Promise<Page> {
    const { accounts, statuses, follows } = this.options;
    const account = await accounts.lookup(acct);
    if (!account) {
      throw notFound(`No account @${acct}.`);
    }
    const reader = readerOf(context.reader);
    const username = accounts.urls.usernameOf(account.uri);
    const list = username ?
      this.list(await statuses.timeline({ collections: [ accounts.urls.collection(username, 'outbox') ],
        addressedTo: reader.iri === account.uri ? undefined : await statuses.audienceFor(account.uri, reader) },
      timelineQuery(pageQuery(query)), reader, 'public', 'account'), context, accountPath(account)) :
      await this.remoteList(account, context);
    let relation = '';
    if (context.reader && account.uri !== reader.iri) {
      const state = await follows.relationship(context.reader.username, account.uri);
      const path = (action: string): string => `web/accounts/${encodeURIComponent(account.id)}/${action}`;
      relation = `<div class="actions">
${actionForm(context, path(state.following || state.requested ? 'unfollow' : 'follow'), state.following ? 'Unfollow' : state.requested ? 'Cancel follow request' : 'Follow')}
${actionForm(context, path(state.muting ? 'unmute' : 'mute'), state.muting ? 'Unmute' : 'Mute')}
${actionForm(context, path(state.blocking ? 'unblock' : 'block'), state.blocking ? 'Unblock' : 'Block')}
<a href="${escapeHtml(this.base)}web/report?account_id=${encodeURIComponent(account.id)}">Report</a>
</div>
<p class="meta">${state.followed_by ? 'Follows you. ' : ''}${state.requested ? 'Follow request sent.' : ''}</p>`;
    }
    return { title: `@${account.acct}`, body: `<h1>${escapeHtml(account.display_name || account.username)}</h1>
<p class="handle">@${escapeHtml(account.acct)}${account.acct.includes('@') ? '' : `@${escapeHtml(new URL(this.base).host)}`}</p>
${safeHtml(account.note)}
<ul class="counts"><li><strong>${account.statuses_count}</strong> posts</li><li><strong>${account.following_count}</strong> following</li>
<li><strong>${account.followers_count}</strong> followers</li></ul>
${relation}
<section aria-label="Posts">
${list}
</section>` };
  }

  /**
   * A remote account's recent public posts (the first page of its outbox, fetched on demand for a
   * logged-in reader and kept a while), the link to its server under them; only the link without the service.
   */
  private async remoteList(account: MastodonAccount, context: ViewContext): Promise<string> {
    const link = (lead: string): string => `<p>${lead} on their server: <a href="${escapeHtml(account.url)}" rel="nofollow noopener noreferrer">${
      escapeHtml(account.url)}</a>.</p>`;
    if (!this.options.remotePosts) {
      return link('Their posts are');
    }
    const found = await this.options.remotePosts.recent(account.uri, readerOf(context.reader), context.reader !== undefined);
    return `${found.length === 0 ? '<p class="meta">No recent public posts here.</p>' :
      found.map((status): string => renderStatus(context, status)).join('\n')}\n${link('All their posts are')}`;
  }

  /**
   * A timeline page as HTML: its statuses (those the reader may read) and a link to older ones; its
   * container names the live stream that adds new ones (`stream`: a public timeline's, for the script).
   */
  private async timeline(source: TimelineSource, limit: number, query: URLSearchParams, context: ViewContext, kind: 'home' | 'public' = 'public',
    stream?: string): Promise<string> {
    const reader = readerOf(context.reader);
    const found = await this.options.statuses.timeline(source, { ...timelineQuery(pageQuery(query)), limit }, reader, kind);
    // Only the newest page takes live posts (an older page would get them at its top).
    const live = kind === 'home' ? ' data-live="home"' : stream && !query.has('max_id') ?
      ` data-live="${escapeHtml(stream)}" data-stream="${escapeHtml(stream)}"` : '';
    return `<div${live}>${this.list(found, context, context.back.split('?')[0], limit)}</div>`;
  }

  private list(found: readonly MastodonStatus[], context: ViewContext, path: string, limit = PAGE_SIZE): string {
    if (found.length === 0) {
      return '<p class="meta" data-empty>No posts yet.</p>';
    }
    const more = found.length >= limit ?
      `\n<p><a rel="next" href="${escapeHtml(this.base)}${escapeHtml(path)}?max_id=${encodeURIComponent(found.at(-1)!.id)}">Older posts</a></p>` :
      '';
    return `${found.map((status): string => renderStatus(context, status)).join('\n')}${more}`;
  }

  /** The compose form; `focus`: the page is the form (the reply page), its text field takes the focus, the cursor after the mention (the script). */
  private composeForm(context: ViewContext, replyTo?: MastodonStatus, focus = false): string {
    const visibility = replyTo?.visibility === 'direct' || replyTo?.visibility === 'private' ? replyTo.visibility : 'public';
    const mention = replyTo && replyTo.account.acct !== context.reader?.username ? `@${replyTo.account.acct} ` : '';
    const enctype = this.options.media ? ' enctype="multipart/form-data"' : '';
    const media = this.options.media ? attachmentFields() : '';
    return `<form method="post" action="${escapeHtml(this.base)}web/statuses" class="compose"${enctype}>${formFields(context)}
${replyTo ? `<input type="hidden" name="in_reply_to_id" value="${escapeHtml(replyTo.id)}">` : ''}
<label for="status">${replyTo ? 'Your reply' : 'What is on your mind?'}</label>
<textarea id="status" name="status" rows="4" required maxlength="5000"${mention ? ' data-prefilled' : ''}${
  focus ? ' autofocus' : ''}>${escapeHtml(mention)}</textarea>
<label for="spoiler_text">Content warning (optional)</label>
<input id="spoiler_text" name="spoiler_text" maxlength="500">
<label for="visibility">Who can see it</label>
<select id="visibility" name="visibility">${VISIBILITIES.map(([ value, label ]): string =>
  `<option value="${value}"${value === visibility ? ' selected' : ''}>${escapeHtml(label)}</option>`).join('')}</select>
${media}
${replyTo ? '' : pollFields()}
<button type="submit">${replyTo ? 'Reply' : 'Post'}</button>
</form>`;
  }

  /** A tag page's Follow (or Unfollow) button, for a logged-in reader where hashtags can be followed. */
  private async tagFollowForm(tag: string, context: ViewContext): Promise<string> {
    const { followedTags } = this.options;
    const username = context.reader?.username;
    // A name no hashtag has keeps its (empty) page, without a button.
    if (!followedTags || username === undefined || !FollowedTags.isTagName(tag)) {
      return '';
    }
    const { following, id } = await followedTags.entity(tag, username);
    return `<div class="actions">${actionForm(context, `web/tags/${encodeURIComponent(id)}/${following ? 'unfollow' : 'follow'}`,
      following ? 'Unfollow hashtag' : 'Follow hashtag', following)}</div>\n`;
  }

  private followForm(context: ViewContext): string {
    return `<form method="post" action="${escapeHtml(this.base)}web/follow" class="follow">${formFields(context)}
<label for="handle">Follow someone by handle</label>
<input id="handle" name="handle" placeholder="@name@example.social" required autocomplete="off">
<button type="submit" class="secondary">Follow</button>
</form>`;
  }

  private async readForm(request: OperationInput['request']): Promise<PostedForm> {
    const form = new URLSearchParams((await readBody(request, this.options.maxBodyBytes ?? 1_048_576)).toString('utf8'));
    return { form, reader: await this.options.session.poster(request, form) };
  }

  /**
   * The compose form with files (multipart): the session first (nobody else's upload is read),
   * then the files received as the API's uploads are, then the form key; a refused form leaves
   * nothing stored.
   */
  private async readMultipart(request: OperationInput['request']): Promise<PostedForm> {
    const media = this.options.media;
    const session = await this.options.session.reader(request);
    if (!session) {
      // The form key is checked once the fields are read; without a session nothing is read.
      return { form: new URLSearchParams(), reader: await this.options.session.poster(request, new URLSearchParams()) };
    }
    if (!media) {
      throw badRequest('This server takes no files from forms.', 'invalid_form');
    }
    const { fields, files } = await readUpload(request, media, session.username, ATTACHMENT_FILES, { skipUnnamed: true });
    const form = new URLSearchParams([ ...fields ]);
    try {
      const reader = await this.options.session.poster(request, form);
      return { form, reader, uploads: files };
    } catch (error: unknown) {
      await discardAll(media, files);
      throw error;
    }
  }

  /** What a form asks, done as the session's user. */
  private async act(path: string, params: Readonly<Record<string, string | undefined>>, reader: WebReader, form: URLSearchParams,
    uploads?: ReadonlyMap<string, ReceivedMedia>): Promise<void> {
    const { statuses, threads, follows, mutes } = this.options;
    const username = reader.username;
    if (path === '/web/statuses') {
      const mediaIds = uploads && this.options.media ? await commitAttachments(this.options.media, form, uploads) : [];
      const input: NewStatus = { status: form.get('status') ?? '', spoiler_text: form.get('spoiler_text') ?? '',
        visibility: form.get('visibility') ?? 'public', sensitive: form.get('sensitive') === 'true',
        ...form.get('in_reply_to_id') ? { in_reply_to_id: form.get('in_reply_to_id')! } : {},
        ...mediaIds.length > 0 ? { media_ids: mediaIds } : {}, ...pollOfForm(form)};
      await statuses.post(username, input);
      return;
    }
    if (path === '/web/follow') {
      const account = await this.byHandle(form.get('handle') ?? '', reader);
      await follows.follow(username, account.id);
      return;
    }
    const action = params.action ?? '';
    const id = params.id ?? '';
    if (path.startsWith('/web/tags/') && this.options.followedTags && [ 'follow', 'unfollow' ].includes(action)) {
      await (action === 'follow' ? this.options.followedTags.follow(username, params.tag ?? '') :
        this.options.followedTags.unfollow(username, params.tag ?? ''));
      return;
    }
    if (path.startsWith('/web/statuses/') && STATUS_ACTIONS.has(action)) {
      switch (action) {
        case 'favourite': await statuses.react(username, id, 'Like'); return;
        case 'unfavourite': await statuses.unreact(username, id, 'Like'); return;
        case 'reblog': await statuses.react(username, id, 'Announce'); return;
        case 'unreblog': await statuses.unreact(username, id, 'Announce'); return;
        case 'delete': await statuses.delete(username, id); return;
        default: await threads.bookmark(username, id, action === 'bookmark');
      }
      return;
    }
    if (path.startsWith('/web/accounts/') && ACCOUNT_ACTIONS.has(action)) {
      switch (action) {
        case 'follow': await follows.follow(username, id); return;
        case 'unfollow': await follows.undo(username, id, 'Follow'); return;
        case 'block': await follows.block(username, id); return;
        case 'unblock': await follows.undo(username, id, 'Block'); return;
        case 'authorize': await follows.answer(username, id, 'Accept'); return;
        case 'reject': await follows.answer(username, id, 'Reject'); return;
        default: await this.mute(username, id, action === 'mute', mutes);
      }
      return;
    }
    throw notFound(`No action ${path}.`);
  }

  private async mute(username: string, id: string, on: boolean, mutes: Mutes | undefined): Promise<void> {
    if (!mutes) {
      throw badRequest('This server has no mutes.', 'invalid_form');
    }
    const account = await this.options.accounts.byId(id);
    if (!account) {
      throw notFound(`No account ${id}.`);
    }
    if (account.uri === this.options.accounts.urls.actor(username)) {
      throw badRequest('You cannot mute yourself.', 'invalid_form');
    }
    await (on ? mutes.mute(username, account.uri) : mutes.unmute(username, account.uri));
  }

  /** The account of a handle (`@name@host`, `name@host`, or a local `name`), fetched by WebFinger when it is not known here yet. */
  private async byHandle(handle: string, reader: WebReader): Promise<MastodonAccount> {
    const q = handle.trim();
    if (!/^@?[\w.-]+(@[\w.-]+(:\d+)?)?$/u.test(q)) {
      throw badRequest('Give a handle such as @name@example.social.', 'invalid_handle');
    }
    const found = await this.options.search.search({ q, type: 'accounts', resolve: true, limit: 1, offset: 0 },
      readerOf(reader));
    if (found.accounts.length === 0) {
      throw notFound(`Nobody found as ${q}.`);
    }
    return found.accounts[0];
  }
}

interface Page {
  title: string;
  body: string;
}

/** A form posted to the app, its user, and the compose form's files by field name. */
interface PostedForm {
  form: URLSearchParams;
  reader: WebReader;
  uploads?: ReadonlyMap<string, ReceivedMedia>;
}

/** The audience rules' reader of a session (anonymous without one). */
function readerOf(reader: WebReader | undefined): Reader {
  return reader ? { iri: reader.webId, username: reader.username } : { iri: undefined };
}

const POLL_OPTION_FIELDS = [ 'poll_option_1', 'poll_option_2', 'poll_option_3', 'poll_option_4' ];
const POLL_DURATIONS = [[ 300, '5 minutes' ], [ 1800, '30 minutes' ], [ 3600, '1 hour' ], [ 21_600, '6 hours' ], [ 86_400, '1 day' ],
  [ 259_200, '3 days' ], [ 604_800, '7 days' ]] as const;

/** The compose form's optional poll: up to four options (fields of their own: a multipart form has one value a name), its length, one or several choices. */
function pollFields(): string {
  return `<fieldset class="poll"><legend>Poll (optional: fill in two to four options)</legend>
${POLL_OPTION_FIELDS.map((name, index): string => `<label for="${name}">Option ${index + 1}</label>
<input id="${name}" name="${name}" maxlength="50">`).join('\n')}
<label for="poll_expires_in">Poll ends after</label>
<select id="poll_expires_in" name="poll_expires_in">${POLL_DURATIONS.map(([ seconds, label ]): string =>
  `<option value="${seconds}"${seconds === 86_400 ? ' selected' : ''}>${label}</option>`).join('')}</select>
<label><input type="checkbox" name="poll_multiple" value="true"> Allow several choices</label>
</fieldset>`;
}

/** The poll of a compose form, as the API's `poll` parameters (checked there: 422 out of its limits), when any option is filled in. */
function pollOfForm(form: URLSearchParams): Pick<NewStatus, 'poll'> {
  const options = POLL_OPTION_FIELDS.map((name): string => (form.get(name) ?? '').trim()).filter((option): boolean => option.length > 0);
  return options.length === 0 ? {} : { poll: { options, expires_in: form.get('poll_expires_in') ?? '86400', multiple: form.get('poll_multiple') === 'true' }};
}

/** Only `max_id` pages the app's lists (older posts). */
function pageQuery(query: URLSearchParams): URLSearchParams {
  const maxId = query.get('max_id');
  return new URLSearchParams(maxId ? { max_id: maxId } : {});
}

/** The page a form goes back to: a path of the app, never another site. */
function safeBack(back: string | null): string {
  return back && /^web\/[\w@%.:/?=&~+-]*$/u.test(back) && !back.includes('//') ? back : 'web/home';
}
