import escape from 'escape-html';
import sanitizeHtml from 'sanitize-html';

/** Text for an HTML element or a quoted attribute (nothing, for undefined or null). */
export function escapeHtml(text: unknown): string {
  return escape(String(text ?? ''));
}

/**
 * HTML of a post written elsewhere (a remote server's, or a client's), made safe to show: the
 * elements and attributes Mastodon keeps in statuses (paragraphs, links, mentions, emphasis, lists,
 * code, quotes), links opened without referrer or opener, nothing that runs or loads.
 */
export function safeHtml(html: unknown): string {
  return sanitizeHtml(String(html ?? ''), {
    allowedTags: [ 'p', 'br', 'span', 'a', 'del', 'pre', 'code', 'em', 'strong', 'b', 'i', 'u', 'ul', 'ol', 'li', 'blockquote' ],
    allowedAttributes: { a: [ 'href', 'rel', 'target', 'class' ], span: [ 'class' ] },
    allowedSchemes: [ 'http', 'https', 'mailto' ],
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow noopener noreferrer', target: '_blank' }) },
  });
}

/** Whether a URL may be linked to or shown from a page (http or https only). */
export function isWebUrl(value: unknown): value is string {
  if (typeof value !== 'string') {
    return false;
  }
  try {
    return [ 'http:', 'https:' ].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
