import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OperationInput } from '../http/Operation';
import type { AccountService, PendingSignup, Session } from '../../plugins/accounts/AccountService';
import type { TokenClaims, TokenService } from '../../plugins/accounts/TokenService';
import type { WebhookService } from '../../plugins/webhooks/WebhookService';
import type { MastodonOAuthService } from '../../plugins/mastodon/MastodonOAuthService';
import { badRequest, FedpodHttpError } from '../../util/HttpErrors';
import { mediaTypeOf, readBody, sendHtml } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import { NOT_HANDLED } from '../http/NotHandled';
import { prefersHtml } from '../http/BrowserAccept';
import { escapeHtml } from '../http/Html';
import { ACCOUNT_SESSION, OAUTH_SESSION, readCookie, setCookie, WEB_SESSION } from '../auth/SessionCookies';
import { FormCsrf } from '../auth/FormCsrf';
import { renderPage } from '../http/PageLayout';
import { APP_PAGE_HEADERS, renderAppPage } from '../webapp/WebNav';

const PAGES = new Set([ '/auth/signup', '/auth/login', '/auth/account', '/auth/logout' ]);
const FORM = 'application/x-www-form-urlencoded';
const MAX_FORM_BYTES = 16 * 1024;
/** The app's navigation links of these pages, marked as the current page. */
const LOGIN_NAV = 'auth/login?next=web/home';
const SIGNUP_NAV = 'auth/signup?next=web/home';

/**
 * Signup, login and account pages for browsers, at the same paths as the JSON API (`/auth/signup`,
 * `/auth/login`; a browser's GET or a form POST comes here, JSON goes on to AuthHandler), and
 * `/auth/account`, where a logged-in user creates, lists and revokes webhooks. Logging in (or signing
 * up) sets a session cookie holding the user's token: HttpOnly, SameSite=Strict, Secure on an HTTPS
 * base, for `/auth/` only, so it authenticates these pages and nothing else (API requests still
 * need the token in `Authorization`); and the same token in the Lax cookie of the OAuth pages
 * (`/oauth/`), so an app's authorization finds the user logged in (see SessionCookies). The account page's forms also carry a value derived from the
 * token, which another site cannot know.
 */
export class AccountPagesHandler extends JsonHttpHandler {
  private readonly base: string;
  private readonly secure: boolean;
  private readonly csrf = new FormCsrf();

  /**
   * @param webhooks - The webhook service, in setups that have webhooks (the account page lists them).
   * @param oauth - The Mastodon apps' OAuth, in setups with the Mastodon client API (the page lists the
   *   apps the user authorized, each revocable, and links the settings pages, which come with that API).
   */
  public constructor(
    baseUrl: string,
    private readonly accounts: AccountService,
    private readonly tokens: TokenService,
    private readonly webhooks?: WebhookService,
    private readonly oauth?: MastodonOAuthService,
  ) {
    super();
    this.base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
    this.secure = this.base.startsWith('https://');
  }

  public override async canHandle({ request, operation }: OperationInput): Promise<void> {
    const path = operation.target.path;
    // A browser's GET, or a form it posts from these pages; API clients go on to AuthHandler.
    const page = request.method === 'GET' || (request.method === 'POST' && mediaTypeOf(request.headers['content-type']) === FORM);
    if (!PAGES.has(path) || !page || !prefersHtml(request)) {
      throw NOT_HANDLED;
    }
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const path = operation.target.path;
    const form = request.method === 'POST' ? new URLSearchParams((await readBody(request, MAX_FORM_BYTES)).toString('utf8')) : undefined;
    switch (path) {
      case '/auth/signup':
      case '/auth/login':
        return form ? this.enter(response, path, form) : this.send(response, 200, path === '/auth/signup' ?
          this.signupForm(undefined, new URLSearchParams({ invite: operation.target.query.get('invite') ?? '',
            next: operation.target.query.get('next') ?? '' })) :
          this.loginForm(undefined, '', operation.target.query.get('next') ?? ''));
      case '/auth/logout':
        response.writeHead(303, { location: `${this.base}auth/login`, 'set-cookie': this.cookie('', 0) });
        response.end();
        return;
      default:
        return this.account(request, response, form);
    }
  }

