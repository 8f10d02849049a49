/** The server's name and description when the setup gives none (the instance entity's and the front page's). */
export const DEFAULT_INSTANCE_TITLE = 'Fedpod';
export const DEFAULT_INSTANCE_DESCRIPTION = 'A Solid pod, an ActivityPub actor and a Mastodon account in one.';

/** What the Instance entities say about this server. */
export interface InstanceFacts {
  /** The public base URL. */
  baseUrl: string;
  title: string;
  description: string;
  /** Fedpod's version (package.json). */
  softwareVersion: string;
  sourceUrl?: string;
  userCount: number;
  statusCount: number;
  maxCharacters: number;
  maxMediaAttachments: number;
  /** Whether anyone may sign up (without an invite); absent: yes. */
  registrations?: boolean;
  /** Whether an operator approves each signup. */
  approvalRequired?: boolean;
  /** The public VAPID key apps subscribe to Web Push with, when the server sends it. */
  vapidKey?: string;
}

/** The Mastodon version apps are told, so they enable what Mastodon 4.2 has, as other servers do. */
export function mastodonVersion(softwareVersion: string): string {
  return `4.2.0 (compatible; Fedpod ${softwareVersion})`;
}

function configuration(facts: InstanceFacts): Record<string, unknown> {
  return {
    accounts: { max_featured_tags: 0, max_pinned_statuses: 5 },
    statuses: { max_characters: facts.maxCharacters, max_media_attachments: facts.maxMediaAttachments,
      characters_reserved_per_url: 23 },
    media_attachments: { supported_mime_types: [], image_size_limit: 0, image_matrix_limit: 0, video_size_limit: 0,
      video_frame_rate_limit: 0, video_matrix_limit: 0 },
    polls: { max_options: 4, max_characters_per_option: 50, min_expiration: 300, max_expiration: 2_629_746 },
  };
}

function streamingUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`;
}

/** GET /api/v1/instance (Mastodon's V1::Instance). */
export function instanceV1(facts: InstanceFacts): Record<string, unknown> {
  const { host } = new URL(facts.baseUrl);
  return {
    uri: host,
    title: facts.title,
    short_description: facts.description,
    description: facts.description,
    email: '',
    version: mastodonVersion(facts.softwareVersion),
    urls: { streaming_api: streamingUrl(facts.baseUrl) },
    stats: { user_count: facts.userCount, status_count: facts.statusCount, domain_count: 0 },
    thumbnail: null,
    languages: [],
    registrations: facts.registrations ?? true,
    approval_required: facts.approvalRequired ?? false,
    invites_enabled: false,
    configuration: configuration(facts),
    contact_account: null,
    rules: [],
  };
}

/** GET /api/v2/instance (Mastodon's Instance). */
export function instanceV2(facts: InstanceFacts): Record<string, unknown> {
  const { host } = new URL(facts.baseUrl);
  return {
    domain: host,
    title: facts.title,
    version: mastodonVersion(facts.softwareVersion),
    source_url: facts.sourceUrl ?? '',
    description: facts.description,
    usage: { users: { active_month: facts.userCount }},
    thumbnail: { url: '' },
    languages: [],
    configuration: { urls: { streaming: streamingUrl(facts.baseUrl) }, ...configuration(facts),
      ...facts.vapidKey === undefined ? {} : { vapid: { public_key: facts.vapidKey }},
      translation: { enabled: false }},
    registrations: { enabled: facts.registrations ?? true, approval_required: facts.approvalRequired ?? false, message: null },
    contact: { email: '', account: null },
    rules: [],
  };
}
