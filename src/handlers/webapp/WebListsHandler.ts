import type { Collections } from '../../storage/Collections';
import type { MastodonAccount } from '../../plugins/mastodon/AccountEntity';
import { listTimeline } from '../../plugins/mastodon/ListTimeline';
import type { MastodonAccounts } from '../../plugins/mastodon/MastodonAccounts';
import type { MastodonFollows } from '../../plugins/mastodon/MastodonFollows';
import type { MastodonLists, RepliesPolicy, StoredList } from '../../plugins/mastodon/MastodonLists';
import { REPLIES_POLICIES } from '../../plugins/mastodon/MastodonLists';
import type { MastodonStatuses } from '../../plugins/mastodon/MastodonStatuses';
import { badRequest, FedpodHttpError, notFound } from '../../util/HttpErrors';
import { escapeHtml } from '../http/Html';
import { timelineQuery } from '../mastodon/Pagination';
import type { ViewContext } from './StatusView';
import { accountLink, actionForm, formFields, renderStatus } from './StatusView';
import type { WebPage, WebPageRequest } from './WebPageHandler';
import { WebPageHandler } from './WebPageHandler';
import type { WebReader, WebSession } from './WebSession';

export interface WebListsOptions {
  baseUrl: string;
  session: WebSession;
  lists: MastodonLists;
  accounts: MastodonAccounts;
  statuses: MastodonStatuses;
  follows: MastodonFollows;
  collections: Collections;
  maxBodyBytes?: number;
}

const PAGE_SIZE = 20;
/** Most followed accounts offered to add to a list. */
const FOLLOWING_OFFERED = 80;
const POLICY_LABELS: Record<RepliesPolicy, string> = {
  list: 'Replies to members of the list', followed: 'Replies to anyone I follow', none: 'No replies',
};

/**
 * The app's lists (as the API's `/api/v1/lists`, through the same MastodonLists): `/web/lists` shows
 * the user's lists and the form of a new one; `/web/lists/:id` a list's timeline (as
 * `/api/v1/timelines/list/:id` reads it), its members with a form to add one of the people the user
 * follows or remove one, and the forms to rename or delete it. Forms: `POST /web/lists` (create),
 * `/web/lists/:id/update`, `/delete`, `/add`, `/remove`. Another user's list is 404, as an unknown
 * one; without a session the pages send to the login.
 */
export class WebListsHandler extends WebPageHandler {
  private readonly options: WebListsOptions;

  public constructor(options: WebListsOptions) {
    super(options.baseUrl, options.session, options.maxBodyBytes);
    this.options = options;
  }

  protected async page({ params, query }: WebPageRequest, context: ViewContext): Promise<WebPage | undefined> {
    const reader = context.reader;
    if (!reader) {
      return undefined;
    }
    if (params.id === undefined) {
      return this.index(reader, context);
    }
    return this.list(await this.options.lists.get(reader.username, params.id), query, context);
  }

  protected async act({ params }: WebPageRequest, reader: WebReader, form: URLSearchParams): Promise<string> {
    const { lists, accounts } = this.options;
    const username = reader.username;
    if (params.id === undefined) {
      const created = await lists.create(username, listFields(form));
      return `web/lists/${encodeURIComponent(created.id)}`;
    }
    const id = params.id;
    const back = `web/lists/${encodeURIComponent(id)}`;
    switch (params.action) {
      case 'update':
        await lists.update(username, id, listFields(form));
        return back;
      case 'delete':
        await lists.delete(username, id);
        return 'web/lists';
      case 'add':
      case 'remove': {
        await lists.get(username, id);
        const account = await accounts.byId(form.get('account_id') ?? '');
        if (!account) {
          throw notFound('No such account.', 'record_not_found');
        }
        if (params.action === 'remove') {
          await lists.removeMembers(username, id, [ account.uri ]);
          return back;
        }
        // As the API's members: only people the user follows (Mastodon's rule), never the user.
        const relation = await this.options.follows.relationship(username, account.uri);
        if (!relation.following) {
          throw new FedpodHttpError(422, 'Validation failed', 'Validation failed: follow them first to add them to a list');
        }
        await lists.addMembers(username, id, [ account.uri ]);
        return back;
      }
      default:
        throw notFound(`No action ${params.action ?? ''}.`);
    }
  }

  private async index(reader: WebReader, context: ViewContext): Promise<WebPage> {
    const lists = await this.options.lists.all(reader.username);
    const items = lists.map((list): string => `<li><a href="${escapeHtml(this.base)}web/lists/${encodeURIComponent(list.id)}">${
      escapeHtml(list.title)}</a> <span class="meta">${list.members.length} ${list.members.length === 1 ? 'member' : 'members'}${
      list.exclusive ? ' · not on Home' : ''}</span></li>`);
    return { title: 'Lists', body: `<h1>Lists</h1>
${items.length > 0 ? `<ul class="lists">${items.join('\n')}</ul>` : '<p class="meta">No lists yet.</p>'}
<section aria-labelledby="new-list"><h2 id="new-list">New list</h2>
<form method="post" action="${escapeHtml(this.base)}web/lists" class="list">${formFields(context)}
${this.fields()}
<button type="submit">Create list</button>
</form></section>` };
  }

