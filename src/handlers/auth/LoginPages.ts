import { escapeHtml } from '../http/Html';
import { renderPage } from '../http/PageLayout';

/** What the login and consent pages show of the app that asks. */
export interface AppAsking {
  /** The app's name, or its client id when it gives none. */
  name: string;
  clientId: string;
  /** Where the browser goes back to after the answer (its origin is shown). */
  redirectUri?: string;
  /** What the app asks to do, each as the page says it (a Mastodon app's scopes); none: everything the user may. */
  scopes?: readonly string[];
}

/**
 * A page of the login: the server's layout, the title as its heading. With the server's base URL its
 * header is the web app's (the home link, the host the user logs in to); no navigation: the page is
 * a step of an app's authorization, which a link away would abandon.
 */
function page(title: string, body: string, base?: string): string {
  return renderPage(base, title, `<h1>${escapeHtml(title)}</h1>
${body}`);
}

function appLine(app: AppAsking): string {
  const origin = app.redirectUri ? ` (answers go back to <span class="app">${escapeHtml(safeOrigin(app.redirectUri))}</span>)` : '';
  return `<p>The app <strong class="app">${escapeHtml(app.name)}</strong>${origin} asks to use your Fedpod account.</p>
<p><small>App id: <span class="app">${escapeHtml(app.clientId)}</span></small></p>`;
}

function safeOrigin(uri: string): string {
  try {
    // An app's own scheme (`myapp://callback`) has no origin: its URI says where answers go.
    const origin = new URL(uri).origin;
    return origin === 'null' ? uri : origin;
  } catch {
    return uri;
  }
}

/**
 * The password form of a login for an app (Solid-OIDC, or a Mastodon app's OAuth).
 * @param hidden - More hidden fields of each form, already HTML (a CSRF token).
 * @param base - The server's base URL, when the handler knows it.
 */
export function loginPage(app: AppAsking, error?: string, login = '', hidden = '', base?: string): string {
  return page('Log in', `${appLine(app)}
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post">${hidden}
<input type="hidden" name="action" value="login">
<label for="login">Username or email</label>
<input id="login" name="login" autocomplete="username" required value="${escapeHtml(login)}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<label><input type="checkbox" name="remember" value="yes"> Stay logged in on this browser</label>
<button type="submit">Log in</button>
</form>
<form method="post">${hidden}<input type="hidden" name="action" value="cancel"><button type="submit">Cancel</button></form>`, base);
}

/** The question whether the app may act as the logged-in user (`hidden`, `base`: as for loginPage). */
export function consentPage(app: AppAsking, webId: string, hidden = '', base?: string): string {
  const what = app.scopes ?
    `<p>If you allow it, the app can, as <span class="app">${escapeHtml(webId)}</span>:</p>
<ul class="scopes">${app.scopes.map((scope): string => `<li>${escapeHtml(scope)}</li>`).join('')}</ul>` :
    `<p>If you allow it, the app can read and write, as <span class="app">${escapeHtml(webId)}</span>, whatever you may read and write.</p>`;
  // Mastodon apps keep their token until it is revoked: no refresh-token choice to offer.
  const remember = app.scopes ? '' : '<label><input type="checkbox" name="remember" value="yes"> Keep it logged in (refresh tokens)</label>\n';
  return page('Allow this app?', `${appLine(app)}
${what}
<form method="post">${hidden}
<input type="hidden" name="action" value="consent">
${remember}<button type="submit">Allow</button>
</form>
<form method="post">${hidden}<input type="hidden" name="action" value="cancel"><button type="submit">Deny</button></form>`, base);
}

/** A page that only says something (an expired login link). */
export function messagePage(title: string, message: string, base?: string): string {
  return page(title, `<p>${escapeHtml(message)}</p>`, base);
}
