import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TokenClaims, TokenService } from '../../plugins/accounts/TokenService';
import type { AccountDeletion } from '../../plugins/lifecycle/AccountDeletion';
import { FedpodHttpError, methodNotAllowed } from '../../util/HttpErrors';
import { ACCOUNT_SESSION, readCookie, setCookie } from '../auth/SessionCookies';
import { CSRF_FIELD, FormCsrf } from '../auth/FormCsrf';
import { escapeHtml } from '../http/Html';
import { readBody, sendHtml } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';
import { renderPage } from '../http/PageLayout';

const MAX_FORM_BYTES = 16 * 1024;
const HEADERS = { 'cache-control': 'no-store' };

/**
 * `/auth/account/delete`, the account page's deletion form for browsers: the logged-in user (the
 * session cookie of the account pages) confirms with their password; the form carries a CSRF value
 * (FormCsrf). Deleted, the session cookie is cleared and a page says so. Without a session: to
 * the login page.
 */
export class AccountDeletionPageHandler extends JsonHttpHandler {
  private readonly base: string;

  public constructor(baseUrl: string, private readonly tokens: TokenService, private readonly deletion: AccountDeletion) {
    super();
    this.base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  }

  protected async serve({ request, response }: OperationInput): Promise<void> {
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'POST') {
      request.resume();
      throw methodNotAllowed('/auth/account/delete takes GET and POST.', 'GET, HEAD, POST');
    }
    const session = readCookie(request, ACCOUNT_SESSION.name);
    const claims = session ? await this.claimsOf(session) : undefined;
    if (!session || !claims?.username) {
      request.resume();
      response.writeHead(303, { location: `${this.base}auth/login`, ...HEADERS });
      response.end();
      return;
    }
    if (request.method !== 'POST') {
      request.resume();
      return sendHtml(response, 200, this.page(session, claims.username), HEADERS);
    }
    const form = await this.readForm(request);
    new FormCsrf().check(session, form.get(CSRF_FIELD));
    try {
      await this.deletion.deleteWithPassword(claims.username, form.get('password') ?? '');
    } catch (error: unknown) {
      if (error instanceof FedpodHttpError && error.statusCode === 403) {
        return sendHtml(response, 403, this.page(session, claims.username, error.message), HEADERS);
      }
      throw error;
    }
    this.done(response, claims.username);
  }

  private done(response: ServerResponse, username: string): void {
    sendHtml(response, 200, renderPage(this.base, 'Account deleted', `<h1>Account deleted</h1>
<p>${escapeHtml(username)} is gone: the servers that knew it are being told, and its data is removed.</p>`),
    { ...HEADERS, 'set-cookie': setCookie(ACCOUNT_SESSION, '', this.base.startsWith('https://'), 0) });
  }

  private page(session: string, username: string, error?: string): string {
    return renderPage(this.base, 'Delete your account', `<h1>Delete ${escapeHtml(username)}</h1>
<p>This cannot be undone: your posts, files and follows are removed, the servers that know you are
told, and the name ${escapeHtml(username)} is never given again.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post">
${new FormCsrf().field(session)}
<label for="password">Your password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Delete my account</button>
</form>
<p><a href="${escapeHtml(this.base)}auth/account">Back to your account</a></p>`);
  }

  private async claimsOf(token: string): Promise<TokenClaims | undefined> {
    try {
      return await this.tokens.verify(token);
    } catch {
      return undefined;
    }
  }

  private async readForm(request: IncomingMessage): Promise<URLSearchParams> {
    return new URLSearchParams((await readBody(request, MAX_FORM_BYTES)).toString('utf8'));
  }
}
