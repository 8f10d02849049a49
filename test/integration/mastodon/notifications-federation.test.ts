/**
 * Notifications from another server: two real Fedpod instances (each behind its HTTPS proxy); bob,
 * on the second, follows, mentions, favourites and boosts alice, on the first, whose streaming
 * socket (opened on the first's own address) gets each notification, as her list does.
 */
import type { HttpsFedpod } from '../../support/https-proxy';
import { httpsOutbox, httpsSignup, startHttpsFedpodPair, type HttpsSession as Session } from '../../support/https-sessions';
import { httpsRequest, testTls, type TlsFiles } from '../../support/tls';
import { eventually } from '../../support/eventually';
import { RawStream, type StreamEvent } from '../../support/mastodon-streams';

describe('Mastodon notifications of a remote user\'s actions', () => {
  let tls: TlsFiles;
  let home: HttpsFedpod;
  let remote: HttpsFedpod;
  let alice: Session;
  let bob: Session;
  let stream: RawStream;

  async function api<T>(server: HttpsFedpod, session: Session, path: string, method = 'GET', body?: unknown): Promise<T> {
    const answer = await httpsRequest(`${server.baseUrl}${path}`, { method, body,
      headers: { authorization: `Bearer ${session.token}` }});
    expect(answer.status).toBe(200);
    return answer.json<T>();
  }

  const notification = (type: string) => (event: StreamEvent): boolean =>
    event.event === 'notification' && (JSON.parse(event.payload) as { type: string }).type === type;

  beforeAll(async() => {
    tls = testTls();
    [ home, remote ] = await startHttpsFedpodPair(tls);
    alice = await httpsSignup(home, 'alice');
    bob = await httpsSignup(remote, 'bob');
    stream = await RawStream.open(home.directUrl, '?stream=user', alice.token);
    await stream.ready();
  });

  afterAll(async() => {
    stream?.close();
    await Promise.all([ home?.stop(), remote?.stop() ]);
  });

  it('notifies and streams a remote follow, mention, favourite and boost', async() => {
    const bobAcct = `bob@${new URL(remote.baseUrl).host}`;
    await httpsOutbox(bob, { type: 'Follow', object: alice.webId });
    const follow = await stream.waitFor(notification('follow'), 60_000);
    expect(JSON.parse(follow.payload)).toMatchObject({ account: { acct: bobAcct, url: bob.webId }});

    const post = await api<{ id: string; uri: string }>(home, alice, 'api/v1/statuses', 'POST', { status: 'Hello from home', visibility: 'public' });
    // Bob follows alice once her Accept is back: then her post reaches his home timeline.
    const copy = await eventually(async() => (await api<{ id: string; uri: string }[]>(remote, bob, 'api/v1/timelines/home'))
      .find((status) => status.uri === post.uri), 60_000);
    await api(remote, bob, `api/v1/statuses/${copy.id}/favourite`, 'POST');
    await api(remote, bob, `api/v1/statuses/${copy.id}/reblog`, 'POST');
    await httpsOutbox(bob, { type: 'Note', content: '<p>@alice hi from afar</p>', to: [ alice.webId ],
      tag: [{ type: 'Mention', href: alice.webId, name: `@alice@${new URL(home.baseUrl).host}` }]});

    for (const type of [ 'favourite', 'reblog' ]) {
      const event = await stream.waitFor(notification(type), 60_000);
      expect(JSON.parse(event.payload)).toMatchObject({ type, account: { acct: bobAcct }, status: { id: post.id }});
    }
    const mention = await stream.waitFor(notification('mention'), 60_000);
    expect(JSON.parse(mention.payload)).toMatchObject({ account: { acct: bobAcct }, status: { visibility: 'direct' }});
    expect(JSON.parse(mention.payload).status.content).toContain('hi from afar');

    const listed = await api<{ type: string; account: { acct: string } }[]>(home, alice, 'api/v1/notifications');
    expect(listed.map((item) => item.type).sort()).toEqual([ 'favourite', 'follow', 'mention', 'reblog' ]);
    expect(new Set(listed.map((item) => item.account.acct))).toEqual(new Set([ bobAcct ]));
  });
});
