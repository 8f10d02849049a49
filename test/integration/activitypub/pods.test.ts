/**
 * A pod for every account in the default setup (config/activitypub.json): the account's storage
 * {base}pods/<username>/ under WebACL, found by Solid apps from the WebID (the actor), with one login
 * for both (@inrupt/solid-client and @inrupt/solid-client-authn-node as an app uses them); the
 * ActivityPub routes keep their audience rules and the server's containers stay unwritable over LDP,
 * even for the root ACL's owner. Accounts made before the setup gave storages get theirs at start-up.
 */
import path from 'node:path';
import { Parser } from 'n3';
import {
  getPodUrlAll, getSolidDataset, getStringNoLocale, getThing, buildThing, createSolidDataset, createThing, saveSolidDatasetAt, setThing,
  universalAccess,
} from '@inrupt/solid-client';
import type { Session } from '@inrupt/solid-client-authn-node';
import { dpopSession } from '../../support/dpop-session';
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { freePort } from '../../support/ports';
import { makeTempDir } from '../../support/processes';
import { itemIds } from '../../support/collections';

interface Account { token: string; webId: string }

const AS = 'https://www.w3.org/ns/activitystreams';
const AP = 'application/activity+json';
const PASSWORD = 'correct horse battery';
const NAME = 'http://schema.org/name';
const PIM_STORAGE = 'http://www.w3.org/ns/pim/space#storage';

async function signup(server: FedpodServer, username: string): Promise<Account> {
  const response = await fetch(`${server.baseUrl}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.org`, password: PASSWORD }) });
  expect(response.status).toBe(201);
  return await response.json() as Account;
}

/** An app's login with the account's client credentials (Solid-OIDC, DPoP), as a script logs in. */
async function login(server: FedpodServer, account: Account, sessions: Session[]): Promise<Session> {
  return dpopSession(server.baseUrl, account, sessions);
}

async function post(server: FedpodServer, account: Account, body: Record<string, unknown>): Promise<{ id: string; object?: { id: string } }> {
  const response = await fetch(`${account.webId}/outbox`, { method: 'POST',
    headers: { 'content-type': 'application/ld+json', authorization: `Bearer ${account.token}` }, body: JSON.stringify({ '@context': AS, ...body }) });
  expect(response.status).toBe(201);
  return await response.json() as { id: string; object?: { id: string } };
}

const storageOf = (account: Account): string => account.webId.replace(/\/actors\/([^/]+)$/u, '/pods/$1/');

