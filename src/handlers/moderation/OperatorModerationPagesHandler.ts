import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccountStore } from '../../plugins/accounts/AccountStore';
import type { TokenService } from '../../plugins/accounts/TokenService';
import type { AccountAction, AccountModerationService, AccountUndo } from '../../plugins/moderation/AccountModerationService';
import { ACCOUNT_ACTIONS, ACCOUNT_UNDOS } from '../../plugins/moderation/AccountModerationService';
import type { AccountModeration } from '../../plugins/moderation/AccountModerations';
import type { ModerationRoles } from '../../plugins/moderation/ModerationRoles';
import type { Report } from '../../plugins/moderation/Reports';
import { badRequest, FedpodHttpError } from '../../util/HttpErrors';
import { ACCOUNT_SESSION, readCookie } from '../auth/SessionCookies';
import { escapeHtml } from '../http/Html';
import { readBody, sendHtml } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';
import { renderPage } from '../http/PageLayout';
import { CSRF_FIELD, FormCsrf } from '../auth/FormCsrf';

const MAX_FORM_BYTES = 16 * 1024;
const MEASURES: [keyof AccountModeration, string][] = [
  [ 'suspended', 'suspended' ], [ 'silenced', 'silenced' ], [ 'sensitive', 'sensitive' ], [ 'disabled', 'login disabled' ],
];

/**
 * The operators' pages (server-rendered, for browsers): `/auth/operator/accounts` lists the local
 * accounts and the moderated remote ones with their measures, each with the forms that take or lift
 * an action (and one for any remote actor IRI); `/auth/operator/reports` lists the open reports
 * (`?all=1`: every one), each with resolve or reopen and the account actions. The user is the one of
 * the session cookie of the account pages (`/auth/`); only an operator (ModerationRoles) gets the
 * pages, others 403, nobody logged in the login page. Every form carries FormCsrf's key.
 */
export class OperatorModerationPagesHandler extends JsonHttpHandler {
  private readonly base: string;
  private readonly formKey = new FormCsrf();

  public constructor(
    baseUrl: string,
    private readonly tokens: TokenService,
    private readonly roles: ModerationRoles,
    private readonly moderation: AccountModerationService,
    private readonly accounts: AccountStore,
  ) {
    super();
    this.base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const session = await this.operator(request, response);
    if (!session) {
      return;
    }
    const reportsPage = operation.target.path.endsWith('/reports');
    let notice = '';
    if (request.method === 'POST') {
      const form = new URLSearchParams((await readBody(request, MAX_FORM_BYTES)).toString('utf8'));
      this.formKey.check(session.token, form.get(CSRF_FIELD));
      notice = await this.change(session.username, form);
    }
    const all = operation.target.query.get('all') === '1';
    const html = reportsPage ? await this.reportsPage(session.token, notice, all) : await this.accountsPage(session.token, notice);
    sendHtml(response, 200, html, { 'cache-control': 'no-store', 'x-frame-options': 'DENY',
      'content-security-policy': 'frame-ancestors \'none\'' }, request.method === 'HEAD');
  }

  /** The session's operator; undefined once a redirect to the login page is sent. 403 for a user who is no operator. */
  private async operator(request: IncomingMessage, response: ServerResponse): Promise<{ token: string; username: string } | undefined> {
    const token = readCookie(request, ACCOUNT_SESSION.name);
    const claims = token ? await this.tokens.verify(token).catch((): undefined => undefined) : undefined;
    if (!token || !claims || await this.moderation.measures.isLocked(this.moderation.urls.actor(claims.username))) {
      request.resume();
      response.writeHead(303, { location: `${this.base}auth/login`, 'cache-control': 'no-store' });
      response.end();
      return undefined;
    }
    if (!await this.roles.isOperator(claims.username)) {
      request.resume();
      throw new FedpodHttpError(403, 'This action is not allowed', 'Only an operator of this server may do this.');
    }
    return { token, username: claims.username };
  }

  /** Takes the action the form names; the notice to show. */
  private async change(by: string, form: URLSearchParams): Promise<string> {
    const action = form.get('do') ?? '';
    const reportId = form.get('report') ?? undefined;
    if (action === 'resolve' || action === 'reopen') {
      const report = action === 'resolve' ? await this.moderation.resolve(by, reportId ?? '') : await this.moderation.reopen(by, reportId ?? '');
      return `Report ${report.id} ${action === 'resolve' ? 'resolved' : 'reopened'}.`;
    }
    const account = form.get('account')?.trim() ?? '';
    if (!account) {
      throw badRequest('The form names no account.', 'invalid_form');
    }
    const actor = /^https?:/u.test(account) ? account : this.moderation.urls.actor(account.replace(/^@/u, '').toLowerCase());
    if (actor === this.moderation.urls.actor(by)) {
      throw new FedpodHttpError(403, 'This action is not allowed', 'An operator cannot take an action on their own account.');
    }
    if (ACCOUNT_UNDOS.includes(action as AccountUndo)) {
      await this.moderation.undo(by, actor, action as AccountUndo);
    } else if (ACCOUNT_ACTIONS.includes(action as AccountAction)) {
      await this.moderation.act(by, actor, action as AccountAction, reportId);
    } else {
      throw badRequest(`Unknown action ${JSON.stringify(action.slice(0, 30))}.`, 'invalid_form');
    }
    return `${action} ${actor}: done.`;
  }

