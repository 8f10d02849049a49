import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RemoteFetcher } from '../../../../src/plugins/activitypub/fetch/RemoteFetcher';
import type { MastodonNotification, MastodonNotifications, NewNotification, NotificationListener } from '../../../../src/plugins/mastodon/MastodonNotifications';
import type { MastodonAccounts } from '../../../../src/plugins/mastodon/MastodonAccounts';
import type { MastodonOAuthService, OAuthBearer } from '../../../../src/plugins/mastodon/MastodonOAuthService';
import { PushSubscriptions } from '../../../../src/plugins/mastodon/PushSubscriptions';
import type { PushSubscription } from '../../../../src/plugins/mastodon/PushSubscriptions';
import { VapidKeys } from '../../../../src/plugins/mastodon/VapidKeys';
import type { WebPushJob } from '../../../../src/plugins/mastodon/WebPushDelivery';
import { plainText, WebPushDelivery } from '../../../../src/plugins/mastodon/WebPushDelivery';
import type { JobQueueFactory } from '../../../../src/plugins/queue/JobQueueFactory';
import { PermanentJobError } from '../../../../src/plugins/queue/PermanentJobError';
import type { Collections } from '../../../../src/storage/Collections';
import { ActorUrls } from '../../../../src/plugins/activitypub/ActorUrls';
import { eventually } from '../../../support/eventually';
import { PushService } from '../../../support/push-service';

const BASE = 'https://pod.example/';
const BOB = 'https://remote.example/users/bob';

function notification(type: MastodonNotification['type'], id = '0190a000-0000-7000-8000-000000000001'): MastodonNotification {
  return {
    id, type, created_at: '2026-01-01T00:00:00.000Z',
    account: { username: 'bob', display_name: 'Bob', uri: BOB, avatar_static: 'https://remote.example/bob.png', note: '<p>Hi, I am <b>Bob</b></p>' },
    ...type === 'follow' ? {} : { status: { content: '<p>Hello &amp; welcome<br>alice</p>', spoiler_text: '' }},
  } as unknown as MastodonNotification;
}

/** As MastodonNotifications tells its listeners of a new one; its entity must never be built for queueing. */
function made(type: MastodonNotification['type'], kept = true): NewNotification {
  const { id } = notification(type);
  return { id, type, actor: BOB, kept: async(): Promise<boolean> => kept, entity: async(): Promise<MastodonNotification> => {
    throw new Error('queueing a push built the notification');
  } };
}