  /** Signup or login from the form: on success the session cookie and the account page; else the form again with the reason. */
  private async enter(response: ServerResponse, path: string, form: URLSearchParams): Promise<void> {
    const signup = path === '/auth/signup';
    let session: Session | PendingSignup;
    try {
      session = signup ?
        await this.accounts.signup({ username: form.get('username') ?? '', email: form.get('email') ?? '', password: form.get('password') ?? '',
          reason: form.get('reason') ?? '', invite: form.get('invite') ?? '' }) :
        await this.accounts.login({ username: form.get('username') ?? '', password: form.get('password') ?? '' });
    } catch (error: unknown) {
      if (!(error instanceof FedpodHttpError) || error.statusCode >= 500) {
        throw error;
      }
      const html = signup ? this.signupForm(error.message, form) : this.loginForm(error.message, form.get('username') ?? '', form.get('next') ?? '');
      return this.send(response, error.statusCode, html);
    }
    if (session.pending) {
      const steps = [ ...session.waitsFor.includes('email') ? [ '<p>We sent you a mail: follow its link to confirm your address.</p>' ] : [],
        ...session.waitsFor.includes('approval') ? [ '<p>Your account waits for the operator\'s approval.</p>' ] : [] ];
      return this.send(response, 202, this.page('Signed up', `<h1>Thank you</h1>
${steps.join('\n')}
<p>You can log in once that is done.</p>`, false));
    }
    response.writeHead(303, { location: `${this.base}${nextPath(form.get('next'))}`, 'set-cookie': this.cookie(session.token), 'cache-control': 'no-store' });
    response.end();
  }

  private async account(request: IncomingMessage, response: ServerResponse, form?: URLSearchParams): Promise<void> {
    const token = this.sessionToken(request);
    let claims: TokenClaims | undefined;
    try {
      claims = token ? await this.tokens.verify(token) : undefined;
    } catch {
      claims = undefined;
    }
    if (!token || !claims) {
      response.writeHead(303, { location: `${this.base}auth/login`, 'cache-control': 'no-store' });
      response.end();
      return;
    }
    let notice = '';
    if (form) {
      this.csrf.check(token, form.get('csrf'));
      notice = await this.change(claims, form);
    }
    return this.send(response, 200, await this.accountPage(claims, token, notice));
  }

  /** Generates or revokes a webhook, or revokes an app, as the form asks; the notice to show. */
  private async change(claims: TokenClaims, form: URLSearchParams): Promise<string> {
    if (form.get('do') === 'revoke-app' && this.oauth) {
      const revoked = await this.oauth.revokeAuthorization(claims.username, form.get('client') ?? '');
      return `<p class="notice" role="status">${revoked ? 'The app can no longer use your account.' : 'That app had no access.'}</p>`;
    }
    if (!this.webhooks) {
      throw badRequest('This server has no webhooks.', 'invalid_form');
    }
    if (form.get('do') === 'generate') {
      const webhook = await this.webhooks.generate({ webId: claims.webId, username: claims.username }, form.get('action') ?? '');
      return `<div class="notice" role="status"><p>Your new webhook (shown this once; keep it secret, anyone holding it can use it):</p>
<p><code class="webhook-uri">${escapeHtml(webhook.id)}</code></p></div>`;
    }
    if (form.get('do') === 'revoke') {
      await this.webhooks.revoke(form.get('iri') ?? '', claims.webId);
      return '<p class="notice" role="status">Revoked.</p>';
    }
    throw badRequest('The form needs do=generate or do=revoke.', 'invalid_form');
  }

  private async accountPage(claims: TokenClaims, token: string, notice: string): Promise<string> {
    const csrf = this.csrf.field(token);
    let webhooks = '';
    if (this.webhooks) {
      const records = await this.webhooks.list(claims.webId);
      webhooks = `<section><h2>Webhooks</h2>
${records.length === 0 ? '<p class="meta">None yet.</p>' : `<ul class="webhooks">${records.map((record) => `<li><span>${escapeHtml(record.action)}</span>
<span class="meta">created ${escapeHtml(record.created.slice(0, 16).replace('T', ' '))} UTC</span>
<form method="post" class="inline">${csrf}<input type="hidden" name="do" value="revoke"><input type="hidden" name="iri" value="${escapeHtml(record.iri)}"><button type="submit">Revoke</button></form></li>`).join('\n')}</ul>`}
<form method="post">${csrf}<input type="hidden" name="do" value="generate">
<label for="action">New webhook for</label>
<select id="action" name="action">${this.webhooks.allowedActions.map((action) => `<option>${escapeHtml(action)}</option>`).join('')}</select>
<button type="submit">Create webhook</button></form></section>`;
    }
    return this.page('Your account', `<h1>Your account</h1>
${notice}
<p>Logged in as <a href="${escapeHtml(claims.webId)}">@${escapeHtml(claims.username)}</a>.</p>
${this.oauth ? `<p><a href="${escapeHtml(this.base)}auth/settings/profile">Settings</a>: your profile, password, apps and sessions.</p>` : ''}
${await this.appsSection(claims, csrf)}
${webhooks}
<form method="post" action="${escapeHtml(this.base)}auth/logout"><button type="submit">Log out</button></form>`, true, 'auth/account');
  }

