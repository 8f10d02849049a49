/**
 * The webhooks container with Solid-OIDC (config/activitypub.json): the request pipeline decides who
 * the caller is, so a local user logged in with a DPoP-bound token (client credentials, through the
 * real client library) generates, lists and revokes webhooks exactly as with a Fedpod token; a
 * Solid-OIDC login of another server's WebID and an anonymous request cannot.
 */
import type { Session } from '@inrupt/solid-client-authn-node';
import { dpopSession as loggedIn } from '../../support/dpop-session';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { TestIssuer } from '../../support/test-issuer';

interface Account { token: string; webId: string }
interface Listing { items: { id: string; user: string; action: string }[] }

const JSON_TYPE = { 'content-type': 'application/json' };

describe('webhooks with Solid-OIDC (DPoP) logins', () => {
  let server: FedpodServer;
  const issuer = new TestIssuer();
  const sessions: Session[] = [];
  let alice: Account;
  let bob: Account;
  let aliceSession: Session;
  let bobSession: Session;

  async function signup(username: string): Promise<Account> {
    const response = await fetch(`${server.baseUrl}auth/signup`, { method: 'POST', headers: JSON_TYPE,
      body: JSON.stringify({ username, email: `${username}@example.org`, password: 'correct horse battery' }) });
    expect(response.status).toBe(201);
    return await response.json() as Account;
  }

  /** A script's login as `account`: client credentials made with the account's token, then a DPoP session. */
  async function dpopSession(account: Account): Promise<Session> {
    return loggedIn(server.baseUrl, account, sessions, 'webhook bot');
  }


  beforeAll(async() => {
    await issuer.start();
    // Private network allowed: the stranger's WebID and keys are on loopback.
    server = await startFedpod({ config: 'activitypub', allowPrivateNetwork: true });
    alice = await signup('alice');
    bob = await signup('bob');
    aliceSession = await dpopSession(alice);
    bobSession = await dpopSession(bob);
  });

  afterAll(async() => {
    await Promise.allSettled(sessions.map(async(session): Promise<void> => session.logout()));
    await server?.stop();
    await issuer.stop();
  });

  it('lets a DPoP login of a local user generate and list webhooks, as a Fedpod token does', async() => {
    const generated = await aliceSession.fetch(`${server.baseUrl}webhooks`, { method: 'POST', headers: JSON_TYPE,
      body: JSON.stringify({ action: 'store-in-container' }) });
    expect(generated.status).toBe(201);
    const uri = generated.headers.get('location')!;
    expect(uri.startsWith(`${server.baseUrl}webhooks/`)).toBe(true);
    expect(await generated.json()).toMatchObject({ id: uri, user: alice.webId, action: 'store-in-container' });
    // The same list whichever credential Alice sends.
    const byDpop = await aliceSession.fetch(`${server.baseUrl}webhooks`);
    expect(byDpop.status).toBe(200);
    const listed = await byDpop.json() as Listing;
    const byToken = await (await fetch(`${server.baseUrl}webhooks`, { headers: { authorization: `Bearer ${alice.token}` }})).json() as Listing;
    expect(listed.items.length).toBeGreaterThanOrEqual(1);
    expect(listed.items.every((item) => item.user === alice.webId)).toBe(true);
    expect(listed.items.map((item) => item.id).sort()).toEqual(byToken.items.map((item) => item.id).sort());
    // A webhook made with a DPoP login takes posts like any other.
    expect((await fetch(uri, { method: 'POST', headers: JSON_TYPE, body: '{"a":1}' })).status).toBe(202);
  });

  it('shows another local user none of them, lets only the owner revoke one, by DPoP as by token', async() => {
    const uri = (await (await fetch(`${server.baseUrl}webhooks`, { method: 'POST',
      headers: { ...JSON_TYPE, authorization: `Bearer ${alice.token}` }, body: JSON.stringify({ action: 'post-to-outbox' }) }))
      .headers.get('location'))!;
    const bobs = await bobSession.fetch(`${server.baseUrl}webhooks`);
    expect(bobs.status).toBe(200);
    expect((await bobs.json() as Listing).items).toEqual([]);
    expect((await bobSession.fetch(uri, { method: 'DELETE' })).status).toBe(403);
    expect((await aliceSession.fetch(uri, { method: 'DELETE' })).status).toBe(204);
    expect((await fetch(uri, { method: 'POST', headers: JSON_TYPE, body: '{"a":1}' })).status).toBe(404);
  });

  it('refuses a Solid-OIDC login of another server\'s WebID (403) and an anonymous caller (401)', async() => {
    const stranger = { authorization: `Bearer ${await issuer.token(issuer.webId('stranger'))}` };
    const body = JSON.stringify({ action: 'store-in-container' });
    const generated = await fetch(`${server.baseUrl}webhooks`, { method: 'POST', headers: { ...JSON_TYPE, ...stranger }, body });
    expect(generated.status).toBe(403);
    expect(await generated.json()).toMatchObject({ error: 'not_local_user' });
    expect((await fetch(`${server.baseUrl}webhooks`, { headers: stranger })).status).toBe(403);
    expect((await fetch(`${server.baseUrl}webhooks`, { method: 'POST', headers: JSON_TYPE, body })).status).toBe(401);
    expect((await fetch(`${server.baseUrl}webhooks`)).status).toBe(401);
    const uri = (await aliceSession.fetch(`${server.baseUrl}webhooks`, { method: 'POST', headers: JSON_TYPE, body }))
      .headers.get('location')!;
    expect((await fetch(uri, { method: 'DELETE', headers: stranger })).status).toBe(403);
    expect((await fetch(uri, { method: 'DELETE' })).status).toBe(401);
  });
});
