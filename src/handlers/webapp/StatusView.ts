import type { MastodonAccount } from '../../plugins/mastodon/AccountEntity';
import type { MastodonNotification } from '../../plugins/mastodon/MastodonNotifications';
import type { MastodonAttachment, MastodonPoll, MastodonStatus } from '../../plugins/mastodon/StatusEntity';
import { escapeHtml, isWebUrl, safeHtml } from '../http/Html';
import type { WebReader } from './WebSession';
import { FORM_KEY_FIELD } from './WebSession';

/** Where the app's pages are and who reads them: what a status's links and forms need. */
export interface ViewContext {
  /** The base URL, ending in `/`. */
  base: string;
  reader?: WebReader;
  /** The page the forms come back to (a path under the base, with its query). */
  back: string;
}

/** The hidden fields of every form of a page: the session's form key and the page to come back to. */
export function formFields(context: ViewContext): string {
  return `<input type="hidden" name="${FORM_KEY_FIELD}" value="${escapeHtml(context.reader?.formKey)}">` +
    `<input type="hidden" name="back" value="${escapeHtml(context.back)}">`;
}

/** A form with one button that POSTs an action of the app. */
export function actionForm(context: ViewContext, path: string, label: string, pressed?: boolean, extra = ''): string {
  const state = pressed === undefined ? '' : ` aria-pressed="${pressed}"`;
  return `<form method="post" action="${escapeHtml(context.base)}${escapeHtml(path)}">${formFields(context)}${extra}` +
    `<button type="submit"${state}>${escapeHtml(label)}</button></form>`;
}

/** The app's page of an account: `@user` here, `@user@host` elsewhere. */
export function accountPath(account: MastodonAccount): string {
  return `web/@${encodeURIComponent(account.acct).replaceAll('%40', '@')}`;
}

/** An account's name, linked to its page in the app, with its handle. */
export function accountLink(context: ViewContext, account: MastodonAccount): string {
  const name = account.display_name || account.username;
  return `<a href="${escapeHtml(context.base)}${escapeHtml(accountPath(account))}"><strong>${escapeHtml(name)}</strong></a>` +
    ` <span class="handle">@${escapeHtml(account.acct)}</span>`;
}

/**
 * Media: images with their alt text (shown under them too), video and audio with the browser's
 * controls and their description as text, others linked. Several are a grid of pictures cut to
 * their focal point. Sensitive media, of any kind, are behind a `<details>` the reader opens.
 */
function media(status: MastodonStatus): string {
  const items = status.media_attachments.filter((item): boolean => isWebUrl(item.url)).map((item: MastodonAttachment): string => {
    const alt = item.description ?? '';
    const caption = alt ? `<figcaption>${item.type === 'video' || item.type === 'audio' ? 'Description' : 'Alt'}: ${escapeHtml(alt)}</figcaption>` : '';
    return `<figure>${mediaElement(item, alt)}${caption}</figure>`;
  });
  if (items.length === 0) {
    return '';
  }
  const all = items.length > 1 ? `<div class="media-grid">${items.join('')}</div>` : items.join('');
  return status.sensitive ? `<details class="sensitive"><summary>Sensitive media: show</summary>${all}</details>` : all;
}

function mediaElement(item: MastodonAttachment, alt: string): string {
  const label = alt ? ` aria-label="${escapeHtml(alt)}"` : '';
  const link = `<a href="${escapeHtml(item.url)}" rel="nofollow noopener noreferrer">${escapeHtml(alt || `A ${item.type} file`)}</a>`;
  switch (item.type) {
    case 'image':
    case 'gifv':
      return `<img src="${escapeHtml(isWebUrl(item.preview_url) ? item.preview_url : item.url)}" alt="${escapeHtml(alt)}" loading="lazy"${
        focusStyle(item)}>`;
    case 'video': {
      const poster = isWebUrl(item.preview_url) && item.preview_url !== item.url ? ` poster="${escapeHtml(item.preview_url)}"` : '';
      // The link inside is for a browser that plays no video.
      return `<video controls preload="metadata" src="${escapeHtml(item.url)}"${poster}${label}>${link}</video>`;
    }
    case 'audio':
      return `<audio controls preload="none" src="${escapeHtml(item.url)}"${label}>${link}</audio>`;
    default:
      return link;
  }
}

