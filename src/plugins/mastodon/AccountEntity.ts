import type { Json } from '../activitypub/ActivityJson';
import { idOf, isObject, typeOf } from '../activitypub/ActivityJson';

/** Mastodon's Account entity (the fields apps read). */
export interface MastodonAccount {
  id: string;
  username: string;
  acct: string;
  display_name: string;
  locked: boolean;
  bot: boolean;
  discoverable: boolean;
  group: boolean;
  created_at: string;
  note: string;
  url: string;
  uri: string;
  avatar: string;
  avatar_static: string;
  header: string;
  header_static: string;
  followers_count: number;
  following_count: number;
  statuses_count: number;
  last_status_at: string | null;
  emojis: unknown[];
  fields: { name: string; value: string; verified_at: string | null }[];
}

export interface AccountCounts {
  followers: number;
  following: number;
  statuses: number;
}

export interface AccountContext {
  /** The account's id (MastodonRecords). */
  id: string;
  /** This server's host: its accounts' acct has no `@host`. */
  localHost: string;
  /** The images shown when an actor has no icon or header. */
  defaultAvatar: string;
  defaultHeader: string;
  /** Counts this server knows (its own users'); zero otherwise. */
  counts?: AccountCounts;
}

/** The URL of an ActivityStreams link or image: a string, `{ url }` or `{ href }`, or the first of an array. */
export function urlOf(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first === 'string') {
    return first;
  }
  if (isObject(first)) {
    return urlOf(first.url) ?? (typeof first.href === 'string' ? first.href : undefined);
  }
  return undefined;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** An actor document (local or remote) as Mastodon's Account. */
export function toAccount(actor: Json, context: AccountContext): MastodonAccount {
  const uri = idOf(actor) ?? '';
  const username = text(actor.preferredUsername) || decodeURIComponent(uri.split('/').filter(Boolean).at(-1) ?? '');
  let host = '';
  try {
    host = new URL(uri).host;
  } catch {
    // Not a URL: shown without a host.
  }
  const type = typeOf(actor);
  const avatar = urlOf(actor.icon) ?? context.defaultAvatar;
  const header = urlOf(actor.image) ?? context.defaultHeader;
  const attachments = Array.isArray(actor.attachment) ? actor.attachment : actor.attachment ? [ actor.attachment ] : [];
  return {
    id: context.id,
    username,
    acct: host === context.localHost || host === '' ? username : `${username}@${host}`,
    display_name: text(actor.name),
    locked: actor.manuallyApprovesFollowers === true,
    bot: type === 'Service' || type === 'Application',
    discoverable: actor.discoverable !== false,
    group: type === 'Group',
    created_at: text(actor.published) || new Date(0).toISOString(),
    note: text(actor.summary),
    url: urlOf(actor.url) ?? uri,
    uri,
    avatar,
    avatar_static: avatar,
    header,
    header_static: header,
    followers_count: context.counts?.followers ?? 0,
    following_count: context.counts?.following ?? 0,
    statuses_count: context.counts?.statuses ?? 0,
    last_status_at: null,
    emojis: [],
    fields: attachments.filter((field): field is Json => isObject(field) && typeOf(field) === 'PropertyValue')
      .map((field): MastodonAccount['fields'][number] => ({ name: text(field.name), value: text(field.value), verified_at: null })),
  };
}