describe('WebPushDelivery', (): void => {
  let dataDir: string;
  let push: PushService;
  let fetcher: RemoteFetcher;
  let subscriptions: PushSubscriptions;
  let vapid: VapidKeys;
  let delivery: WebPushDelivery;
  let listener: NotificationListener;
  const added: { data: WebPushJob; jobId?: string }[] = [];
  const stored = new Map<string, MastodonNotification>();
  const holders = new Map<string, OAuthBearer>();
  const following = new Set<string>();

  beforeAll(async(): Promise<void> => {
    push = await PushService.start();
    fetcher = new RemoteFetcher(true, 10_000);
  });

  afterAll(async(): Promise<void> => {
    fetcher.close();
    await push.close();
  });

  beforeEach((): void => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-webpush-'));
    subscriptions = new PushSubscriptions(dataDir);
    vapid = new VapidKeys(dataDir);
    added.length = 0;
    stored.clear();
    holders.clear();
    following.clear();
    const notifications = {
      listen: (given: NotificationListener): void => {
        listener = given;
      },
      get: async(username: string, id: string): Promise<MastodonNotification | undefined> => stored.get(`${username} ${id}`),
    } as unknown as MastodonNotifications;
    const urls = new ActorUrls(BASE);
    delivery = new WebPushDelivery({
      baseUrl: BASE,
      notifications,
      subscriptions,
      vapid,
      oauth: { holder: async(token: string): Promise<OAuthBearer | undefined> => holders.get(token) } as unknown as MastodonOAuthService,
      fetcher,
      queues: { create: (): unknown => ({ add: async(data: WebPushJob, options?: { jobId?: string }): Promise<string> => {
        added.push({ data, jobId: options?.jobId });
        return options?.jobId ?? 'job';
      } }) } as unknown as JobQueueFactory,
      collections: { contains: async(collection: string, item: string): Promise<boolean> =>
        collection === urls.collection('alice', 'following') && following.has(item) } as unknown as Collections,
      accounts: { urls } as unknown as MastodonAccounts,
    });
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function subscribe(name: string, token: string, alerts: Record<string, boolean>, policy = 'all'): Promise<PushSubscription> {
    holders.set(token, { clientId: 'app', username: 'alice', webId: `${BASE}actors/alice`, scopes: [ 'read', 'push' ]});
    return subscriptions.subscribe('alice', token, { subscription: push.subscriber(name), data: { alerts, policy }});
  }

  it('queues a notification for the subscriptions whose alerts and policy take it', async(): Promise<void> => {
    const mentions = await subscribe('a', 'token-a', { mention: true });
    await subscribe('b', 'token-b', { favourite: true });
    const followed = await subscribe('c', 'token-c', { mention: true }, 'followed');
    await subscribe('d', 'token-d', { mention: true }, 'none');
    await delivery.queueFor('alice', made('mention'));
    expect(added.map((job) => job.data.subscription)).toEqual([ mentions.id ]);
    expect(added[0]).toEqual({ data: { username: 'alice', subscription: mentions.id, notification: notification('mention').id },
      jobId: `${mentions.id}.${notification('mention').id}` });
    following.add(BOB);
    added.length = 0;
    listener('alice', made('mention'));
    // The listener queues in the background.
    await eventually(async(): Promise<boolean> => added.length === 2);
    expect(added.map((job) => job.data.subscription).sort()).toEqual([ mentions.id, followed.id ].sort());
    // A delivery seen before made no notification: nothing queued.
    added.length = 0;
    await delivery.queueFor('alice', made('mention', false));
    expect(added).toEqual([]);
  });

  it('sends Mastodon\'s payload, encrypted for the subscriber and signed with the server\'s VAPID key', async(): Promise<void> => {
    const subscription = await subscribe('alice1', 'token-1', { mention: true });
    const mention = notification('mention');
    stored.set(`alice ${mention.id}`, mention);
    await delivery.run({ id: 'job', queue: 'web-push', attempt: 1,
      data: { username: 'alice', subscription: subscription.id, notification: mention.id }});
    const [ received ] = push.pushesTo('alice1');
    expect(received.vapidKey).toBe(await vapid.publicKey());
    expect(received.headers.ttl).toBe(String(48 * 60 * 60));
    expect(received.payload).toEqual({ access_token: 'token-1', preferred_locale: 'en', notification_id: mention.id,
      notification_type: 'mention', icon: 'https://remote.example/bob.png', title: 'You were mentioned by Bob', body: 'Hello & welcome\nalice' });
    expect(push.refused).toEqual([]);
  });

  it('sends nothing for a notification gone, and deletes a subscription whose token is revoked or lost the scope', async(): Promise<void> => {
    const subscription = await subscribe('alice2', 'token-2', { mention: true });
    const job = { id: 'job', queue: 'web-push', attempt: 1, data: { username: 'alice', subscription: subscription.id, notification: 'gone' }};
    await delivery.run(job);
    expect(await subscriptions.get('alice', 'token-2')).toBeDefined();
    holders.set('token-2', { clientId: 'app', username: 'alice', webId: `${BASE}actors/alice`, scopes: [ 'read' ]});
    stored.set(`alice ${notification('mention').id}`, notification('mention'));
    await delivery.run({ ...job, data: { ...job.data, notification: notification('mention').id }});
    expect(await subscriptions.get('alice', 'token-2')).toBeUndefined();
    const other = await subscribe('alice3', 'token-3', { mention: true });
    holders.delete('token-3');
    await delivery.run({ ...job, data: { ...job.data, subscription: other.id, notification: notification('mention').id }});
    expect(await subscriptions.get('alice', 'token-3')).toBeUndefined();
    expect(push.pushesTo('alice2')).toEqual([]);
    expect(push.pushesTo('alice3')).toEqual([]);
  });

  it('deletes the subscription on 404 or 410, retries 5xx and 429, gives up on other 4xx', async(): Promise<void> => {
    const mention = notification('mention');
    stored.set(`alice ${mention.id}`, mention);
    const runFor = async(name: string, status: number): Promise<{ error?: unknown; kept: boolean }> => {
      const subscription = await subscribe(name, `token-${name}`, { mention: true });
      push.answer(name, status);
      let error: unknown;
      try {
        await delivery.run({ id: 'job', queue: 'web-push', attempt: 1,
          data: { username: 'alice', subscription: subscription.id, notification: mention.id }});
      } catch (thrown: unknown) {
        error = thrown;
      }
      return { error, kept: await subscriptions.get('alice', `token-${name}`) !== undefined };
    };
    expect(await runFor('s410', 410)).toEqual({ error: undefined, kept: false });
    expect(await runFor('s404', 404)).toEqual({ error: undefined, kept: false });
    for (const status of [ 500, 429 ]) {
      const { error, kept } = await runFor(`s${status}`, status);
      expect(kept).toBe(true);
      expect(PermanentJobError.is(error)).toBe(false);
      expect((error as Error).message).toBe(`The push service answered ${status}`);
    }
    const refused = await runFor('s400', 400);
    expect(refused.kept).toBe(true);
    expect(PermanentJobError.is(refused.error)).toBe(true);
  });

  it('reads HTML as text', (): void => {
    expect(plainText('<p>One</p><p>Two<br>three &lt;4&gt;</p>')).toBe('One\nTwo\nthree <4>');
    expect(plainText('')).toBe('');
  });
});
