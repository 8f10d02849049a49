import type { ServerResponse } from 'node:http';
import type { AccountService } from '../../plugins/accounts/AccountService';
import type { TokenClaims, TokenService } from '../../plugins/accounts/TokenService';
import { ActorUrls } from '../../plugins/activitypub/ActorUrls';
import type { RemoteActorCache } from '../../plugins/activitypub/fetch/RemoteActorCache';
import type { WebFingerResolver } from '../../plugins/activitypub/fetch/WebFingerResolver';
import { looksLikeHandle } from '../../plugins/activitypub/fetch/WebFingerResolver';
import type { OutboxService } from '../../plugins/activitypub/outbound/OutboxService';
import { FedpodHttpError, methodNotAllowed } from '../../util/HttpErrors';
import { CSRF_FIELD, FormCsrf } from '../auth/FormCsrf';
import { ACCOUNT_SESSION, OAUTH_SESSION, readCookie, setCookie } from '../auth/SessionCookies';
import { escapeHtml } from '../http/Html';
import { mediaTypeOf, readBody, sendHtml } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';
import { renderPage } from '../http/PageLayout';

const MAX_FORM_BYTES = 16 * 1024;

/**
 * Remote follow: other servers' "follow" buttons send a browser to `/authorize_interaction?uri=<acct
 * or URL>` (the `subscribe` template of this server's WebFinger answers), which is sent on to
 * `/auth/interact` (under `/auth/`, where the session cookie of Fedpod's pages is). There a logged-in
 * user sees the account (resolved by WebFinger, or its actor document fetched, through the outbound
 * guard) and a button that posts a Follow to their outbox; an anonymous visitor logs in first, on the
 * same page. The button's form carries a value derived from the session, which another site cannot know.
 */
export class InteractionPagesHandler extends JsonHttpHandler {
  private readonly urls: ActorUrls;
  private readonly csrf = new FormCsrf();
  private readonly secure: boolean;

  public constructor(
    baseUrl: string,
    private readonly accounts: AccountService,
    private readonly tokens: TokenService,
    private readonly resolver: WebFingerResolver,
    private readonly actors: RemoteActorCache,
    private readonly outbox: OutboxService,
  ) {
    super();
    this.urls = new ActorUrls(baseUrl);
    this.secure = this.urls.base.startsWith('https://');
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const uri = operation.target.query.get('uri') ?? '';
    if (operation.target.path === '/authorize_interaction') {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        throw methodNotAllowed('GET only.', 'GET, HEAD');
      }
      response.writeHead(303, { location: this.pageUrl(uri), 'cache-control': 'no-store' });
      response.end();
      return;
    }
    const form = request.method === 'POST' && mediaTypeOf(request.headers['content-type']) === 'application/x-www-form-urlencoded' ?
      new URLSearchParams((await readBody(request, MAX_FORM_BYTES)).toString('utf8')) :
      undefined;
    if (request.method !== 'GET' && request.method !== 'HEAD' && !form) {
      throw methodNotAllowed('GET, or POST a form of this page.', 'GET, HEAD, POST');
    }
    const target = form?.get('uri') ?? uri;
    if (form?.get('action') === 'login') {
      return this.login(response, form, target);
    }
    const token = readCookie(request, ACCOUNT_SESSION.name);
    const claims = token ? await this.tokens.verify(token).catch((): undefined => undefined) : undefined;
    if (!token || !claims) {
      return this.send(response, 200, this.loginPage(target));
    }
    if (form) {
      this.csrf.check(token, form.get(CSRF_FIELD));
      return this.follow(response, claims, target);
    }
    return this.confirm(response, claims, token, target);
  }

  private pageUrl(uri: string): string {
    return `${this.urls.base}auth/interact?${new URLSearchParams({ uri }).toString()}`;
  }

  private async login(response: ServerResponse, form: URLSearchParams, target: string): Promise<void> {
    try {
      const session = await this.accounts.login({ username: form.get('username') ?? '', password: form.get('password') ?? '' });
      response.writeHead(303, { location: this.pageUrl(target), 'cache-control': 'no-store',
        'set-cookie': [ setCookie(ACCOUNT_SESSION, session.token, this.secure), setCookie(OAUTH_SESSION, session.token, this.secure) ]});
      response.end();
    } catch (error: unknown) {
      if (!(error instanceof FedpodHttpError) || error.statusCode >= 500) {
        throw error;
      }
      this.send(response, error.statusCode, this.loginPage(target, error.message));
    }
  }

  /** The actor the page is about: a handle by WebFinger, a URL by its actor document; a 4xx page otherwise. */
  private async actorOf(target: string): Promise<{ actor: string; name: string }> {
    if (looksLikeHandle(target)) {
      const actor = await this.resolver.resolve(target);
      return { actor, name: `@${target.replace(/^acct:|^@/iu, '')}` };
    }
    if (this.urls.usernameOf(target) !== undefined) {
      return { actor: target, name: `@${this.resolver.localHandleOf(target)}` };
    }
    try {
      const document = await this.actors.getActor(target);
      const username = typeof document.preferredUsername === 'string' ? document.preferredUsername : undefined;
      return { actor: document.id, name: username ? `@${username}@${new URL(document.id).host}` : document.id };
    } catch {
      throw new FedpodHttpError(422, 'not_an_account', `${target} is neither a handle nor the address of an account that could be read.`);
    }
  }

  private async confirm(response: ServerResponse, claims: TokenClaims, token: string, target: string): Promise<void> {
    const { actor, name } = await this.actorOf(target);
    this.send(response, 200, renderPage(this.urls.base, `Follow ${name}`, `<h1>Follow ${escapeHtml(name)}?</h1>
<p>You are logged in as <strong>${escapeHtml(claims.username)}</strong>. <a href="${escapeHtml(actor)}">${escapeHtml(actor)}</a></p>
<form method="post" action="${escapeHtml(this.pageUrl(target))}">
${this.csrf.field(token)}
<input type="hidden" name="uri" value="${escapeHtml(target)}">
<button type="submit">Follow</button>
</form>`));
  }

  private async follow(response: ServerResponse, claims: TokenClaims, target: string): Promise<void> {
    const { actor, name } = await this.actorOf(target);
    await this.outbox.post(claims.username, { type: 'Follow', object: actor, to: [ actor ] });
    this.send(response, 200, renderPage(this.urls.base, `Following ${name}`, `<h1>Follow sent</h1>
<p>You asked to follow <a href="${escapeHtml(actor)}">${escapeHtml(name)}</a>; their posts reach you once they accept.</p>`));
  }

  private loginPage(target: string, error?: string): string {
    return renderPage(this.urls.base, 'Log in to follow', `<h1>Log in to follow ${escapeHtml(target)}</h1>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(this.pageUrl(target))}">
<input type="hidden" name="action" value="login">
<input type="hidden" name="uri" value="${escapeHtml(target)}">
<label for="username">Username or email</label><input id="username" name="username" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Log in</button>
</form>`);
  }

  private send(response: ServerResponse, status: number, html: string): void {
    // Pages with password fields and buttons that act: never inside another site's frame, never cached.
    sendHtml(response, status, html, { 'cache-control': 'no-store', 'x-frame-options': 'DENY',
      'content-security-policy': 'frame-ancestors \'none\'' });
  }
}
