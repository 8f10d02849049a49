/**
 * Following hashtags through masto.js and megalodon on the default setup: bob follows #cats, alice
 * (whom bob does not follow) posts with it, carol is the stranger. Bob's home timeline and `user`
 * stream get alice's public #cats posts and nothing else of hers (not unlisted, not followers-only,
 * not another tag, not what she posted after he unfollowed); carol's get none; who follows what is
 * each user's own, and a read-only token cannot follow.
 */
import { eventually } from '../../support/eventually';
import { startWithUsers, type MastodonUsers } from '../../support/mastodon-users';
import { RawStream } from '../../support/mastodon-streams';

describe('Mastodon followed hashtags', () => {
  let users: MastodonUsers | undefined;
  let { url, tokens, masto, megalodon, readOnly, api } = {} as MastodonUsers;
  let stream: RawStream | undefined;

  const homeTexts = async(user: 'alice' | 'bob' | 'carol'): Promise<string> =>
    (await masto[user].v1.timelines.home.list({ limit: 40 })).map((status) => status.content).join(' | ');

  beforeAll(async() => {
    users = await startWithUsers();
    ({ url, tokens, masto, megalodon, readOnly, api } = users);
  });

  afterAll(async() => {
    stream?.close();
    await users?.server.stop();
  });

  it('answers a hashtag to anyone, with whether the user follows it; 404 for what cannot be a hashtag', async() => {
    const anonymous = await api('/api/v1/tags/Cats', undefined);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual({ id: 'cats', name: 'cats', url: `${url}/tags/cats`, history: []});
    expect(await masto.bob.v1.tags.$select('cats').fetch()).toMatchObject({ name: 'cats', following: false });
    for (const path of [ '/api/v1/tags/no%20tag', '/api/v1/tags/123', `/api/v1/tags/${'a'.repeat(101)}` ]) {
      const answer = await api(path, tokens.bob);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: 'Record not found' });
    }
    expect((await api('/api/v1/tags/no%20tag/follow', tokens.bob, { method: 'POST' })).status).toBe(404);
  });

  it('follows and lists a user\'s hashtags, theirs alone; a read-only token or nobody cannot follow', async() => {
    expect(await masto.bob.v1.tags.$select('Cats').follow()).toMatchObject({ name: 'cats', following: true });
    // Again: nothing changes.
    expect((await megalodon.bob.followTag('cats')).data).toMatchObject({ name: 'cats', following: true });
    expect((await masto.bob.v1.followedTags.list()).map((tag) => tag.name)).toEqual([ 'cats' ]);
    expect((await megalodon.bob.getFollowedTags()).data.map((tag) => tag.name)).toEqual([ 'cats' ]);
    expect(await masto.bob.v1.tags.$select('cats').fetch()).toMatchObject({ following: true });
    expect(await masto.carol.v1.tags.$select('cats').fetch()).toMatchObject({ following: false });
    expect(await masto.carol.v1.followedTags.list()).toEqual([]);
    expect((await api('/api/v1/followed_tags', readOnly)).body).toEqual([ expect.objectContaining({ name: 'cats' }) ]);
    expect((await api('/api/v1/tags/dogs/follow', readOnly, { method: 'POST' })).status).toBe(403);
    expect((await api('/api/v1/followed_tags', undefined)).status).toBe(401);
    expect((await api('/api/v1/tags/dogs/follow', undefined, { method: 'POST' })).status).toBe(401);
    expect((await masto.bob.v1.followedTags.list()).map((tag) => tag.name)).toEqual([ 'cats' ]);
  });

  it('pages the followed hashtags, the latest followed first, with a Link header', async() => {
    for (const tag of [ 'one', 'two', 'three' ]) {
      await masto.carol.v1.tags.$select(tag).follow();
    }
    const first = await fetch(`${url}/api/v1/followed_tags?limit=2`, { headers: { authorization: `Bearer ${tokens.carol}` }});
    expect((await first.json() as { name: string }[]).map((tag) => tag.name)).toEqual([ 'three', 'two' ]);
    const next = /<([^>]+)>; rel="next"/u.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toBeDefined();
    const second = await fetch(next!, { headers: { authorization: `Bearer ${tokens.carol}` }});
    expect((await second.json() as { name: string }[]).map((tag) => tag.name)).toEqual([ 'one' ]);
    for (const tag of [ 'one', 'two', 'three' ]) {
      expect(await masto.carol.v1.tags.$select(tag).unfollow()).toMatchObject({ following: false });
    }
    expect(await masto.carol.v1.followedTags.list()).toEqual([]);
  });

  it('brings public posts with a followed hashtag to the home timeline and user stream, and nothing else', async() => {
    stream = await RawStream.open(url, '?stream=user', tokens.bob);
    await stream.ready();
    await masto.alice.v1.statuses.create({ status: 'Unlisted #cats', visibility: 'unlisted' });
    await masto.alice.v1.statuses.create({ status: 'Followers only #cats', visibility: 'private' });
    await masto.alice.v1.statuses.create({ status: 'Public #dogs', visibility: 'public' });
    const tagged = await masto.alice.v1.statuses.create({ status: 'Public #Cats at last', visibility: 'public' });
    await eventually(async() => (await homeTexts('bob')).includes('at last'));
    const home = await masto.bob.v1.timelines.home.list();
    expect(home.map((status) => status.id)).toEqual([ tagged.id ]);
    const event = await stream.waitFor((candidate) => candidate.event === 'update');
    expect(JSON.parse(event.payload)).toMatchObject({ id: tagged.id, visibility: 'public' });
    expect(await homeTexts('carol')).toBe('');
    // Alice's own home has her posts, each once.
    expect((await masto.alice.v1.timelines.home.list()).length).toBe(4);
  });

  it('hides a muted author\'s tagged posts, and adds nothing the user posted after unfollowing', async() => {
    await masto.bob.v1.accounts.$select('alice').mute();
    expect(await homeTexts('bob')).toBe('');
    await masto.bob.v1.accounts.$select('alice').unmute();
    expect(await homeTexts('bob')).toContain('at last');

    await masto.bob.v1.tags.$select('cats').unfollow();
    expect(await masto.bob.v1.followedTags.list()).toEqual([]);
    await masto.alice.v1.statuses.create({ status: 'Public #cats nobody follows now', visibility: 'public' });
    await masto.bob.v1.tags.$select('birds').follow();
    await masto.alice.v1.statuses.create({ status: 'Public #birds marker', visibility: 'public' });
    await eventually(async() => (await homeTexts('bob')).includes('marker'));
    const home = await homeTexts('bob');
    expect(home).not.toContain('nobody follows now');
    // What came while he followed stays, as on Mastodon.
    expect(home).toContain('at last');
  });
});
