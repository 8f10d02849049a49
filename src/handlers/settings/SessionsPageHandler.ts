import type { ClientCredentialsFileStore } from '../../plugins/accounts/ClientCredentialsFileStore';
import type { TokenService } from '../../plugins/accounts/TokenService';
import type { MastodonOAuthService } from '../../plugins/mastodon/MastodonOAuthService';
import type { ModerationRoles } from '../../plugins/moderation/ModerationRoles';
import { badRequest, notFound } from '../../util/HttpErrors';
import { escapeHtml } from '../http/Html';
import type { FormOutcome, PageForm, PageSession, PageState } from './SettingsPageHandler';
import { SettingsPageHandler } from './SettingsPageHandler';

/** An ISO time as the pages show it. */
export function shortTime(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * `/auth/settings/sessions`: what holds access to the account besides this browser: the Mastodon apps
 * the user authorized and the client credentials (Solid-OIDC scripts and bots) they made, each
 * revocable. Login sessions are not recorded (a session is a signed token in a cookie), so the
 * page says how to end them all: a password change.
 */
export class SessionsPageHandler extends SettingsPageHandler {
  protected override readonly notices: Record<string, string> = { 'app-revoked': 'The app can no longer use your account.',
    'client-revoked': 'The client credentials are revoked: no new token is issued for them.' };

  public constructor(
    baseUrl: string,
    tokens: TokenService,
    roles?: ModerationRoles,
    private readonly oauth?: MastodonOAuthService,
    private readonly clients?: ClientCredentialsFileStore,
  ) {
    super(baseUrl, tokens, roles, false);
  }

  protected async act(session: PageSession, form: PageForm): Promise<FormOutcome> {
    const action = form.fields.get('do');
    if (action === 'revoke-app' && this.oauth) {
      if (!await this.oauth.revokeAuthorization(session.username, form.fields.get('client') ?? '')) {
        throw notFound('That app has no access to your account.');
      }
      return { done: 'app-revoked' };
    }
    if (action === 'revoke-client' && this.clients) {
      const record = await this.clients.get(form.fields.get('client') ?? '');
      if (record?.accountId !== session.username) {
        throw notFound('You have no client credentials with that id.');
      }
      await this.clients.delete(record.id);
      return { done: 'client-revoked' };
    }
    throw badRequest('The form needs do=revoke-app or do=revoke-client.', 'invalid_form_action');
  }

  protected async render(session: PageSession, state: PageState): Promise<{ title: string; body: string }> {
    const csrf = this.csrf.field(session.token);
    const revoke = (action: string, id: string, label: string): string => `<form method="post" class="inline">${csrf}<input type="hidden" name="do" value="${action}">` +
      `<input type="hidden" name="client" value="${escapeHtml(id)}"><button type="submit" aria-label="${escapeHtml(label)}">Revoke</button></form>`;
    let apps = '';
    if (this.oauth) {
      const list = await this.oauth.authorizations(session.username);
      apps = `<section><h2>Authorized apps</h2>
${list.length === 0 ? '<p class="meta">None.</p>' : `<ul class="rows apps">${list.map((app): string => `<li><strong class="app">${escapeHtml(app.name)}</strong>
<span class="meta">${escapeHtml(app.scopes.join(' '))} · since ${escapeHtml(shortTime(app.created))} · last used ${escapeHtml(app.lastUsed.slice(0, 10))}</span>
${revoke('revoke-app', app.clientId, `Revoke ${app.name}`)}</li>`).join('\n')}</ul>`}
</section>`;
    }
    let clients = '';
    if (this.clients) {
      const list = await this.clients.findByAccount(session.username);
      clients = `<section><h2>Client credentials</h2>
<p class="meta">For scripts and bots that log in with Solid-OIDC (made with <code>POST /auth/clients</code>).</p>
${list.length === 0 ? '<p class="meta">None.</p>' : `<ul class="rows clients">${list.map((client): string => `<li><code>${escapeHtml(client.id)}</code>
<span class="meta">since ${escapeHtml(shortTime(client.created))}</span>
${revoke('revoke-client', client.id, `Revoke ${client.id}`)}</li>`).join('\n')}</ul>`}
</section>`;
    }
    return { title: 'Apps and sessions', body: `<h1>Apps and sessions</h1>
${this.message(state)}
${apps}
${clients}
<section><h2>Login sessions</h2>
<p>Browsers stay logged in with a signed session cookie that the server does not list.
<a href="${escapeHtml(this.base)}auth/settings/password">Changing your password</a> ends every session but this one, and every app's access.</p>
</section>` };
  }
}