  private async list(list: StoredList, query: URLSearchParams, context: ViewContext): Promise<WebPage> {
    const { accounts, statuses, collections, follows } = this.options;
    const reader = context.reader!;
    const path = `web/lists/${encodeURIComponent(list.id)}`;
    const maxId = query.get('max_id');
    const { read, shown } = await listTimeline({ accounts, statuses, collections }, list,
      timelineQuery(new URLSearchParams(maxId ? { max_id: maxId, limit: String(PAGE_SIZE) } : { limit: String(PAGE_SIZE) })),
      { iri: reader.webId, username: reader.username });
    const more = read.length >= PAGE_SIZE ?
      `<p><a rel="next" href="${escapeHtml(this.base)}${escapeHtml(path)}?max_id=${encodeURIComponent(read.at(-1)!.id)}">Older posts</a></p>` :
      '';
    const members = await Promise.all(list.members.map(async(actor): Promise<MastodonAccount> => accounts.accountOf(actor)));
    const own = await accounts.idOf(reader.webId);
    const followed = (await follows.list(own, 'following', { limit: FOLLOWING_OFFERED }))
      .filter((account): boolean => !list.members.includes(account.uri));
    const memberItems = members.map((account): string => `<li>${accountLink(context, account)} ${
      actionForm(context, `${path}/remove`, 'Remove', undefined, `<input type="hidden" name="account_id" value="${escapeHtml(account.id)}">`)}</li>`);
    const add = followed.length === 0 ? '<p class="meta">Everyone you follow is in this list already, or you follow nobody yet.</p>' :
      `<form method="post" action="${escapeHtml(this.base)}${escapeHtml(path)}/add" class="list-add">${formFields(context)}
<label for="account_id">Add someone you follow</label>
<select id="account_id" name="account_id">${followed.map((account): string => `<option value="${escapeHtml(account.id)}">${
  escapeHtml(account.display_name || account.username)} (@${escapeHtml(account.acct)})</option>`).join('')}</select>
<button type="submit">Add</button>
</form>`;
    return { title: list.title, body: `<h1>${escapeHtml(list.title)}</h1>
<p class="meta"><a href="${escapeHtml(this.base)}web/lists">All lists</a></p>
<section aria-label="List timeline">
${shown.map((status): string => renderStatus(context, status)).join('\n') || '<p class="meta">No posts yet.</p>'}${more}
</section>
<section aria-labelledby="members"><h2 id="members">Members</h2>
${memberItems.length > 0 ? `<ul class="members">${memberItems.join('\n')}</ul>` : '<p class="meta">Nobody yet.</p>'}
${add}
</section>
<section aria-labelledby="edit-list"><h2 id="edit-list">Change the list</h2>
<form method="post" action="${escapeHtml(this.base)}${escapeHtml(path)}/update" class="list">${formFields(context)}
${this.fields(list)}
<button type="submit">Save</button>
</form>
${actionForm(context, `${path}/delete`, 'Delete this list')}
</section>` };
  }

  /** A list's fields, filled in with its values. */
  private fields(list?: StoredList): string {
    const policy = list?.replies_policy ?? 'list';
    return `<label for="title">Title</label>
<input id="title" name="title" required maxlength="200" value="${escapeHtml(list?.title ?? '')}">
<label for="replies_policy">Replies shown</label>
<select id="replies_policy" name="replies_policy">${REPLIES_POLICIES.map((value): string =>
  `<option value="${value}"${value === policy ? ' selected' : ''}>${escapeHtml(POLICY_LABELS[value])}</option>`).join('')}</select>
<input type="hidden" name="exclusive" value="false">
<label><input type="checkbox" name="exclusive" value="true"${list?.exclusive ? ' checked' : ''}> Leave the members' posts out of Home</label>`;
  }
}

/** A list's fields from its form (the checkbox's hidden twin says false when it is not checked). */
function listFields(form: URLSearchParams): Partial<Omit<StoredList, 'id' | 'members'>> {
  const policy = form.get('replies_policy') ?? 'list';
  if (!(REPLIES_POLICIES as readonly string[]).includes(policy)) {
    throw badRequest(`Replies shown is one of ${REPLIES_POLICIES.join(', ')}.`, 'invalid_form');
  }
  return { title: form.get('title') ?? '', replies_policy: policy as RepliesPolicy, exclusive: form.getAll('exclusive').includes('true') };
}
