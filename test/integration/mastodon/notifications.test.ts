/**
 * Notifications, markers and the streaming API on the default setup, through masto.js, megalodon and
 * a bare WebSocket as apps open it: alice is the owner, bob follows her (and mentions, favourites,
 * boosts), carol is a stranger who must never get a followers-only or direct post on any stream.
 */
import { createRestAPIClient, createStreamingAPIClient, type mastodon } from 'masto';
import generator, { type Entity, type MegalodonInterface } from 'megalodon';
import WebSocket from 'ws';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { eventually } from '../../support/eventually';
import { appToken } from '../../support/mastodon-oauth';
import { contentOf, RawStream, type StreamEvent } from '../../support/mastodon-streams';
import { postToOutbox, signup, type Session } from '../../support/local-actors';
import { TEST_STORES } from '../../support/stores';

describe.each(TEST_STORES)('Mastodon notifications and streaming on the $name', (store) => {
  let server: FedpodServer;
  let url: string;
  const sessions: Record<string, Session> = {};
  const tokens: Record<string, string> = {};
  const masto: Record<string, mastodon.rest.Client> = {};
  const megalodon: Record<string, MegalodonInterface> = {};
  const opened: { close: () => void }[] = [];
  let aliceStream: RawStream;
  let bobStream: RawStream;
  let carolUser: RawStream;
  let carolPublic: RawStream;
  let alicePost: mastodon.v1.Status;

  async function open(query: string, token?: string): Promise<RawStream> {
    const stream = await RawStream.open(url, query, token);
    opened.push(stream);
    return stream;
  }

  async function api(path: string, token: string, init: RequestInit = {}): Promise<{ status: number; body: unknown; link: string | null }> {
    const response = await fetch(`${url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers }});
    return { status: response.status, body: await response.json(), link: response.headers.get('link') };
  }

  const updates = (stream: RawStream, text: string) => (event: StreamEvent): boolean =>
    event.event === 'update' && contentOf(event).includes(text);

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub', ...store.extraArgs() });
    url = server.baseUrl.replace(/\/$/u, '');
    await Promise.all([ 'alice', 'bob', 'carol' ].map(async(username) => {
      sessions[username] = await signup(server.baseUrl, username);
      tokens[username] = await appToken(server.baseUrl, username, 'correct horse', 'read write follow');
      masto[username] = createRestAPIClient({ url, accessToken: tokens[username] });
      megalodon[username] = generator('mastodon', url, tokens[username]);
    }));
    [ aliceStream, bobStream, carolUser, carolPublic ] = await Promise.all([ open('?stream=user', tokens.alice),
      open(`?stream=user&access_token=${tokens.bob}`), open('?stream=user', tokens.carol), open('', tokens.carol) ]);
    carolPublic.send({ type: 'subscribe', stream: 'public' });
    carolPublic.send({ type: 'subscribe', stream: 'hashtag', tag: 'Fedpod' });
    for (const stream of [ aliceStream, bobStream, carolUser, carolPublic ]) {
      await stream.ready();
    }
  });

  afterAll(async() => {
    for (const stream of opened) {
      stream.close();
    }
    await server?.stop();
  });

  it('answers the streaming health check and names the streaming URL', async() => {
    const health = await fetch(`${url}/api/v1/streaming/health`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe('OK');
    expect((await masto.carol.v2.instance.fetch()).configuration.urls.streaming).toBe(`ws://${new URL(url).host}`);
  });

  it('notifies and streams a follow', async() => {
    expect((await postToOutbox(sessions.bob, { type: 'Follow', object: sessions.alice.webId })).status).toBe(201);
    const event = await aliceStream.waitFor((candidate) => candidate.event === 'notification');
    expect(JSON.parse(event.payload)).toMatchObject({ type: 'follow', account: { id: 'bob' }});
    expect(event.stream).toEqual([ 'user' ]);
    const listed = await masto.alice.v1.notifications.list();
    expect(listed.map((notification) => [ notification.type, notification.account.id ])).toEqual([[ 'follow', 'bob' ]]);
    // Bob's following takes alice when her Accept arrives: her followers-only posts then reach him.
    await eventually(async() => (await masto.bob.v1.accounts.verifyCredentials()).followingCount === 1);
  });

  it('streams own and followed posts to the user, public ones to public and hashtag streams', async() => {
    alicePost = await masto.alice.v1.statuses.create({ status: 'Hello streams', visibility: 'public' });
    const own = await aliceStream.waitFor(updates(aliceStream, 'Hello streams'));
    expect(JSON.parse(own.payload)).toMatchObject({ id: alicePost.id, account: { id: 'alice' }});
    await bobStream.waitFor(updates(bobStream, 'Hello streams'));
    await carolPublic.waitFor((event) => event.stream[0] === 'public' && contentOf(event).includes('Hello streams'));
    // Hashtags come as Hashtag tags (the API's own posts do not make them yet).
    expect((await postToOutbox(sessions.alice, { type: 'Note', content: 'Tagged #Fedpod', to: [ 'https://www.w3.org/ns/activitystreams#Public' ],
      tag: [{ type: 'Hashtag', name: '#Fedpod', href: `${url}/tags/fedpod` }]})).status).toBe(201);
    const tagged = await carolPublic.waitFor((event) => event.stream[0] === 'hashtag' && contentOf(event).includes('Tagged'));
    expect(tagged.stream).toEqual([ 'hashtag', 'fedpod' ]);
  });

  it('never streams a followers-only or direct post to a stranger', async() => {
    await masto.alice.v1.statuses.create({ status: 'For followers', visibility: 'private' });
    await masto.alice.v1.statuses.create({ status: '@bob just you', visibility: 'direct' });
    await bobStream.waitFor(updates(bobStream, 'For followers'));
    await bobStream.waitFor(updates(bobStream, 'just you'));
    await aliceStream.waitFor(updates(aliceStream, 'just you'));
    // A later public post reaches carol's stream: had the others reached it, they would be there too.
    await masto.alice.v1.statuses.create({ status: 'Public again', visibility: 'public' });
    await carolPublic.waitFor((event) => event.stream[0] === 'public' && contentOf(event).includes('Public again'));
    await bobStream.waitFor(updates(bobStream, 'Public again'));
    for (const stream of [ carolPublic, carolUser ]) {
      expect(stream.events.filter((event) => /For followers|just you/u.test(event.payload))).toEqual([]);
    }
    expect(carolUser.events).toEqual([]);
  });

  it('notifies and streams mentions, favourites and boosts, to the user stream and to megalodon', async() => {
    const megalodonEvents: Entity.Notification[] = [];
    const socket = await megalodon.alice.userStreaming();
    opened.push({ close: () => socket.stop() });
    socket.on('notification', (notification: Entity.Notification) => megalodonEvents.push(notification));
    await new Promise<void>((resolve) => {
      socket.once('connect', () => resolve());
    });

    // The socket takes its subscriptions in order: a later alice notification proves both are listening.
    const start = aliceStream.events.length;
    const mention = await masto.bob.v1.statuses.create({ status: '@alice hello there', visibility: 'public' });
    await aliceStream.waitFor((event) => event.event === 'notification' && JSON.parse(event.payload).type === 'mention', 30_000, start);
    await masto.bob.v1.statuses.$select(alicePost.id).favourite();
    await masto.bob.v1.statuses.$select(alicePost.id).reblog();
    for (const type of [ 'favourite', 'reblog' ]) {
      const event = await aliceStream.waitFor((candidate) => candidate.event === 'notification' && JSON.parse(candidate.payload).type === type,
        30_000, start);
      expect(JSON.parse(event.payload)).toMatchObject({ type, account: { id: 'bob' }, status: { id: alicePost.id }});
    }
    await eventually(async() => megalodonEvents.some((notification) => notification.type === 'reblog'));
    expect(megalodonEvents.find((notification) => notification.type === 'reblog')?.status?.id).toBe(alicePost.id);
    const listed = await masto.alice.v1.notifications.list();
    expect(listed.map((notification) => notification.type)).toEqual([ 'reblog', 'favourite', 'mention', 'follow' ]);
    expect(listed[2].status?.id).toBe(mention.id);
    expect((await megalodon.alice.getNotifications({ exclude_types: [ 'follow', 'mention' ] })).data.map((notification) => notification.type))
      .toEqual([ 'reblog', 'favourite' ]);
    expect((await masto.alice.v1.notifications.list({ types: [ 'mention' ] })).map((notification) => notification.type)).toEqual([ 'mention' ]);
    expect(await masto.alice.v1.notifications.list({ accountId: 'carol' })).toEqual([]);
    // Nobody is notified of what they did themselves (bob: only alice's direct mention), and strangers have nothing.
    expect((await masto.bob.v1.notifications.list()).map((notification) => [ notification.type, notification.account.id ]))
      .toEqual([[ 'mention', 'alice' ]]);
    expect(await masto.carol.v1.notifications.list()).toEqual([]);
  });

  it('streams through masto.js\'s streaming client', async() => {
    const streaming = createStreamingAPIClient({ streamingApiUrl: `ws://${new URL(url).host}`, accessToken: tokens.alice,
      implementation: WebSocket, retry: false });
    const events: mastodon.streaming.Event[] = [];
    const subscription = streaming.user.subscribe();
    const reading = (async() => {
      for await (const event of subscription) {
        events.push(event);
      }
    })();
    try {
      // Subscribed once one of alice's posts comes through: posting until one does, as no event says so
      // (a probe that arrives late is seen while waiting for the next).
      await eventually(async() => {
        await masto.alice.v1.statuses.create({ status: 'Probe for masto.js', visibility: 'unlisted' });
        return eventually(async() => events.some((event) => event.event === 'update'), 1000, 50).then(() => true, () => false);
      }, 60_000);
      const post = await masto.alice.v1.statuses.create({ status: 'Seen by masto.js', visibility: 'private' });
      await eventually(async() => events.some((event) => event.event === 'update' && event.payload.id === post.id));
    } finally {
      streaming.close();
      await reading.catch(() => undefined);
    }
  });

  it('pages notifications both ways with Link headers', async() => {
    const all = (await api('/api/v1/notifications', tokens.alice)).body as { id: string }[];
    expect(all).toHaveLength(4);
    const first = await api('/api/v1/notifications?limit=2', tokens.alice);
    expect((first.body as { id: string }[]).map((notification) => notification.id)).toEqual([ all[0].id, all[1].id ]);
    const next = /<([^>]+)>; rel="next"/u.exec(first.link!)![1];
    const second = await api(new URL(next).pathname + new URL(next).search, tokens.alice);
    expect((second.body as { id: string }[]).map((notification) => notification.id)).toEqual([ all[2].id, all[3].id ]);
    const prev = /<([^>]+)>; rel="prev"/u.exec(second.link!)![1];
    const back = await api(new URL(prev).pathname + new URL(prev).search, tokens.alice);
    expect((back.body as { id: string }[]).map((notification) => notification.id)).toEqual([ all[0].id, all[1].id ]);
    const since = await api(`/api/v1/notifications?since_id=${all[2].id}&limit=1`, tokens.alice);
    expect((since.body as { id: string }[]).map((notification) => notification.id)).toEqual([ all[0].id ]);
    // Through masto.js's paginator too.
    const pages: string[][] = [];
    for await (const page of masto.alice.v1.notifications.list({ limit: 3 })) {
      pages.push(page.map((notification) => notification.id));
    }
    expect(pages.flat()).toEqual(all.map((notification) => notification.id));
  });

  it('gets, dismisses and clears notifications, each user only their own', async() => {
    const [ newest, second ] = await masto.alice.v1.notifications.list();
    expect(await masto.alice.v1.notifications.$select(newest.id).fetch()).toMatchObject({ id: newest.id, type: newest.type });
    expect((await api(`/api/v1/notifications/${newest.id}`, tokens.carol)).status).toBe(404);
    expect((await api(`/api/v1/notifications/${newest.id}/dismiss`, tokens.carol, { method: 'POST' })).status).toBe(404);
    const readOnly = await appToken(server.baseUrl, 'alice', 'correct horse', 'read');
    expect((await api(`/api/v1/notifications/${newest.id}/dismiss`, readOnly, { method: 'POST' })).status).toBe(403);
    expect((await api('/api/v1/notifications/unread_count', tokens.alice)).body).toEqual({ count: 4 });

    await masto.alice.v1.markers.create({ notifications: { lastReadId: second.id }, home: { lastReadId: alicePost.id }});
    const markers = await masto.alice.v1.markers.fetch({ timeline: [ 'home', 'notifications' ]});
    expect(markers.notifications).toMatchObject({ lastReadId: second.id, version: 1 });
    expect(markers.home).toMatchObject({ lastReadId: alicePost.id, version: 1 });
    expect(await masto.bob.v1.markers.fetch({ timeline: [ 'notifications' ]})).toEqual({});
    expect((await api('/api/v1/notifications/unread_count', tokens.alice)).body).toEqual({ count: 1 });

    await masto.alice.v1.notifications.$select(newest.id).dismiss();
    expect((await masto.alice.v1.notifications.list()).map((notification) => notification.id)).not.toContain(newest.id);
    expect((await api(`/api/v1/notifications/${newest.id}`, tokens.alice)).status).toBe(404);
    await masto.alice.v1.notifications.clear();
    expect(await masto.alice.v1.notifications.list()).toEqual([]);
  });

  it('notifies of an edit of a favourited post and of a follow request to a locked account', async() => {
    const post = await masto.bob.v1.statuses.create({ status: 'Before the edit', visibility: 'public' });
    await masto.alice.v1.statuses.$select(post.id).favourite();
    const start = aliceStream.events.length;
    // The Update replaces the Note, addressing included (as Mastodon's carry it).
    const addressing = { to: [ 'https://www.w3.org/ns/activitystreams#Public' ], cc: [ sessions.alice.webId ]};
    expect((await postToOutbox(sessions.bob, { type: 'Update', ...addressing,
      object: { id: post.uri, type: 'Note', content: 'After the edit', ...addressing }})).status).toBe(201);
    const edited = await aliceStream.waitFor((event) => event.event === 'notification' && event.payload.includes('"update"'), 30_000, start);
    expect(JSON.parse(edited.payload)).toMatchObject({ type: 'update', account: { id: 'bob' }, status: { id: post.id }});
    expect(JSON.parse(edited.payload).status.content).toContain('After the edit');
    await aliceStream.waitFor((event) => event.event === 'status.update' && event.payload.includes('After the edit'), 30_000, start);

    expect((await postToOutbox(sessions.carol, { type: 'Update', object: { id: sessions.carol.webId, manuallyApprovesFollowers: true }})).status)
      .toBe(201);
    expect((await postToOutbox(sessions.bob, { type: 'Follow', object: sessions.carol.webId })).status).toBe(201);
    await eventually(async() => (await masto.carol.v1.notifications.list()).length > 0);
    expect((await masto.carol.v1.notifications.list()).map((notification) => [ notification.type, notification.account.id ]))
      .toEqual([[ 'follow_request', 'bob' ]]);
  });

  it('streams a deletion and refuses a bad token', async() => {
    const start = bobStream.events.length;
    await masto.alice.v1.statuses.$select(alicePost.id).remove();
    expect((await bobStream.waitFor((event) => event.event === 'delete', 30_000, start)).payload).toBe(alicePost.id);

    const refused = await open('?stream=user&access_token=nonsense');
    expect(await refused.waitForClose()).toBe(1008);
  });

  // App tokens live in the data directory, not in the store, and the stream's periodic check (every
  // 10 s) runs in the server: the store plays no part, so this waits out the check on one store only.
  (store === TEST_STORES[0] ? it : it.skip)('closes a stream whose token is revoked', async() => {
    const token = await appToken(server.baseUrl, 'carol', 'correct horse', 'read');
    const stream = await open('?stream=user', token);
    await stream.ready();
    const authorizations = await fetch(`${server.baseUrl}auth/apps`, { headers: { authorization: `Bearer ${sessions.carol.token}` }});
    const apps = await authorizations.json() as { clientId: string; name: string }[];
    for (const app of apps) {
      expect((await fetch(`${server.baseUrl}auth/apps/${app.clientId}`, { method: 'DELETE',
        headers: { authorization: `Bearer ${sessions.carol.token}` }})).status).toBe(204);
    }
    expect(await stream.waitForClose()).toBe(1008);
  });
});
