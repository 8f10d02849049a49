import type { AccountService } from '../../plugins/accounts/AccountService';
import type { TokenService } from '../../plugins/accounts/TokenService';
import type { ModerationRoles } from '../../plugins/moderation/ModerationRoles';
import { badRequest } from '../../util/HttpErrors';
import { escapeHtml } from '../http/Html';
import { shortTime } from './SessionsPageHandler';
import type { FormOutcome, PageForm, PageSession, PageState } from './SettingsPageHandler';
import { SettingsPageHandler } from './SettingsPageHandler';

/**
 * `/auth/operator/registrations`: the accounts waiting for the operator's approval (registrations
 * with approval), each with its email, reason and signup time, approved (it may log in) or rejected
 * (removed with its actor and storage; the name is free again) by a button, as `fedpod accounts
 * approve|reject` do.
 */
export class RegistrationsPageHandler extends SettingsPageHandler {
  protected override readonly notices: Record<string, string> = { approved: 'The account is approved: it can log in now.',
    rejected: 'The account is rejected and removed.' };

  public constructor(baseUrl: string, tokens: TokenService, roles: ModerationRoles, private readonly accounts: AccountService) {
    super(baseUrl, tokens, roles, true);
  }

  protected async act(session: PageSession, form: PageForm): Promise<FormOutcome> {
    const user = form.fields.get('user') ?? '';
    switch (form.fields.get('do')) {
      case 'approve':
        await this.accounts.approve(user);
        this.logger.info(`Account ${user} approved by ${session.username}`);
        return { done: 'approved' };
      case 'reject':
        await this.accounts.reject(user);
        this.logger.info(`Account ${user} rejected by ${session.username}`);
        return { done: 'rejected' };
      default:
        throw badRequest('The form needs do=approve or do=reject.', 'invalid_form_action');
    }
  }

  protected async render(session: PageSession, state: PageState): Promise<{ title: string; body: string }> {
    const csrf = this.csrf.field(session.token);
    const pending = await this.accounts.pending();
    const mode = this.accounts.registrationMode;
    const button = (action: string, user: string, label: string): string => `<form method="post" class="inline">${csrf}` +
      `<input type="hidden" name="do" value="${action}"><input type="hidden" name="user" value="${escapeHtml(user)}">` +
      `<button type="submit"${action === 'reject' ? ' class="secondary"' : ''} aria-label="${label} ${escapeHtml(user)}">${label}</button></form>`;
    return { title: 'Registration queue', body: `<h1>Registration queue</h1>
${this.message(state)}
<p><a href="${escapeHtml(this.base)}auth/operator">Operator</a> › Registration queue. Registrations on this server: <strong>${escapeHtml(mode)}</strong>${mode === 'approval' ? '' : ' (accounts wait here only with approval)'}.</p>
${pending.length === 0 ? '<p class="meta">Nobody is waiting.</p>' : `<ul class="rows pending">${pending.map((account): string => `<li>
<strong>@${escapeHtml(account.username)}</strong> <span class="meta">${escapeHtml(account.email)} · signed up ${escapeHtml(shortTime(account.created))}</span>
<p class="reason">${account.reason ? escapeHtml(account.reason) : '<span class="meta">No reason given.</span>'}</p>
${button('approve', account.username, 'Approve')} ${button('reject', account.username, 'Reject')}</li>`).join('\n')}</ul>`}` };
  }
}
