import type { IncomingMessage } from 'node:http';
import type { TokenClaims, TokenService } from '../../plugins/accounts/TokenService';
import { FedpodHttpError } from '../../util/HttpErrors';
import { CSRF_FIELD, FormCsrf } from '../auth/FormCsrf';
import { readCookie, WEB_SESSION } from '../auth/SessionCookies';

/** The reader of an app page: the session's user, and the key their forms carry. */
export interface WebReader {
  username: string;
  webId: string;
  /** The session's form key (CSRF token): derived from the session's token, so only its pages have it. */
  formKey: string;
}

/** The name of the hidden field that carries the form key. */
export const FORM_KEY_FIELD = CSRF_FIELD;

/**
 * Who reads an app page, from the web app's session cookie (WEB_SESSION), for the app's own routes
 * only. The cookie counts only for requests the browser made from this server's own pages or as a
 * navigation: a request that another origin started (`Origin` of another origin, or
 * `Sec-Fetch-Site: cross-site` / `same-site`, which a fetch with credentials from a page on another
 * port of the same host is) is read as anonymous, so the answers CORS lets other origins read never
 * hold what the session sees.
 */
export class WebSession {
  private readonly origin: string;
  private readonly csrf = new FormCsrf();

  public constructor(baseUrl: string, private readonly tokens: TokenService) {
    this.origin = new URL(baseUrl).origin;
  }

  /** The session's reader, or undefined (no cookie, an invalid, expired or revoked token, another origin's request). */
  public async reader(request: IncomingMessage): Promise<WebReader | undefined> {
    const token = readCookie(request, WEB_SESSION.name);
    if (!token || !this.sameOrigin(request)) {
      return undefined;
    }
    let claims: TokenClaims;
    try {
      claims = await this.tokens.verify(token);
    } catch {
      return undefined;
    }
    return { username: claims.username, webId: claims.webId, formKey: this.csrf.token(token) };
  }

  /**
   * The reader of a form POST: a session, and the form's key matching it; 403 otherwise (nothing is
   * done). A POST without a session is refused too: the app's forms act as a user.
   */
  public async poster(request: IncomingMessage, form: URLSearchParams): Promise<WebReader> {
    const reader = await this.reader(request);
    if (!reader) {
      throw new FedpodHttpError(403, 'no_session', 'Log in first: this form acts as a logged-in user.');
    }
    if (!this.csrf.matches(readCookie(request, WEB_SESSION.name)!, form.get(FORM_KEY_FIELD))) {
      throw new FedpodHttpError(403, 'invalid_form', 'This form was not sent from your pages on this server: reload the page and try again.');
    }
    return reader;
  }

  private sameOrigin(request: IncomingMessage): boolean {
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none' &&
      !(site === 'cross-site' && request.headers['sec-fetch-mode'] === 'navigate' && request.method === 'GET')) {
      return false;
    }
    const origin = request.headers.origin;
    return origin === undefined || origin === this.origin;
  }
}
