import { escapeHtml } from '../http/Html';
import type { PageOptions } from '../http/PageLayout';
import { renderPage } from '../http/PageLayout';

/** One link of the app's navigation. */
export interface NavLink {
  /** Path under the base URL (no leading slash). */
  path: string;
  label: string;
  /** Shown to logged-in readers only. */
  session?: boolean;
  /** Shown to anonymous readers only. */
  anonymous?: boolean;
}

/**
 * The navigation of the web app and the account pages, in one place: pages that add a section of
 * their own add a link here. The notification link's count is filled in live by the app's script.
 */
export const APP_NAV: readonly NavLink[] = [
  { path: 'web/home', label: 'Home', session: true },
  { path: 'web/notifications', label: 'Notifications', session: true },
  { path: 'web/local', label: 'Local' },
  { path: 'web/federated', label: 'Federated' },
  { path: 'web/bookmarks', label: 'Bookmarks', session: true },
  { path: 'web/lists', label: 'Lists', session: true },
  { path: 'web/search', label: 'Search' },
  { path: 'web/compose', label: 'Write', session: true },
  { path: 'auth/account', label: 'Account', session: true },
  { path: 'auth/settings/profile', label: 'Settings', session: true },
  { path: 'web/filters', label: 'Filters', session: true },
  { path: 'auth/login?next=web/home', label: 'Log in', anonymous: true },
  { path: 'auth/signup?next=web/home', label: 'Sign up', anonymous: true },
];

/** The navigation's HTML for a reader (logged in or not), the current page marked. */
export function renderNav(base: string, loggedIn: boolean, current?: string): string {
  const links = APP_NAV.filter((link): boolean => loggedIn ? !link.anonymous : !link.session).map((link): string => {
    const here = link.path === current ? ' aria-current="page"' : '';
    const badge = link.path === 'web/notifications' ? ' <span class="badge" data-live="count" hidden></span>' : '';
    return `<a href="${escapeHtml(base)}${escapeHtml(link.path)}"${here}>${escapeHtml(link.label)}${badge}</a>`;
  });
  return `<nav class="app" aria-label="Main">${links.join('')}</nav>`;
}

/** The script of the app's pages (live updates), a file: pages allow no inline script. */
export const APP_SCRIPT_PATH = 'web/app.js';
/** The compose form's script (parts/webapp/compose.json). */
export const COMPOSE_SCRIPT_PATH = 'web/compose.js';

/**
 * A page of the web app: the server's layout with the app's navigation and, for a logged-in reader,
 * its scripts. `current` marks the navigation's link of this page.
 */
export function renderAppPage(base: string, title: string, body: string, loggedIn: boolean, current?: string): string {
  const options: PageOptions = { nav: renderNav(base, loggedIn, current), scripts: loggedIn ?
    [ `${base}${APP_SCRIPT_PATH}`, `${base}${COMPOSE_SCRIPT_PATH}` ] :
    [] };
  return renderPage(base, title, body, options);
}

/**
 * The headers of every app page: no inline script (`script-src 'self'`: the app's script is a file,
 * so nothing inside a post can run), no framing, no caching of what a session sees, and no CORS
 * (the pages are for this origin only: the pipeline's CORS headers are taken off).
 */
export const APP_PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': [ 'default-src \'self\'', 'script-src \'self\'', 'style-src \'self\' \'unsafe-inline\'',
    'img-src \'self\' https: http: data:', 'media-src \'self\' https: http:', 'connect-src \'self\'', 'object-src \'none\'',
    'base-uri \'none\'', 'form-action \'self\'', 'frame-ancestors \'none\'' ].join('; '),
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
});