/** An image's focal point (Mastodon's `meta.focus`, y upwards) as the part of it a cut picture keeps. */
function focusStyle(item: MastodonAttachment): string {
  const focus = item.meta.focus as { x?: unknown; y?: unknown } | undefined;
  if (typeof focus?.x !== 'number' || typeof focus.y !== 'number' || !Number.isFinite(focus.x) || !Number.isFinite(focus.y)) {
    return '';
  }
  const percent = (value: number): number => Math.round(Math.min(1, Math.max(0, value)) * 1000) / 10;
  return ` style="object-position: ${percent((focus.x + 1) / 2)}% ${percent((1 - focus.y) / 2)}%"`;
}

/**
 * A poll: its vote form when the reader may still vote (`own` is the poll as the reader sees it, with
 * their votes: only the status view reads it), its results once they voted, for its author, or once
 * it ended; otherwise just its options (the counts would sway the vote).
 */
function poll(context: ViewContext, status: MastodonStatus, own?: MastodonPoll): string {
  const shown = own ?? status.poll;
  if (!shown) {
    return '';
  }
  const mine = context.reader !== undefined && status.account.acct === context.reader.username;
  const ends = shown.expires_at ? `<time datetime="${escapeHtml(shown.expires_at)}">${escapeHtml(shown.expires_at.slice(0, 16).replace('T', ' '))} UTC</time>` : '';
  const meta = `<p class="meta">${shown.votes_count} ${shown.votes_count === 1 ? 'vote' : 'votes'}${
    ends ? ` · ${shown.expired ? 'ended' : 'ends'} ${ends}` : ''}${shown.multiple ? ' · several choices allowed' : ''}</p>`;
  if (own && context.reader && !mine && !own.expired && !own.voted) {
    const type = own.multiple ? 'checkbox' : 'radio';
    const choices = own.options.map((option, index): string => `<label><input type="${type}" name="choices" value="${index}"${
      own.multiple ? '' : ' required'}> ${escapeHtml(option.title)}</label>`).join('\n');
    return `<form method="post" action="${escapeHtml(context.base)}web/statuses/${encodeURIComponent(status.id)}/vote" class="poll">${
      formFields(context)}
<fieldset><legend>Poll: ${own.multiple ? 'choose one or more' : 'choose one'}</legend>
${choices}
</fieldset>
<button type="submit">Vote</button>
</form>${meta}`;
  }
  if (shown.expired || own?.voted || mine) {
    const total = shown.options.reduce((sum, option): number => sum + (option.votes_count ?? 0), 0);
    return `<ul class="poll" aria-label="Poll results">${shown.options.map((option, index): string => {
      const count = option.votes_count ?? 0;
      const share = total > 0 ? Math.round(count * 100 / total) : 0;
      const chosen = own?.own_votes.includes(index) ? ' (your vote)' : '';
      return `<li>${escapeHtml(option.title)}: ${count} (${share}%)${chosen}</li>`;
    }).join('')}</ul>${meta}`;
  }
  const hint = context.reader && !mine ?
    `<a href="${escapeHtml(context.base)}web/statuses/${encodeURIComponent(status.id)}">Vote</a>` :
    'Results when the poll ends.';
  return `<ul class="poll" aria-label="Poll options">${shown.options.map((option): string =>
    `<li>${escapeHtml(option.title)}</li>`).join('')}</ul>${meta}<p class="meta">${hint}</p>`;
}

const VISIBILITY: Record<MastodonStatus['visibility'], string> = {
  public: 'Public', unlisted: 'Unlisted', private: 'Followers only', direct: 'Mentioned people only',
};

/**
 * One status as an article of the app: author, content (made safe) behind its content warning,
 * media, poll, date linked to its thread (and when it was edited), and for a logged-in reader the
 * buttons (reply, like, boost, bookmark; edit and delete their own, report anybody else's). A boost shows who boosted it above the original.
 */
