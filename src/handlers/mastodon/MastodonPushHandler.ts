import type { PushRequest, PushSubscriptions } from '../../plugins/mastodon/PushSubscriptions';
import { pushSubscriptionEntity } from '../../plugins/mastodon/PushSubscriptions';
import { recordNotFound } from '../../plugins/mastodon/MastodonRecords';
import type { VapidKeys } from '../../plugins/mastodon/VapidKeys';
import { FedpodHttpError } from '../../util/HttpErrors';
import { mediaTypeOf, parseJson, readBody, sendJson } from '../http/HttpUtil';
import type { OperationInput } from '../http/Operation';
import { MastodonHandler } from './MastodonHandler';

const MAX_BODY_BYTES = 16 * 1024;
/** Names that would reach an object's prototype. */
const UNSAFE_KEYS = new Set([ '__proto__', 'constructor', 'prototype' ]);

/**
 * `/api/v1/push/subscription` (scope `push`): the request's access token's Web Push subscription.
 * POST makes it (replacing the token's old one), GET shows it, PUT changes its alerts and policy,
 * DELETE ends it; JSON or a form with Mastodon's bracketed names (`subscription[keys][p256dh]`).
 * A subscription belongs to an app's OAuth token: it is what the push's `access_token` names and
 * what ends the subscription when revoked, so Fedpod and Solid-OIDC tokens get 422 to a POST (and
 * 404 to the rest: they have none).
 */
export class MastodonPushHandler extends MastodonHandler {
  public constructor(private readonly subscriptions: PushSubscriptions, private readonly vapid: VapidKeys) {
    super();
  }

  protected async serve({ request, response, operation }: OperationInput): Promise<void> {
    const { agent } = operation;
    const token = /^Bearer\s+(\S+)\s*$/iu.exec(request.headers.authorization ?? '')?.[1];
    if (agent.app === undefined || agent.username === undefined || token === undefined) {
      // Such a token has no subscription to read, change or end (as Mastodon answers a token without one).
      if (request.method !== 'POST') {
        throw recordNotFound();
      }
      throw new FedpodHttpError(422, 'unprocessable_entity',
        'Validation failed: a Web Push subscription belongs to an app\'s OAuth token (from /oauth/token).');
    }
    const username = agent.username;
    const answer = async(subscription: Parameters<typeof pushSubscriptionEntity>[0]): Promise<void> =>
      sendJson(response, 200, pushSubscriptionEntity(subscription, await this.vapid.publicKey()), { 'cache-control': 'no-store' });
    switch (request.method) {
      case 'POST':
        return answer(await this.subscriptions.subscribe(username, token, await readPushRequest(request)));
      case 'PUT': {
        const updated = await this.subscriptions.update(username, token, await readPushRequest(request));
        if (!updated) {
          throw recordNotFound();
        }
        return answer(updated);
      }
      case 'DELETE':
        await this.subscriptions.delete(username, token);
        sendJson(response, 200, {});
        return;
      default: {
        const subscription = await this.subscriptions.get(username, token);
        if (!subscription) {
          throw recordNotFound();
        }
        return answer(subscription);
      }
    }
  }
}

/** The body as JSON, or a form's bracketed names made nested objects. */
async function readPushRequest(request: OperationInput['request']): Promise<PushRequest> {
  const text = (await readBody(request, MAX_BODY_BYTES)).toString('utf8');
  if (mediaTypeOf(request.headers['content-type']) === 'application/json') {
    const body = text.trim() === '' ? {} : parseJson(text);
    return typeof body === 'object' && body !== null ? body as PushRequest : {};
  }
  return nestedForm(new URLSearchParams(text)) as PushRequest;
}

/** `a[b][c]=v` as `{ a: { b: { c: v } } }` (Rails' reading of form names). */
export function nestedForm(form: URLSearchParams): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [ name, value ] of form) {
    const path = /^([^[\]]+)((?:\[[^[\]]*\])*)$/u.exec(name);
    if (!path) {
      continue;
    }
    const keys = [ path[1], ...[ ...path[2].matchAll(/\[([^[\]]*)\]/gu) ].map((match): string => match[1]) ];
    if (keys.some((key): boolean => UNSAFE_KEYS.has(key))) {
      continue;
    }
    let node = root;
    for (const key of keys.slice(0, -1)) {
      const next = node[key];
      if (typeof next !== 'object' || next === null || Object.getPrototypeOf(next) !== Object.prototype) {
        node[key] = {};
      }
      node = node[key] as Record<string, unknown>;
    }
    node[keys.at(-1)!] = value;
  }
  return root;
}
