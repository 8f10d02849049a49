/**
 * Threads through the Mastodon client API (masto.js, megalodon): edits and their history, counts,
 * who favourited and reblogged, bookmarks and favourites with paging, pins, a hashtag's timeline,
 * and a poll voted in from a second Fedpod. alice posts, bob follows her, carol is a stranger who
 * must never learn anything of a direct post; dan is on the second server.
 */
import { createRestAPIClient, type mastodon } from 'masto';
import generator, { type MegalodonInterface } from 'megalodon';
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { appToken } from '../../support/mastodon-oauth';
import { pageItemIds, postToOutbox, signup, type Session } from '../../support/local-actors';

const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

describe('threads through the Mastodon client API', () => {
  let first: FedpodServer;
  let second: FedpodServer;
  const sessions: Record<string, Session> = {};
  const tokens: Record<string, string> = {};
  const masto: Record<string, mastodon.rest.Client> = {};
  let megalodon: MegalodonInterface;
  let publicPost: mastodon.v1.Status;
  let directPost: mastodon.v1.Status;

  const origin = (server: FedpodServer): string => server.baseUrl.replace(/\/$/u, '');

  async function login(server: FedpodServer, username: string): Promise<string> {
    const response = await fetch(`${server.baseUrl}auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: 'correct horse' }) });
    return (await response.json() as { token: string }).token;
  }

  async function api(path: string, token?: string, init: RequestInit = {}): Promise<{ status: number; body: unknown; link: string | null }> {
    const response = await fetch(`${origin(first)}${path}`, { ...init, headers: { ...token ? { authorization: `Bearer ${token}` } : {},
      ...init.headers as Record<string, string> | undefined } });
    return { status: response.status, body: await response.json(), link: response.headers.get('link') };
  }

  const ids = (statuses: { id: string }[]): string[] => statuses.map((status) => status.id);

  beforeAll(async() => {
    [ first, second ] = await Promise.all([ startFedpod({ config: 'activitypub', allowPrivateNetwork: true }),
      startFedpod({ config: 'activitypub', allowPrivateNetwork: true }) ]);
    for (const [ server, username ] of [ [ first, 'alice' ], [ first, 'bob' ], [ first, 'carol' ], [ second, 'dan' ] ] as const) {
      sessions[username] = await signup(server.baseUrl, username);
      tokens[username] = await login(server, username);
      masto[username] = createRestAPIClient({ url: origin(server), accessToken: tokens[username] });
    }
    megalodon = generator('mastodon', origin(first), tokens.bob);
    for (const follower of [ 'bob', 'dan' ]) {
      expect((await postToOutbox(sessions[follower], { type: 'Follow', object: sessions.alice.webId })).status).toBe(201);
    }
    await eventually(async() => (await pageItemIds(`${sessions.alice.webId}/followers`)).length === 2, 30_000);
    publicPost = await masto.alice.v1.statuses.create({ status: 'First words', visibility: 'public' });
    directPost = await masto.alice.v1.statuses.create({ status: '@bob between us', visibility: 'direct' });
  });

  afterAll(async() => {
    await Promise.allSettled([ first?.stop(), second?.stop() ]);
  });

  it('edits a status, keeping its history, and serves its source', async() => {
    const edited = await masto.alice.v1.statuses.$select(publicPost.id).update({ status: 'Better words', spoilerText: 'edited' });
    expect(edited).toMatchObject({ id: publicPost.id, content: '<p>Better words</p>', spoilerText: 'edited', visibility: 'public' });
    expect(edited.editedAt).not.toBeNull();
    const history = await masto.carol.v1.statuses.$select(publicPost.id).history.list();
    expect(history.map((version) => version.content)).toEqual([ '<p>First words</p>', '<p>Better words</p>' ]);
    expect(history[1].spoilerText).toBe('edited');
    expect(await masto.alice.v1.statuses.$select(publicPost.id).source.fetch())
      .toMatchObject({ id: publicPost.id, text: 'Better words', spoilerText: 'edited' });
    // The edit reached the follower on the other server as an Update.
    await eventually(async() => {
      const home = await masto.dan.v1.timelines.home.list();
      return home.some((status) => status.content.includes('Better words'));
    }, 30_000);
    // Nobody else edits it, or reads a direct post's history or source.
    await expect(masto.bob.v1.statuses.$select(publicPost.id).update({ status: 'mine now' })).rejects.toThrow(/Record not found/u);
    expect((await api(`/api/v1/statuses/${directPost.id}/history`, tokens.carol)).status).toBe(404);
    expect((await api(`/api/v1/statuses/${directPost.id}/source`, tokens.carol)).status).toBe(404);
    expect((await api(`/api/v1/statuses/${directPost.id}/history`, tokens.bob)).status).toBe(200);
  });

  it('counts favourites, reblogs and replies, and says who favourited and reblogged', async() => {
    await masto.bob.v1.statuses.$select(publicPost.id).favourite();
    await masto.bob.v1.statuses.$select(publicPost.id).reblog();
    await masto.bob.v1.statuses.create({ status: 'Agreed', inReplyToId: publicPost.id, visibility: 'public' });
    const counted = await eventually(async() => {
      const status = await masto.carol.v1.statuses.$select(publicPost.id).fetch();
      return status.favouritesCount === 1 && status.reblogsCount === 1 ? status : undefined;
    }, 30_000);
    expect(counted.repliesCount).toBe(1);
    expect(ids(await masto.carol.v1.statuses.$select(publicPost.id).favouritedBy.list())).toEqual([ 'bob' ]);
    expect(ids(await masto.carol.v1.statuses.$select(publicPost.id).rebloggedBy.list())).toEqual([ 'bob' ]);
    expect((await megalodon.getStatus(publicPost.id)).data).toMatchObject({ favourited: true, reblogged: true });

    await masto.bob.v1.statuses.$select(directPost.id).favourite();
    await eventually(async() => (await masto.bob.v1.statuses.$select(directPost.id).fetch()).favouritesCount === 1, 30_000);
    for (const path of [ 'favourited_by', 'reblogged_by' ]) {
      expect(await api(`/api/v1/statuses/${directPost.id}/${path}`, tokens.carol)).toMatchObject({ status: 404, body: { error: 'Record not found' } });
      expect((await api(`/api/v1/statuses/${directPost.id}/${path}`)).status).toBe(404);
    }
    expect(ids(await masto.alice.v1.statuses.$select(directPost.id).favouritedBy.list())).toEqual([ 'bob' ]);
  });

  it('keeps bookmarks and favourites in pages, each for its owner', async() => {
    const posts = [];
    for (const text of [ 'one', 'two', 'three' ]) {
      posts.push(await masto.alice.v1.statuses.create({ status: text, visibility: 'public' }));
    }
    for (const post of posts) {
      expect(await masto.bob.v1.statuses.$select(post.id).bookmark()).toMatchObject({ id: post.id, bookmarked: true });
      await masto.bob.v1.statuses.$select(post.id).favourite();
    }
    for (const list of [ 'bookmarks', 'favourites' ]) {
      const page = await api(`/api/v1/${list}?limit=2`, tokens.bob);
      const expected = list === 'bookmarks' ? [ posts[2].id, posts[1].id ] : [ posts[2].id, posts[1].id ];
      expect(ids(page.body as { id: string }[])).toEqual(expected);
      const next = /<([^>]+)>; rel="next"/u.exec(page.link ?? '')![1];
      const rest = await api(new URL(next).pathname + new URL(next).search, tokens.bob);
      expect(ids(rest.body as { id: string }[])[0]).toBe(posts[0].id);
      expect((await api(`/api/v1/${list}`, tokens.carol)).body).toEqual([]);
    }
    expect(ids(await masto.bob.v1.bookmarks.list({ limit: 40 }))).toEqual([ posts[2].id, posts[1].id, posts[0].id ]);
    await masto.bob.v1.statuses.$select(posts[1].id).unbookmark();
    expect(ids(await masto.bob.v1.bookmarks.list())).toEqual([ posts[2].id, posts[0].id ]);
    expect((await masto.carol.v1.statuses.$select(posts[0].id).fetch()).bookmarked).toBe(false);
    // A status one may not read cannot be bookmarked; an app with read scopes only may not bookmark.
    expect((await api(`/api/v1/statuses/${directPost.id}/bookmark`, tokens.carol, { method: 'POST' })).status).toBe(404);
    const readOnly = await appToken(first.baseUrl, 'bob', 'correct horse', 'read');
    expect((await api(`/api/v1/statuses/${posts[0].id}/bookmark`, readOnly, { method: 'POST' })).status).toBe(403);
    expect((await api('/api/v1/bookmarks', readOnly)).status).toBe(200);
  });

  it('pins and unpins the user\'s own public status', async() => {
    expect(await masto.alice.v1.statuses.$select(publicPost.id).pin()).toMatchObject({ pinned: true });
    expect(await pageItemIds(`${sessions.alice.webId}/featured`)).toHaveLength(1);
    expect(ids(await masto.carol.v1.accounts.$select('alice').statuses.list({ pinned: true }))).toEqual([ publicPost.id ]);
    expect(await masto.alice.v1.statuses.$select(publicPost.id).unpin()).toMatchObject({ pinned: false });
    expect(await masto.carol.v1.accounts.$select('alice').statuses.list({ pinned: true })).toEqual([]);
    expect((await api(`/api/v1/statuses/${publicPost.id}/pin`, tokens.bob, { method: 'POST' })).status).toBe(422);
  });

  it('lists a hashtag\'s local public statuses', async() => {
    const tag = [{ type: 'Hashtag', name: '#Fedpod', href: `${first.baseUrl}tags/fedpod` }];
    const shown = await postToOutbox(sessions.alice, { type: 'Note', content: 'about #Fedpod', tag, to: [ PUBLIC ]});
    await postToOutbox(sessions.alice, { type: 'Note', content: 'quietly #Fedpod', tag, to: [ `${sessions.alice.webId}/followers` ]});
    const listed = await masto.carol.v1.timelines.tag.$select('fedpod').list();
    expect(listed.map((status) => status.uri)).toEqual([ (shown.body.object as { id: string }).id ]);
  });

  it('creates a poll, takes a vote from another server, and shows the counts on both', async() => {
    const poll = await masto.alice.v1.statuses.create({ status: 'Tea or coffee?', visibility: 'public',
      poll: { options: [ 'tea', 'coffee' ], expiresIn: 3600 } });
    // Options keep the order they were given in, everywhere: the API, the ActivityPub object, the post page.
    expect(poll.poll).toMatchObject({ multiple: false, votesCount: 0, options: [ { title: 'tea' }, { title: 'coffee' } ] });
    const object = await (await fetch(poll.uri, { headers: { accept: 'application/activity+json' } })).json() as { oneOf: { name: string }[] };
    expect(object.oneOf.map((option) => option.name)).toEqual([ 'tea', 'coffee' ]);
    const page = await (await fetch(poll.uri, { headers: { accept: 'text/html' } })).text();
    expect(page).toMatch(/<ul class="poll"><li>tea: 0 votes<\/li><li>coffee: 0 votes<\/li><\/ul>/u);
    const seen = await eventually(async() => (await masto.dan.v1.timelines.home.list()).find((status) => status.uri === poll.uri), 30_000);
    const voted = await masto.dan.v1.polls.$select(seen.poll!.id).votes.create({ choices: [ 1 ] });
    expect(voted).toMatchObject({ voted: true, ownVotes: [ 1 ] });
    // The vote is no status of dan's.
    expect((await masto.dan.v1.accounts.$select('dan').statuses.list()).filter((status) => status.content === '')).toEqual([]);
    // Dan chose coffee, the second option.
    await eventually(async() => (await masto.carol.v1.polls.$select(poll.poll!.id).fetch()).votesCount === 1, 30_000);
    expect((await masto.carol.v1.polls.$select(poll.poll!.id).fetch()).options.map((option) => option.votesCount)).toEqual([ 0, 1 ]);
    // The poll's Update brought the counts to the voter's server.
    await eventually(async() => (await masto.dan.v1.polls.$select(seen.poll!.id).fetch()).votesCount === 1, 30_000);
    expect(await masto.dan.v1.polls.$select(seen.poll!.id).fetch()).toMatchObject({ voted: true, ownVotes: [ 1 ] });
    // A vote (here and there, stored as a Note in reply to the poll) is no reply: not counted, not in the thread.
    await masto.bob.v1.polls.$select(poll.poll!.id).votes.create({ choices: [ 0 ] });
    await eventually(async() => (await masto.carol.v1.polls.$select(poll.poll!.id).fetch()).votesCount === 2, 30_000);
    expect((await masto.carol.v1.statuses.$select(poll.id).fetch()).repliesCount).toBe(0);
    expect((await masto.carol.v1.statuses.$select(poll.id).context.fetch()).descendants).toEqual([]);
    expect((await masto.dan.v1.statuses.$select(seen.id).fetch()).repliesCount).toBe(0);
    // One vote each; none in one's own poll; options must exist.
    await expect(masto.dan.v1.polls.$select(seen.poll!.id).votes.create({ choices: [ 0 ] })).rejects.toThrow(/already voted/u);
    await expect(masto.alice.v1.polls.$select(poll.poll!.id).votes.create({ choices: [ 0 ] })).rejects.toThrow(/own poll/u);
    await expect(masto.bob.v1.polls.$select(poll.poll!.id).votes.create({ choices: [ 7 ] })).rejects.toThrow(/not valid/u);
    await expect(masto.alice.v1.statuses.create({ status: 'one option?', poll: { options: [ 'only' ], expiresIn: 3600 } }))
      .rejects.toThrow(/2 to 4/u);
  });
});
