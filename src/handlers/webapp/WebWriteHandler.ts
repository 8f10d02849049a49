import type { MastodonAccounts } from '../../plugins/mastodon/MastodonAccounts';
import type { MastodonStatuses, Reader } from '../../plugins/mastodon/MastodonStatuses';
import type { MastodonThreads } from '../../plugins/mastodon/MastodonThreads';
import type { AccountModerationService } from '../../plugins/moderation/AccountModerationService';
import { REPORT_CATEGORIES } from '../../plugins/moderation/Reports';
import { FedpodHttpError, notFound } from '../../util/HttpErrors';
import { escapeHtml } from '../http/Html';
import { readBody, sendHtml } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';
import type { ViewContext } from './StatusView';
import { formFields, renderStatus } from './StatusView';
import { APP_PAGE_HEADERS, renderAppPage } from './WebNav';
import type { WebReader, WebSession } from './WebSession';

export interface WebWriteOptions {
  baseUrl: string;
  session: WebSession;
  statuses: MastodonStatuses;
  threads: MastodonThreads;
  accounts: MastodonAccounts;
  /** Reports, as `POST /api/v1/reports` files them; none (a setup without moderation): no report form. */
  moderation?: AccountModerationService;
  /** Largest form body. */
  maxBodyBytes?: number;
}

const CATEGORY_LABELS: Record<typeof REPORT_CATEGORIES[number], string> = {
  spam: 'Spam', legal: 'Illegal content', violation: 'It breaks the server\'s rules', other: 'Something else',
};

/**
 * The web app's writing forms beyond composing (WebAppHandler), by route name:
 * `web-write-page` (GET) shows the edit page of the user's own post (`/web/statuses/:id/edit`) and
 * the report form (`/web/report?account_id=...&status_id=...`); `web-write` (POST, the session's form
 * key needed as on every form of the app) saves an edit as the API's `PUT /api/v1/statuses/:id` does
 * (an Update delivered), votes in a poll as `POST /api/v1/polls/:id/votes` does, and files a report
 * as `POST /api/v1/reports` does. Each answers 303 to the post's page (the report: back to the page
 * it came from, with a confirmation page in between).
 */
export class WebWriteHandler extends JsonHttpHandler {
  private readonly base: string;

