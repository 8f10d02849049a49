/**
 * A user's follows, blocks, mutes and bookmarks exported as Mastodon's CSV files, on a real server
 * with four local users: alice follows bob and carol, blocks dave, mutes carol (notifications too),
 * bookmarks a post of bob's and blocks two domains; what she exports is hers alone, and only she reads it.
 */
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { eventually } from '../../support/eventually';
import { pageItemIds, postToOutbox, signup, type Session } from '../../support/local-actors';
import { appToken } from '../../support/mastodon-oauth';

const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

describe('exports as Mastodon\'s CSV', () => {
  let server: FedpodServer;
  let host: string;
  const users: Record<string, Session> = {};
  let app: string;

  async function exported(file: string, session?: Session): Promise<Response> {
    return fetch(`${server.baseUrl}auth/export/${file}`, { headers: session ? { authorization: `Bearer ${session.token}` } : {} });
  }

  async function api(path: string, method = 'GET'): Promise<Record<string, unknown>[] & Record<string, unknown>> {
    const response = await fetch(`${server.baseUrl}api/v1/${path}`, { method, headers: { authorization: `Bearer ${app}` } });
    expect(response.status).toBe(200);
    return await response.json() as Record<string, unknown>[] & Record<string, unknown>;
  }

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub' });
    host = new URL(server.baseUrl).host;
    for (const name of [ 'alice', 'bob', 'carol', 'dave' ]) {
      users[name] = await signup(server.baseUrl, name);
    }
    app = await appToken(server.baseUrl, 'alice', 'correct horse', 'read write follow');
    // Each follow is in alice's following once its Accept is processed (through the queue): one after the other, so "newest first" is known.
    for (const followed of [ users.bob, users.carol ]) {
      expect((await postToOutbox(users.alice, { type: 'Follow', object: followed.webId })).status).toBe(201);
      await eventually(async() => (await pageItemIds(`${users.alice.webId}/following`)).includes(followed.webId));
    }
    expect((await postToOutbox(users.alice, { type: 'Block', object: users.dave.webId })).status).toBe(201);
    expect((await postToOutbox(users.bob, { type: 'Note', content: 'worth keeping', to: [ PUBLIC ]})).status).toBe(201);
    await api('accounts/carol/mute', 'POST');
    await api('domain_blocks?domain=spam.example', 'POST');
    await api('domain_blocks?domain=worse.example', 'POST');
    const [ status ] = await api('accounts/bob/statuses');
    await api(`statuses/${String(status.id)}/bookmark`, 'POST');
    users.bobsPost = { token: '', webId: String(status.uri) };
  });

  afterAll(async() => {
    await server?.stop();
  });

  it('exports the follows with Mastodon\'s header, newest first', async() => {
    const response = await exported('following_accounts.csv', users.alice);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="following_accounts.csv"');
    expect(await response.text()).toBe('Account address,Show boosts,Notify on new posts,Languages\n' +
      `carol@${host},true,false,\nbob@${host},true,false,\n`);
  });

  it('exports blocks and bookmarks one a line without a header, and mutes with theirs', async() => {
    expect(await (await exported('blocked_accounts.csv', users.alice)).text()).toBe(`dave@${host}\n`);
    expect(await (await exported('muted_accounts.csv', users.alice)).text()).toBe(`Account address,Hide notifications\ncarol@${host},true\n`);
    expect(await (await exported('bookmarks.csv', users.alice)).text()).toBe(`${users.bobsPost.webId}\n`);
    expect(await (await exported('blocked_domains.csv', users.alice)).text()).toBe('worse.example\nspam.example\n');
  });

  it('gives each user their own lists, nobody else\'s, and refuses unknown files', async() => {
    expect(await (await exported('following_accounts.csv', users.bob)).text()).toBe('Account address,Show boosts,Notify on new posts,Languages\n');
    expect(await (await exported('blocked_accounts.csv', users.carol)).text()).toBe('');
    expect((await exported('following_accounts.csv')).status).toBe(401);
    const unknown = await exported('passwords.csv', users.alice);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: 'not_found' });
  });
});
