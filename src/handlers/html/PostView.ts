import type { Json } from '../../plugins/activitypub/ActivityJson';
import { idOf, isObject, typeOf } from '../../plugins/activitypub/ActivityJson';
import { escapeHtml, isWebUrl, safeHtml } from '../http/Html';

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined || value === null ? [] : [ value ];
}

/** The first plain string of a property, or of its language map (`contentMap`...). */
function textOf(object: Json, key: string): string | undefined {
  const value = object[key];
  if (typeof value === 'string') {
    return value;
  }
  const map = object[`${key}Map`];
  return isObject(map) ? Object.values(map).find((entry): entry is string => typeof entry === 'string') : undefined;
}

/** A post's attachments: images shown, anything else linked. */
function attachments(object: Json): string {
  const items = listOf(object.attachment).filter(isObject).map((attachment): string => {
    const url = listOf(attachment.url).map((entry): unknown => isObject(entry) ? entry.href : entry).find(isWebUrl);
    if (!url) {
      return '';
    }
    const label = escapeHtml(textOf(attachment, 'name') ?? url);
    return String(attachment.mediaType ?? '').startsWith('image/') || typeOf(attachment) === 'Image' ?
      `<li><img src="${escapeHtml(url)}" alt="${label}" loading="lazy"></li>` :
      `<li><a href="${escapeHtml(url)}" rel="nofollow noopener noreferrer">${label}</a></li>`;
  }).filter(Boolean);
  return items.length > 0 ? `<ul class="attachments">${items.join('')}</ul>` : '';
}

/** A poll's options and their counts. */
function poll(object: Json): string {
  const options = listOf(object.oneOf ?? object.anyOf).filter(isObject);
  if (options.length === 0) {
    return '';
  }
  return `<ul class="poll">${options.map((option): string => {
    const count = isObject(option.replies) ? Number(option.replies.totalItems ?? 0) : 0;
    return `<li>${escapeHtml(textOf(option, 'name'))}: ${count} ${count === 1 ? 'vote' : 'votes'}</li>`;
  }).join('')}</ul>`;
}

/**
 * One post (a Note, an Article, a Question...) as an HTML article: its content made safe (safeHtml),
 * behind its content warning when it has one, attachments, poll, replies count, date and a link to
 * its own page. `heading` is the tag of its title, when it has one.
 */
export function renderPost(object: Json, options: { link?: string; heading?: 'h1' | 'h2' } = {}): string {
  const heading = options.heading ?? 'h2';
  const name = textOf(object, 'name');
  const content = textOf(object, 'content');
  const warning = textOf(object, 'summary');
  const body = `${content ? safeHtml(content) : ''}${attachments(object)}${poll(object)}`;
  const replies = isObject(object.replies) && typeof object.replies.totalItems === 'number' ?
    ` · ${object.replies.totalItems} ${object.replies.totalItems === 1 ? 'reply' : 'replies'}` :
    '';
  const published = typeof object.published === 'string' ? object.published : undefined;
  const when = published ? `<time datetime="${escapeHtml(published)}">${escapeHtml(published.slice(0, 16).replace('T', ' '))} UTC</time>` : '';
  const link = options.link ?? idOf(object);
  return `<article>
${name && typeOf(object) !== 'Question' ? `<${heading}>${escapeHtml(name)}</${heading}>` : ''}
${warning ? `<details><summary>${escapeHtml(warning)}</summary>${body}</details>` : body}
<p class="meta">${link && isWebUrl(link) ? `<a href="${escapeHtml(link)}">${when || 'Permalink'}</a>` : when}${replies}</p>
</article>`;
}
