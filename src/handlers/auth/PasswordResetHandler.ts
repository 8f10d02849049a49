import type { IncomingMessage } from 'node:http';
import type { PasswordResets } from '../../plugins/accounts/PasswordResets';
import { methodNotAllowed, unsupportedMediaType } from '../../util/HttpErrors';
import { prefersHtml } from '../http/BrowserAccept';
import { escapeHtml } from '../http/Html';
import { mediaTypeOf, parseJson, readBody, sendHtml, sendJson } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';
import { renderPage } from '../http/PageLayout';

const MAX_BODY = 16 * 1024;
const HEADERS = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };
const REQUESTED = 'If an account has that email or username, a link to reset its password is on its way there.';

/**
 * The password reset by mail (`PasswordResets`), JSON for the API and forms for browsers:
 * - `/auth/password/forgot`: GET a form; POST `{ login }` (an email or username): 202, the same
 *   answer whether or not the account exists; 404 `password_reset_unavailable` without SMTP;
 * - `/auth/password/reset?user=&token=`: GET the form for a new password (400/410 when the link is
 *   wrong, used or expired); POST `{ user, token, newPassword }`: 200 `{ username, reset: true }`.
 */
export class PasswordResetHandler extends JsonHttpHandler {
  private readonly base: string;

  public constructor(baseUrl: string, private readonly resets: PasswordResets) {
    super();
    this.base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const forgot = operation.target.path === '/auth/password/forgot';
    const html = prefersHtml(request);
    if (request.method === 'GET' || request.method === 'HEAD') {
      request.resume();
      if (forgot) {
        return sendHtml(response, 200, this.page('Forgot your password?', `<h1>Forgot your password?</h1>
${this.resets.enabled ? `<form method="post">
<label for="login">Your email or username</label>
<input id="login" name="login" autocomplete="username" required>
<button type="submit">Mail me a link</button>
</form>` : '<p>This server sends no mail: ask its operator to reset your password.</p>'}`), HEADERS);
      }
      const query = operation.target.query;
      const username = await this.resets.check(query.get('user') ?? undefined, query.get('token') ?? undefined);
      if (!html) {
        return sendJson(response, 200, { username, valid: true }, HEADERS);
      }
      return sendHtml(response, 200, this.page('New password', `<h1>A new password for ${escapeHtml(username)}</h1>
<form method="post">
<input type="hidden" name="user" value="${escapeHtml(username)}">
<input type="hidden" name="token" value="${escapeHtml(query.get('token'))}">
<label for="newPassword">New password</label>
<input id="newPassword" name="newPassword" type="password" autocomplete="new-password" minlength="8" required>
<button type="submit">Set it</button>
</form>`), HEADERS);
    }
    if (request.method !== 'POST') {
      request.resume();
      throw methodNotAllowed(`${operation.target.path} takes GET and POST.`, 'GET, HEAD, POST');
    }
    const body = await this.readFields(request);
    if (forgot) {
      await this.resets.request(body.login ?? body.email ?? body.username);
      return html ?
        sendHtml(response, 202, this.page('Link sent', `<h1>Check your mail</h1>\n<p>${escapeHtml(REQUESTED)}</p>`), HEADERS) :
        sendJson(response, 202, { message: REQUESTED }, HEADERS);
    }
    const username = await this.resets.complete(body.user, body.token, body.newPassword);
    if (html) {
      return sendHtml(response, 200, this.page('Password set', `<h1>Password set</h1>
<p>You can <a href="${escapeHtml(this.base)}auth/login">log in</a> with it now.</p>`), HEADERS);
    }
    sendJson(response, 200, { username, reset: true }, HEADERS);
  }

  private page(title: string, body: string): string {
    return renderPage(this.base, title, body);
  }

  /** A JSON object or a form, as string fields. */
  private async readFields(request: IncomingMessage): Promise<Record<string, unknown>> {
    const type = mediaTypeOf(request.headers['content-type']);
    if (type !== 'application/json' && type !== 'application/x-www-form-urlencoded') {
      request.resume();
      throw unsupportedMediaType('Send application/json or a form.');
    }
    const text = (await readBody(request, MAX_BODY)).toString('utf8');
    if (type === 'application/x-www-form-urlencoded') {
      return Object.fromEntries(new URLSearchParams(text));
    }
    const parsed = parseJson(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed as Record<string, unknown> : {};
  }
}
