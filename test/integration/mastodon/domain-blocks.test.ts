/**
 * A user's own domain blocks (`/api/v1/domain_blocks`) on two real servers: this one (localhost) with
 * alice, carol and dave, the other (reached as 127.0.0.1, another domain) with bob. When alice blocks
 * bob's domain, his posts leave her home timeline, and her follows with him end both ways; carol,
 * who follows him too, still sees him. Listing with paging, lifting the block, the scopes.
 */
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { pageItemIds, postToOutbox, signup, type Session } from '../../support/local-actors';
import { appToken } from '../../support/mastodon-oauth';
import { freePort } from '../../support/ports';

const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

describe('user-level domain blocks', () => {
  let here: FedpodServer;
  let there: FedpodServer;
  const users: Record<string, Session> = {};
  let note: string;

  async function api(path: string, token: string, method = 'GET', body?: unknown): Promise<{ status: number; body: unknown; link: string | null }> {
    const response = await fetch(`${here.baseUrl}api/v1/${path}`, { method, headers: { authorization: `Bearer ${token}`,
      ...body === undefined ? {} : { 'content-type': 'application/json' } }, ...body === undefined ? {} : { body: JSON.stringify(body) } });
    return { status: response.status, body: await response.json(), link: response.headers.get('link') };
  }

  async function homeUris(session: Session): Promise<string[]> {
    const { body } = await api('timelines/home?limit=40', session.token);
    return (body as { uri: string }[]).map((status): string => status.uri);
  }

  async function follow(follower: Session, followed: Session): Promise<void> {
    expect((await postToOutbox(follower, { type: 'Follow', object: followed.webId })).status).toBe(201);
    await eventually(async() => (await pageItemIds(`${follower.webId}/following`)).includes(followed.webId));
  }

  beforeAll(async() => {
    const port = await freePort();
    [ here, there ] = await Promise.all([
      startFedpod({ config: 'activitypub', allowPrivateNetwork: true }),
      startFedpod({ config: 'activitypub', allowPrivateNetwork: true, port, baseUrl: `http://127.0.0.1:${port}/` }),
    ]);
    for (const name of [ 'alice', 'carol', 'dave' ]) {
      users[name] = await signup(here.baseUrl, name);
    }
    users.bob = await signup(there.baseUrl, 'bob');
    await follow(users.alice, users.bob);
    await follow(users.carol, users.bob);
    await follow(users.bob, users.alice);
    const posted = await postToOutbox(users.bob, { type: 'Note', content: 'from the other domain', to: [ PUBLIC, `${users.bob.webId}/followers` ]});
    note = (posted.body.object as { id: string }).id;
    await eventually(async() => (await homeUris(users.alice)).includes(note) && (await homeUris(users.carol)).includes(note));
  }, 180_000);

  afterAll(async() => {
    await Promise.all([ here?.stop(), there?.stop() ]);
  });

  it('hides the domain from the blocker only and ends the follows both ways', async() => {
    expect(await api('domain_blocks', users.alice.token, 'POST', { domain: '127.0.0.1' })).toMatchObject({ status: 200, body: {}});
    expect(await homeUris(users.alice)).not.toContain(note);
    expect(await homeUris(users.carol)).toContain(note);
    expect(await pageItemIds(`${users.alice.webId}/following`)).not.toContain(users.bob.webId);
    expect(await pageItemIds(`${users.alice.webId}/followers`)).not.toContain(users.bob.webId);
    expect(await pageItemIds(`${users.carol.webId}/following`)).toContain(users.bob.webId);
  });

  it('lists the blocked domains newest first, with paging', async() => {
    expect((await api('domain_blocks', users.alice.token, 'POST', { domain: 'Spam.Example' })).status).toBe(200);
    // Twice is once.
    expect((await api('domain_blocks', users.alice.token, 'POST', { domain: 'spam.example' })).status).toBe(200);
    const all = await api('domain_blocks', users.alice.token);
    expect(all.body).toEqual([ 'spam.example', '127.0.0.1' ]);
    const first = await api('domain_blocks?limit=1', users.alice.token);
    expect(first.body).toEqual([ 'spam.example' ]);
    const next = /<([^>]+)>; rel="next"/u.exec(first.link ?? '')![1];
    const second = await fetch(next, { headers: { authorization: `Bearer ${users.alice.token}` } });
    expect(await second.json()).toEqual([ '127.0.0.1' ]);
    expect((await api('domain_blocks', users.dave.token)).body).toEqual([]);
  });

  it('lifts a block with DELETE; refuses what is no domain, no login and the wrong scope', async() => {
    expect((await api('domain_blocks?domain=spam.example', users.alice.token, 'DELETE')).status).toBe(200);
    expect((await api('domain_blocks', users.alice.token)).body).toEqual([ '127.0.0.1' ]);
    expect((await api('domain_blocks', users.alice.token, 'POST', { domain: 'not a domain' })).status).toBe(400);
    expect((await api('domain_blocks', users.alice.token, 'POST', {})).status).toBe(422);
    expect((await fetch(`${here.baseUrl}api/v1/domain_blocks`)).status).toBe(401);
    const readOnly = await appToken(here.baseUrl, 'dave', 'correct horse', 'read');
    expect((await api('domain_blocks', readOnly)).status).toBe(200);
    expect((await api('domain_blocks', readOnly, 'POST', { domain: 'spam.example' })).status).toBe(403);
  });
});
