/**
 * What the Mastodon API keeps of an account goes with it: bob (on a server with alice and carol)
 * has notifications, markers, a list, a filter, a followed hashtag with a post in its feed and a
 * push subscription; once he deletes his account none of it is left in the store or the data
 * directory, while alice's and carol's records of the same kinds stay.
 */
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { eventually } from '../../support/eventually';
import { appToken } from '../../support/mastodon-oauth';
import { startWithUsers, type MastodonUsers } from '../../support/mastodon-users';
import { browserKeys } from '../../support/push-service';
import { selectOnStore, TEST_STORES } from '../../support/stores';

describe('deleting an account with Mastodon API records', () => {
  let users: MastodonUsers | undefined;
  let { url, masto, api } = {} as MastodonUsers;

  /** The store's graphs whose names hold the actor's IRI. */
  const graphsOf = async(username: string): Promise<string[]> => {
    const actor = `${url}/actors/${username}`;
    const rows = await selectOnStore(TEST_STORES[0], users!.server,
      `SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } FILTER(CONTAINS(STR(?g), "${actor}/") || STRENDS(STR(?g), "${actor}")) }`);
    return rows.map((row) => row.g.value).sort();
  };

  /** The files under the data directory's `mastodon/<kind>/`. */
  const filesOf = (kind: string): string[] => {
    const root = path.join(users!.server.dataDir, 'mastodon', kind);
    try {
      return readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name);
    } catch {
      return [];
    }
  };

  beforeAll(async() => {
    users = await startWithUsers();
    ({ url, masto, api } = users);
  });

  afterAll(async() => {
    await users?.server.stop();
  });

  it('removes his notifications, markers, lists, filters, followed hashtags and push subscriptions, and nobody else\'s', async() => {
    for (const [ user, other ] of [ [ 'bob', 'alice' ], [ 'carol', 'alice' ] ] as const) {
      await users!.follow(user, other);
      await masto[user].v1.lists.create({ title: `${user}'s friends` });
      await masto[user].v2.filters.create({ title: 'no spoilers', context: [ 'home' ], keywordsAttributes: [{ keyword: 'spoiler' }]});
      await masto[user].v1.tags.$select('cats').follow();
    }
    await users!.follow('alice', 'bob');
    await masto.alice.v1.statuses.create({ status: 'Hello @bob and @carol, #cats', visibility: 'public' });
    await eventually(async() => (await masto.bob.v1.notifications.list()).length >= 2);
    const [ newest ] = await masto.bob.v1.timelines.home.list();
    await masto.bob.v1.markers.create({ home: { lastReadId: newest.id }});
    const pushToken = await appToken(users!.server.baseUrl, 'bob', 'correct horse', 'push');
    expect((await api('/api/v1/push/subscription', pushToken, { method: 'POST',
      body: JSON.stringify({ subscription: { endpoint: 'https://push.example/bob', keys: browserKeys() }, data: { alerts: { mention: true }}}) })).status)
      .toBe(200);
    const before = await graphsOf('bob');
    expect(before).toEqual(expect.arrayContaining([ `urn:fedpod:mastodon:notifications:${url}/actors/bob`,
      `urn:fedpod:mastodon:markers:${url}/actors/bob`, `urn:fedpod:mastodon:followed-tags:${url}/actors/bob` ]));
    expect(filesOf('lists')).toHaveLength(2);
    expect(filesOf('filters')).toHaveLength(2);
    expect(filesOf('push')).toHaveLength(1);
    const carolGraphs = await graphsOf('carol');

    // As the account page does it: with his Fedpod login (an app's token may not delete the account).
    const login = await fetch(`${url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bob', password: 'correct horse' }) });
    const { token } = await login.json() as { token: string };
    const deleted = await fetch(`${url}/auth/delete`, { method: 'POST', headers: { authorization: `Bearer ${token}`,
      'content-type': 'application/json' }, body: JSON.stringify({ password: 'correct horse' }) });
    expect(deleted.status).toBe(200);

    expect(await graphsOf('bob')).toEqual([]);
    expect(filesOf('lists')).toHaveLength(1);
    expect(filesOf('filters')).toHaveLength(1);
    expect(filesOf('push')).toEqual([]);
    // Carol's records of the same kinds are where they were.
    expect(await graphsOf('carol')).toEqual(carolGraphs);
    expect((await masto.carol.v1.lists.list()).map((list) => list.title)).toEqual([ 'carol\'s friends' ]);
    expect((await masto.carol.v1.followedTags.list()).map((tag) => tag.name)).toEqual([ 'cats' ]);
    expect((await masto.carol.v1.notifications.list()).length).toBeGreaterThan(0);
  });
});