describe('a pod for every account in the default setup', () => {
  let server: FedpodServer;
  let keeper: Account;
  let alice: Account;
  let bob: Account;
  let carol: Account;
  let app: Session;
  const sessions: Session[] = [];

  beforeAll(async() => {
    const port = await freePort();
    // The root ACL's owner: WebACL gives it Write on everything outside the pods, which must still hold nothing for LDP writes.
    server = await startFedpod({ config: 'activitypub', port, extraArgs: [ '--owner-webid', `http://localhost:${port}/actors/keeper` ] });
    keeper = await signup(server, 'keeper');
    alice = await signup(server, 'alice');
    bob = await signup(server, 'bob');
    carol = await signup(server, 'carol');
    // bob follows alice (Fedpod's actors accept follows at once, through the queue).
    await post(server, bob, { type: 'Follow', object: alice.webId });
    await eventually(async() => {
      const page = await (await fetch(`${alice.webId}/followers?page=true`, { headers: { accept: AP } })).json() as { orderedItems: string[] };
      return page.orderedItems.includes(bob.webId) ? true : undefined;
    });
    app = await login(server, alice, sessions);
  });

  afterAll(async() => {
    await Promise.allSettled(sessions.map(async(session): Promise<void> => session.logout()));
    await server?.stop();
  });

  it('names the pod in the WebID, the actor, where a Solid app finds it, and lets its owner write and read there', async() => {
    expect(await getPodUrlAll(alice.webId, { fetch: app.fetch })).toEqual([ storageOf(alice) ]);
    const actor = await (await fetch(alice.webId, { headers: { accept: AP } })).json() as Record<string, unknown>;
    expect(actor.type).toBe('Person');
    expect(JSON.stringify(actor)).toContain(storageOf(alice));
    const profile = await (await fetch(alice.webId, { headers: { accept: 'text/turtle' } })).text();
    expect(profile).toContain(`<${PIM_STORAGE}> <${storageOf(alice)}>`);
    expect(profile).toContain(`<http://www.w3.org/ns/solid/terms#oidcIssuer> <${server.baseUrl}>`);

    const url = `${storageOf(alice)}contacts/card`;
    const thing = buildThing(createThing({ url: `${url}#me` })).addStringNoLocale(NAME, 'Alice').build();
    await saveSolidDatasetAt(url, setThing(createSolidDataset(), thing), { fetch: app.fetch });
    const read = await getSolidDataset(url, { fetch: app.fetch });
    expect(getStringNoLocale(getThing(read, `${url}#me`)!, NAME)).toBe('Alice');
    // Her Fedpod token opens it too: one account, one pod.
    const withToken = await fetch(url, { headers: { accept: 'text/turtle', authorization: `Bearer ${alice.token}` } });
    expect(withToken.status).toBe(200);
    expect(withToken.headers.get('wac-allow')).toBe('user="read write append control",public=""');
  });

  it('keeps the pod from her follower and from strangers until she grants access', async() => {
    const url = `${storageOf(alice)}shared.ttl`;
    const put = await app.fetch(url, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: `<${url}#it> <${NAME}> "shared" .` });
    expect(put.status).toBe(201);
    const bobApp = await login(server, bob, sessions);
    const readBy = async(account?: Account): Promise<number> => (await fetch(url, { headers: { accept: 'text/turtle',
      ...account ? { authorization: `Bearer ${account.token}` } : {} } })).status;
    expect((await bobApp.fetch(url)).status).toBe(403);
    expect(await readBy(bob)).toBe(403);
    expect(await readBy(carol)).toBe(403);
    expect(await readBy(keeper)).toBe(403);
    expect(await readBy()).toBe(401);
    expect((await fetch(storageOf(alice), { headers: { accept: 'text/turtle' } })).status).toBe(401);
    // Nor may they write into it, or read its ACL.
    expect((await bobApp.fetch(`${storageOf(alice)}planted.ttl`, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '' })).status)
      .toBe(403);
    expect((await bobApp.fetch(`${storageOf(alice)}.acl`)).status).toBe(403);

    await universalAccess.setAgentAccess(url, bob.webId, { read: true }, { fetch: app.fetch });
    expect((await bobApp.fetch(url)).status).toBe(200);
    expect(await readBy(bob)).toBe(200);
    expect(await readBy(carol)).toBe(403);
    expect(await readBy()).toBe(401);
    expect((await bobApp.fetch(url, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '' })).status).toBe(403);
  });

  it('still federates: a followers-only post reaches the follower\'s inbox and only its audience reads it', async() => {
    const created = await post(server, alice, { type: 'Note', content: 'for my followers', to: [ `${alice.webId}/followers` ] });
    const inbox = await eventually(async() => {
      const response = await fetch(`${bob.webId}/inbox?page=true`, { headers: { accept: AP, authorization: `Bearer ${bob.token}` } });
      const items = itemIds(await response.json() as { orderedItems: unknown });
      return items.includes(created.id) ? items : undefined;
    });
    expect(inbox).toContain(created.id);
    const object = created.object!.id;
    const as = (account?: Account): RequestInit => ({ headers: { accept: AP, ...account ? { authorization: `Bearer ${account.token}` } : {} } });
    expect((await fetch(object, as(bob))).status).toBe(200);
    expect((await fetch(object, as(alice))).status).toBe(200);
    expect((await fetch(object, as(carol))).status).toBe(404);
    expect((await fetch(object, as())).status).toBe(404);
    // The container listing shows each reader what they may read.
    const listing = async(account?: Account): Promise<string> => (await fetch(`${server.baseUrl}objects/`, { headers: { accept: 'application/ld+json',
      ...account ? { authorization: `Bearer ${account.token}` } : {} } })).text();
    expect(await listing(bob)).toContain(object);
    expect(await listing(carol)).not.toContain(object);
  });

  it('writes nothing through LDP outside the pods: not the server\'s containers, not the root, not for the root ACL\'s owner', async() => {
    const targets: [string, string][] = [ [ 'POST', 'objects/' ], [ 'PUT', 'objects/new' ], [ 'DELETE', 'objects/' ], [ 'POST', 'activities/' ],
      [ 'PUT', 'activities/new' ], [ 'DELETE', 'actors/' ], [ 'PUT', 'actors/alice' ], [ 'PUT', 'actors/alice/extra' ], [ 'PUT', 'spam/file' ],
      [ 'POST', '' ], [ 'PUT', '.acl' ], [ 'POST', 'pods/' ], [ 'PUT', 'pods/alice' ] ];
    for (const [ who, token, expected ] of [ [ 'anonymous', undefined, 401 ], [ 'keeper', keeper.token, 403 ], [ 'alice', alice.token, 403 ] ] as const) {
      for (const [ method, target ] of targets) {
        const response = await fetch(`${server.baseUrl}${target}`, { method, headers: { 'content-type': 'text/turtle',
          ...token ? { authorization: `Bearer ${token}` } : {} }, body: method === 'DELETE' ? undefined : '<a:s> <a:p> <a:o> .' });
        // The object route takes JSON only (415 for Turtle) from whoever is logged in.
        const status = /^(?:objects|activities)\/new$/u.test(target) && token ? 415 : expected;
        expect(`${who} ${method} /${target} ${response.status}`).toBe(`${who} ${method} /${target} ${status}`);
      }
    }
    const refused = await fetch(`${server.baseUrl}objects/`, { method: 'POST', headers: { 'content-type': 'text/turtle', authorization: `Bearer ${keeper.token}` },
      body: '<a:s> <a:p> <a:o> .' });
    expect(refused.status).toBe(403);
    expect((await refused.json() as { message: string }).message).toContain('Nothing is written here through LDP');
    // Reading stays as it was: public outside the pods, and WAC-Allow says so even to the root ACL's owner.
    const listing = await fetch(`${server.baseUrl}objects/`, { headers: { accept: 'application/ld+json', authorization: `Bearer ${keeper.token}` } });
    expect(listing.status).toBe(200);
    expect(listing.headers.get('wac-allow')).toBe('user="read",public="read"');
    for (const target of [ 'spam/file', 'objects/new', 'actors/alice/extra' ]) {
      expect((await fetch(`${server.baseUrl}${target}`, { headers: { accept: 'text/turtle' } })).status).toBe(404);
    }
  });
});

