import type { MastodonStatuses, NewStatus } from '../../plugins/mastodon/MastodonStatuses';
import { mediaTypeOf, parseJson, readBody, sendJson } from '../http/HttpUtil';
import { badRequest } from '../../util/HttpErrors';
import type { OperationInput } from '../http/Operation';
import { MastodonHandler, readerOf } from './MastodonHandler';
import { readOAuthParams, single } from './OAuthParams';

const ACTIONS = {
  favourite: [ 'Like', true ],
  unfavourite: [ 'Like', false ],
  reblog: [ 'Announce', true ],
  unreblog: [ 'Announce', false ],
} as const;

/**
 * The statuses endpoints, by the route's name: `mastodon-statuses` (POST: a new status, from JSON
 * or a form, with Idempotency-Key), `mastodon-status` (GET, DELETE of `:id`), `mastodon-status-context`
 * (`:id/context`) and `mastodon-status-action` (`:id/favourite`, `unfavourite`, `reblog`, `unreblog`).
 */
export class MastodonStatusesHandler extends MastodonHandler {
  public constructor(
    private readonly statuses: MastodonStatuses,
    private readonly maxBodyBytes = 1_048_576,
  ) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const id = operation.params.id ?? '';
    const username = operation.agent.username;
    switch (operation.route.name) {
      case 'mastodon-statuses': {
        const input = await readNewStatus(request, this.maxBodyBytes);
        const key = request.headers['idempotency-key'];
        sendJson(response, 200, await this.statuses.post(username!, input, typeof key === 'string' ? key : undefined));
        return;
      }
      case 'mastodon-status-context':
        sendJson(response, 200, await this.statuses.context(id, await readerOf(operation)));
        return;
      case 'mastodon-status-action': {
        const action = operation.target.path.split('/').at(-1) as keyof typeof ACTIONS;
        const [ type, on ] = ACTIONS[action];
        sendJson(response, 200, on ?
          await this.statuses.react(username!, id, type) :
          await this.statuses.unreact(username!, id, type));
        return;
      }
      default:
        sendJson(response, 200, request.method === 'DELETE' ?
          await this.statuses.delete(username!, id) :
          await this.statuses.get(id, await readerOf(operation)));
    }
  }
}

/**
 * A status's parameters (POST, or PUT of an edit), from JSON, a form or multipart (as apps send any of them;
 * a poll as `poll[options][]`, media as `media_ids[]`).
 */
export async function readNewStatus(request: OperationInput['request'], maxBodyBytes: number): Promise<NewStatus> {
  if (mediaTypeOf(request.headers['content-type']) === 'multipart/form-data') {
    // Apps that upload with multipart post the status so too (text fields only).
    const params = await readOAuthParams(request, new URLSearchParams());
    const one = (name: string): string | undefined => single(params, name);
    // readOAuthParams keeps `name[]` fields under `name`.
    const many = (name: string): string[] => {
      const value = params[name.endsWith('[]') ? name.slice(0, -2) : name];
      return value === undefined ? [] : Array.isArray(value) ? value : [ value ];
    };
    return fromForm(one, many);
  }
  const text = (await readBody(request, maxBodyBytes)).toString('utf8');
  if ((request.headers['content-type'] ?? '').includes('json')) {
    const parsed = parseJson(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw badRequest('Send the status as a JSON object.');
    }
    return parsed as NewStatus;
  }
  const form = new URLSearchParams(text);
  return fromForm((name): string | undefined => form.get(name) ?? undefined, (name): string[] => form.getAll(name));
}

/** A status's parameters from the fields of a form (urlencoded or multipart). */
function fromForm(value: (name: string) => string | undefined, values: (name: string) => string[]): NewStatus {
  const options = values('poll[options][]');
  const mediaIds = [ ...new Set([ ...values('media_ids[]'), ...values('media_ids') ]) ];
  return { status: value('status'), spoiler_text: value('spoiler_text'), visibility: value('visibility'),
    sensitive: value('sensitive') === 'true', in_reply_to_id: value('in_reply_to_id'), language: value('language'),
    ...mediaIds.length > 0 ? { media_ids: mediaIds } : {},
    ...options.length > 0 ? { poll: { options, expires_in: value('poll[expires_in]'), multiple: value('poll[multiple]') === 'true' }} : {}};
}
