/** A mention found in a status's text: `@user` (this server) or `@user@host`. */
export interface TextMention {
  /** As written, without the `@`: `user` or `user@host`. */
  acct: string;
  username: string;
  host?: string;
}

const MENTION = /(^|[^\w@/])@([a-z0-9_][a-z0-9._-]*)(?:@([a-z0-9.-]+\.[a-z]{2,}(?::\d+)?|localhost(?::\d+)?|[0-9.]+:\d+))?/giu;
const URL_PATTERN = /https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/gu;

function escapeHtml(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')
    .replaceAll('\'', '&#39;');
}

/** The mentions of a plain-text status, each once, in order. */
export function mentionsIn(textValue: string): TextMention[] {
  const found = new Map<string, TextMention>();
  for (const match of textValue.matchAll(MENTION)) {
    const username = match[2].toLowerCase().replace(/[.-]+$/u, '');
    const host = match[3]?.toLowerCase();
    const acct = host ? `${username}@${host}` : username;
    if (!found.has(acct)) {
      found.set(acct, { acct, username, host });
    }
  }
  return [ ...found.values() ];
}

/**
 * A plain-text status as Mastodon makes its HTML: escaped, a paragraph per blank-line-separated
 * block, `<br>` for other line breaks, http(s) URLs as links, and the mentions `links` knows (by
 * acct as written) as Mastodon's h-card links.
 */
export function plainTextToHtml(textValue: string, links: ReadonlyMap<string, string> = new Map()): string {
  const paragraphs = textValue.replaceAll('\r\n', '\n').split(/\n{2,}/u).map((block): string => block.trim())
    .filter((block): boolean => block !== '');
  return paragraphs.map((block): string => `<p>${block.split('\n').map((line): string => formatLine(line, links)).join('<br>')}</p>`)
    .join('');
}

function formatLine(line: string, links: ReadonlyMap<string, string>): string {
  let html = '';
  let last = 0;
  const tokens = [ ...line.matchAll(URL_PATTERN) ].map((match) => ({ index: match.index, length: match[0].length,
    html: `<a href="${escapeHtml(match[0])}" rel="nofollow noopener noreferrer" target="_blank">${escapeHtml(match[0])}</a>` }));
  for (const match of line.matchAll(MENTION)) {
    const start = match.index + match[1].length;
    const written = match[0].slice(match[1].length);
    const acct = written.slice(1).toLowerCase();
    const href = links.get(acct);
    if (href && !tokens.some((token): boolean => start >= token.index && start < token.index + token.length)) {
      tokens.push({ index: start, length: written.length, html: `<span class="h-card"><a href="${escapeHtml(href)}" ` +
        `class="u-url mention">@<span>${escapeHtml(written.slice(1).split('@')[0])}</span></a></span>` });
    }
  }
  tokens.sort((first, second): number => first.index - second.index);
  for (const token of tokens) {
    html += escapeHtml(line.slice(last, token.index)) + token.html;
    last = token.index + token.length;
  }
  return html + escapeHtml(line.slice(last));
}
