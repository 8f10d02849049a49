import { escapeHtml } from './Html';

/** The name pages give the server. */
export const SERVER_NAME = 'Fedpod';

const STYLE = `
:root { color-scheme: light dark; --bg: #fff; --fg: #1b1b1f; --accent: #5b4fd6; --on-accent: #fff; --muted: #6b6b76; --line: #d8d8e0; }
/* Dark: a dark page of the layout's own (not left to the browser), lighter accents and grey text that keep their contrast (WCAG AA). */
@media (prefers-color-scheme: dark) {
  :root { --bg: #16161a; --fg: #ececf1; --accent: #b0a6ff; --on-accent: #14121f; --muted: #a9a9b6; --line: #45454f; }
}
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg); color: var(--fg); }
header, main, footer { max-width: 44rem; margin: 0 auto; padding: 0.75rem 1rem; }
header { display: flex; align-items: baseline; gap: 1rem; flex-wrap: wrap; border-bottom: 1px solid var(--line); }
header a.home { font-weight: 700; font-size: 1.2rem; text-decoration: none; color: var(--accent); }
header nav { display: flex; gap: 1rem; margin-left: auto; }
footer { color: var(--muted); font-size: 0.85rem; border-top: 1px solid var(--line); margin-top: 2rem; }
a { color: var(--accent); }
h1 { font-size: 1.6rem; margin: 0.5rem 0; line-height: 1.25; overflow-wrap: anywhere; }
.handle, .meta { color: var(--muted); overflow-wrap: anywhere; }
.avatar { width: 96px; height: 96px; border-radius: 12px; object-fit: cover; }
.counts { display: flex; gap: 1.5rem; list-style: none; padding: 0; }
.counts strong { display: block; font-size: 1.2rem; }
article { border-top: 1px solid var(--line); padding: 0.75rem 0; overflow-wrap: anywhere; }
article img, article video { max-width: 100%; height: auto; }
article audio { width: 100%; }
.media-grid { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 0.25rem; }
.media-grid figure { margin: 0; }
.media-grid img, .media-grid video { width: 100%; aspect-ratio: 4 / 3; object-fit: cover; }
form.compose .preview { position: relative; display: inline-block; cursor: crosshair; max-width: 100%; }
form.compose .preview img { display: block; max-width: 100%; max-height: 16rem; }
form.compose .preview .marker { position: absolute; width: 1rem; height: 1rem; margin: -0.5rem 0 0 -0.5rem; border: 2px solid #fff;
  border-radius: 50%; box-shadow: 0 0 0 2px #000; pointer-events: none; }
pre, code { white-space: pre-wrap; overflow-wrap: anywhere; }
form { display: grid; gap: 0.5rem; max-width: 28rem; }
input, textarea, button { font: inherit; padding: 0.5rem; }
/* A field's own width (a file input's) would push a narrow form wider than a phone. */
form, fieldset { grid-template-columns: minmax(0, 1fr); }
input, textarea, select { max-width: 100%; min-width: 0; }
button { background: var(--accent); color: var(--on-accent); border: 0; border-radius: 6px; cursor: pointer; }
.error { border-left: 4px solid #c0392b; padding-left: 0.75rem; }
.notice { border-left: 4px solid var(--accent); padding-left: 0.75rem; overflow-wrap: anywhere; }
form.inline { display: inline; }
.app { overflow-wrap: anywhere; }
ul.webhooks li { margin: 0.5rem 0; display: flex; gap: 0.75rem; align-items: baseline; flex-wrap: wrap; }
select { font: inherit; padding: 0.5rem; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
nav.settings ul { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; list-style: none; padding: 0; margin: 0.5rem 0; }
nav.settings a[aria-current] { font-weight: 700; text-decoration: none; }
label.check { display: flex; gap: 0.5rem; align-items: center; }
fieldset { border: 1px solid var(--line); border-radius: 6px; display: grid; gap: 0.25rem; min-width: 0; }
ul.rows, ul.sections { padding: 0; list-style: none; }
ul.rows li, ul.sections li { margin: 0.5rem 0; padding: 0.5rem 0; border-top: 1px solid var(--line); overflow-wrap: anywhere; }
ul.sections .meta { display: block; }
/* Wide tables scroll inside their box (positioned: what is hidden in them stays in it). */
.table { overflow-x: auto; position: relative; }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; font-weight: 700; }
th, td { text-align: left; padding: 0.35rem 0.5rem; border-bottom: 1px solid var(--line); vertical-align: top; overflow-wrap: break-word; }
td button { white-space: nowrap; }
.picture { display: grid; gap: 0.5rem; justify-items: start; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
header nav.app { flex-wrap: wrap; gap: 0.25rem 1rem; }
header nav a[aria-current="page"] { font-weight: 700; text-decoration: none; }
.status .byline { margin: 0; }
.status .actions { display: flex; gap: 0.5rem; flex-wrap: wrap; align-items: center; }
.status .actions form { display: inline; }
.status .actions button, button.secondary { background: transparent; color: var(--accent); border: 1px solid var(--accent); padding: 0.25rem 0.6rem; }
.status .actions button[aria-pressed="true"] { background: var(--accent); color: var(--on-accent); }
.status figure { margin: 0.5rem 0; }
.status figcaption { color: var(--muted); font-size: 0.9rem; }
.notification { border-top: 1px solid var(--line); padding: 0.5rem 0; }
.badge { background: #b3261e; color: #fff; border-radius: 1rem; padding: 0 0.45rem; font-size: 0.8rem; }
`;

/** What a page adds to the layout: the navigation of the web app (HTML of links), its scripts (URLs, served as files). */
export interface PageOptions {
  nav?: string;
  scripts?: readonly string[];
}

/**
 * A whole HTML page with the server's name: a small inline stylesheet (no other request), readable
 * on a phone, landmarks for screen readers. `body` is HTML the caller built from escaped text.
 * Without `baseUrl` (an error page written where it is not known) the home link is `/`.
 */
export function renderPage(baseUrl: string | undefined, title: string, body: string, options: PageOptions = {}): string {
  const base = baseUrl === undefined ? '/' : baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  const host = baseUrl === undefined ? '' : new URL(base).host;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title === SERVER_NAME ? '' : `${escapeHtml(title)} · `}${escapeHtml(SERVER_NAME)}</title>
<style>${STYLE}</style>
${(options.scripts ?? []).map((src): string => `<script src="${escapeHtml(src)}" defer></script>\n`).join('')}</head>
<body>
<header><a class="home" href="${escapeHtml(base)}">${escapeHtml(SERVER_NAME)}</a><span class="meta">${escapeHtml(host)}</span>${options.nav ?? ''}</header>
<main>
${body}
</main>
<footer><p>${escapeHtml(SERVER_NAME)}: linked data and the fediverse${host ? `, on ${escapeHtml(host)}` : ''}.</p></footer>
</body>
</html>
`;
}
