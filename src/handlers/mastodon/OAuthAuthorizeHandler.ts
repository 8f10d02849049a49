import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccountService } from '../../plugins/accounts/AccountService';
import type { TokenClaims, TokenService } from '../../plugins/accounts/TokenService';
import type { MastodonOAuthService } from '../../plugins/mastodon/MastodonOAuthService';
import { OOB_REDIRECT } from '../../plugins/mastodon/MastodonOAuthService';
import type { OAuthApp } from '../../plugins/mastodon/OAuthRecords';
import { describeScope } from '../../plugins/mastodon/OAuthScopes';
import { FedpodHttpError, methodNotAllowed, unsupportedMediaType } from '../../util/HttpErrors';
import type { AppAsking } from '../auth/LoginPages';
import { consentPage, loginPage, messagePage } from '../auth/LoginPages';
import { OAUTH_SESSION, readCookie, setCookie } from '../auth/SessionCookies';
import { escapeHtml } from '../http/Html';
import { mediaTypeOf, readBody, sendHtml } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';
import { renderPage } from '../http/PageLayout';

const MAX_FORM_BYTES = 16 * 1024;
const CSRF_COOKIE = { name: 'fedpod_oauth_csrf', path: '/oauth/', sameSite: 'Lax' } as const;
/** How long "Stay logged in" keeps the session cookie: the Fedpod token's own lifetime. */
const REMEMBER_SECONDS = 604_800;
const PKCE_CHALLENGE = /^[\w-]{43}$/u;

/** An authorization request whose app and redirect URI are known good: errors may now go back to the app. */
interface Asked {
  app: OAuthApp;
  redirectUri: string;
  state?: string;
  scopes: string[];
  challenge?: string;
}

/** An error the app is told of through its redirect URI (RFC 6749, 4.1.2.1). */
class RedirectedError extends Error {
  public constructor(public readonly code: string, description: string) {
    super(description);
  }
}

/**
 * GET /oauth/authorize, where a Mastodon app sends the browser (response_type=code, client_id,
 * redirect_uri, scope, state, code_challenge with code_challenge_method=S256, force_login): Fedpod's
 * login form when the browser has no session (or force_login), then the consent page naming the
 * app and its scopes; Authorize sends the browser to the redirect URI with `code` and `state`
 * (`urn:ietf:wg:oauth:2.0:oob`: the code is shown), Deny with `error=access_denied`. The forms post
 * back to the same URL. The session is the Fedpod token in a Lax cookie for /oauth/ (set here or by
 * the /auth/login page); every form carries a CSRF token that must equal an HttpOnly cookie, which
 * another site can neither read nor set. An unknown app or a redirect URI the app did not register
 * gets an error page: the browser is never sent anywhere the app did not register.
 */
export class OAuthAuthorizeHandler extends JsonHttpHandler {
  private readonly secure: boolean;
  private readonly base: string;

  public constructor(
    baseUrl: string,
    private readonly oauth: MastodonOAuthService,
    private readonly accounts: AccountService,
    private readonly tokens: TokenService,
  ) {
    super();
    this.secure = baseUrl.startsWith('https://');
    this.base = baseUrl;
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const method = request.method ?? 'GET';
    if (![ 'GET', 'HEAD', 'POST' ].includes(method)) {
      request.resume();
      throw methodNotAllowed('/oauth/authorize takes GET and POST.', 'GET, HEAD, POST');
    }
    let form: URLSearchParams | undefined;
    if (method === 'POST') {
      if (mediaTypeOf(request.headers['content-type']) !== 'application/x-www-form-urlencoded') {
        request.resume();
        throw unsupportedMediaType('The forms of this page are sent as application/x-www-form-urlencoded.');
      }
      form = new URLSearchParams((await readBody(request, MAX_FORM_BYTES)).toString('utf8'));
    } else {
      request.resume();
    }
    const query = operation.target.query;
    const app = await this.oauth.app(query.get('client_id') ?? '');
    if (!app) {
      return this.sendPage(response, 400, messagePage('Unknown app',
        'No app with this client_id is registered here. Go back to the app and try again.', this.base));
    }
    const registered = query.get('redirect_uri') ?? (app.redirectUris.length === 1 ? app.redirectUris[0] : '');
    if (!app.redirectUris.includes(registered)) {
      return this.sendPage(response, 400, messagePage('Unknown redirect URI',
        'The app did not register the address it asks to go back to, so this server will not send you there.', this.base));
    }
    const state = query.get('state') ?? undefined;
    let asked: Asked;
    try {
      asked = this.checkRequest(app, registered, query);
    } catch (error: unknown) {
      if (error instanceof RedirectedError) {
        return this.redirect(response, registered, state, { error: error.code, error_description: error.message });
      }
      throw error;
    }
    const cookies: string[] = [];
    let csrf = readCookie(request, CSRF_COOKIE.name);
    if (!form && !csrf) {
      csrf = randomBytes(24).toString('base64url');
      cookies.push(setCookie(CSRF_COOKIE, csrf, this.secure));
    }
    const hidden = `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">`;
    const asking: AppAsking = {
      name: app.name, clientId: app.clientId, scopes: asked.scopes.map((scope): string => `${describeScope(scope)}`),
      ...registered === OOB_REDIRECT ? {} : { redirectUri: registered },
    };
    const session = await this.session(request);
    if (!form) {
      const html = session && query.get('force_login') !== 'true' ? consentPage(asking, session.webId, hidden, this.base) :
        loginPage(asking, undefined, '', hidden, this.base);
      return this.sendPage(response, 200, html, cookies);
    }
    if (!csrf || !sameText(form.get('csrf') ?? '', csrf)) {
      throw new FedpodHttpError(403, 'invalid_form', 'This form was not sent from this page: go back to the app and start again.');
    }
    switch (form.get('action')) {
      case 'login':
        return this.login(response, asking, form, hidden);
      case 'consent': {
        if (!session) {
          return this.sendPage(response, 401, loginPage(asking, 'Log in first.', '', hidden, this.base));
        }
        const code = await this.oauth.issueCode({
          clientId: app.clientId, username: session.username, webId: session.webId, scopes: asked.scopes, redirectUri: registered,
          ...asked.challenge ? { challenge: asked.challenge } : {},
        });
        if (registered === OOB_REDIRECT) {
          return this.sendPage(response, 200, renderPage(this.base, 'Your authorization code', `<h1>Your authorization code</h1>
<p>Copy this code into <strong class="app">${escapeHtml(app.name)}</strong>:</p>
<p><code class="authorization-code">${escapeHtml(code)}</code></p>`));
        }
        return this.redirect(response, registered, state, { code });
      }
      case 'cancel':
        if (registered === OOB_REDIRECT) {
          return this.sendPage(response, 200, messagePage('Not authorized', `${app.name} was not given access to your account.`, this.base));
        }
        return this.redirect(response, registered, state, { error: 'access_denied', error_description: 'The user said no.' });
      default:
        throw new FedpodHttpError(400, 'invalid_form', 'The form needs action=login, consent or cancel.');
    }
  }

