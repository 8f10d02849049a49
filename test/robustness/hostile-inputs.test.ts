/**
 * The abuse corpus: over a thousand hostile requests over real sockets to real Fedpod servers
 * (the ActivityPub setup on the embedded store, WITHOUT --allow-private-network; the LDP setup with
 * /sparql on the embedded store and on Virtuoso; and, for signed deliveries whose key the server can
 * fetch, the ActivityPub setup WITH --allow-private-network and a signer actor on loopback). Every answer must be below 500 and in the class
 * the case names, Fedpod's JSON APIs must answer errors as {error, message}, no private address
 * may be contacted (a trap server listens on one), and the stored data (every quad of the store,
 * and the account and key files) must be unchanged after each group, apart from the resources
 * that benign odd-but-valid creations made.
 */
import { activityPubGroups, type ActivityPubTarget } from './corpus/activitypub';
import { ldpGroups, type LdpTarget } from './corpus/ldp';
import { forgedDeliveryGroup, signedControlGroup } from './corpus/signatures';
import type { CaseGroup } from './corpus/types';
import { sharedServers } from '../support/env';
import { startFedpod, type FedpodServer } from '../support/fedpod';
import { startCanary, type Canary } from './support/canary';
import { hostileTokens, throwawayRsaKey } from './support/forgery';
import { startSigner, type Signer } from './support/signer';
import { runGroup, unexplainedChanges } from './support/runner';
import { diff, snapshot, type StoreView } from './support/snapshot';
import { httpRequest } from '../support/sparql';

jest.setTimeout(300_000);

const BASIC = `Basic ${Buffer.from('admin:admin').toString('base64')}`;
const CONCURRENCY = 4;

interface Target {
  label: string;
  server: FedpodServer;
  view: StoreView;
  groups: CaseGroup[];
}

function embeddedView(server: FedpodServer): StoreView {
  return {
    queryUrl: `http://127.0.0.1:${server.storePort}/localData/query`,
    authorization: BASIC,
    graphPrefix: server.baseUrl,
    defaultGraphUrl: `http://127.0.0.1:${server.storePort}/localData/data?default`,
  };
}

function hostOf(server: FedpodServer): string {
  return new URL(server.baseUrl).host;
}

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Record<string, unknown>; location?: string }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, json: await response.json() as Record<string, unknown>, location: response.headers.get('location') ?? undefined };
}

