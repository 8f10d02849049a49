import type { Json } from '../activitypub/ActivityJson';
import { idOf, idsOf, isObject, typeOf } from '../activitypub/ActivityJson';
import { PUBLIC_FORMS } from '../activitypub/ActivityVocabulary';
import type { MastodonAccount } from './AccountEntity';
import { urlOf } from './AccountEntity';

export type Visibility = 'public' | 'unlisted' | 'private' | 'direct';

export interface MastodonMention {
  id: string;
  username: string;
  url: string;
  acct: string;
}

export interface MastodonAttachment {
  id: string;
  type: 'image' | 'video' | 'gifv' | 'audio' | 'unknown';
  url: string;
  preview_url: string;
  remote_url: string | null;
  description: string | null;
  blurhash: string | null;
  meta: Record<string, unknown>;
}

export interface MastodonPoll {
  id: string;
  expires_at: string | null;
  expired: boolean;
  multiple: boolean;
  votes_count: number;
  voters_count: number | null;
  voted: boolean;
  own_votes: number[];
  options: { title: string; votes_count: number | null }[];
  emojis: unknown[];
}

/** Mastodon's Status entity (the fields apps read). */
export interface MastodonStatus {
  id: string;
  uri: string;
  url: string | null;
  created_at: string;
  edited_at: string | null;
  account: MastodonAccount;
  content: string;
  visibility: Visibility;
  sensitive: boolean;
  spoiler_text: string;
  media_attachments: MastodonAttachment[];
  application: null;
  mentions: MastodonMention[];
  tags: { name: string; url: string }[];
  emojis: unknown[];
  reblogs_count: number;
  favourites_count: number;
  replies_count: number;
  in_reply_to_id: string | null;
  in_reply_to_account_id: string | null;
  reblog: MastodonStatus | null;
  poll: MastodonPoll | null;
  card: null;
  language: string | null;
  text: string | null;
  favourited: boolean;
  reblogged: boolean;
  muted: boolean;
  bookmarked: boolean;
  pinned: boolean;
  filtered: unknown[];
}

/** What the API knows beside the object itself: ids, the author, the reader's own marks. */
export interface StatusContext {
  id: string;
  account: MastodonAccount;
  inReplyToId?: string;
  inReplyToAccountId?: string;
  mentions?: MastodonMention[];
  reblog?: MastodonStatus;
  counts?: { replies: number; reblogs: number; favourites: number };
  favourited?: boolean;
  reblogged?: boolean;
  bookmarked?: boolean;
  pinned?: boolean;
  /** Whether the object was posted on this server (its attachments are then this server's files). */
  local?: boolean;
}

/**
 * Mastodon's visibility from the addressing, as Mastodon derives it: Public in `to` is public, in
 * `cc` unlisted; else the author's followers addressed is private (followers only); else direct.
 */
