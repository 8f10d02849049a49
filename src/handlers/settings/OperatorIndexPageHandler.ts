import type { TokenService } from '../../plugins/accounts/TokenService';
import type { ModerationRoles } from '../../plugins/moderation/ModerationRoles';
import { badRequest } from '../../util/HttpErrors';
import { escapeHtml } from '../http/Html';
import { OPERATOR_SECTIONS } from './OperatorSections';
import type { FormOutcome, PageSession, PageState } from './SettingsPageHandler';
import { SettingsPageHandler } from './SettingsPageHandler';

/** `/auth/operator`: the operator's index, a link to each section of OPERATOR_SECTIONS; 403 to anyone without the operator role. */
export class OperatorIndexPageHandler extends SettingsPageHandler {
  public constructor(baseUrl: string, tokens: TokenService, roles: ModerationRoles) {
    super(baseUrl, tokens, roles, true);
  }

  protected async act(): Promise<FormOutcome> {
    throw badRequest('This page has no form.', 'invalid_form_action');
  }

  protected async render(session: PageSession, state: PageState): Promise<{ title: string; body: string }> {
    return { title: 'Operator', body: `<h1>Operator</h1>
${this.message(state)}
<p>You have the operator role on this server, as @${escapeHtml(session.username)}: what you do here is in the audit log under your name.</p>
<ul class="sections">${OPERATOR_SECTIONS.map((section): string => `<li><a href="${escapeHtml(this.base + section.path)}">${escapeHtml(section.title)}</a>
<span class="meta">${escapeHtml(section.summary)}</span></li>`).join('\n')}</ul>` };
  }
}
