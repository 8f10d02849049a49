/**
 * Followed hashtags across two real Fedpod instances (each behind its HTTPS proxy): on the first,
 * alice follows bob of the second, and carol follows #fediverse but not bob. Bob's public post with
 * the tag reaches alice's inbox and, from there, carol's home timeline; his followers-only post
 * with it reaches alice alone.
 */
import type { HttpsFedpod } from '../../support/https-proxy';
import { httpsOutbox, httpsSignup, startHttpsFedpodPair, type HttpsSession as Session } from '../../support/https-sessions';
import { httpsRequest, testTls, type TlsFiles } from '../../support/tls';
import { eventually } from '../../support/eventually';

const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

describe('followed hashtags with another server', () => {
  let tls: TlsFiles;
  let home: HttpsFedpod;
  let remote: HttpsFedpod;
  let alice: Session;
  let carol: Session;
  let bob: Session;

  async function api<T>(session: Session, path: string, method = 'GET'): Promise<T> {
    const answer = await httpsRequest(`${home.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${session.token}` }});
    expect(answer.status).toBe(200);
    return answer.json<T>();
  }

  const homeTexts = async(session: Session): Promise<string> =>
    (await api<{ content: string }[]>(session, 'api/v1/timelines/home')).map((status) => status.content).join(' | ');

  beforeAll(async() => {
    tls = testTls();
    [ home, remote ] = await startHttpsFedpodPair(tls);
    [ alice, carol ] = [ await httpsSignup(home, 'alice'), await httpsSignup(home, 'carol') ];
    bob = await httpsSignup(remote, 'bob');
  });

  afterAll(async() => {
    await Promise.all([ home?.stop(), remote?.stop() ]);
  });

  it('brings a remote public post with a followed hashtag to the home of a user who does not follow its author', async() => {
    await httpsOutbox(alice, { type: 'Follow', object: bob.webId });
    // Once the Accept is back, alice's server lists bob's posts for her.
    await eventually(async() => {
      const page = await httpsRequest(`${alice.webId}/following?page=true`, { headers: { accept: 'application/activity+json' }});
      return page.json<{ orderedItems: string[] }>().orderedItems.includes(bob.webId);
    });
    expect(await api(carol, 'api/v1/tags/fediverse/follow', 'POST')).toMatchObject({ name: 'fediverse', following: true });

    const tag = { type: 'Hashtag', name: '#Fediverse', href: `${remote.baseUrl}tags/fediverse` };
    await httpsOutbox(bob, { type: 'Note', content: '<p>For followers about #Fediverse</p>', to: [ `${bob.webId}/followers` ], tag: [ tag ]});
    await httpsOutbox(bob, { type: 'Note', content: '<p>Hello #Fediverse</p>', to: [ PUBLIC ], cc: [ `${bob.webId}/followers` ], tag: [ tag ]});
    // Two deliveries, in any order.
    await eventually(async() => (await homeTexts(alice)).includes('Hello') && (await homeTexts(alice)).includes('For followers'));
    await eventually(async() => (await homeTexts(carol)).includes('Hello'));
    expect(await homeTexts(carol)).not.toContain('For followers');
    // Carol reads it as any reader may: it is public.
    const [ status ] = await api<{ id: string; visibility: string; account: { acct: string } }[]>(carol, 'api/v1/timelines/home');
    expect(status).toMatchObject({ visibility: 'public', account: { acct: `bob@${new URL(remote.baseUrl).host}` }});
  });
});
