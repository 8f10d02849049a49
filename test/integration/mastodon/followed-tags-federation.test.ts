/**
 * Followed hashtags across two real Fedpod instances (each behind its HTTPS proxy): on the first,
 * alice follows bob of the second, and carol follows #fediverse but not bob. Bob's public post with
 * the tag reaches alice's inbox and, from there, carol's home timeline; his followers-only post
 * with it reaches alice alone.
 */
import { startHttpsFedpod, type HttpsFedpod } from '../../support/https-proxy';
import { httpsRequest, testTls, type TlsFiles } from '../../support/tls';
import { eventually } from '../../support/eventually';

interface Session { token: string; webId: string }
const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

describe('followed hashtags with another server', () => {
  let tls: TlsFiles;
  let home: HttpsFedpod;
  let remote: HttpsFedpod;
  let alice: Session;
  let carol: Session;
  let bob: Session;

  async function signup(server: HttpsFedpod, username: string): Promise<Session> {
    const answer = await httpsRequest(`${server.baseUrl}auth/signup`, { method: 'POST',
      body: { username, email: `${username}@example.com`, password: 'correct horse' }});
    expect(answer.status).toBe(201);
    return answer.json<Session>();
  }

  async function api<T>(session: Session, path: string, method = 'GET'): Promise<T> {
    const answer = await httpsRequest(`${home.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${session.token}` }});
    expect(answer.status).toBe(200);
    return answer.json<T>();
  }

  async function outbox(session: Session, activity: Record<string, unknown>): Promise<void> {
    const answer = await httpsRequest(`${session.webId}/outbox`, { method: 'POST', body: JSON.stringify(activity),
      headers: { 'content-type': 'application/activity+json', authorization: `Bearer ${session.token}` }});
    expect(answer.status).toBe(201);
  }

  const homeTexts = async(session: Session): Promise<string> =>
    (await api<{ content: string }[]>(session, 'api/v1/timelines/home')).map((status) => status.content).join(' | ');

  beforeAll(async() => {
    tls = testTls();
    const started = await Promise.allSettled([
      startHttpsFedpod({ config: 'activitypub', tls }),
      startHttpsFedpod({ config: 'activitypub', tls }),
    ]);
    [ home, remote ] = started.map((result) => (result.status === 'fulfilled' ? result.value : undefined)) as [ HttpsFedpod, HttpsFedpod ];
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    [ alice, carol ] = [ await signup(home, 'alice'), await signup(home, 'carol') ];
    bob = await signup(remote, 'bob');
  });

  afterAll(async() => {
    await Promise.all([ home?.stop(), remote?.stop() ]);
  });

  it('brings a remote public post with a followed hashtag to the home of a user who does not follow its author', async() => {
    await outbox(alice, { type: 'Follow', object: bob.webId });
    await eventually(async() => {
      const page = await httpsRequest(`${bob.webId}/followers?page=true`, { headers: { accept: 'application/activity+json' }});
      return page.json<{ orderedItems: string[] }>().orderedItems.includes(alice.webId);
    });
    expect(await api(carol, 'api/v1/tags/fediverse/follow', 'POST')).toMatchObject({ name: 'fediverse', following: true });

    const tag = { type: 'Hashtag', name: '#Fediverse', href: `${remote.baseUrl}tags/fediverse` };
    await outbox(bob, { type: 'Note', content: '<p>For followers about #Fediverse</p>', to: [ `${bob.webId}/followers` ], tag: [ tag ]});
    await outbox(bob, { type: 'Note', content: '<p>Hello #Fediverse</p>', to: [ PUBLIC ], cc: [ `${bob.webId}/followers` ], tag: [ tag ]});
    // Two deliveries, in any order.
    await eventually(async() => (await homeTexts(alice)).includes('Hello') && (await homeTexts(alice)).includes('For followers'));
    await eventually(async() => (await homeTexts(carol)).includes('Hello'));
    expect(await homeTexts(carol)).not.toContain('For followers');
    // Carol reads it as any reader may: it is public.
    const [ status ] = await api<{ id: string; visibility: string; account: { acct: string } }[]>(carol, 'api/v1/timelines/home');
    expect(status).toMatchObject({ visibility: 'public', account: { acct: `bob@${new URL(remote.baseUrl).host}` }});
  });
});
