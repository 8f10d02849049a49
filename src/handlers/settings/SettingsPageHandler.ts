import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReceivedMedia } from '../../plugins/media/MediaStore';
import type { ModerationRoles } from '../../plugins/moderation/ModerationRoles';
import type { TokenService } from '../../plugins/accounts/TokenService';
import { FedpodHttpError, forbidden, methodNotAllowed } from '../../util/HttpErrors';
import { CSRF_FIELD, FormCsrf } from '../auth/FormCsrf';
import { ACCOUNT_SESSION, readCookie } from '../auth/SessionCookies';
import { escapeHtml } from '../http/Html';
import { readBody, sendHtml } from '../http/HttpUtil';
import { JsonHttpHandler } from '../http/JsonHttpHandler';
import type { OperationInput } from '../http/Operation';
import { renderPage } from '../http/PageLayout';

const MAX_FORM_BYTES = 64 * 1024;

/**
 * The headers of every settings page: never cached, never framed, and a Content-Security-Policy
 * that allows no script at all (the pages have none) and only the layout's inline style.
 */
export const SETTINGS_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'content-security-policy': 'default-src \'none\'; script-src \'none\'; style-src \'unsafe-inline\'; img-src \'self\'; ' +
    'form-action \'self\'; frame-ancestors \'none\'; base-uri \'none\'',
};

/** Who reads a settings page: from the session cookie. */
export interface PageSession {
  username: string;
  webId: string;
  /** The session's token (the cookie's value), which the forms' CSRF token is derived from. */
  token: string;
  operator: boolean;
}

/** A posted form: its text fields (the last value of a repeated name) and any uploaded images. */
export interface PageForm {
  fields: Map<string, string>;
  files: Map<string, ReceivedMedia>;
  /** Removes what was received for the form (its uploads) when it is refused. */
  discard: () => Promise<void>;
}

/** What a page shows besides its content: a refused form's reason (and its values), or the notice of a done one. */
export interface PageState {
  error?: string;
  form?: Map<string, string>;
  notice?: string;
}

/** What a form did: the notice the page shows after the redirect (a key of `notices`), and cookies to set. */
export interface FormOutcome {
  done: string;
  setCookie?: string[];
}

/**
 * Base of the account's settings pages and the operator's pages under `/auth/`: plain
 * server-rendered HTML that works without JavaScript. The reader is the session cookie's user (none:
 * 303 to the login page); operator pages answer 403 to anyone without the operator role before
 * reading a form. Every POST carries the session's CSRF token (FormCsrf), checked before anything is
 * done (403 otherwise); a form that is done is answered 303 back to its page (with `?done=` naming a
 * fixed notice), a refused one with the page again, its reason and the error's 4xx status.
 */
export abstract class SettingsPageHandler extends JsonHttpHandler {
  protected readonly base: string;
  protected readonly csrf = new FormCsrf();
  /** The notices a page shows after `?done=<key>`; only these, so no text is taken from the URL. */
  protected readonly notices: Record<string, string> = {};

  protected constructor(
    baseUrl: string,
    private readonly tokens: TokenService,
    private readonly roles: ModerationRoles | undefined,
    private readonly operatorOnly: boolean,
  ) {
    super();
    this.base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const session = await this.session(request);
    const page = `${this.base}${operation.target.path.slice(1)}`;
    if (!session) {
      request.resume();
      response.writeHead(303, { location: `${this.base}auth/login`, 'cache-control': 'no-store' });
      response.end();
      return;
    }
    if (this.operatorOnly && !session.operator) {
      request.resume();
      throw forbidden('This page is for the server\'s operators.', 'not_operator');
    }
    const method = request.method ?? 'GET';
    if (method === 'POST') {
      return this.post(request, response, session, page);
    }
    if (method !== 'GET' && method !== 'HEAD') {
      request.resume();
      throw methodNotAllowed(`${operation.target.path} takes GET and POST.`, 'GET, HEAD, POST');
    }
    request.resume();
    if (await this.download(session, operation.target.query, response)) {
      return;
    }
    const done = operation.target.query.get('done') ?? '';
    const notice = Object.hasOwn(this.notices, done) ? this.notices[done] : undefined;
    await this.send(response, 200, session, { notice }, method === 'HEAD');
  }

