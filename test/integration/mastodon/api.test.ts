/**
 * The Mastodon client API on the default setup, through the client libraries apps are built on
 * (masto.js, megalodon), with Fedpod's own tokens (POST /auth/login): alice posts, bob follows her,
 * carol is a stranger who must never see the followers-only and direct posts.
 */
import { createRestAPIClient, type mastodon } from 'masto';
import generator, { type MegalodonInterface } from 'megalodon';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { eventually } from '../../support/eventually';
import { appToken } from '../../support/mastodon-oauth';
import { postToOutbox, signup, type Session } from '../../support/local-actors';
import { TEST_STORES } from '../../support/stores';

describe.each(TEST_STORES)('the Mastodon client API on the $name', (store) => {
  let server: FedpodServer;
  let url: string;
  const sessions: Record<string, Session> = {};
  const masto: Record<string, mastodon.rest.Client> = {};
  const megalodon: Record<string, MegalodonInterface> = {};
  let publicPost: mastodon.v1.Status;
  let privatePost: mastodon.v1.Status;
  let directPost: mastodon.v1.Status;
  let reply: mastodon.v1.Status;
  let directReply: mastodon.v1.Status;

  async function login(username: string): Promise<string> {
    const response = await fetch(`${server.baseUrl}auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: 'correct horse' }) });
    expect(response.status).toBe(200);
    return (await response.json() as { token: string }).token;
  }

  async function api(path: string, token?: string): Promise<{ status: number; body: unknown; link: string | null }> {
    const response = await fetch(`${url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { status: response.status, body: await response.json(), link: response.headers.get('link') };
  }

  const ids = (statuses: { id: string }[]): string[] => statuses.map((status) => status.id);

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub', ...store.extraArgs() });
    url = server.baseUrl.replace(/\/$/u, '');
    for (const username of [ 'alice', 'bob', 'carol' ]) {
      sessions[username] = await signup(server.baseUrl, username);
      const token = await login(username);
      masto[username] = createRestAPIClient({ url, accessToken: token });
      megalodon[username] = generator('mastodon', url, token);
    }
    expect((await postToOutbox(sessions.bob, { type: 'Follow', object: sessions.alice.webId })).status).toBe(201);
    // Alice's followers take bob when his Follow arrives; his following takes her when her Accept does.
    await eventually(async() => (await masto.alice.v1.accounts.verifyCredentials()).followersCount === 1 &&
      (await masto.bob.v1.accounts.verifyCredentials()).followingCount === 1);
  });

  afterAll(async() => {
    await server?.stop();
  });

  it('describes the instance', async() => {
    const v1 = await masto.carol.v1.instance.fetch();
    expect(v1.version).toMatch(/^4\.2\.0 \(compatible; Fedpod [^)]+\)$/u);
    expect(v1.uri).toBe(new URL(url).host);
    const v2 = await masto.carol.v2.instance.fetch();
    expect(v2.configuration.statuses.maxCharacters).toBe(5000);
    expect(v2.configuration.urls.streaming).toBe(`ws://${new URL(url).host}`);
    expect(await masto.carol.v1.customEmojis.list()).toEqual([]);
  });

  it('shows accounts', async() => {
    const alice = await masto.alice.v1.accounts.verifyCredentials();
    expect(alice).toMatchObject({ id: 'alice', username: 'alice', acct: 'alice', url: sessions.alice.webId, followersCount: 1 });
    expect(await masto.carol.v1.accounts.lookup({ acct: `alice@${new URL(url).host}` })).toMatchObject({ id: 'alice' });
    expect((await megalodon.carol.getAccount('bob')).data).toMatchObject({ acct: 'bob', following_count: 1 });
    await expect(masto.carol.v1.accounts.lookup({ acct: 'nobody' })).rejects.toThrow(/Record not found/u);
  });

  it('posts with a content warning, a reply, followers-only and direct posts', async() => {
    publicPost = await masto.alice.v1.statuses.create({ status: 'Hello fediverse!\n\nSee https://example.org/page',
      spoilerText: 'greeting', visibility: 'public', language: 'en' });
    expect(publicPost).toMatchObject({ spoilerText: 'greeting', sensitive: true, visibility: 'public',
      account: { id: 'alice' }, language: 'en' });
    expect(publicPost.content).toBe('<p>Hello fediverse!</p><p>See <a href="https://example.org/page" ' +
      'rel="nofollow noopener noreferrer" target="_blank">https://example.org/page</a></p>');
    // The same stored object ActivityPub serves.
    const note = await (await fetch(publicPost.uri, { headers: { accept: 'application/activity+json' } })).json() as Record<string, unknown>;
    expect(note).toMatchObject({ type: 'Note', summary: 'greeting', attributedTo: sessions.alice.webId });

    reply = (await megalodon.bob.postStatus('Welcome!', { in_reply_to_id: publicPost.id, visibility: 'public' })).data as never;
    expect(reply).toMatchObject({ in_reply_to_id: publicPost.id, in_reply_to_account_id: 'alice' });

    privatePost = await masto.alice.v1.statuses.create({ status: 'Only for my followers', visibility: 'private' });
    expect(privatePost.visibility).toBe('private');
    directPost = await masto.alice.v1.statuses.create({ status: '@bob a secret', visibility: 'direct' });
    expect(directPost).toMatchObject({ visibility: 'direct', mentions: [{ id: 'bob', acct: 'bob' }] });
    directReply = await masto.alice.v1.statuses.create({ status: '@bob psst', visibility: 'direct', inReplyToId: publicPost.id });
  });

  it('answers the same status again for the same Idempotency-Key', async() => {
    const post = async(): Promise<{ id: string }> => (await fetch(`${url}/api/v1/statuses`, { method: 'POST',
      headers: { authorization: `Bearer ${await login('carol')}`, 'content-type': 'application/x-www-form-urlencoded',
        'idempotency-key': 'key-1' },
      body: 'status=once&visibility=unlisted' })).json() as Promise<{ id: string }>;
    const first = await post();
    expect((await post()).id).toBe(first.id);
    expect(await masto.carol.v1.statuses.$select(first.id).fetch()).toMatchObject({ visibility: 'unlisted' });
  });

  it('lets only the audience read a status, by id and in its context', async() => {
    for (const post of [ privatePost, directPost, directReply ]) {
      expect((await masto.bob.v1.statuses.$select(post.id).fetch()).id).toBe(post.id);
      await expect(masto.carol.v1.statuses.$select(post.id).fetch()).rejects.toThrow(/Record not found/u);
      expect(await api(`/api/v1/statuses/${post.id}`)).toMatchObject({ status: 404, body: { error: 'Record not found' } });
    }
    const strangers = await masto.carol.v1.statuses.$select(publicPost.id).context.fetch();
    expect(ids(strangers.descendants)).toEqual([ reply.id ]);
    const bobs = await masto.bob.v1.statuses.$select(publicPost.id).context.fetch();
    expect(ids(bobs.descendants)).toEqual([ reply.id, directReply.id ]);
    const up = await masto.carol.v1.statuses.$select(reply.id).context.fetch();
    expect(ids(up.ancestors)).toEqual([ publicPost.id ]);
  });

  it('builds home timelines from inbox and outbox, and the public one from public posts', async() => {
    const bobHome = await eventually(async() => {
      const home = await masto.bob.v1.timelines.home.list({ limit: 40 });
      return home.length === 5 ? home : undefined;
    });
    expect(ids(bobHome)).toEqual([ directReply.id, directPost.id, privatePost.id, reply.id, publicPost.id ]);
    const local = await masto.carol.v1.timelines.public.list({ local: true });
    expect(ids(local)).toEqual(expect.arrayContaining([ reply.id, publicPost.id ]));
    for (const hidden of [ privatePost, directPost, directReply ]) {
      expect(ids(local)).not.toContain(hidden.id);
      expect(ids((await megalodon.carol.getPublicTimeline()).data)).not.toContain(hidden.id);
    }
    expect(ids(await masto.carol.v1.timelines.home.list())).not.toEqual(expect.arrayContaining([ privatePost.id ]));
    expect(ids(await masto.carol.v1.accounts.$select('alice').statuses.list())).toEqual([ publicPost.id ]);
    expect(ids(await masto.bob.v1.accounts.$select('alice').statuses.list())).toEqual([
      directReply.id, directPost.id, privatePost.id, publicPost.id ]);
  });

  it('shows a post made through the outbox, the same object', async() => {
    const posted = await postToOutbox(sessions.carol, { type: 'Note', content: '<p>from the outbox</p>',
      to: [ 'https://www.w3.org/ns/activitystreams#Public' ] });
    expect(posted.status).toBe(201);
    const noteIri = (posted.body.object as { id: string }).id;
    const [ latest ] = await masto.carol.v1.timelines.home.list({ limit: 1 });
    expect(latest).toMatchObject({ uri: noteIri, content: '<p>from the outbox</p>', visibility: 'public', account: { id: 'carol' } });
    expect(latest.id).toBe(noteIri.split('/').at(-1));
  });

  it('pages timelines both ways', async() => {
    const all = ids(await masto.alice.v1.timelines.home.list({ limit: 40 }));
    expect(all.length).toBeGreaterThanOrEqual(4);
    // Forwards (older), following the Link header as masto.js does.
    const pages: string[][] = [];
    for await (const page of masto.alice.v1.timelines.home.list({ limit: 2 })) {
      pages.push(ids(page));
    }
    expect(pages.flat()).toEqual(all);
    expect(pages[0]).toHaveLength(2);
    // Backwards: min_id gives the statuses right after it, since_id the newest after it.
    const oldest = all.at(-1)!;
    expect(ids((await megalodon.alice.getHomeTimeline({ min_id: oldest, limit: 2 })).data)).toEqual(all.slice(-3, -1));
    expect(ids((await megalodon.alice.getHomeTimeline({ since_id: oldest, limit: 2 })).data)).toEqual(all.slice(0, 2));
    expect(ids((await megalodon.alice.getHomeTimeline({ max_id: all[1], limit: 2 })).data)).toEqual(all.slice(2, 4));
    const first = await api('/api/v1/timelines/home?limit=2', sessions.alice.token);
    expect(first.link).toBe(`<${url}/api/v1/timelines/home?limit=2&max_id=${all[1]}>; rel="next", ` +
      `<${url}/api/v1/timelines/home?limit=2&min_id=${all[0]}>; rel="prev"`);
  });

  it('favourites and reblogs through the outbox', async() => {
    const favourited = await masto.bob.v1.statuses.$select(publicPost.id).favourite();
    expect(favourited).toMatchObject({ id: publicPost.id, favourited: true });
    const liked = await (await fetch(`${sessions.bob.webId}/liked?page=true`, { headers: { accept: 'application/activity+json' } })).json() as
      { orderedItems: string[] };
    expect(liked.orderedItems).toContain(publicPost.uri);
    const reblog = await masto.bob.v1.statuses.$select(publicPost.id).reblog();
    expect(reblog).toMatchObject({ reblog: { id: publicPost.id, reblogged: true }, account: { id: 'bob' } });
    expect(ids(await masto.bob.v1.timelines.home.list())[0]).toBe(reblog.id);
    expect(ids(await masto.carol.v1.timelines.public.list({ local: true }))).toContain(reblog.id);
    expect((await masto.bob.v1.statuses.$select(publicPost.id).fetch())).toMatchObject({ favourited: true, reblogged: true });
    await expect(masto.bob.v1.statuses.$select(privatePost.id).reblog()).rejects.toThrow(/reblogged/u);

    expect(await masto.bob.v1.statuses.$select(publicPost.id).unreblog()).toMatchObject({ reblogged: false });
    expect(await masto.bob.v1.statuses.$select(publicPost.id).unfavourite()).toMatchObject({ favourited: false });
    expect(ids(await masto.bob.v1.timelines.home.list())).not.toContain(reblog.id);
  });

  it('deletes only one\'s own statuses', async() => {
    await expect(masto.carol.v1.statuses.$select(publicPost.id).remove()).rejects.toThrow(/Record not found/u);
    const deleted = (await megalodon.alice.deleteStatus(publicPost.id)).data as unknown as { id: string };
    expect(deleted.id).toBe(publicPost.id);
    await expect(masto.carol.v1.statuses.$select(publicPost.id).fetch()).rejects.toThrow(/Record not found/u);
    expect(ids(await masto.alice.v1.timelines.home.list({ limit: 40 }))).not.toContain(publicPost.id);
  });

  it('refuses without a token, and answers what is not served yet as Mastodon does', async() => {
    expect((await api('/api/v1/timelines/home')).status).toBe(401);
    expect(await api('/api/v1/scheduled_statuses', sessions.alice.token)).toMatchObject({ status: 404, body: { error: 'Record not found' } });
    const response = await fetch(`${url}/api/v1/statuses`, { method: 'POST', headers: { 'content-type': 'application/json',
      authorization: `Bearer ${sessions.alice.token}` }, body: JSON.stringify({ status: ' ' }) });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ error: 'Validation failed: Text can\'t be blank' });
    // Multipart, as apps that upload media post statuses too (media itself: media.test.ts).
    const form = new FormData();
    form.set('status', 'as multipart');
    form.set('visibility', 'direct');
    const multipart = await fetch(`${url}/api/v1/statuses`, { method: 'POST', body: form,
      headers: { authorization: `Bearer ${sessions.alice.token}` } });
    expect(multipart.status).toBe(200);
    expect(await multipart.json()).toMatchObject({ visibility: 'direct', content: '<p>as multipart</p>' });
  });

  it('serves apps logged in with OAuth as far as their scopes go, each as its own user', async() => {
    const writer = createRestAPIClient({ url, accessToken: await appToken(server.baseUrl, 'carol', 'correct horse', 'read write') });
    expect((await writer.v1.accounts.verifyCredentials()).username).toBe('carol');
    const posted = await writer.v1.statuses.create({ status: 'posted by an app', visibility: 'public' });
    expect(posted.account.username).toBe('carol');
    // A read-only token reads (the home timeline has carol's post) and may not write: Mastodon's 403.
    const readOnly = await appToken(server.baseUrl, 'carol', 'correct horse', 'read');
    expect(ids((await api('/api/v1/timelines/home', readOnly)).body as { id: string }[])).toContain(posted.id);
    const refused = await fetch(`${url}/api/v1/statuses`, { method: 'POST', headers: { 'content-type': 'application/json',
      authorization: `Bearer ${readOnly}` }, body: JSON.stringify({ status: 'not allowed' }) });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: 'This action is outside the authorized scopes' });
    // Carol's app sees no more than carol: not alice's followers-only post.
    expect((await api(`/api/v1/statuses/${privatePost.id}`, readOnly)).status).toBe(404);
    // The token counts on the Mastodon API only: not on carol's outbox.
    const outbox = await fetch(`${sessions.carol.webId}/outbox`, { method: 'POST', body: '{}',
      headers: { 'content-type': 'application/activity+json', authorization: `Bearer ${readOnly}` }});
    expect(outbox.status).toBe(401);
  });
});
