import type { AccountService } from '../../plugins/accounts/AccountService';
import type { TokenService } from '../../plugins/accounts/TokenService';
import type { ModerationRoles } from '../../plugins/moderation/ModerationRoles';
import { badRequest } from '../../util/HttpErrors';
import { escapeHtml } from '../http/Html';
import { ACCOUNT_SESSION, OAUTH_SESSION, setCookie } from '../auth/SessionCookies';
import type { FormOutcome, PageForm, PageSession, PageState } from './SettingsPageHandler';
import { SettingsPageHandler } from './SettingsPageHandler';

/**
 * `/auth/settings/password`: the user changes their password, giving the current one, as
 * `POST /auth/password` does (AccountService.changePassword): every other session and token of the
 * account is revoked, and this session's cookies get the new token, so the reader stays logged in.
 */
export class PasswordPageHandler extends SettingsPageHandler {
  protected override readonly notices: Record<string, string> = { changed: 'Your password is changed. Every other session and app token was logged out.' };
  private readonly secure: boolean;

  public constructor(baseUrl: string, tokens: TokenService, private readonly accounts: AccountService, roles?: ModerationRoles) {
    super(baseUrl, tokens, roles, false);
    this.secure = this.base.startsWith('https://');
  }

  protected async act(session: PageSession, form: PageForm): Promise<FormOutcome> {
    const newPassword = form.fields.get('newPassword') ?? '';
    if (newPassword !== form.fields.get('confirmPassword')) {
      throw badRequest('The new password and its repetition differ.', 'invalid_password');
    }
    const changed = await this.accounts.changePassword(session.username, { currentPassword: form.fields.get('currentPassword') ?? '', newPassword });
    return { done: 'changed', setCookie: [ setCookie(ACCOUNT_SESSION, changed.token, this.secure), setCookie(OAUTH_SESSION, changed.token, this.secure) ]};
  }

  protected async render(session: PageSession, state: PageState): Promise<{ title: string; body: string }> {
    return { title: 'Password', body: `<h1>Password</h1>
${this.message(state)}
<p>Changing your password logs out every other session and every app you authorized.</p>
<form method="post">${this.csrf.field(session.token)}
<input type="text" name="username" autocomplete="username" value="${escapeHtml(session.username)}" hidden>
<label for="currentPassword">Current password</label><input id="currentPassword" name="currentPassword" type="password" autocomplete="current-password" required>
<label for="newPassword">New password (8 characters or more)</label><input id="newPassword" name="newPassword" type="password" autocomplete="new-password" minlength="8" required>
<label for="confirmPassword">New password again</label><input id="confirmPassword" name="confirmPassword" type="password" autocomplete="new-password" minlength="8" required>
<button type="submit">Change password</button>
</form>` };
  }
}
