/**
 * Load shedding of the inbox: a web node without queue workers accepts deliveries into Redis until
 * more than --max-inbox-backlog wait, then answers 503 with Retry-After (nothing of the refused
 * delivery is kept); once a worker node has processed the backlog, deliveries are accepted again.
 * Nothing processes the jobs until the worker starts, so the backlog only grows meanwhile: no timing
 * decides what the test sees.
 */
import { idOf } from '../../../src/plugins/activitypub/ActivityJson';
import { claimRedisDb, sharedServers } from '../../support/env';
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { signingHabitOf, startFediverseWorld, type FediverseWorld } from '../../support/fediverse-world';
import { signup, type Session } from '../../support/local-actors';
import { makeTempDir } from '../../support/processes';
import { testTls, tlsEnv } from '../../support/tls';

const MAX_BACKLOG = 3;

describe('inbox deliveries past the backlog bound', () => {
  let world: FediverseWorld;
  let web: FedpodServer | undefined;
  let worker: FedpodServer | undefined;
  let alice: Session;
  /** Start options both nodes share: one store, one Redis database, one data directory. */
  let shared: Parameters<typeof startFedpod>[0];
  const run = Date.now().toString(36);
  let sent = 0;

  beforeAll(async() => {
    world = await startFediverseWorld();
    const endpoint = sharedServers().sparqlEndpoint;
    const redisUrl = claimRedisDb();
    const dataDir = makeTempDir('fedpod-inbox-backlog');
    shared = { config: 'activitypub', sparqlEndpoint: endpoint, redisUrl, dataDir, allowPrivateNetwork: true, env: tlsEnv(testTls()) };
    web = await startFedpod({ ...shared, extraArgs: [ '--no-queue-workers', '--max-inbox-backlog', String(MAX_BACKLOG) ] });
    alice = await signup(web.baseUrl, `alice${run}`);
  }, 180_000);

  afterAll(async() => {
    await Promise.all([ web?.stop(), worker?.stop() ]);
    await world?.close();
  });

  /** POSTs a new signed Create to alice's inbox; its id and the answer. */
  async function deliver(): Promise<{ id: string; status: number; retryAfter: string | null; body: Record<string, unknown> }> {
    sent += 1;
    const actor = `${world.origin}/h/backlog.example/users/zoe`;
    const note = `${world.origin}/h/backlog.example/notes/${run}-${sent}`;
    const body = JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', id: `${note}/activity`, type: 'Create', actor,
      to: [ alice.webId ], object: { id: note, type: 'Note', attributedTo: actor, to: [ alice.webId ], content: `note ${sent}` } });
    const inbox = `${alice.webId}/inbox`;
    const answer = await fetch(inbox, { method: 'POST', body, headers: world.sign(inbox, body, actor, signingHabitOf('mastodon')) });
    return { id: `${note}/activity`, status: answer.status, retryAfter: answer.headers.get('retry-after'), body: await answer.json() as Record<string, unknown> };
  }

  async function inboxIds(): Promise<string[]> {
    const page = await (await fetch(`${alice.webId}/inbox?page=true`, { headers: { accept: 'application/activity+json',
      authorization: `Bearer ${alice.token}` } })).json() as { orderedItems: unknown[] };
    return page.orderedItems.map((item) => idOf(item) ?? '');
  }

  it('answers 503 with Retry-After past the bound, keeps nothing of what it refused, and accepts again once processed', async() => {
    const accepted: string[] = [];
    const refused = await eventually(async() => {
      const answer = await deliver();
      if (answer.status === 202) {
        accepted.push(answer.id);
        return undefined;
      }
      return answer;
    }, 60_000, 100);
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBe('30');
    expect(refused.body).toEqual({ error: 'busy', message: expect.stringMatching(/^\d+ received requests are waiting to be processed; send again in 30 s\.$/u) });
    // The backlog is read every half second: a few more than the bound were accepted before it was seen.
    expect(accepted.length).toBeGreaterThan(MAX_BACKLOG);

    worker = await startFedpod({ ...shared, baseUrl: web!.baseUrl });
    const processed = await eventually(async() => {
      const ids = await inboxIds();
      return accepted.every((id) => ids.includes(id)) ? ids : undefined;
    }, 120_000, 250);
    expect(processed).not.toContain(refused.id);

    const again = await eventually(async() => {
      const answer = await deliver();
      return answer.status === 202 ? answer : undefined;
    }, 30_000, 200);
    expect(again.status).toBe(202);
  }, 300_000);
});