  /** The Mastodon apps the user authorized, each with its scopes and a button that revokes them. */
  private async appsSection(claims: TokenClaims, csrf: string): Promise<string> {
    if (!this.oauth) {
      return '';
    }
    const apps = await this.oauth.authorizations(claims.username);
    return `<section><h2>Authorized apps</h2>
${apps.length === 0 ? '<p class="meta">None yet.</p>' : `<ul class="apps">${apps.map((app) => `<li><strong class="app">${escapeHtml(app.name)}</strong>
<span class="meta">${escapeHtml(app.scopes.join(' '))} · since ${escapeHtml(app.created.slice(0, 16).replace('T', ' '))} UTC · last used ${escapeHtml(app.lastUsed.slice(0, 10))}</span>
<form method="post" class="inline">${csrf}<input type="hidden" name="do" value="revoke-app"><input type="hidden" name="client" value="${escapeHtml(app.clientId)}"><button type="submit">Revoke</button></form></li>`).join('\n')}</ul>`}
</section>`;
  }

  private signupForm(error?: string, form?: URLSearchParams): string {
    const mode = this.accounts.registrationMode;
    if (mode === 'closed') {
      return this.page('Sign up', `<h1>Sign up</h1>
<p>Registrations are closed on this server.</p>
<p>Already have an account? <a href="${escapeHtml(this.base)}auth/login">Log in</a>.</p>`, false, SIGNUP_NAV);
    }
    const extra = mode === 'invite' ?
      `<label for="invite">Invite code</label><input id="invite" name="invite" required value="${escapeHtml(form?.get('invite'))}">\n` :
      mode === 'approval' ?
        `<p>Accounts on this server are approved by its operator.</p>
<label for="reason">Why do you want to join?</label><textarea id="reason" name="reason" maxlength="1000">${escapeHtml(form?.get('reason'))}</textarea>\n` :
        '';
    return this.page('Sign up', `<h1>Sign up</h1>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(this.base)}auth/signup">${nextField(form?.get('next'))}
<label for="username">Username</label><input id="username" name="username" autocomplete="username" required value="${escapeHtml(form?.get('username'))}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(form?.get('email'))}">
<label for="password">Password (8 characters or more)</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="8" required>
${extra}<button type="submit">Sign up</button>
</form>
<p>Already have an account? <a href="${escapeHtml(this.base)}auth/login">Log in</a>.</p>`, false, SIGNUP_NAV);
  }

  private loginForm(error?: string, username = '', next = ''): string {
    return this.page('Log in', `<h1>Log in</h1>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(this.base)}auth/login">${nextField(next)}
<label for="username">Username or email</label><input id="username" name="username" autocomplete="username" required value="${escapeHtml(username)}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Log in</button>
</form>
<p>No account yet? <a href="${escapeHtml(this.base)}auth/signup">Sign up</a>.</p>`, false, LOGIN_NAV);
  }

  /**
   * A page in the web app's layout (its navigation; `current` marks this page's link), in setups with
   * the Mastodon client API, which the web app comes with; the server's plain layout in the others.
   */
  private page(title: string, body: string, loggedIn: boolean, current?: string): string {
    return this.oauth ? renderAppPage(this.base, title, body, loggedIn, current) : renderPage(this.base, title, body);
  }

  private send(response: ServerResponse, status: number, html: string): void {
    // The web app's pages, whose headers keep pages with password fields out of other sites' frames and caches.
    sendHtml(response, status, html, { ...APP_PAGE_HEADERS });
  }

  private cookie(token: string, maxAge?: number): string[] {
    return [ setCookie(ACCOUNT_SESSION, token, this.secure, maxAge), setCookie(OAUTH_SESSION, token, this.secure, maxAge),
      setCookie(WEB_SESSION, token, this.secure, maxAge) ];
  }

  private sessionToken(request: IncomingMessage): string | undefined {
    return readCookie(request, ACCOUNT_SESSION.name);
  }
}

/**
 * Where a signup or login goes: `next` when it is a page of this server's web app (`web/...`, as the
 * app's links ask), else the account page; never another site.
 */
function nextPath(next: string | null | undefined): string {
  return next && /^web\/[\w@%.\-/]*$/u.test(next) && !next.includes('//') ? next : 'auth/account';
}

function nextField(next: string | null | undefined): string {
  return next ? `<input type="hidden" name="next" value="${escapeHtml(next)}">` : '';
}