describe('hostile inputs', () => {
  let canary: Canary;
  let signer: Signer;
  const servers: FedpodServer[] = [];
  const targets: Target[] = [];
  const failures: string[] = [];
  let tried = 0;
  let fiveHundreds = 0;
  let storeHeld = true;

  beforeAll(async() => {
    canary = await startCanary();
    signer = await startSigner(throwawayRsaKey);
    const started = await Promise.allSettled([
      startFedpod({ config: 'activitypub' }),
      startFedpod({ config: 'ldp-sparql' }),
      startFedpod({ config: 'ldp-sparql', sparqlEndpoint: sharedServers().sparqlEndpoint }),
      startFedpod({ config: 'activitypub', allowPrivateNetwork: true }),
    ]);
    for (const result of started) {
      if (result.status === 'fulfilled') {
        servers.push(result.value);
      }
    }
    const refused = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (refused) {
      throw refused.reason;
    }
    const [ ap, ldp, ldpVirtuoso, apOpen ] = servers;

    // Legitimate set-up writes, made before the first snapshot: one user and one live webhook.
    const signup = await postJson(`${ap.baseUrl}auth/signup`, { username: 'alice', email: 'alice@example.org', password: 'correct horse battery' });
    expect(signup.status).toBe(201);
    const token = signup.json.token as string;
    const webhook = await postJson(`${ap.baseUrl}webhooks`, { action: 'store-in-container' }, { authorization: `Bearer ${token}` });
    expect(webhook.status).toBe(201);
    // Another user, and two notes of alice's that nobody else may change: a public one and a private one
    // (addressed to nobody, so that no delivery writes anything later).
    const mallory = await postJson(`${ap.baseUrl}auth/signup`, { username: 'mallory', email: 'mallory@example.org', password: 'correct horse battery' });
    expect(mallory.status).toBe(201);
    const notes: Record<'public' | 'private', { object: string; activity: string }> = { public: { object: '', activity: '' }, private: { object: '', activity: '' } };
    for (const [ kind, to ] of [ [ 'public', [ 'https://www.w3.org/ns/activitystreams#Public' ] ], [ 'private', [] ] ] as const) {
      const posted = await postJson(`${ap.baseUrl}actors/alice/outbox`, { '@context': 'https://www.w3.org/ns/activitystreams', type: 'Note',
        content: `alice's ${kind} note`, to }, { authorization: `Bearer ${token}` });
      expect(posted.status).toBe(201);
      notes[kind] = { object: new URL((posted.json.object as { id: string }).id).pathname, activity: new URL(posted.location!).pathname };
    }
    const apTarget: ActivityPubTarget = {
      host: hostOf(ap),
      baseUrl: ap.baseUrl,
      username: 'alice',
      token,
      webhookPath: new URL(webhook.location!).pathname,
      otherToken: mallory.json.token as string,
      notes,
      tokens: await hostileTokens(ap.baseUrl, ap.dataDir, token),
      canaryPort: canary.port,
    };
    const ldpTarget = (server: FedpodServer): LdpTarget => ({ host: hostOf(server), baseUrl: server.baseUrl, canaryPort: canary.port });
    const bob = await postJson(`${apOpen.baseUrl}auth/signup`, { username: 'bob', email: 'bob@example.org', password: 'correct horse battery' });
    expect(bob.status).toBe(201);
    const signedTarget = { host: hostOf(apOpen), baseUrl: apOpen.baseUrl, username: 'bob', actor: signer.actor, keyId: signer.keyId };
    targets.push(
      { label: 'activitypub (embedded store)', server: ap, view: embeddedView(ap), groups: activityPubGroups(apTarget) },
      { label: 'ldp-sparql (embedded store)', server: ldp, view: embeddedView(ldp), groups: ldpGroups(ldpTarget(ldp)) },
      {
        label: 'ldp-sparql (Virtuoso)',
        server: ldpVirtuoso,
        view: { queryUrl: sharedServers().sparqlEndpoint, graphPrefix: ldpVirtuoso.baseUrl, paged: true },
        // On Virtuoso only what reaches the store: the JSON-LD terms (bodies Virtuoso itself refuses included).
        groups: ldpGroups(ldpTarget(ldpVirtuoso)).filter((group) => group.name === 'LDP: JSON-LD'),
      },
      {
        label: 'activitypub (embedded store, --allow-private-network)',
        server: apOpen,
        view: embeddedView(apOpen),
        // The control goes last: the delivery it gets accepted is stored later, from the inbox queue.
        groups: [ forgedDeliveryGroup(signedTarget), signedControlGroup(signedTarget) ],
      },
    );
  });

  afterAll(async() => {
    process.stdout.write(`robustness: ${tried} hostile inputs tried, ${fiveHundreds} answered 5xx, ` +
      `store unchanged: ${storeHeld && failures.length === 0 ? 'held' : 'BROKEN'}\n`);
    await Promise.all(servers.map((server) => server.stop()));
    await canary?.close();
    await signer?.close();
  });

  async function attack(target: Target): Promise<void> {
    const port = target.server.port;
    for (const group of target.groups) {
      const before = await snapshot(target.view, target.server.dataDir);
      const outcomes = await runGroup(port, hostOf(target.server), target.server.baseUrl, group, CONCURRENCY);
      const after = await snapshot(target.view, target.server.dataDir);
      tried += outcomes.length;
      for (const outcome of outcomes) {
        if (outcome.status !== undefined && outcome.status >= 500) {
          fiveHundreds += 1;
        }
        for (const problem of outcome.problems) {
          failures.push(`[${target.label}] ${group.name} / ${outcome.testCase.name}: ${problem}`);
        }
      }
      if (group.mayChangeStore === true) {
        continue;
      }
      const change = diff(before, after);
      const created = group.mayCreateResources === true ?
        outcomes.map((outcome) => outcome.created).filter((iri): iri is string => iri !== undefined) :
        [];
      const unexplained = unexplainedChanges(change, created);
      if (unexplained.length > 0 || change.changedFiles.length > 0) {
        storeHeld = false;
        failures.push(`[${target.label}] ${group.name}: stored data changed: ` +
          `${unexplained.slice(0, 10).map((quad) => `${change.added.includes(quad) ? '+' : '-'} ${quad.line}`).join('\n  ')}` +
          `${change.changedFiles.length > 0 ? `\n  files: ${change.changedFiles.join(', ')}` : ''}`);
      }
    }
    // Still alive and serving after the whole corpus.
    const health = await httpRequest(`${target.server.baseUrl}healthz`);
    if (health.status !== 200) {
      failures.push(`[${target.label}] /healthz answered ${health.status} after the corpus`);
    }
  }

  it('answers every hostile input below 500, in its expected class, and changes no stored data', async() => {
    expect(targets.reduce((sum, target) => sum + target.groups.reduce((n, group) => n + group.cases.length, 0), 0)).toBeGreaterThanOrEqual(300);
    await Promise.all(targets.map(attack));
    if (canary.hits.length > 0) {
      failures.push(`the SSRF trap on a private address was contacted: ${canary.hits.slice(0, 5).join('; ')}`);
    }
    expect(failures).toEqual([]);
  });
});