describe('accounts made before the default setup gave each one a pod', () => {
  it('get their pod at start-up, once, and keep their actor and posts', async() => {
    const port = await freePort();
    const dataDir = makeTempDir('fedpod-pods-upgrade');
    const sessions: Session[] = [];
    // The default setup as it was: read-only LDP paths, no storage per account.
    let server = await startFedpod({ config: path.join(__dirname, '..', '..', 'fixtures', 'config', 'activitypub-without-pods.json'), port, dataDir });
    let early: Account;
    let note: string;
    try {
      early = await signup(server, 'early');
      note = (await post(server, early, { type: 'Note', content: 'before pods', to: [ `${AS}#Public` ] })).object!.id;
      expect(await (await fetch(early.webId, { headers: { accept: 'text/turtle' } })).text()).not.toContain(PIM_STORAGE);
      expect((await fetch(storageOf(early), { headers: { authorization: `Bearer ${early.token}` } })).status).toBe(404);
    } finally {
      await server.stop();
    }
    try {
      for (let start = 1; start <= 2; start++) {
        server = await startFedpod({ config: 'activitypub', port, dataDir });
        const profile = await (await fetch(early.webId, { headers: { accept: 'text/turtle' } })).text();
        expect(profile.split(`<${PIM_STORAGE}>`)).toHaveLength(2);
        expect(profile).toContain(`<${PIM_STORAGE}> <${storageOf(early)}>`);
        const app = await login(server, early, sessions);
        expect(await getPodUrlAll(early.webId, { fetch: app.fetch })).toEqual([ storageOf(early) ]);
        // One ACL, hers alone.
        const acl = await (await app.fetch(`${storageOf(early)}.acl`, { headers: { accept: 'text/turtle' } })).text();
        const rules = new Parser({ baseIRI: `${storageOf(early)}.acl` }).parse(acl);
        const about = (predicate: string): string[] => rules.filter((entry): boolean => entry.predicate.value === predicate)
          .map((entry): string => entry.object.value);
        expect(about('http://www.w3.org/1999/02/22-rdf-syntax-ns#type')).toEqual([ 'http://www.w3.org/ns/auth/acl#Authorization' ]);
        expect(about('http://www.w3.org/ns/auth/acl#agent')).toEqual([ early.webId ]);
        expect((await fetch(storageOf(early), { headers: { accept: 'text/turtle' } })).status).toBe(401);
        const file = `${storageOf(early)}start-${start}.txt`;
        expect((await app.fetch(file, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: `start ${start}` })).status).toBe(201);
        if (start === 2) {
          // What she wrote after the first start is still there.
          expect(await (await app.fetch(`${storageOf(early)}start-1.txt`)).text()).toBe('start 1');
        }
        expect(await (await fetch(note, { headers: { accept: AP } })).text()).toContain('before pods');
        await post(server, early, { type: 'Note', content: `after start ${start}`, to: [ `${AS}#Public` ] });
        await Promise.allSettled(sessions.splice(0).map(async(session): Promise<void> => session.logout()));
        await server.stop();
      }
    } finally {
      await Promise.allSettled(sessions.map(async(session): Promise<void> => session.logout()));
      await server.stop();
    }
  });
});