  /** One button of a form that posts `do` (and the other fields) back to the page. */
  private button(token: string, label: string, fields: Record<string, string>): string {
    const hidden = Object.entries(fields).map(([ name, value ]): string =>
      `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join('');
    return `<form method="post" class="inline">${this.formKey.field(token)}${hidden}<button type="submit">${escapeHtml(label)}</button></form>`;
  }

  /** The forms that take or lift each measure on an account. */
  private accountButtons(token: string, record: AccountModeration, extra: Record<string, string> = {}): string {
    const local = this.moderation.isLocal(record.actor);
    const pairs: [keyof AccountModeration, AccountAction, AccountUndo][] = [
      [ 'suspended', 'suspend', 'unsuspend' ], [ 'silenced', 'silence', 'unsilence' ], [ 'sensitive', 'sensitive', 'unsensitive' ],
      ...local ? [[ 'disabled', 'disable', 'enable' ] as [keyof AccountModeration, AccountAction, AccountUndo]] : [],
    ];
    return pairs.map(([ measure, action, undo ]): string => (record[measure] === undefined ?
      this.button(token, action, { do: action, account: record.actor, ...extra }) :
      this.button(token, undo, { do: undo, account: record.actor }))).join(' ');
  }

  private stateOf(record: AccountModeration): string {
    const on = MEASURES.filter(([ measure ]): boolean => record[measure] !== undefined).map(([ , label ]): string => label);
    return on.length === 0 ? 'active' : on.join(', ');
  }

  private page(title: string, notice: string, body: string): string {
    return renderPage(this.base, title, `<h1>${escapeHtml(title)}</h1>
<nav><a href="${escapeHtml(this.base)}auth/operator/accounts">Accounts</a> · <a href="${escapeHtml(this.base)}auth/operator/reports">Reports</a></nav>
${notice ? `<p class="notice" role="status">${escapeHtml(notice)}</p>` : ''}
${body}`);
  }

  private async accountsPage(token: string, notice: string): Promise<string> {
    const records = new Map<string, AccountModeration>();
    for (const username of (await this.accounts.list()).sort()) {
      const actor = this.moderation.urls.actor(username);
      records.set(actor, { actor });
    }
    for (const record of await this.moderation.measures.list()) {
      records.set(record.actor, record);
    }
    const rows = [ ...records.values() ].map((record): string => `<tr><td><a href="${escapeHtml(record.actor)}">${escapeHtml(record.actor)}</a></td>
<td class="state">${escapeHtml(this.stateOf(record))}</td><td>${this.accountButtons(token, record)}</td></tr>`);
    return this.page('Accounts', notice, `<table class="accounts"><thead><tr><th>Account</th><th>State</th><th>Actions</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
<form method="post">${this.formKey.field(token)}
<label for="account">Another server's account (actor IRI)</label><input id="account" name="account" type="url" required>
<label for="do">Action</label><select id="do" name="do">${[ ...ACCOUNT_ACTIONS.filter((action): boolean => action !== 'none' && action !== 'disable'),
  ...ACCOUNT_UNDOS.filter((undo): boolean => undo !== 'enable') ].map((action): string => `<option>${action}</option>`).join('')}</select>
<button type="submit">Apply</button></form>`);
  }

  private async reportsPage(token: string, notice: string, all: boolean): Promise<string> {
    const reports = await this.moderation.reports.list(all ? {} : { open: true });
    const items = await Promise.all(reports.map(async(report: Report): Promise<string> => {
      const measures = await this.moderation.measuresOf(report.target);
      return `<li class="report" id="report-${escapeHtml(report.id)}"><p><strong>${escapeHtml(report.category)}</strong>
report ${escapeHtml(report.id)} of <a href="${escapeHtml(report.target)}">${escapeHtml(report.target)}</a> (${escapeHtml(this.stateOf(measures))})
by ${escapeHtml(report.reporter)}, ${escapeHtml(report.created.slice(0, 16).replace('T', ' '))} UTC${report.forwarded ? ', forwarded' : ''}
${report.resolved ? `— resolved by ${escapeHtml(report.resolvedBy ?? '')}` : '— open'}</p>
${report.comment ? `<blockquote>${escapeHtml(report.comment)}</blockquote>` : ''}
${report.statuses.length > 0 ? `<ul>${report.statuses.map((iri): string => `<li><a href="${escapeHtml(iri)}">${escapeHtml(iri)}</a></li>`).join('')}</ul>` : ''}
${report.actions.length > 0 ? `<p class="meta">Actions taken: ${escapeHtml(report.actions.join(', '))}</p>` : ''}
<p>${report.resolved ? this.button(token, 'Reopen', { do: 'reopen', report: report.id }) : this.button(token, 'Resolve', { do: 'resolve', report: report.id })}
${this.accountButtons(token, measures, { report: report.id })}</p></li>`;
    }));
    return this.page('Reports', notice, `<p><a href="?all=${all ? '0' : '1'}">${all ? 'Open reports only' : 'Every report'}</a></p>
${items.length === 0 ? '<p class="meta">No reports.</p>' : `<ul class="reports">${items.join('\n')}</ul>`}`);
  }
}