export function renderStatus(context: ViewContext, shown: MastodonStatus, ownPoll?: MastodonPoll): string {
  const status = shown.reblog ?? shown;
  const boosted = shown.reblog ? `<p class="meta">${accountLink(context, shown.account)} boosted</p>` : '';
  const body = `${safeHtml(status.content)}${media(status)}${poll(context, status, ownPoll)}`;
  const content = status.spoiler_text ?
    `<details><summary>Content warning: ${escapeHtml(status.spoiler_text)}</summary>${body}</details>` :
    body;
  const thread = `${context.base}web/statuses/${encodeURIComponent(status.id)}`;
  const when = `<a href="${escapeHtml(thread)}"><time datetime="${escapeHtml(status.created_at)}">${
    escapeHtml(status.created_at.slice(0, 16).replace('T', ' '))} UTC</time></a>`;
  const counts = `${status.replies_count} ${status.replies_count === 1 ? 'reply' : 'replies'}`;
  const edited = status.edited_at ? ` · <span class="edited">edited <time datetime="${escapeHtml(status.edited_at)}">${
    escapeHtml(status.edited_at.slice(0, 16).replace('T', ' '))} UTC</time></span>` : '';
  return folded(shown, `<article class="status" id="status-${escapeHtml(status.id)}" data-status="${escapeHtml(status.id)}">
${boosted}<p class="byline">${accountLink(context, status.account)}</p>
${content}
<p class="meta">${when}${edited} · ${escapeHtml(VISIBILITY[status.visibility])} · ${escapeHtml(counts)}</p>
${context.reader ? actions(context, status) : ''}</article>`);
}

/**
 * A status the reader's `warn` filters matched, folded as Mastodon's apps show it: "Filtered:" and
 * the filters' titles, the status inside for the reader who opens it (a `hide` filter's never gets here).
 */
function folded(status: MastodonStatus, article: string): string {
  // Statuses built elsewhere (tests, older callers) may have no `filtered`.
  const results = Array.isArray(status.filtered) ? status.filtered as { filter?: { title?: unknown } }[] : [];
  const titles = results.map((result): unknown => result.filter?.title)
    .filter((title): title is string => typeof title === 'string');
  return titles.length === 0 ? article :
    `<details class="filtered"><summary>Filtered: ${escapeHtml(titles.join(', '))}</summary>\n${article}</details>`;
}

function actions(context: ViewContext, status: MastodonStatus): string {
  const path = (action: string): string => `web/statuses/${encodeURIComponent(status.id)}/${action}`;
  const own = status.account.acct === context.reader!.username;
  const boostable = status.visibility === 'public' || status.visibility === 'unlisted';
  return `<div class="actions">
<a href="${escapeHtml(context.base)}web/compose?in_reply_to_id=${encodeURIComponent(status.id)}">Reply</a>
${actionForm(context, path(status.favourited ? 'unfavourite' : 'favourite'), `Like (${status.favourites_count})`, status.favourited)}
${boostable ? actionForm(context, path(status.reblogged ? 'unreblog' : 'reblog'), `Boost (${status.reblogs_count})`, status.reblogged) : ''}
${actionForm(context, path(status.bookmarked ? 'unbookmark' : 'bookmark'), 'Bookmark', status.bookmarked)}
${own ? `<a href="${escapeHtml(context.base)}${escapeHtml(path('edit'))}">Edit</a>` : ''}
${own ? actionForm(context, path('delete'), 'Delete') : `<a href="${escapeHtml(context.base)}web/report?account_id=${
  encodeURIComponent(status.account.id)}&amp;status_id=${encodeURIComponent(status.id)}">Report</a>`}
</div>
`;
}

const NOTIFICATION_TEXT: Record<MastodonNotification['type'], string> = {
  mention: 'mentioned you', reblog: 'boosted your post', follow: 'followed you', follow_request: 'asks to follow you',
  favourite: 'liked your post', update: 'edited a post',
};

/** One notification: who did what, the status it is about, and for a follow request the answers. */
export function renderNotification(context: ViewContext, notification: MastodonNotification): string {
  const account = notification.account;
  const answer = notification.type === 'follow_request' ?
    `<div class="actions">${actionForm(context, `web/accounts/${encodeURIComponent(account.id)}/authorize`, 'Accept')}` +
    `${actionForm(context, `web/accounts/${encodeURIComponent(account.id)}/reject`, 'Reject')}</div>` :
    '';
  return `<section class="notification" data-notification="${escapeHtml(notification.id)}">
<p>${accountLink(context, account)} ${escapeHtml(NOTIFICATION_TEXT[notification.type])}
<span class="meta"><time datetime="${escapeHtml(notification.created_at)}">${escapeHtml(notification.created_at.slice(0, 16).replace('T', ' '))} UTC</time></span></p>
${answer}${notification.status ? renderStatus(context, notification.status) : ''}</section>`;
}
