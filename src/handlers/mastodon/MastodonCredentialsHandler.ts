import type { IncomingMessage } from 'node:http';
import type { MediaRecord, MediaStore, ReceivedMedia } from '../../plugins/media/MediaStore';
import { unprocessableMedia } from '../../plugins/media/MediaProcessing';
import type { MastodonAccount } from '../../plugins/mastodon/AccountEntity';
import type { MastodonProfiles, ProfileChanges } from '../../plugins/mastodon/MastodonProfiles';
import { badRequest } from '../../util/HttpErrors';
import { mediaTypeOf, readJsonBody, readBody, sendJson } from '../http/HttpUtil';
import type { OperationInput } from '../http/Operation';
import { readUpload } from '../media/MediaUpload';
import { MastodonHandler } from './MastodonHandler';

const MAX_BODY = 64 * 1024;
/** Mastodon's limits on a profile. */
const MAX_NAME = 30;
const MAX_NOTE = 500;
const MAX_FIELDS = 4;

/**
 * PATCH /api/v1/accounts/update_credentials: `display_name`, `note`, `locked`, `discoverable`,
 * `fields_attributes` (JSON, a form or multipart), `avatar` and `header` images (multipart; stored
 * as uploads, public as the profile is). The profile changes by an Update of the actor through the
 * outbox (MastodonProfiles); answers the Account with its `source`. `bot` is not kept (the
 * actor's type stays Person). Invalid values: 422, and nothing changes.
 */
export class MastodonCredentialsHandler extends MastodonHandler {
  public constructor(
    private readonly profiles: MastodonProfiles,
    private readonly media: MediaStore,
  ) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const username = operation.agent.username!;
    const { params, files } = await this.read(request, username);
    const account = await updateProfile(this.profiles, this.media, username, params, files);
    sendJson(response, 200, { ...account, source: { privacy: 'public', sensitive: false, language: null,
      note: params.note ?? '', fields: account.fields, follow_requests_count: 0 }});
  }

  /** The body's values as flat keys (`fields_attributes[0][name]`), and its images. */
  private async read(request: IncomingMessage, username: string): Promise<{ params: Record<string, unknown>; files: Map<string, ReceivedMedia> }> {
    const type = mediaTypeOf(request.headers['content-type']);
    if (type === 'multipart/form-data') {
      const { fields, files } = await readUpload(request, this.media, username, [ 'avatar', 'header' ]);
      return { params: Object.fromEntries(fields), files };
    }
    if (type === 'application/json') {
      const body = await readJsonBody(request, MAX_BODY);
      if (!body || typeof body !== 'object' || Array.isArray(body)) {
        throw badRequest('Send the changes as a JSON object.');
      }
      return { params: body as Record<string, unknown>, files: new Map() };
    }
    const form = new URLSearchParams((await readBody(request, MAX_BODY)).toString('utf8'));
    return { params: Object.fromEntries(form), files: new Map() };
  }
}

/**
 * Changes a local user's profile as update_credentials does, for the API and the settings page: the
 * parameters (flat keys, as Mastodon's form names them) and images checked first (422, the received
 * files discarded), then the images stored as public uploads and one Update of the actor.
 */
export async function updateProfile(profiles: MastodonProfiles, media: MediaStore, username: string,
  params: Record<string, unknown>, files: Map<string, ReceivedMedia>): Promise<MastodonAccount> {
  let changes: ProfileChanges;
  try {
    changes = profileChanges(params);
    for (const [ name, received ] of files) {
      if (received.type.kind !== 'image') {
        throw unprocessableMedia(`Validation failed: ${name} must be an image`);
      }
    }
  } catch (error: unknown) {
    await Promise.all([ ...files.values() ].map(async(received): Promise<void> => media.discard(received)));
    throw error;
  }
  const images: Record<string, MediaRecord> = {};
  for (const [ name, received ] of files) {
    images[name] = await media.commit(received, {});
    // A profile picture is as public as the profile.
    await media.attach([ images[name] ], images[name].owner);
  }
  return profiles.update(username, { ...changes, avatar: images.avatar, header: images.header });
}

/** The changes the parameters ask for; 422 for values Mastodon refuses. */
function profileChanges(params: Record<string, unknown>): ProfileChanges {
  const text = (name: string): string | undefined => {
    const value = params[name];
    return value === undefined || value === null ? undefined : String(value);
  };
  const flag = (name: string): boolean | undefined => {
    const value = text(name);
    return value === undefined ? undefined : [ 'true', '1', 'on' ].includes(value);
  };
  const changes: ProfileChanges = { displayName: text('display_name'), note: text('note'), locked: flag('locked'),
    discoverable: flag('discoverable'), fields: fieldsOf(params) };
  if (changes.displayName !== undefined && [ ...changes.displayName ].length > MAX_NAME) {
    throw unprocessableMedia(`Validation failed: Display name is too long (maximum is ${MAX_NAME} characters)`);
  }
  if (changes.note !== undefined && [ ...changes.note ].length > MAX_NOTE) {
    throw unprocessableMedia(`Validation failed: Note is too long (maximum is ${MAX_NOTE} characters)`);
  }
  return changes;
}

/** `fields_attributes` as JSON (a list, or an object by index) or as form keys `fields_attributes[i][name|value]`. */
function fieldsOf(params: Record<string, unknown>): ProfileChanges['fields'] {
  const byIndex = new Map<string, { name?: unknown; value?: unknown }>();
  const nested = params.fields_attributes;
  if (nested && typeof nested === 'object') {
    for (const [ index, field ] of Object.entries(nested as Record<string, unknown>)) {
      if (field && typeof field === 'object') {
        byIndex.set(index, field as { name?: unknown; value?: unknown });
      }
    }
  }
  for (const [ key, value ] of Object.entries(params)) {
    const match = /^fields_attributes\[(\d+)\]\[(name|value)\]$/u.exec(key);
    if (match) {
      byIndex.set(match[1], { ...byIndex.get(match[1]), [match[2]]: value });
    }
  }
  if (byIndex.size === 0) {
    return undefined;
  }
  const fields = [ ...byIndex.entries() ].sort(([ a ], [ b ]): number => Number(a) - Number(b))
    .map(([ , field ]): { name: string; value: string } => ({ name: String(field.name ?? ''), value: String(field.value ?? '') }))
    .filter((field): boolean => field.name !== '' || field.value !== '');
  if (fields.length > MAX_FIELDS) {
    throw unprocessableMedia(`Validation failed: Fields are at most ${MAX_FIELDS}`);
  }
  return fields;
}
