import { createHash, randomUUID } from 'node:crypto';
import { FileKeyValueStorage } from '../../storage/FileKeyValueStorage';
import { FedpodHttpError } from '../../util/HttpErrors';
import type { AccountDataRemover } from '../accounts/AccountDataRemover';

/** The alerts a subscription names, as Mastodon's `data[alerts]` (the admin ones with their dot). */
export const PUSH_ALERTS = [ 'mention', 'status', 'reblog', 'follow', 'follow_request', 'favourite', 'poll', 'update',
  'admin.sign_up', 'admin.report' ] as const;
export type PushAlert = typeof PUSH_ALERTS[number];
export type PushAlerts = Record<PushAlert, boolean>;

/** Whose notifications are pushed: everyone's, of those the user follows, of their followers, no one's. */
export const PUSH_POLICIES = [ 'all', 'followed', 'follower', 'none' ] as const;
export type PushPolicy = typeof PUSH_POLICIES[number];

/** One access token's Web Push subscription. */
export interface PushSubscription {
  id: string;
  username: string;
  /**
   * The access token itself: Mastodon's push payload carries it (apps tell by it which of their
   * accounts a push is for), and a push is sent only while it is valid.
   */
  token: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  alerts: PushAlerts;
  policy: PushPolicy;
  created: string;
}

/** What a request asks for: `subscription` on POST, `data` on POST and PUT (Mastodon's parameters, nested). */
export interface PushRequest {
  subscription?: unknown;
  data?: unknown;
  /** masto.js sends the policy beside `data`. */
  policy?: unknown;
}

const MAX_ENDPOINT_LENGTH = 2048;

const invalid = (reason: string): FedpodHttpError => new FedpodHttpError(422, 'unprocessable_entity', `Validation failed: ${reason}`);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Web Push subscriptions of the Mastodon API: one per access token (a new one replaces the token's
 * old one), each a JSON file (mode 0600) in `<dataDir>/mastodon/push/<user>/`, so every node sharing
 * the data directory pushes the same ones and a user's are listed without reading anyone else's.
 */
export class PushSubscriptions implements AccountDataRemover {
  private readonly stores = new Map<string, FileKeyValueStorage<PushSubscription>>();

  public constructor(private readonly dataDir: string) {}

  /** The token's subscription, made from a request (its old one replaced); invalid input: 422. */
  public async subscribe(username: string, token: string, request: PushRequest): Promise<PushSubscription> {
    const subscription = isRecord(request.subscription) ? request.subscription : {};
    const keys = isRecord(subscription.keys) ? subscription.keys : {};
    const record: PushSubscription = {
      id: randomUUID(),
      username,
      token,
      endpoint: endpointOf(subscription.endpoint),
      keys: { p256dh: keyOf(keys.p256dh, 'p256dh', 65), auth: keyOf(keys.auth, 'auth', 16) },
      alerts: alertsOf(dataOf(request).alerts),
      policy: policyOf(request) ?? 'all',
      created: new Date().toISOString(),
    };
    await this.storeOf(username).set(token, record);
    return record;
  }

  /** Changes the alerts and policy a request gives; undefined when the token has no subscription. */
  public async update(username: string, token: string, request: PushRequest): Promise<PushSubscription | undefined> {
    const known = await this.get(username, token);
    if (!known) {
      return undefined;
    }
    const data = dataOf(request);
    const updated: PushSubscription = {
      ...known,
      ...data.alerts === undefined ? {} : { alerts: alertsOf(data.alerts) },
      policy: policyOf(request) ?? known.policy,
    };
    await this.storeOf(username).set(token, updated);
    return updated;
  }

  public async get(username: string, token: string): Promise<PushSubscription | undefined> {
    return this.storeOf(username).get(token);
  }

  public async delete(username: string, token: string): Promise<boolean> {
    return this.storeOf(username).delete(token);
  }

  /** A deleted account's subscriptions (its tokens are dead already: nothing more is pushed). */
  public async removeAccountData(username: string): Promise<void> {
    for (const subscription of await this.ofUser(username)) {
      await this.delete(username, subscription.token);
    }
  }

  /** Every subscription of the user. */
  public async ofUser(username: string): Promise<PushSubscription[]> {
    const subscriptions: PushSubscription[] = [];
    for await (const [ , subscription ] of this.storeOf(username).entries()) {
      subscriptions.push(subscription);
    }
    return subscriptions;
  }

  private storeOf(username: string): FileKeyValueStorage<PushSubscription> {
    let store = this.stores.get(username);
    if (!store) {
      // Named by a hash: a username never becomes a path of its own.
      const directory = createHash('sha256').update(username).digest('hex').slice(0, 32);
      store = new FileKeyValueStorage<PushSubscription>(this.dataDir, `mastodon/push/${directory}`);
      this.stores.set(username, store);
    }
    return store;
  }
}

/** Mastodon's WebPushSubscription entity. */
export function pushSubscriptionEntity(subscription: PushSubscription, serverKey: string): Record<string, unknown> {
  return {
    id: subscription.id,
    endpoint: subscription.endpoint,
    alerts: { ...subscription.alerts },
    policy: subscription.policy,
    server_key: serverKey,
  };
}

function dataOf(request: PushRequest): Record<string, unknown> {
  return isRecord(request.data) ? request.data : {};
}

function endpointOf(value: unknown): string {
  if (typeof value !== 'string' || value.length > MAX_ENDPOINT_LENGTH) {
    throw invalid(`subscription[endpoint] must be a URL of at most ${MAX_ENDPOINT_LENGTH} characters.`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('subscription[endpoint] must be a URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw invalid('subscription[endpoint] must be an https URL.');
  }
  return url.href;
}

/** A key as apps send it: base64url or base64 (padded or not) of `bytes` bytes; kept as base64url. */
function keyOf(value: unknown, name: string, bytes: number): string {
  const decoded = typeof value === 'string' && /^[A-Za-z0-9+/_-]+={0,2}$/u.test(value) ?
    Buffer.from(value.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/u, ''), 'base64url') :
    undefined;
  if (!decoded || decoded.length !== bytes || (name === 'p256dh' && decoded[0] !== 0x04)) {
    throw invalid(`subscription[keys][${name}] must be the base64url of ${bytes === 65 ? 'an uncompressed P-256 public key' : `${bytes} bytes`}.`);
  }
  return decoded.toString('base64url');
}

/** Mastodon's alerts: each false unless given true; the admin ones as `admin.sign_up` or `admin: { sign_up }`. */
function alertsOf(value: unknown): PushAlerts {
  const given = isRecord(value) ? value : {};
  const admin = isRecord(given.admin) ? given.admin : {};
  return Object.fromEntries(PUSH_ALERTS.map((alert): [PushAlert, boolean] => [ alert, truthy(
    alert.startsWith('admin.') ? given[alert] ?? admin[alert.slice('admin.'.length)] : given[alert],
  ) ])) as PushAlerts;
}

function policyOf(request: PushRequest): PushPolicy | undefined {
  const value = dataOf(request).policy ?? request.policy;
  if (value === undefined || value === null || value === '') {
    return undefined;
  }
  if (typeof value !== 'string' || !(PUSH_POLICIES as readonly string[]).includes(value)) {
    throw invalid(`data[policy] must be one of ${PUSH_POLICIES.join(', ')}.`);
  }
  return value as PushPolicy;
}

/** As Rails reads a boolean parameter: true, "true", "1", "on". */
function truthy(value: unknown): boolean {
  return value === true || value === 1 || (typeof value === 'string' && [ 'true', '1', 'on', 't' ].includes(value.toLowerCase()));
}
