import type { TokenService } from '../../plugins/accounts/TokenService';
import type { ModerationRoles } from '../../plugins/moderation/ModerationRoles';
import type { ModerationService } from '../../plugins/moderation/ModerationService';
import { badRequest } from '../../util/HttpErrors';
import { escapeHtml } from '../http/Html';
import { shortTime } from './SessionsPageHandler';
import type { FormOutcome, PageSession, PageState } from './SettingsPageHandler';
import { SettingsPageHandler } from './SettingsPageHandler';

/** How many entries the page shows. */
const ENTRIES = 200;

/** `/auth/operator/audit-log`: the newest moderation actions, read-only (the log is never changed through the server). */
export class AuditLogPageHandler extends SettingsPageHandler {
  public constructor(baseUrl: string, tokens: TokenService, roles: ModerationRoles, private readonly moderation: ModerationService) {
    super(baseUrl, tokens, roles, true);
  }

  protected async act(): Promise<FormOutcome> {
    throw badRequest('The audit log is read-only.', 'invalid_form_action');
  }

  protected async render(session: PageSession, state: PageState): Promise<{ title: string; body: string }> {
    void session;
    const entries = await this.moderation.auditLog(ENTRIES);
    return { title: 'Audit log', body: `<h1>Audit log</h1>
${this.message(state)}
<p><a href="${escapeHtml(this.base)}auth/operator">Operator</a> › Audit log. The newest ${ENTRIES} moderation actions; <code>operator</code> is the command line.</p>
${entries.length === 0 ? '<p class="meta">Nothing yet.</p>' : `<div class="table" role="region" aria-label="Moderation actions" tabindex="0"><table>
<caption>Moderation actions, newest first</caption>
<thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Details</th></tr></thead>
<tbody>
${entries.map((entry): string => `<tr><td>${escapeHtml(shortTime(entry.at))}</td><td>${escapeHtml(entry.by)}</td><td>${escapeHtml(entry.action)}</td>
<td class="target">${escapeHtml(entry.target)}</td><td><code>${escapeHtml(entry.detail ? JSON.stringify(entry.detail) : '')}</code></td></tr>`).join('\n')}
</tbody></table></div>`}` };
  }
}
