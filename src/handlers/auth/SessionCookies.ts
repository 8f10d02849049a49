import type { IncomingMessage } from 'node:http';

/** The session cookie of Fedpod's own pages (/auth/): SameSite=Strict, nothing another site starts uses it. */
export const ACCOUNT_SESSION = { name: 'fedpod_session', path: '/auth/', sameSite: 'Strict' } as const;

/**
 * The session cookie of the OAuth authorization pages (/oauth/): Lax, since an app sends the
 * browser there from its own site and the page must know who is logged in; it only shows the
 * consent page, whose answer is a POST that carries a CSRF token.
 */
export const OAUTH_SESSION = { name: 'fedpod_oauth_session', path: '/oauth/', sameSite: 'Lax' } as const;

export interface CookieKind {
  name: string;
  path: string;
  sameSite: 'Strict' | 'Lax';
}

/** A `Set-Cookie` value: HttpOnly, Secure on an HTTPS base; `maxAge` 0 clears it, none lasts the browser session. */
export function setCookie(kind: CookieKind, value: string, secure: boolean, maxAge?: number): string {
  return `${kind.name}=${value}; Path=${kind.path}; HttpOnly; SameSite=${kind.sameSite}${secure ? '; Secure' : ''}${maxAge === undefined ? '' : `; Max-Age=${maxAge}`}`;
}

/** The value of a cookie the request carries. */
export function readCookie(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [ key, ...value ] = part.trim().split('=');
    if (key === name && value.length > 0) {
      return value.join('=') || undefined;
    }
  }
  return undefined;
}

/**
 * The session cookie of the web app (every path, so its pages know the reader): Lax, so a link from
 * another site opens the app logged in. It is read only by the app's own routes (WebSession): GETs of
 * pages, and POSTs that carry the session's form key. No other route reads it, so it is never
 * credentials for LDP, outboxes, the Mastodon API or webhooks.
 */
export const WEB_SESSION = { name: 'fedpod_web_session', path: '/', sameSite: 'Lax' } as const;