  public constructor(private readonly options: WebWriteOptions) {
    super();
    this.base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    // As the app's other answers: for this origin only.
    response.removeHeader('access-control-allow-origin');
    response.removeHeader('access-control-allow-credentials');
    const path = operation.target.path.replace(/^\//u, '');
    const id = operation.params.id ?? '';
    if (operation.route.name === 'web-write') {
      const form = new URLSearchParams((await readBody(request, this.options.maxBodyBytes ?? 65_536)).toString('utf8'));
      const reader = await this.options.session.poster(request, form);
      const location = await this.act(path, id, reader, form);
      response.writeHead(303, { location: `${this.base}${location}`, 'cache-control': 'no-store' });
      response.end();
      return;
    }
    const reader = await this.options.session.reader(request);
    if (!reader) {
      response.writeHead(303, { location: `${this.base}auth/login?next=${encodeURIComponent(`${path}${operation.target.search}`)}`,
        'cache-control': 'no-store' });
      response.end();
      return;
    }
    const context: ViewContext = { base: this.base, reader, back: `${path}${operation.target.search}` };
    const page = path === 'web/report' ?
      await this.reportPage(context, operation.target.query) :
      await this.editPage(context, id);
    sendHtml(response, 200, renderAppPage(this.base, page.title, page.body, true), { ...APP_PAGE_HEADERS }, request.method === 'HEAD');
  }

  /** The edit page of the user's own post (404 for anybody else's, as the API's source): its text and content warning. */
  private async editPage(context: ViewContext, id: string): Promise<Page> {
    const reader = context.reader!;
    const source = await this.options.threads.source(reader.username, id);
    const status = await this.options.statuses.get(id, this.readerOf(reader));
    const action = `${this.base}web/statuses/${encodeURIComponent(id)}/edit`;
    return { title: 'Edit post', body: `<h1>Edit your post</h1>
<form method="post" action="${escapeHtml(action)}" class="compose">${formFields({ ...context, back: `web/statuses/${id}` })}
<label for="status">Text</label>
<textarea id="status" name="status" rows="6" required maxlength="5000">${escapeHtml(source.text)}</textarea>
<label for="spoiler_text">Content warning (optional)</label>
<input id="spoiler_text" name="spoiler_text" maxlength="500" value="${escapeHtml(source.spoiler_text)}">
<label><input type="checkbox" name="sensitive" value="true"${status.sensitive ? ' checked' : ''}> Sensitive media (hidden until opened)</label>
<p class="meta">Everyone who got the post gets the new text; its audience, media and poll stay as they are.</p>
<button type="submit">Save</button>
<a href="${escapeHtml(this.base)}web/statuses/${encodeURIComponent(id)}">Cancel</a>
</form>` };
  }

  /** The report form about an account, and one of its posts when `status_id` names one the reader may read. */
  private async reportPage(context: ViewContext, query: URLSearchParams): Promise<Page> {
    const reader = context.reader!;
    this.moderation();
    const account = await this.options.accounts.byId(query.get('account_id') ?? '');
    if (!account) {
      throw notFound('No such account.', 'record_not_found');
    }
    if (query.get('sent') === '1') {
      return { title: 'Report sent', body: `<h1>Report sent</h1>
<p role="status">Thank you: the moderators of this server will look at your report about @${escapeHtml(account.acct)}.</p>
<p><a href="${escapeHtml(this.base)}web/home">Back home</a></p>` };
    }
    const statusId = query.get('status_id');
    const status = statusId ? await this.options.statuses.get(statusId, this.readerOf(reader)) : undefined;
    if (status && status.account.id !== account.id) {
      throw new FedpodHttpError(422, 'Validation failed', `Status ${statusId} is not by the reported account.`);
    }
    const remote = account.acct.includes('@');
    const name = account.display_name || account.username;
    return { title: `Report @${account.acct}`, body: `<h1>Report ${escapeHtml(name)}</h1>
<p class="handle">@${escapeHtml(account.acct)}</p>
${status ? renderStatus({ ...context, reader: undefined }, status) : ''}
<form method="post" action="${escapeHtml(this.base)}web/reports" class="report">${formFields(context)}
<input type="hidden" name="account_id" value="${escapeHtml(account.id)}">
${status ? `<input type="hidden" name="status_id" value="${escapeHtml(status.id)}">` : ''}
<fieldset><legend>What is wrong?</legend>
${REPORT_CATEGORIES.map((category): string => `<label><input type="radio" name="category" value="${category}"${
  category === 'other' ? ' checked' : ''}> ${escapeHtml(CATEGORY_LABELS[category])}</label>`).join('\n')}
</fieldset>
<label for="comment">Anything the moderators should know (optional)</label>
<textarea id="comment" name="comment" rows="4" maxlength="1000"></textarea>
${remote ? `<label><input type="checkbox" name="forward" value="true"> Also send a copy (without your name) to their server, ${
  escapeHtml(account.acct.split('@')[1])}</label>` : ''}
<button type="submit">Send report</button>
</form>
<p class="meta">The moderators of this server read reports; the account is not told who reported it.</p>` };
  }

  /** What a form asks, done as the session's user; the page to go to next. */
  private async act(path: string, id: string, reader: WebReader, form: URLSearchParams): Promise<string> {
    const { statuses, threads } = this.options;
    if (path === 'web/reports') {
      return this.report(reader, form);
    }
    const back = `web/statuses/${encodeURIComponent(id)}`;
    if (path.endsWith('/edit')) {
      await statuses.edit(reader.username, id, { status: form.get('status') ?? '', spoiler_text: form.get('spoiler_text') ?? '',
        sensitive: form.get('sensitive') === 'true' });
      return back;
    }
    // A vote: choices by option index, as the API's `choices[]`.
    const choices = form.getAll('choices').map((choice): number => /^\d{1,2}$/u.test(choice) ? Number(choice) : -1);
    await threads.vote(reader.username, id, choices);
    return back;
  }

  private async report(reader: WebReader, form: URLSearchParams): Promise<string> {
    const target = await this.options.accounts.byId(form.get('account_id') ?? '');
    if (!target) {
      throw notFound('No such account.', 'record_not_found');
    }
    const statusId = form.get('status_id');
    const statuses: string[] = [];
    if (statusId) {
      const status = await this.options.statuses.get(statusId, this.readerOf(reader));
      if (status.account.uri !== target.uri) {
        throw new FedpodHttpError(422, 'Validation failed', `Status ${statusId} is not by the reported account.`);
      }
      statuses.push(status.uri);
    }
    await this.moderation().report(this.readerOf(reader).iri!, { target: target.uri, statuses, comment: form.get('comment') ?? '',
      category: form.get('category') ?? 'other', forward: form.get('forward') === 'true' });
    return `web/report?account_id=${encodeURIComponent(target.id)}&sent=1`;
  }

  private moderation(): AccountModerationService {
    if (!this.options.moderation) {
      throw notFound('This server takes no reports.');
    }
    return this.options.moderation;
  }

  /** The user as the audience rules and reports know them: their actor. */
  private readerOf(reader: WebReader): Reader {
    return { iri: this.options.accounts.urls.actor(reader.username), username: reader.username };
  }
}

interface Page {
  title: string;
  body: string;
}
