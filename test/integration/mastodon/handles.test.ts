/**
 * Handles between two real Fedpod instances (A and B, on loopback with --allow-private-network) and a
 * third one that keeps the outbound guard on: following by handle through masto.js and through the
 * outbox, mentions delivered to the mentioned only, search that fetches for users and never for
 * strangers, relationships and blocks, remote follow pages, and hostile handles refused.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRestAPIClient, type mastodon } from 'masto';
import { Browser } from '../../support/cookie-browser';
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { appToken } from '../../support/mastodon-oauth';
import { pageItemIds, postToOutbox, readJson, signup, type Session } from '../../support/local-actors';

const AS_PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('handles, mentions and search between two Fedpod instances', () => {
  let a: FedpodServer;
  let b: FedpodServer;
  let guarded: FedpodServer;
  let hostB: string;
  const sessions: Record<string, Session> = {};
  const masto: Record<string, mastodon.rest.Client> = {};
  let stranger: mastodon.rest.Client;
  let stub: http.Server;
  const stubRequests: string[] = [];
  let stubHost: string;

  const apiUrl = (server: FedpodServer): string => server.baseUrl.replace(/\/$/u, '');

  beforeAll(async() => {
    const started = await Promise.allSettled([
      startFedpod({ config: 'activitypub', allowPrivateNetwork: true }),
      startFedpod({ config: 'activitypub', allowPrivateNetwork: true }),
      startFedpod({ config: 'activitypub' }),
    ]);
    [ a, b, guarded ] = started.map((result) => (result.status === 'fulfilled' ? result.value : undefined)) as FedpodServer[];
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    hostB = new URL(b.baseUrl).host;
    for (const name of [ 'alice', 'carl' ]) {
      sessions[name] = await signup(a.baseUrl, name);
    }
    for (const name of [ 'bob', 'carol', 'dave' ]) {
      sessions[name] = await signup(b.baseUrl, name);
    }
    sessions.eve = await signup(guarded.baseUrl, 'eve');
    masto.alice = createRestAPIClient({ url: apiUrl(a), accessToken: await appToken(a.baseUrl, 'alice', 'correct horse', 'read write follow') });
    masto.carl = createRestAPIClient({ url: apiUrl(a), accessToken: await appToken(a.baseUrl, 'carl', 'correct horse', 'read write follow') });
    stranger = createRestAPIClient({ url: apiUrl(a) });
    // A server that only counts what it is asked: whether a search made A fetch anything.
    stub = http.createServer((request, response) => {
      stubRequests.push(request.url ?? '');
      response.writeHead(404, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    stubHost = `127.0.0.1:${(stub.address() as AddressInfo).port}`;
  }, 240_000);

  afterAll(async() => {
    await Promise.allSettled([ a?.stop(), b?.stop(), guarded?.stop(),
      new Promise<void>((resolve) => (stub ? stub.close(() => resolve()) : resolve())) ]);
  });

  it('alice looks up @bob@B and follows him through masto.js; his post reaches her home timeline', async() => {
    const bob = await masto.alice.v1.accounts.lookup({ acct: `bob@${hostB}` });
    expect(bob.url).toBe(sessions.bob.webId);
    const relationship = await masto.alice.v1.accounts.$select(bob.id).follow();
    expect(relationship.following || relationship.requested).toBe(true);
    await eventually(async() => (await masto.alice.v1.accounts.relationships.fetch({ id: [ bob.id ] }))[0]?.following === true, 30_000);
    expect(await pageItemIds(`${sessions.bob.webId}/followers`)).toContain(sessions.alice.webId);
    const posted = await postToOutbox(sessions.bob, { type: 'Note', content: 'Hello from B', to: [ AS_PUBLIC ],
      cc: [ `${sessions.bob.webId}/followers` ]});
    expect(posted.status).toBe(201);
    const home = await eventually(async() => {
      const statuses = await masto.alice.v1.timelines.home.list();
      return statuses.find((status) => status.content.includes('Hello from B'));
    }, 30_000);
    expect(home.account.url).toBe(sessions.bob.webId);
  });

  it('a mention of @carol@B in a status is linked, tagged and delivered to carol, and to nobody else', async() => {
    const status = await masto.alice.v1.statuses.create({ status: `Hi @carol@${hostB} and @carl, #Handles day!`, visibility: 'public' });
    expect(status.mentions.map((mention) => mention.url).sort()).toEqual([ sessions.carl.webId, sessions.carol.webId ].sort());
    expect(status.tags.map((tag) => tag.name)).toEqual([ 'handles' ]);
    expect(status.content).toContain(`<a href="${sessions.carol.webId}" class="u-url mention">@<span>carol</span></a>`);
    expect(status.content).toContain(`<a href="${a.baseUrl}tags/handles" class="mention hashtag" rel="tag">#<span>Handles</span></a>`);
    const note = await readJson(status.uri);
    expect(note.body.cc).toEqual(expect.arrayContaining([ sessions.carol.webId, sessions.carl.webId ]));
    expect(note.body.tag).toEqual(expect.arrayContaining([
      { type: 'Mention', href: sessions.carol.webId, name: `@carol@${hostB}` },
      { type: 'Hashtag', href: `${a.baseUrl}tags/handles`, name: '#Handles' },
    ]));
    const reached = async(session: Session): Promise<boolean> => {
      const inbox = await readJson(`${session.webId}/inbox?page=true`, session);
      return JSON.stringify(inbox.body).includes(status.uri);
    };
    await eventually(async() => (await reached(sessions.carol)) || undefined, 30_000);
    await eventually(async() => (await reached(sessions.carl)) || undefined, 30_000);
    // Bob follows nobody on A and dave was not mentioned: nothing was addressed to them.
    expect(await reached(sessions.bob)).toBe(false);
    expect(await reached(sessions.dave)).toBe(false);
  });

  it('a C2S Follow of acct:dave@B is resolved before it is stored; an unknown handle is refused with nothing stored', async() => {
    const followed = await postToOutbox(sessions.alice, { type: 'Follow', object: `acct:dave@${hostB}` });
    expect(followed.status).toBe(201);
    expect(followed.body).toMatchObject({ object: sessions.dave.webId, to: [ sessions.dave.webId ]});
    const before = await pageItemIds(`${sessions.alice.webId}/outbox`, sessions.alice);
    const refused = await postToOutbox(sessions.alice, { type: 'Follow', object: `@nobody@${hostB}` });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ error: 'unresolvable_handle' });
    const malformed = await postToOutbox(sessions.alice, { type: 'Follow', object: '@no body@x' });
    expect(malformed.status).toBe(400);
    expect(await pageItemIds(`${sessions.alice.webId}/outbox`, sessions.alice)).toEqual(before);
  });

  it('search with resolve finds B\'s account by handle and a status by its URL', async() => {
    const byHandle = await masto.alice.v2.search.list({ q: `@dave@${hostB}`, resolve: true, type: 'accounts' });
    expect(byHandle.accounts.map((account) => account.url)).toEqual([ sessions.dave.webId ]);
    // Once known here, anyone finds the account without a fetch.
    expect((await stranger.v2.search.list({ q: `dave@${hostB}` })).accounts.map((account) => account.url)).toEqual([ sessions.dave.webId ]);
    const posted = await postToOutbox(sessions.carol, { type: 'Note', content: 'Findable on B', to: [ AS_PUBLIC ]});
    const noteId = (posted.body.object as { id: string }).id;
    const byUrl = await masto.alice.v2.search.list({ q: noteId, resolve: true });
    expect(byUrl.statuses.map((found) => found.uri)).toEqual([ noteId ]);
    expect(byUrl.statuses[0].content).toContain('Findable on B');
    expect(byUrl.statuses[0].account.url).toBe(sessions.carol.webId);
    const tags = await masto.alice.v2.search.list({ q: '#hand', type: 'hashtags' });
    expect(tags.hashtags.map((tag) => tag.name)).toEqual([ 'handles' ]);
  });

  it('a stranger\'s search with resolve fetches nothing; a user\'s does', async() => {
    const anonymous = await stranger.v2.search.list({ q: `@someone@${stubHost}`, resolve: true });
    expect(anonymous.accounts).toEqual([]);
    const byUrl = await stranger.v2.search.list({ q: `http://${stubHost}/users/someone`, resolve: true });
    expect(byUrl).toMatchObject({ accounts: [], statuses: []});
    expect(stubRequests).toEqual([]);
    await masto.alice.v2.search.list({ q: `@someone@${stubHost}`, resolve: true });
    expect(stubRequests.some((url) => url.startsWith('/.well-known/webfinger?resource=acct%3Asomeone%40'))).toBe(true);
  });

  it('follows, relationships, follower lists, follow requests and blocks between local accounts', async() => {
    const carl = await masto.alice.v1.accounts.lookup({ acct: 'carl' });
    await masto.alice.v1.accounts.$select(carl.id).follow();
    await eventually(async() => (await masto.alice.v1.accounts.relationships.fetch({ id: [ carl.id ] }))[0]?.following === true, 30_000);
    const followers = await masto.carl.v1.accounts.$select(carl.id).followers.list();
    expect(followers.map((account) => account.id)).toEqual([ 'alice' ]);
    const following = await masto.carl.v1.accounts.$select('alice').following.list();
    expect(following.map((account) => account.url)).toEqual(expect.arrayContaining([ sessions.carl.webId, sessions.bob.webId ]));
    expect((await masto.carl.v1.accounts.relationships.fetch({ id: [ 'alice' ] }))[0]).toMatchObject({ followedBy: true, following: false });
    expect(await masto.carl.v1.followRequests.list()).toEqual([]);
    const blocked = await masto.carl.v1.accounts.$select('alice').block();
    expect(blocked).toMatchObject({ blocking: true, followedBy: false });
    expect(await pageItemIds(`${sessions.carl.webId}/followers`)).not.toContain(sessions.alice.webId);
    expect((await masto.alice.v1.accounts.relationships.fetch({ id: [ carl.id ] }))[0]).toMatchObject({ blockedBy: true });
    expect(await masto.carl.v1.accounts.$select('alice').unblock()).toMatchObject({ blocking: false });
    await expect(stranger.v1.accounts.$select('alice').follow()).rejects.toThrow();
  });

  it('remote follow: WebFinger names the subscribe template; /authorize_interaction logs in and follows', async() => {
    const jrd = await (await fetch(`${b.baseUrl}.well-known/webfinger?resource=acct:dave@${hostB}`)).json() as { links: { rel: string; template?: string }[] };
    expect(jrd.links).toContainEqual({ rel: 'http://ostatus.org/schema/1.0/subscribe', template: `${b.baseUrl}authorize_interaction?uri={uri}` });
    const browser = new Browser();
    const target = `carl@${new URL(a.baseUrl).host}`;
    const started = await browser.open(`${b.baseUrl}authorize_interaction?uri=${encodeURIComponent(target)}`);
    expect(started.status).toBe(303);
    const page = started.headers.get('location')!;
    const login = await browser.open(page);
    expect(await login.text()).toContain('Log in to follow');
    const loggedIn = await browser.open(page, { method: 'POST', headers: FORM,
      body: new URLSearchParams({ action: 'login', uri: target, username: 'dave', password: 'correct horse' }).toString() });
    expect(loggedIn.status).toBe(303);
    const confirm = await (await browser.open(loggedIn.headers.get('location')!)).text();
    expect(confirm).toContain(`Follow @${target}?`);
    const csrf = /name="csrf" value="([^"]+)"/u.exec(confirm)![1];
    const forged = await browser.open(page, { method: 'POST', headers: FORM, body: new URLSearchParams({ csrf: 'x', uri: target }).toString() });
    expect(forged.status).toBe(403);
    const done = await browser.open(page, { method: 'POST', headers: FORM, body: new URLSearchParams({ csrf, uri: target }).toString() });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Follow sent');
    await eventually(async() => (await pageItemIds(`${sessions.carl.webId}/followers`)).includes(sessions.dave.webId) || undefined, 30_000);
  });

  it('a user who approves followers sees follow requests from B and authorizes or rejects them', async() => {
    expect((await postToOutbox(sessions.carl, { type: 'Update', object: { id: sessions.carl.webId, manuallyApprovesFollowers: true }})).status)
      .toBe(201);
    const hostA = new URL(a.baseUrl).host;
    for (const name of [ 'bob', 'carol' ]) {
      expect((await postToOutbox(sessions[name], { type: 'Follow', object: `@carl@${hostA}` })).status).toBe(201);
    }
    const requests = await eventually(async() => {
      const accounts = await masto.carl.v1.followRequests.list();
      return accounts.length === 2 ? accounts : undefined;
    }, 30_000);
    const byUrl = new Map(requests.map((account) => [ account.url, account.id ]));
    expect([ ...byUrl.keys() ].sort()).toEqual([ sessions.bob.webId, sessions.carol.webId ].sort());
    expect((await masto.carl.v1.accounts.relationships.fetch({ id: [ byUrl.get(sessions.bob.webId)! ] }))[0]).toMatchObject({ requestedBy: true });
    expect(await masto.carl.v1.followRequests.$select(byUrl.get(sessions.bob.webId)!).authorize()).toMatchObject({ followedBy: true });
    expect(await masto.carl.v1.followRequests.$select(byUrl.get(sessions.carol.webId)!).reject()).toMatchObject({ followedBy: false, requestedBy: false });
    expect(await masto.carl.v1.followRequests.list()).toEqual([]);
    await expect(masto.carl.v1.followRequests.$select(byUrl.get(sessions.carol.webId)!).authorize()).rejects.toThrow(/Record not found/u);
    // Bob's server learns of the Accept: carl joins his following.
    await eventually(async() => (await pageItemIds(`${sessions.bob.webId}/following`)).includes(sessions.carl.webId) || undefined, 30_000);
    expect(await pageItemIds(`${sessions.carl.webId}/followers`)).not.toContain(sessions.carol.webId);
  });

  it('hostile handles are refused through the outbound guard: 422 for a Follow, plain text in a post', async() => {
    for (const handle of [ '@x@127.0.0.1', '@x@localhost:1', 'acct:x@127.0.0.1:9' ]) {
      const refused = await postToOutbox(sessions.eve, { type: 'Follow', object: handle });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ error: 'unresolvable_handle' });
    }
    expect(await pageItemIds(`${sessions.eve.webId}/outbox`, sessions.eve)).toEqual([]);
    const posted = await postToOutbox(sessions.eve, { type: 'Note', content: 'hi @x@127.0.0.1 and @x@localhost:1', to: [ AS_PUBLIC ]});
    expect(posted.status).toBe(201);
    const note = posted.body.object as Record<string, unknown>;
    expect(note.content).toBe('hi @x@127.0.0.1 and @x@localhost:1');
    expect(note.tag).toBeUndefined();
  });
});
