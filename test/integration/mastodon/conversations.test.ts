/**
 * Direct conversations, the `direct` stream and what apps ask for at start (preferences, peers,
 * familiar followers, v1 search, the empty trends): alice and bob write to each other through
 * masto.js and megalodon, carol is never part of it and must never see it; then two real Fedpod
 * instances (each behind its HTTPS proxy), where a direct message and its answer make one
 * conversation on both sides, and each lists the other among its peers.
 */
import type { mastodon } from 'masto';
import { eventually } from '../../support/eventually';
import { startHttpsFedpod, type HttpsFedpod } from '../../support/https-proxy';
import { startWithUsers, type MastodonUsers } from '../../support/mastodon-users';
import { RawStream } from '../../support/mastodon-streams';
import { httpsRequest, testTls } from '../../support/tls';

describe('Mastodon direct conversations on one server', () => {
  let users: MastodonUsers | undefined;
  let { url, tokens, masto, megalodon, readOnly, api } = {} as MastodonUsers;
  let bobDirect: RawStream | undefined;
  let carolDirect: RawStream | undefined;
  let conversationId: string;

  beforeAll(async() => {
    users = await startWithUsers();
    ({ url, tokens, masto, megalodon, readOnly, api } = users);
    bobDirect = await RawStream.open(url, '?stream=direct', tokens.bob);
    carolDirect = await RawStream.open(url, '?stream=direct', tokens.carol);
    await bobDirect.ready();
    await carolDirect.ready();
  });

  afterAll(async() => {
    bobDirect?.close();
    carolDirect?.close();
    await users?.server.stop();
  });

  it('groups a direct message and its answers into one conversation of its participants', async() => {
    const first = await masto.alice.v1.statuses.create({ status: '@bob a secret for you', visibility: 'direct' });
    const event = await bobDirect!.waitFor((candidate) => candidate.event === 'conversation');
    expect(event.stream).toEqual([ 'direct' ]);
    const streamed = JSON.parse(event.payload) as mastodon.v1.Conversation;
    expect(streamed).toMatchObject({ unread: true, accounts: [{ acct: 'alice' }], last_status: { id: first.id, visibility: 'direct' }});
    conversationId = streamed.id;

    const bobs = await masto.bob.v1.conversations.list();
    expect(bobs).toHaveLength(1);
    expect(bobs[0]).toMatchObject({ id: conversationId, unread: true, lastStatus: { id: first.id }});
    const alices = (await megalodon.alice.getConversationTimeline()).data;
    expect(alices.map((conversation) => [ conversation.id, conversation.unread, conversation.accounts.map((account) => account.acct) ]))
      .toEqual([ [ conversationId, false, [ 'bob' ] ] ]);

    const answer = await masto.bob.v1.statuses.create({ status: '@alice thanks, kept it', visibility: 'direct', inReplyToId: first.id });
    const conversations = await eventually(async() => {
      const listed = await masto.alice.v1.conversations.list();
      return listed[0]?.lastStatus?.id === answer.id ? listed : undefined;
    });
    expect(conversations).toHaveLength(1);
    expect(conversations[0]).toMatchObject({ id: conversationId, unread: true, accounts: [{ acct: 'bob' }]});
    // Public posts are no conversation.
    await masto.alice.v1.statuses.create({ status: '@bob hello in public', visibility: 'public' });
    expect((await masto.bob.v1.conversations.list()).map((conversation) => conversation.id)).toEqual([ conversationId ]);
  });

  it('never shows a conversation to anyone but its participants', async() => {
    expect(await masto.carol.v1.conversations.list()).toEqual([]);
    expect(carolDirect!.events).toEqual([]);
    expect((await api(`/api/v1/conversations/${conversationId}/read`, tokens.carol, { method: 'POST' })).status).toBe(404);
    expect((await api(`/api/v1/conversations/${conversationId}`, tokens.carol, { method: 'DELETE' })).body)
      .toEqual({ error: 'Record not found' });
    expect((await api('/api/v1/conversations', undefined)).status).toBe(401);
    expect((await api('/api/v1/conversations', readOnly)).status).toBe(200);
    expect((await api(`/api/v1/conversations/${conversationId}/read`, readOnly, { method: 'POST' })).status).toBe(403);
    expect((await masto.alice.v1.conversations.list())[0].unread).toBe(true);
  });

  it('marks a conversation read and removes it until its next message', async() => {
    const read = await masto.alice.v1.conversations.$select(conversationId).read();
    expect(read).toMatchObject({ id: conversationId, unread: false });
    expect((await masto.alice.v1.conversations.list())[0].unread).toBe(false);
    await masto.bob.v1.conversations.$select(conversationId).remove();
    expect(await masto.bob.v1.conversations.list()).toEqual([]);
    expect((await masto.alice.v1.conversations.list()).map((conversation) => conversation.id)).toEqual([ conversationId ]);
    const [ last ] = await masto.alice.v1.conversations.list();
    await masto.alice.v1.statuses.create({ status: '@bob one more thing', visibility: 'direct', inReplyToId: last.lastStatus?.id ?? '' });
    const back = await eventually(async() => (await masto.bob.v1.conversations.list())[0]);
    expect(back).toMatchObject({ id: conversationId, unread: true });
  });

  it('answers what apps ask for when they start', async() => {
    expect(await masto.bob.v1.preferences.fetch()).toEqual({ 'posting:default:visibility': 'public', 'posting:default:sensitive': false,
      'posting:default:language': null, 'reading:expand:media': 'default', 'reading:expand:spoilers': false, 'reading:autoplay:gifs': false });
    for (const path of [ '/api/v1/announcements', '/api/v1/trends/tags', '/api/v1/trends/statuses', '/api/v1/trends/links',
      '/api/v2/suggestions', '/api/v1/suggestions', '/api/v1/followed_tags' ]) {
      expect([ path, await api(path, tokens.bob) ]).toEqual([ path, { status: 200, body: []}]);
    }
    expect((await api('/api/v1/preferences', undefined)).status).toBe(401);
    expect(await masto.bob.v1.instance.peers.list()).toEqual([]);
    // Carol follows alice and bob; bob follows alice: bob is the one carol follows among alice's followers.
    await masto.carol.v1.accounts.$select('alice').follow();
    await masto.carol.v1.accounts.$select('bob').follow();
    await masto.bob.v1.accounts.$select('alice').follow();
    // As Mastodon's documentation sends it (masto.js 7 sends the ids without their name).
    // The follows are accepted through the queue: asked until they are in the collections.
    const familiarOf = async(): Promise<(string | string[])[][]> => ((await api('/api/v1/accounts/familiar_followers?id[]=alice&id[]=bob',
      tokens.carol)).body as { id: string; accounts: { acct: string }[] }[]).map((entry) => [ entry.id, entry.accounts.map((account) => account.acct) ]);
    const familiar = await eventually(async() => {
      const answer = await familiarOf();
      return answer[0]?.[1]?.length ? answer : undefined;
    });
    expect(familiar).toEqual([ [ 'alice', [ 'bob' ] ], [ 'bob', [] ] ]);
    const search = await api('/api/v1/search?q=bo', tokens.carol) as { body: { accounts: { acct: string }[]; hashtags: unknown[] } };
    expect(search.body.accounts.map((account) => account.acct)).toContain('bob');
    await masto.alice.v1.statuses.create({ status: 'about #Fedpod', visibility: 'public' });
    // v1's hashtags are names, not Tag entities.
    const tags = (await api('/api/v1/search?q=%23fedp&type=hashtags', undefined)).body as { hashtags: unknown[] };
    expect(tags.hashtags.map((tag) => String(tag).toLowerCase())).toEqual([ 'fedpod' ]);
  });
});