  /** The scopes and PKCE challenge of the request, or the error to send back to the app. */
  private checkRequest(app: OAuthApp, redirectUri: string, query: URLSearchParams): Asked {
    if (query.get('response_type') !== 'code') {
      throw new RedirectedError('unsupported_response_type', 'response_type must be code.');
    }
    let scopes: string[];
    try {
      scopes = this.oauth.scopesFor(app, query.get('scope') ?? undefined);
    } catch (error: unknown) {
      throw new RedirectedError('invalid_scope', (error as Error).message);
    }
    const challenge = query.get('code_challenge') ?? undefined;
    const method = query.get('code_challenge_method') ?? undefined;
    if (challenge !== undefined || method !== undefined) {
      if (method !== 'S256') {
        throw new RedirectedError('invalid_request', 'code_challenge_method must be S256.');
      }
      if (challenge === undefined || !PKCE_CHALLENGE.test(challenge)) {
        throw new RedirectedError('invalid_request', 'code_challenge must be the base64url SHA-256 of the code verifier.');
      }
    }
    return { app, redirectUri, scopes, ...challenge ? { challenge } : {}};
  }

  /** The password form's answer: on success, the session cookie and the consent page. */
  private async login(response: ServerResponse, asking: AppAsking, form: URLSearchParams, hidden: string): Promise<void> {
    const login = form.get('login') ?? '';
    const password = form.get('password') ?? '';
    let token: string;
    let webId: string;
    try {
      ({ token, webId } = await this.accounts.login(login.includes('@') ? { email: login, password } : { username: login, password }));
    } catch (error: unknown) {
      if (!(error instanceof FedpodHttpError) || error.statusCode >= 500) {
        throw error;
      }
      return this.sendPage(response, 401, loginPage(asking, 'Wrong username, email or password.', login, hidden, this.base));
    }
    const cookie = setCookie(OAUTH_SESSION, token, this.secure, form.get('remember') === 'yes' ? REMEMBER_SECONDS : undefined);
    return this.sendPage(response, 200, consentPage(asking, webId, hidden, this.base), [ cookie ]);
  }

  /** Who the session cookie says is logged in, when its token is still valid. */
  private async session(request: IncomingMessage): Promise<TokenClaims | undefined> {
    const token = readCookie(request, OAUTH_SESSION.name);
    try {
      return token ? await this.tokens.verify(token) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Sends the browser back to the app with the answer's parameters (and the app's state). */
  private redirect(response: ServerResponse, redirectUri: string, state: string | undefined, answer: Record<string, string>): void {
    const params = new URLSearchParams(answer);
    if (state !== undefined) {
      params.set('state', state);
    }
    response.writeHead(303, { location: `${redirectUri}${redirectUri.includes('?') ? '&' : '?'}${params.toString()}`, 'cache-control': 'no-store' });
    response.end();
  }

  private sendPage(response: ServerResponse, status: number, html: string, cookies: string[] = []): void {
    sendHtml(response, status, html, {
      'cache-control': 'no-store',
      // The pages hold a password form and an Authorize button: never inside another site's frame.
      'x-frame-options': 'DENY',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      ...cookies.length > 0 ? { 'set-cookie': cookies } : {},
    });
  }
}

function sameText(left: string, right: string): boolean {
  const a = Buffer.from(left);
  const b = Buffer.from(right);
  return a.length === b.length && timingSafeEqual(a, b);
}
