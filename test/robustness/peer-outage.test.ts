/**
 * A remote ActivityPub peer is down for a while, then back on the same address: every Note posted to
 * followers meanwhile still arrives, signed, through the delivery queue's retries with backoff.
 *
 * Fedpod runs behind an HTTPS proxy (as federation needs) with `--retry-base-delay 500`, so that its
 * backoff (30 s doubling over about 48 h by default) runs in seconds; the peer is a real Fedify server
 * that verifies every signature (test/support/fedify-peer.ts).
 */
import { startFedifyPeer, type FedifyPeer, type ReceivedActivity } from '../support/fedify-peer';
import { startHttpsFedpod, type HttpsFedpod } from '../support/https-proxy';
import { httpsRequest, testTls, type TlsFiles } from '../support/tls';
import { eventually, sleep } from './faults/http';
import { printSummary, recordPart } from './faults/summary';

const NOTES = 12;
/** How long the peer stays down after the last post: every delivery has failed at least once by then. */
const DOWN_AFTER_POSTS_MS = 5_000;

interface Session { token: string; webId: string }

async function signup(server: HttpsFedpod, username: string): Promise<Session> {
  const answer = await httpsRequest(`${server.baseUrl}auth/signup`, { method: 'POST',
    body: { username, email: `${username}@example.com`, password: 'correct horse battery' } });
  expect(answer.status).toBe(201);
  return answer.json<Session>();
}

async function followers(session: Session): Promise<string[]> {
  const answer = await httpsRequest(`${session.webId}/followers?page=true`, { headers: { accept: 'application/activity+json' } });
  if (answer.status !== 200) throw new Error(`followers: ${answer.status} ${answer.body.slice(0, 200)}`);
  return answer.json<{ orderedItems: string[] }>().orderedItems;
}

describe('a peer down for a while, then back', () => {
  let tls: TlsFiles;
  let fedpod: HttpsFedpod | undefined;
  let peer: FedifyPeer | undefined;
  let alice: Session;

  beforeAll(async() => {
    tls = testTls();
    const started = await Promise.allSettled([
      startHttpsFedpod({ config: 'activitypub', tls, extraArgs: [ '--retry-base-delay', '500' ] }),
      startFedifyPeer(tls),
    ]);
    [ fedpod, peer ] = started.map((result) => (result.status === 'fulfilled' ? result.value : undefined)) as [ HttpsFedpod, FedifyPeer ];
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    alice = await signup(fedpod!, 'alice');
  });

  afterAll(async() => {
    await Promise.allSettled([ fedpod?.stop(), peer?.stop() ]);
  });

  it(`delivers all ${NOTES} Notes posted while the peer was down, once it is back`, async() => {
    const remote = peer!;
    // The peer follows alice and gets her Accept: it is among her followers, its inbox known.
    await remote.follow(alice.webId);
    await eventually('the peer is among alice\'s followers', async() => (await followers(alice)).includes(remote.actorUrl) ? true : undefined);
    await remote.waitFor((activity) => activity.type === 'Accept' && activity.actor === alice.webId, 30_000);

    await remote.stop();
    const posted: string[] = [];
    for (let i = 1; i <= NOTES; i++) {
      const answer = await httpsRequest(`${alice.webId}/outbox`, { method: 'POST',
        headers: { 'content-type': 'application/ld+json', authorization: `Bearer ${alice.token}` },
        body: JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', type: 'Note',
          content: `while you were away #${i}`, to: [ `${alice.webId}/followers` ] }) });
      expect(answer.status).toBe(201);
      posted.push(answer.headers.location as string);
    }
    await sleep(DOWN_AFTER_POSTS_MS);
    // The same port: the address Fedpod has for the peer's inbox.
    await remote.restart();

    const arrived = new Map<string, ReceivedActivity>();
    try {
      await eventually('every Note has arrived', async() => {
        for (const activity of await remote.received()) {
          if (activity.id !== null && posted.includes(activity.id)) arrived.set(activity.id, activity);
        }
        return arrived.size === posted.length ? true : undefined;
      }, 120_000, 500);
    } catch {
      // Reported below, with what did arrive.
    }
    const verified = [ ...arrived.values() ].filter((activity) => activity.verified && activity.type === 'Create').length;
    printSummary(recordPart('peer', `peer outage: ${verified}/${NOTES} delivered`));
    expect(posted.filter((id) => !arrived.has(id))).toEqual([]);
    expect([ ...arrived.values() ].map((activity) => ({ type: activity.type, verified: activity.verified })))
      .toEqual(posted.map(() => ({ type: 'Create', verified: true })));
  }, 240_000);
});