export function visibilityOf(document: Json, authorFollowers: string | undefined): Visibility {
  const to = idsOf(document.to);
  const cc = [ ...idsOf(document.cc), ...idsOf(document.audience) ];
  if (to.some((iri): boolean => PUBLIC_FORMS.has(iri))) {
    return 'public';
  }
  if (cc.some((iri): boolean => PUBLIC_FORMS.has(iri))) {
    return 'unlisted';
  }
  const followers = authorFollowers ?? `${idOf(document.attributedTo) ?? idOf(document.actor) ?? ''}/followers`;
  return [ ...to, ...cc ].includes(followers) ? 'private' : 'direct';
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined || value === null ? [] : [ value ];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The object's text in some language: `content`, else the first of `contentMap` (and that language). */
function contentOf(object: Json): { content: string; language: string | null } {
  const map = isObject(object.contentMap) ? object.contentMap : {};
  const [ language ] = Object.keys(map);
  const content = text(object.content) || (language ? text(map[language]) : '');
  return { content, language: language ?? null };
}

function attachmentType(mediaType: string, type: string | undefined): MastodonAttachment['type'] {
  const kind = mediaType.split('/')[0];
  if (kind === 'image' || type === 'Image') {
    return mediaType === 'image/gif' ? 'gifv' : 'image';
  }
  if (kind === 'video' || type === 'Video') {
    return 'video';
  }
  if (kind === 'audio' || type === 'Audio') {
    return 'audio';
  }
  return 'unknown';
}

/**
 * The object's attachments, by reference: their URLs on the server that holds them (no copy is
 * kept here). `remote_url` is that URL for another server's post and null for a post of this one
 * (as Mastodon has it), `preview_url` the attachment's `icon` when it names a thumbnail, `meta`
 * its size and focal point. A local upload keeps its own id (the file's name).
 */
export function attachmentsOf(object: Json, statusId: string, local = false): MastodonAttachment[] {
  const origin = local ? originOf(idOf(object)) : undefined;
  return list(object.attachment).filter(isObject).map((attachment, index): MastodonAttachment | undefined => {
    const url = urlOf(attachment.url) ?? urlOf(attachment.href);
    if (!url) {
      return undefined;
    }
    const description = text(attachment.name) || text(attachment.summary);
    const icon = isObject(attachment.icon) ? attachment.icon : undefined;
    const local = origin !== undefined && originOf(url) === origin;
    const upload = local ? UPLOAD_NAME.exec(url)?.[1] : undefined;
    return {
      id: upload ?? `${statusId}-${index}`,
      type: attachmentType(text(attachment.mediaType), typeOf(attachment)),
      url,
      preview_url: (icon ? urlOf(icon.url) : undefined) ?? url,
      remote_url: local ? null : url,
      description: description || null,
      blurhash: text(attachment.blurhash) || null,
      meta: attachmentMeta(attachment, icon),
    };
  }).filter((attachment): attachment is MastodonAttachment => attachment !== undefined);
}

/** A local upload's id in its file's URL (MediaStore names files `<id>.<ext>`). */
const UPLOAD_NAME = /\/media\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.[a-z0-9]+$/u;

function originOf(iri: string | undefined): string | undefined {
  try {
    return iri === undefined ? undefined : new URL(iri).origin;
  } catch {
    return undefined;
  }
}

/**
 * A flag as stored documents give it back: `true`, or a typed literal (`{ "@value": "true" }`: an
 * object with an RDF list, an image's focalPoint, is compacted by jsonld.js without native types).
 */
function booleanOf(value: unknown): boolean {
  const raw = isObject(value) ? value['@value'] : value;
  return raw === true || raw === 'true';
}

/** A number as stored documents give it back: a number, a numeric string, or a typed literal. */
function numberOf(value: unknown): number | undefined {
  const raw = isObject(value) ? value['@value'] : value;
  const number = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
  return Number.isFinite(number) ? number : undefined;
}

/** Mastodon's `meta`: `original` and `small` sizes where known, `focus` from `focalPoint`. */
export function attachmentMeta(attachment: Json, icon?: Json): Record<string, unknown> {
  const size = (of: Json | undefined): Record<string, unknown> | undefined => {
    // `as:width` when the stored integer was not typed as the context's term (jsonld.js compaction).
    const width = numberOf(of?.width ?? of?.['as:width']);
    const height = numberOf(of?.height ?? of?.['as:height']);
    return width !== undefined && height !== undefined && width > 0 && height > 0 ?
      { width, height, size: `${width}x${height}`, aspect: width / height } :
      undefined;
  };
  const focal = list(attachment.focalPoint).map(numberOf);
  const original = size(attachment);
  const small = size(icon);
  return {
    ...original ? { original } : {},
    ...small ? { small } : {},
    ...focal.length === 2 && focal.every((value): boolean => typeof value === 'number') ?
      { focus: { x: focal[0], y: focal[1] }} :
      {},
  };
}

/** A Question's poll: `oneOf` (one choice) or `anyOf` (several), each option's votes in `replies.totalItems`. */
export function pollOf(object: Json, statusId: string, now = new Date()): MastodonPoll | null {
  if (typeOf(object) !== 'Question') {
    return null;
  }
  const multiple = object.anyOf !== undefined;
  const options = list(multiple ? object.anyOf : object.oneOf).filter(isObject).map((option) => {
    const replies = isObject(option.replies) ? option.replies.totalItems : undefined;
    // In the order they were given: the store keeps each option's position (ValueOrder), so a vote's indexes mean the same on every read.
    return { title: text(option.name), votes_count: typeof replies === 'number' ? replies : 0 };
  });
  const end = text(object.endTime) || text(object.closed);
  const voters = object.votersCount;
  return {
    id: statusId,
    expires_at: end || null,
    expired: object.closed !== undefined || (end !== '' && Date.parse(end) <= now.getTime()),
    multiple,
    votes_count: options.reduce((sum, option): number => sum + (option.votes_count ?? 0), 0),
    voters_count: typeof voters === 'number' ? voters : null,
    voted: false,
    own_votes: [],
    options,
    emojis: [],
  };
}

/** The object's Hashtag tags, each with its page on the server that made it (its `href`). */
export function hashtagsOf(object: Json): { name: string; url: string }[] {
  return list(object.tag).filter((tag): tag is Json => isObject(tag) && typeOf(tag) === 'Hashtag').map((tag) => ({
    name: text(tag.name).replace(/^#/u, '').toLowerCase(),
    url: text(tag.href),
  })).filter((tag): boolean => tag.name !== '');
}

/**
 * A stored Note, Question, Article (or any object with content) as Mastodon's Status: `context`
 * gives what is not in the object (ids, the author's Account, the reader's marks).
 */
export function toStatus(object: Json, context: StatusContext, now = new Date()): MastodonStatus {
  const uri = idOf(object) ?? '';
  const { content, language } = contentOf(object);
  const summary = text(object.summary);
  const authorUri = context.account.uri;
  const name = text(object.name);
  // An Article's title leads its text, as Mastodon shows it.
  const body = typeOf(object) === 'Article' && name ? `<p><strong>${name}</strong></p>${content}` : content;
  return {
    id: context.id,
    uri,
    url: urlOf(object.url) ?? uri,
    created_at: text(object.published) || now.toISOString(),
    edited_at: text(object.updated) || null,
    account: context.account,
    content: body,
    visibility: visibilityOf(object, authorUri ? `${authorUri}/followers` : undefined),
    sensitive: booleanOf(object.sensitive) || summary !== '',
    spoiler_text: summary,
    media_attachments: attachmentsOf(object, context.id, context.local === true),
    application: null,
    mentions: context.mentions ?? [],
    tags: hashtagsOf(object),
    emojis: [],
    reblogs_count: context.counts?.reblogs ?? 0,
    favourites_count: context.counts?.favourites ?? 0,
    replies_count: context.counts?.replies ?? 0,
    in_reply_to_id: context.inReplyToId ?? null,
    in_reply_to_account_id: context.inReplyToAccountId ?? null,
    reblog: context.reblog ?? null,
    poll: pollOf(object, context.id, now),
    card: null,
    language,
    text: null,
    favourited: context.favourited ?? false,
    reblogged: context.reblogged ?? false,
    muted: false,
    bookmarked: context.bookmarked ?? false,
    pinned: context.pinned ?? false,
    filtered: [],
  };
}
