import type { Registrations } from '../../plugins/accounts/Registrations';
import type { TokenService } from '../../plugins/accounts/TokenService';
import type { ModerationRoles } from '../../plugins/moderation/ModerationRoles';
import { badRequest, notFound } from '../../util/HttpErrors';
import { escapeHtml } from '../http/Html';
import { shortTime } from './SessionsPageHandler';
import type { FormOutcome, PageForm, PageSession, PageState } from './SettingsPageHandler';
import { SettingsPageHandler } from './SettingsPageHandler';

/** The expiries the form offers (Mastodon's), in seconds; 0 is never. */
const EXPIRIES: readonly [number, string][] = [
  [ 0, 'Never' ], [ 1800, '30 minutes' ], [ 3600, '1 hour' ], [ 21_600, '6 hours' ], [ 43_200, '12 hours' ],
  [ 86_400, '1 day' ], [ 604_800, '1 week' ],
];

/**
 * `/auth/operator/invites`: every invite code of the server (the operator's and the users'), with
 * its uses, limit, expiry and signup link; a form makes one (a number of uses, an expiry), a button
 * revokes each (it admits nobody from then on).
 */
export class InvitesPageHandler extends SettingsPageHandler {
  protected override readonly notices: Record<string, string> = { created: 'The invite code is made: its link is in the list.', revoked: 'The invite code is revoked.' };

  public constructor(baseUrl: string, tokens: TokenService, roles: ModerationRoles, private readonly registrations: Registrations) {
    super(baseUrl, tokens, roles, true);
  }

  protected async act(session: PageSession, form: PageForm): Promise<FormOutcome> {
    switch (form.fields.get('do')) {
      case 'create': {
        const uses = (form.fields.get('maxUses') ?? '').trim();
        const expires = Number(form.fields.get('expiresIn') ?? '0');
        if (uses !== '' && !/^\d+$/u.test(uses)) {
          throw badRequest('The number of uses must be a whole number, or empty for no limit.', 'invalid_body');
        }
        if (!EXPIRIES.some(([ seconds ]): boolean => seconds === expires)) {
          throw badRequest('Choose an expiry from the list.', 'invalid_body');
        }
        await this.registrations.createInvite(session.username, { ...uses === '' ? {} : { maxUses: Number(uses) },
          ...expires === 0 ? {} : { expiresInSeconds: expires }});
        return { done: 'created' };
      }
      case 'revoke':
        if (!await this.registrations.revokeInvite(form.fields.get('code') ?? '')) {
          throw notFound('No such invite code.');
        }
        return { done: 'revoked' };
      default:
        throw badRequest('The form needs do=create or do=revoke.', 'invalid_form_action');
    }
  }

  protected async render(session: PageSession, state: PageState): Promise<{ title: string; body: string }> {
    const csrf = this.csrf.field(session.token);
    const invites = await this.registrations.listInvites();
    const now = Date.now();
    const rows = invites.map((invite): string => {
      const link = `${this.base}auth/signup?invite=${encodeURIComponent(invite.code)}`;
      const expired = invite.expiresAt !== undefined && Date.parse(invite.expiresAt) <= now;
      return `<tr><th scope="row"><code>${escapeHtml(invite.code)}</code></th><td>${escapeHtml(invite.createdBy)}</td>
<td>${invite.uses}${invite.maxUses === undefined ? '' : ` of ${invite.maxUses}`}</td>
<td>${invite.expiresAt ? `${expired ? 'expired ' : ''}${escapeHtml(shortTime(invite.expiresAt))}` : 'never'}</td>
<td><a href="${escapeHtml(link)}">Signup link</a></td>
<td><form method="post" class="inline">${csrf}<input type="hidden" name="do" value="revoke"><input type="hidden" name="code" value="${escapeHtml(invite.code)}">` +
        `<button type="submit" aria-label="Revoke the invite ${escapeHtml(invite.code)}">Revoke</button></form></td></tr>`;
    }).join('\n');
    const typed = state.form;
    return { title: 'Invites', body: `<h1>Invites</h1>
${this.message(state)}
<p><a href="${escapeHtml(this.base)}auth/operator">Operator</a> › Invites. Registrations on this server: <strong>${escapeHtml(this.registrations.mode)}</strong>;
invite codes admit signups when it is <em>invite</em>.</p>
${invites.length === 0 ? '<p class="meta">No invite codes.</p>' : `<div class="table" role="region" aria-label="Invite codes" tabindex="0"><table>
<caption>Invite codes, newest first</caption>
<thead><tr><th scope="col">Code</th><th scope="col">Made by</th><th scope="col">Uses</th><th scope="col">Expires</th>
<th scope="col">Link</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>
${rows}
</tbody></table></div>`}
<section><h2>New invite code</h2>
<form method="post">${csrf}<input type="hidden" name="do" value="create">
<label for="maxUses">Number of uses (empty: no limit)</label><input id="maxUses" name="maxUses" inputmode="numeric" pattern="[0-9]*" value="${escapeHtml(typed?.get('maxUses') ?? '')}">
<label for="expiresIn">Expires after</label><select id="expiresIn" name="expiresIn">${EXPIRIES.map(([ seconds, name ]): string =>
  `<option value="${seconds}"${String(seconds) === (typed?.get('expiresIn') ?? '604800') ? ' selected' : ''}>${name}</option>`).join('')}</select>
<button type="submit">Make invite code</button>
</form></section>` };
  }
}
