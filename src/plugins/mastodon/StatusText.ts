import escapeHtml from 'escape-html';
const URL_PATTERN = /https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/gu;

/**
 * A plain-text status as Mastodon makes its HTML: escaped, a paragraph per blank-line-separated
 * block, `<br>` for other line breaks, http(s) URLs as links. Mentions and hashtags are linked by
 * the outbox (OutboundHandles), as in any post.
 */
export function plainTextToHtml(textValue: string): string {
  const paragraphs = textValue.replaceAll('\r\n', '\n').split(/\n{2,}/u).map((block): string => block.trim())
    .filter((block): boolean => block !== '');
  return paragraphs.map((block): string => `<p>${block.split('\n').map(formatLine).join('<br>')}</p>`).join('');
}

function formatLine(line: string): string {
  let html = '';
  let last = 0;
  for (const match of line.matchAll(URL_PATTERN)) {
    html += `${escapeHtml(line.slice(last, match.index))}<a href="${escapeHtml(match[0])}" rel="nofollow noopener noreferrer" ` +
      `target="_blank">${escapeHtml(match[0])}</a>`;
    last = match.index + match[0].length;
  }
  return html + escapeHtml(line.slice(last));
}
