/**
 * A post-to-outbox webhook publishes to the fediverse: Fedpod behind an HTTPS proxy, a Fedify peer
 * (a real ActivityPub server that verifies signatures) following the user; JSON posted to the webhook
 * with no credentials reaches the peer as a signed Create.
 */
import { startFedifyPeer, type FedifyPeer } from '../../support/fedify-peer';
import { startHttpsFedpod, type HttpsFedpod } from '../../support/https-proxy';
import { httpsRequest, testTls, type TlsFiles } from '../../support/tls';
import { eventually as eventuallyWithin } from '../../support/eventually';

interface Session { token: string; webId: string }

const eventually = <T>(check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> =>
  eventuallyWithin(check, timeoutMs, 200);

describe('post-to-outbox webhooks deliver to a Fedify peer', () => {
  let tls: TlsFiles;
  let fedpod: HttpsFedpod;
  let peer: FedifyPeer;
  let alice: Session;

  beforeAll(async() => {
    tls = testTls();
    const started = await Promise.allSettled([ startHttpsFedpod({ config: 'activitypub', tls }), startFedifyPeer(tls) ]);
    [ fedpod, peer ] = started.map((result) => (result.status === 'fulfilled' ? result.value : undefined)) as [ HttpsFedpod, FedifyPeer ];
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    const answer = await httpsRequest(`${fedpod.baseUrl}auth/signup`, { method: 'POST',
      body: { username: 'alice', email: 'alice@example.com', password: 'correct horse' } });
    expect(answer.status).toBe(201);
    alice = answer.json<Session>();
  });

  afterAll(async() => {
    await Promise.allSettled([ fedpod?.stop(), peer?.stop() ]);
  });

  it('the peer follows alice, then a Note posted to her webhook reaches it, signed', async() => {
    await peer.follow(alice.webId);
    await eventually(async() => {
      const followers = await httpsRequest(`${alice.webId}/followers?page=true`, { headers: { accept: 'application/activity+json' } });
      return followers.json<{ orderedItems: string[] }>().orderedItems.includes(peer.actorUrl) ? true : undefined;
    });
    const generated = await httpsRequest(`${fedpod.baseUrl}webhooks`, { method: 'POST', body: JSON.stringify({ action: 'post-to-outbox' }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alice.token}` } });
    expect(generated.status).toBe(201);
    const uri = generated.json<{ id: string }>().id;
    const posted = await httpsRequest(uri, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'Note', content: 'from a webhook, marker 7d1f', to: [ `${alice.webId}/followers` ] }) });
    expect(posted.status).toBe(202);
    const create = await peer.waitFor((activity) => activity.type === 'Create' && activity.actor === alice.webId &&
      JSON.stringify(activity.raw).includes('marker 7d1f'));
    expect(create.verified).toBe(true);
  });
});