  private async post(request: IncomingMessage, response: ServerResponse, session: PageSession, page: string): Promise<void> {
    const form = await this.readForm(request, session);
    let outcome: FormOutcome;
    try {
      this.csrf.check(session.token, form.fields.get(CSRF_FIELD));
      outcome = await this.act(session, form);
    } catch (error: unknown) {
      await form.discard();
      // A refused form (not a forged one): the page again, with the reason and what was typed.
      if (error instanceof FedpodHttpError && error.statusCode < 500 && error.errorCode !== 'invalid_form') {
        return this.send(response, error.statusCode, session, { error: error.message, form: form.fields });
      }
      throw error;
    }
    response.writeHead(303, { location: `${page}?done=${encodeURIComponent(outcome.done)}`, 'cache-control': 'no-store',
      ...outcome.setCookie ? { 'set-cookie': outcome.setCookie } : {}});
    response.end();
  }

  /** Reads a posted form (URL-encoded; pages with uploads override this). */
  protected async readForm(request: IncomingMessage, session: PageSession): Promise<PageForm> {
    void session;
    const fields = new Map(new URLSearchParams((await readBody(request, MAX_FORM_BYTES)).toString('utf8')));
    return { fields, files: new Map(), discard: async(): Promise<void> => undefined };
  }

  /** Answers a GET that is not the page itself (a download); whether it did. */
  protected async download(session: PageSession, query: URLSearchParams, response: ServerResponse): Promise<boolean> {
    void session;
    void query;
    void response;
    return false;
  }

  /** Does what the (CSRF-checked) form asks; throws a 4xx FedpodHttpError to refuse it. */
  protected abstract act(session: PageSession, form: PageForm): Promise<FormOutcome>;

  /** The page's title and content. */
  protected abstract render(session: PageSession, state: PageState): Promise<{ title: string; body: string }>;

  /** A message above the page's content: a refusal (alert) or a notice. */
  protected message(state: PageState): string {
    if (state.error) {
      return `<p class="error" role="alert">${escapeHtml(state.error)}</p>`;
    }
    return state.notice ? `<p class="notice" role="status">${escapeHtml(state.notice)}</p>` : '';
  }

  private async send(response: ServerResponse, status: number, session: PageSession, state: PageState, headOnly = false): Promise<void> {
    const { title, body } = await this.render(session, state);
    sendHtml(response, status, renderPage(this.base, title, `${this.nav(session, title)}\n${body}`), SETTINGS_PAGE_HEADERS, headOnly);
  }

  /** The links between the pages; the operator's only for operators. */
  private nav(session: PageSession, current: string): string {
    const links: [string, string][] = [
      [ 'auth/account', 'Your account' ],
      [ 'auth/settings/profile', 'Profile' ],
      [ 'auth/settings/password', 'Password' ],
      [ 'auth/settings/sessions', 'Apps and sessions' ],
      [ 'auth/settings/export', 'Export and import' ],
      [ 'auth/account/delete', 'Delete account' ],
      ...session.operator ? [[ 'auth/operator', 'Operator' ] as [string, string]] : [],
    ];
    return `<nav class="settings" aria-label="Settings"><ul>${links.map(([ path, name ]): string =>
      `<li><a href="${escapeHtml(this.base + path)}"${name === current ? ' aria-current="page"' : ''}>${escapeHtml(name)}</a></li>`).join('')}</ul></nav>`;
  }

  private async session(request: IncomingMessage): Promise<PageSession | undefined> {
    const token = readCookie(request, ACCOUNT_SESSION.name);
    if (!token) {
      return undefined;
    }
    try {
      const claims = await this.tokens.verify(token);
      if (!claims.username) {
        return undefined;
      }
      return { username: claims.username, webId: claims.webId, token, operator: await this.roles?.isOperator(claims.username) ?? false };
    } catch {
      // Expired, revoked (a password change elsewhere) or forged: logged out.
      return undefined;
    }
  }
}
