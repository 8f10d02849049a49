/**
 * Lists through masto.js and megalodon on the default setup: bob follows alice and carol and keeps a
 * list of alice; carol keeps a list of alice too but does not follow her, so alice's followers-only
 * post must never reach carol's list. Another user's list is 404 everywhere, a read-only token cannot
 * write one, and an exclusive list takes its members' posts out of the home timeline.
 */
import type { mastodon } from 'masto';
import { eventually } from '../../support/eventually';
import { startWithUsers, type MastodonUsers } from '../../support/mastodon-users';
import { RawStream } from '../../support/mastodon-streams';

describe('Mastodon lists', () => {
  let users: MastodonUsers | undefined;
  let { url, tokens, masto, megalodon, readOnly, api } = {} as MastodonUsers;
  let bobList: mastodon.v1.List;
  let carolList: mastodon.v1.List;
  let stream: RawStream | undefined;

  const texts = (statuses: { content: string; reblog?: { content: string } | null }[]): string[] =>
    statuses.map((status) => (status.reblog ?? status).content);

  beforeAll(async() => {
    users = await startWithUsers();
    ({ url, tokens, masto, megalodon, readOnly, api } = users);
    await users.follow('bob', 'alice');
    await users.follow('bob', 'carol');
  });

  afterAll(async() => {
    stream?.close();
    await users?.server.stop();
  });

  it('creates, reads, renames and lists a user\'s lists', async() => {
    bobList = (await api('/api/v1/lists', tokens.bob, { method: 'POST', body: JSON.stringify({ title: 'Friends', replies_policy: 'list' }) }))
      .body as mastodon.v1.List;
    expect(bobList).toMatchObject({ title: 'Friends', replies_policy: 'list', exclusive: false });
    expect(typeof bobList.id).toBe('string');
    const renamed = await megalodon.bob.updateList(bobList.id, 'Close friends');
    expect(renamed.data.title).toBe('Close friends');
    expect((await masto.bob.v1.lists.$select(bobList.id).fetch()).title).toBe('Close friends');
    expect((await megalodon.bob.getLists()).data.map((list) => list.id)).toEqual([ bobList.id ]);
    carolList = await masto.carol.v1.lists.create({ title: 'Alice' });
    expect((await masto.carol.v1.lists.list()).map((list) => list.id)).toEqual([ carolList.id ]);
  });

  it('adds and lists members, and names the lists an account is in', async() => {
    await masto.bob.v1.lists.$select(bobList.id).accounts.create({ accountIds: [ 'alice' ]});
    await megalodon.carol.addAccountsToList(carolList.id, [ 'alice' ]);
    expect((await masto.bob.v1.lists.$select(bobList.id).accounts.list()).map((account) => account.acct)).toEqual([ 'alice' ]);
    expect((await masto.bob.v1.accounts.$select('alice').lists.list()).map((list) => list.id)).toEqual([ bobList.id ]);
    expect(await masto.bob.v1.accounts.$select('carol').lists.list()).toEqual([]);
    expect((await api(`/api/v1/lists/${bobList.id}/accounts`, tokens.bob, { method: 'POST',
      body: JSON.stringify({ account_ids: [ 'bob' ]}) })).status).toBe(422);
    expect((await api(`/api/v1/lists/${bobList.id}/accounts`, tokens.bob, { method: 'POST',
      body: JSON.stringify({ account_ids: [ 'nobody' ]}) })).status).toBe(404);
  });

  it('shows the members\' posts the user may read on the list timeline, and streams them', async() => {
    stream = await RawStream.open(url, `?stream=list&list=${bobList.id}`, tokens.bob);
    await stream.ready();
    await masto.alice.v1.statuses.create({ status: 'alice for everyone', visibility: 'public' });
    await masto.alice.v1.statuses.create({ status: 'alice for followers', visibility: 'private' });
    await masto.carol.v1.statuses.create({ status: 'carol for everyone', visibility: 'public' });
    const timeline = await eventually(async() => {
      const page = await masto.bob.v1.timelines.list.$select(bobList.id).list();
      return page.length >= 2 ? page : undefined;
    });
    expect(texts(timeline).join(' ')).toContain('alice for everyone');
    expect(texts(timeline).join(' ')).toContain('alice for followers');
    expect(texts(timeline).join(' ')).not.toContain('carol');
    const event = await stream.waitFor((candidate) => candidate.event === 'update' && candidate.payload.includes('alice for everyone'));
    expect(event.stream).toEqual([ 'list', bobList.id ]);
    await stream.waitFor((candidate) => candidate.event === 'update' && candidate.payload.includes('alice for followers'));
    expect(stream.events.some((candidate) => candidate.payload.includes('carol for everyone'))).toBe(false);
    // Carol does not follow alice: her list has alice's public post (if it reached her), never the followers-only one.
    const carols = await megalodon.carol.getListTimeline(carolList.id);
    expect(texts(carols.data).join(' ')).not.toContain('alice for followers');
  });

  it('shows replies as the list\'s replies_policy says', async() => {
    const carols = await masto.carol.v1.accounts.$select('carol').statuses.list();
    const toCarol = await masto.alice.v1.statuses.create({ status: '@carol a reply to carol', inReplyToId: carols[0].id, visibility: 'public' });
    const listed = async(): Promise<string[]> => texts(await masto.bob.v1.timelines.list.$select(bobList.id).list());
    await eventually(async() => (await masto.bob.v1.timelines.home.list()).some((status) => status.id === toCarol.id));
    expect((await listed()).join(' ')).not.toContain('a reply to carol');
    const policy = async(repliesPolicy: string): Promise<unknown> => (await api(`/api/v1/lists/${bobList.id}`, tokens.bob,
      { method: 'PUT', body: new URLSearchParams({ replies_policy: repliesPolicy }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' }})).body;
    expect(await policy('followed')).toMatchObject({ replies_policy: 'followed', title: 'Close friends' });
    expect((await listed()).join(' ')).toContain('a reply to carol');
    await policy('none');
    expect((await listed()).join(' ')).not.toContain('a reply to carol');
    expect((await listed()).join(' ')).toContain('alice for everyone');
  });

  it('takes an exclusive list\'s members out of the home timeline only', async() => {
    const home = async(): Promise<string> => texts(await masto.bob.v1.timelines.home.list()).join(' ');
    expect(await home()).toContain('alice for everyone');
    const exclusive = await api(`/api/v1/lists/${bobList.id}`, tokens.bob, { method: 'PUT', body: JSON.stringify({ exclusive: true }) });
    expect(exclusive.body).toMatchObject({ exclusive: true, title: 'Close friends' });
    expect(await home()).not.toContain('alice for everyone');
    expect(await home()).toContain('carol for everyone');
    expect(texts(await masto.bob.v1.timelines.list.$select(bobList.id).list()).join(' ')).toContain('alice for everyone');
    // Alice's own home is hers: nobody's exclusive list changes it.
    expect(texts(await masto.alice.v1.timelines.home.list()).join(' ')).toContain('alice for everyone');
  });

  it('refuses another user\'s list, a missing token and a read-only token\'s writes', async() => {
    for (const [ path, method ] of [ [ `/api/v1/lists/${bobList.id}`, 'GET' ], [ `/api/v1/lists/${bobList.id}`, 'DELETE' ],
      [ `/api/v1/lists/${bobList.id}/accounts`, 'GET' ], [ `/api/v1/timelines/list/${bobList.id}`, 'GET' ] ]) {
      const answer = await api(path, tokens.carol, { method });
      expect([ path, method, answer.status ]).toEqual([ path, method, 404 ]);
      expect(answer.body).toEqual({ error: 'Record not found' });
    }
    expect((await api(`/api/v1/lists/${bobList.id}`, tokens.carol, { method: 'PUT', body: JSON.stringify({ title: 'mine' }) })).status)
      .toBe(404);
    expect((await api('/api/v1/lists', undefined)).status).toBe(401);
    expect((await api(`/api/v1/timelines/list/${bobList.id}`, undefined)).status).toBe(401);
    expect((await api('/api/v1/lists', readOnly)).status).toBe(200);
    expect((await api('/api/v1/lists', readOnly, { method: 'POST', body: JSON.stringify({ title: 'no' }) })).status).toBe(403);
    expect((await api(`/api/v1/lists/${bobList.id}`, readOnly, { method: 'DELETE' })).status).toBe(403);
    expect((await api('/api/v1/lists', tokens.bob, { method: 'POST', body: JSON.stringify({ title: ' ' }) })).status).toBe(422);
    expect((await api('/api/v1/lists', tokens.bob, { method: 'POST', body: JSON.stringify({ title: 'x', replies_policy: 'all' }) })).status)
      .toBe(422);
    expect((await masto.bob.v1.lists.$select(bobList.id).fetch()).title).toBe('Close friends');
  });

  it('removes members and deletes lists', async() => {
    await megalodon.bob.deleteAccountsFromList(bobList.id, [ 'alice' ]);
    expect(await masto.bob.v1.lists.$select(bobList.id).accounts.list()).toEqual([]);
    // No member left: the exclusive list hides no one from home.
    expect(texts(await masto.bob.v1.timelines.home.list()).join(' ')).toContain('alice for everyone');
    await masto.bob.v1.lists.$select(bobList.id).remove();
    expect(await masto.bob.v1.lists.list()).toEqual([]);
    expect((await api(`/api/v1/lists/${bobList.id}`, tokens.bob)).status).toBe(404);
    expect((await masto.carol.v1.lists.list()).map((list) => list.id)).toEqual([ carolList.id ]);
  });
});