/** A Conversation as the API sends it (masto.js's entities are camelCased). */
interface Conversation { id: string; unread: boolean; accounts: { acct: string }[]; last_status: { id: string; uri: string; content: string } }

describe('Mastodon direct conversations between two servers', () => {
  let home: HttpsFedpod;
  let remote: HttpsFedpod;
  let alice: { token: string; webId: string };
  let bob: { token: string; webId: string };
  let carol: { token: string; webId: string };

  async function signupOn(server: HttpsFedpod, username: string): Promise<{ token: string; webId: string }> {
    const answer = await httpsRequest(`${server.baseUrl}auth/signup`, { method: 'POST',
      body: { username, email: `${username}@example.com`, password: 'correct horse' }});
    expect(answer.status).toBe(201);
    return answer.json<{ token: string; webId: string }>();
  }

  async function api<T>(server: HttpsFedpod, session: { token: string }, path: string, method = 'GET', body?: unknown): Promise<T> {
    const answer = await httpsRequest(`${server.baseUrl}${path}`, { method, body, headers: { authorization: `Bearer ${session.token}` }});
    expect([ path, answer.status ]).toEqual([ path, 200 ]);
    return answer.json<T>();
  }

  beforeAll(async() => {
    const tls = testTls();
    const started = await Promise.allSettled([ startHttpsFedpod({ config: 'activitypub', tls }), startHttpsFedpod({ config: 'activitypub', tls }) ]);
    [ home, remote ] = started.map((result) => (result.status === 'fulfilled' ? result.value : undefined)) as [ HttpsFedpod, HttpsFedpod ];
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    alice = await signupOn(home, 'alice');
    carol = await signupOn(home, 'carol');
    bob = await signupOn(remote, 'bob');
  });

  afterAll(async() => {
    await Promise.all([ home?.stop(), remote?.stop() ]);
  });

  it('makes a direct message and its answer one conversation on both servers, seen by no one else', async() => {
    const remoteHost = new URL(remote.baseUrl).host;
    const homeHost = new URL(home.baseUrl).host;
    const sent = await api<mastodon.v1.Status>(home, alice, 'api/v1/statuses', 'POST',
      { status: `@bob@${remoteHost} just between us`, visibility: 'direct' });
    expect(sent.mentions.map((mention) => mention.acct)).toEqual([ `bob@${remoteHost}` ]);
    const received = await eventually(async() => (await api<Conversation[]>(remote, bob, 'api/v1/conversations'))[0], 60_000);
    expect(received).toMatchObject({ unread: true, accounts: [{ acct: `alice@${homeHost}` }], last_status: { uri: sent.uri, visibility: 'direct' }});
    await api(remote, bob, 'api/v1/statuses', 'POST',
      { status: `@alice@${homeHost} understood`, visibility: 'direct', in_reply_to_id: received.last_status.id });
    const conversations = await eventually(async() => {
      const listed = await api<Conversation[]>(home, alice, 'api/v1/conversations');
      return listed[0]?.last_status?.content.includes('understood') ? listed : undefined;
    }, 60_000);
    expect(conversations).toHaveLength(1);
    expect(conversations[0]).toMatchObject({ unread: true, accounts: [{ acct: `bob@${remoteHost}` }]});
    expect(await api(home, carol, 'api/v1/conversations')).toEqual([]);
    expect(await api(home, alice, 'api/v1/instance/peers')).toEqual([ remoteHost ]);
    expect(await api(remote, bob, 'api/v1/instance/peers')).toEqual([ homeHost ]);
  });
});
