/**
 * Web Push of the Mastodon API on the default setup, with a real push service on loopback that
 * checks each push's VAPID signature and decrypts it with the subscriber's key: alice subscribes
 * (masto.js), bob follows, mentions and favourites her and her pushes arrive; carol, a stranger,
 * never sees alice's subscription; alerts turned off send nothing; a 410 ends the subscription; a
 * read-only token may not subscribe; a revoked token's subscription is deleted unsent.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createRestAPIClient, type mastodon } from 'masto';
import generator from 'megalodon';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { claimRedisDb } from '../../support/env';
import { eventually } from '../../support/eventually';
import { appToken } from '../../support/mastodon-oauth';
import { postToOutbox, signup, type Session } from '../../support/local-actors';
import { PushService, type ReceivedPush } from '../../support/push-service';

// The queue of pushes is the backend's: journalled in the data directory, or BullMQ on Redis.
const BACKENDS: { name: string; redis: boolean }[] = [ { name: 'local backend', redis: false }, { name: 'redis backend', redis: true } ];

describe.each(BACKENDS)('Mastodon Web Push on the $name', (backend) => {
  let server: FedpodServer;
  let push: PushService;
  let url: string;
  let serverKey: string;
  const sessions: Record<string, Session> = {};
  const tokens: Record<string, string> = {};
  const masto: Record<string, mastodon.rest.Client> = {};

  async function api(path: string, token: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers }});
    return { status: response.status, body: await response.json() as Record<string, unknown> };
  }

  /** The next push to `name` of this type, once it arrived. */
  async function pushOf(name: string, type: string): Promise<ReceivedPush> {
    return eventually(async() => push.pushesTo(name).find((candidate) => candidate.payload.notification_type === type), 60_000);
  }

  beforeAll(async() => {
    push = await PushService.start();
    server = await startFedpod({ config: 'activitypub', allowPrivateNetwork: true, ...backend.redis ? { redisUrl: claimRedisDb() } : {}});
    url = server.baseUrl.replace(/\/$/u, '');
    for (const username of [ 'alice', 'bob', 'carol' ]) {
      sessions[username] = await signup(server.baseUrl, username);
      tokens[username] = await appToken(server.baseUrl, username, 'correct horse', 'read write follow push');
      masto[username] = createRestAPIClient({ url, accessToken: tokens[username] });
    }
  });

  afterAll(async() => {
    await server?.stop();
    await push?.close();
  });

  it('names its VAPID key in the v2 instance and to registering apps', async() => {
    const instance = await (await fetch(`${url}/api/v2/instance`)).json() as { configuration: { vapid?: { public_key?: string } } };
    serverKey = instance.configuration.vapid!.public_key!;
    expect(Buffer.from(serverKey, 'base64url')).toHaveLength(65);
    const app = await (await fetch(`${url}/api/v1/apps`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'push app', redirect_uris: 'urn:ietf:wg:oauth:2.0:oob', scopes: 'read push' }) })).json() as
      { vapid_key?: string };
    expect(app.vapid_key).toBe(serverKey);
  });

  it('refuses a token without the push scope', async() => {
    const readOnly = await appToken(server.baseUrl, 'alice', 'correct horse', 'read');
    const answer = await api('/api/v1/push/subscription', readOnly, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ subscription: push.subscriber('readonly') }) });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toBe('This action is outside the authorized scopes');
    expect((await api('/api/v1/push/subscription', readOnly)).status).toBe(403);
  });

  it('subscribes alice (masto.js) and refuses invalid keys', async() => {
    const subscription = await masto.alice.v1.push.subscription.create({
      subscription: push.subscriber('alice'),
      data: { alerts: { mention: true, favourite: true, follow: true }},
      policy: 'all',
    });
    expect(subscription).toMatchObject({ serverKey, policy: 'all', endpoint: `${push.origin}/push/alice`,
      alerts: { mention: true, favourite: true, follow: true, reblog: false, poll: false }});
    expect((await masto.alice.v1.push.subscription.fetch()).id).toBe(subscription.id);
    const invalid = await api('/api/v1/push/subscription', tokens.alice, { method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ 'subscription[endpoint]': `${push.origin}/push/x`, 'subscription[keys][p256dh]': 'AAAA',
        'subscription[keys][auth]': 'AAAA' }).toString() });
    expect(invalid.status).toBe(422);
    // The refused one replaced nothing.
    expect((await masto.alice.v1.push.subscription.fetch()).id).toBe(subscription.id);
  });

  it('gives carol no way to read or end alice\'s subscription', async() => {
    expect(await api('/api/v1/push/subscription', tokens.carol)).toEqual({ status: 404, body: { error: 'Record not found' }});
    expect((await api('/api/v1/push/subscription', tokens.carol, { method: 'PUT', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { alerts: { mention: false }}}) })).status).toBe(404);
    expect((await api('/api/v1/push/subscription', tokens.carol, { method: 'DELETE' })).status).toBe(200);
    expect((await masto.alice.v1.push.subscription.fetch()).alerts.mention).toBe(true);
  });

  it('pushes a follow, a mention and a favourite to alice, signed and encrypted, with what she may read', async() => {
    expect((await postToOutbox(sessions.bob, { type: 'Follow', object: sessions.alice.webId })).status).toBe(201);
    const follow = await pushOf('alice', 'follow');
    expect(follow.vapidKey).toBe(serverKey);
    expect(follow.headers.ttl).toBeDefined();
    const [ listed ] = await masto.alice.v1.notifications.list({ types: [ 'follow' ]});
    expect(follow.payload).toEqual({ access_token: tokens.alice, preferred_locale: 'en', notification_id: listed.id,
      notification_type: 'follow', icon: listed.account.avatarStatic, title: 'bob is now following you', body: '' });

    await masto.bob.v1.statuses.create({ status: '@alice a secret between us', visibility: 'direct' });
    const mention = await pushOf('alice', 'mention');
    expect(mention.payload).toMatchObject({ title: 'You were mentioned by bob', body: '@alice a secret between us' });

    const own = await masto.alice.v1.statuses.create({ status: 'Favourite me', visibility: 'public' });
    await masto.bob.v1.statuses.$select(own.id).favourite();
    const favourite = await pushOf('alice', 'favourite');
    expect(favourite.payload).toMatchObject({ title: 'bob favorited your post', body: 'Favourite me' });
    expect(push.refused).toEqual([]);
    // Nothing pushed to anyone else.
    expect(push.received.filter((received) => received.subscriber !== 'alice')).toEqual([]);
  });

  it('sends nothing for alerts turned off (megalodon changes them)', async() => {
    const client = generator('mastodon', url, tokens.alice);
    const updated = await client.updatePushSubscription({ alerts: { mention: false, favourite: true }});
    expect(updated.data.alerts).toMatchObject({ mention: false, favourite: true, follow: false });
    await masto.bob.v1.statuses.create({ status: '@alice not pushed', visibility: 'public' });
    await eventually(async() => (await masto.alice.v1.notifications.list({ types: [ 'mention' ]}))
      .some((notification) => notification.status?.content.includes('not pushed')));
    // A later favourite is pushed: the mention, recorded before it, was not.
    const own = await masto.alice.v1.statuses.create({ status: 'Favourite me again', visibility: 'public' });
    await masto.bob.v1.statuses.$select(own.id).favourite();
    await eventually(async() => push.pushesTo('alice').some((received) => received.payload.body === 'Favourite me again'), 60_000);
    expect(push.pushesTo('alice').filter((received) => String(received.payload.body).includes('not pushed'))).toEqual([]);
  });

  it('deletes a subscription the push service answers 410 for', async() => {
    push.answer('alice', 410);
    const own = await masto.alice.v1.statuses.create({ status: 'Gone soon', visibility: 'public' });
    await masto.bob.v1.statuses.$select(own.id).favourite();
    await eventually(async() => (await api('/api/v1/push/subscription', tokens.alice)).status === 404, 60_000);
  });

  it('deletes a revoked token\'s subscription without pushing to it', async() => {
    const subscribed = await api('/api/v1/push/subscription', tokens.carol, { method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ subscription: push.subscriber('carol'), data: { alerts: { mention: true }, policy: 'all' }}) });
    expect(subscribed.status).toBe(200);
    const directory = join(server.dataDir, 'mastodon', 'push');
    const files = async(): Promise<number> => {
      let count = 0;
      for (const user of await readdir(directory)) {
        count += (await readdir(join(directory, user))).filter((name) => name.endsWith('.json')).length;
      }
      return count;
    };
    const before = await files();
    const apps = await (await fetch(`${url}/auth/apps`, { headers: { authorization: `Bearer ${sessions.carol.token}` }})).json() as
      { clientId: string }[];
    for (const app of apps) {
      expect((await fetch(`${url}/auth/apps/${app.clientId}`, { method: 'DELETE',
        headers: { authorization: `Bearer ${sessions.carol.token}` }})).status).toBe(204);
    }
    await masto.bob.v1.statuses.create({ status: '@carol are you there', visibility: 'public' });
    await eventually(async() => await files() === before - 1, 60_000);
    expect(push.pushesTo('carol')).toEqual([]);
  });
});
