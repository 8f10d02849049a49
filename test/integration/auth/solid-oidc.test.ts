/**
 * Solid-OIDC with Fedpod as the OpenID provider (config/ldp-wac.json), driven by the real client
 * library (@inrupt/solid-client-authn-node): client credentials for a script, and the authorization
 * code flow of an app, whose browser part (following redirects, keeping cookies, posting the login and
 * consent forms) is played by a small cookie-keeping fetch here. One account, one password: the one
 * from /auth/signup. Credentials and signing keys survive a restart.
 */
import path from 'node:path';
import { Session } from '@inrupt/solid-client-authn-node';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { freePort } from '../../support/ports';
import { makeTempDir } from '../../support/processes';
import { Browser } from '../../support/cookie-browser';

interface Account { token: string; webId: string }
interface Client { id: string; secret: string; webId: string; issuer: string; created: string }

const PASSWORD = 'correct horse battery';
const CALLBACK = 'http://localhost:9/callback';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('Solid-OIDC: Fedpod logs its users in to Solid apps (ldp-wac)', () => {
  let server: FedpodServer;
  let alice: Account;
  let bob: Account;
  const sessions: Session[] = [];
  let port: number;
  let dataDir: string;

  async function signup(username: string): Promise<Account> {
    const response = await fetch(`${server.baseUrl}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, email: `${username}@example.org`, password: PASSWORD }) });
    expect(response.status).toBe(201);
    return await response.json() as Account;
  }

  async function makeClient(account: Account, name = 'test bot'): Promise<Client> {
    const response = await fetch(`${server.baseUrl}auth/clients`, { method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${account.token}` }, body: JSON.stringify({ name }) });
    expect(response.status).toBe(201);
    return await response.json() as Client;
  }

  async function clientSession(client: Client): Promise<Session> {
    const session = new Session();
    sessions.push(session);
    await session.login({ clientId: client.id, clientSecret: client.secret, oidcIssuer: client.issuer, tokenType: 'DPoP' });
    return session;
  }

  const storageOf = (account: Account): string => `${server.baseUrl}pods/${account.webId.split('/').at(-1)}/`;

  beforeAll(async() => {
    port = await freePort();
    dataDir = makeTempDir('fedpod-oidc');
    server = await startFedpod({ config: 'ldp-wac', port, dataDir });
    alice = await signup('alice');
    bob = await signup('bob');
  });

  afterAll(async() => {
    await Promise.allSettled(sessions.map(async(session): Promise<void> => session.logout()));
    await server?.stop();
  });

  it('publishes an OpenID configuration with DPoP, client credentials and the webid scope', async() => {
    const response = await fetch(`${server.baseUrl}.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const configuration = await response.json() as Record<string, unknown>;
    expect(configuration.issuer).toBe(server.baseUrl);
    expect(configuration.scopes_supported).toEqual(expect.arrayContaining([ 'openid', 'webid', 'offline_access' ]));
    expect(configuration.grant_types_supported).toEqual(expect.arrayContaining([ 'authorization_code', 'client_credentials', 'refresh_token' ]));
    expect(configuration.dpop_signing_alg_values_supported).toEqual(expect.arrayContaining([ 'ES256', 'RS256' ]));
    expect(configuration.token_endpoint).toBe(`${server.baseUrl}.oidc/token`);
    const keys = await (await fetch(configuration.jwks_uri as string)).json() as { keys: { alg: string; d?: string }[] };
    expect(keys.keys[0].alg).toBe('ES256');
    expect(keys.keys[0].d).toBeUndefined();
  });

  it('names this server as the issuer and the user storage in each WebID', async() => {
    const turtle = await (await fetch(alice.webId, { headers: { accept: 'text/turtle' }})).text();
    expect(turtle).toContain(`<http://www.w3.org/ns/solid/terms#oidcIssuer> <${server.baseUrl}>`);
    expect(turtle).toContain(`<http://www.w3.org/ns/pim/space#storage> <${storageOf(alice)}>`);
  });

  it('lets a user make client credentials, and only a logged-in local user', async() => {
    expect((await fetch(`${server.baseUrl}auth/clients`, { method: 'POST' })).status).toBe(401);
    expect((await fetch(`${server.baseUrl}auth/clients`)).status).toBe(401);
    const client = await makeClient(alice, 'My Bot!');
    expect(client.id).toMatch(/^my-bot_[0-9a-f]{24}$/u);
    expect(client.secret.length).toBeGreaterThanOrEqual(40);
    expect(client.webId).toBe(alice.webId);
    expect(client.issuer).toBe(server.baseUrl);
    const listed = await (await fetch(`${server.baseUrl}auth/clients`, { headers: { authorization: `Bearer ${alice.token}` }})).json();
    expect(listed).toEqual([{ id: client.id, webId: alice.webId, created: client.created }]);
    const bobs = await (await fetch(`${server.baseUrl}auth/clients`, { headers: { authorization: `Bearer ${bob.token}` }})).json();
    expect(bobs).toEqual([]);
    const bad = await fetch(`${server.baseUrl}auth/clients`, { method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alice.token}` }, body: '{"name": 5}' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'invalid_name', message: expect.any(String) });
  });

  it('logs a script in with client credentials; its DPoP token writes where the user may, and no further', async() => {
    const session = await clientSession(await makeClient(alice));
    expect(session.info.isLoggedIn).toBe(true);
    expect(session.info.webId).toBe(alice.webId);
    const file = `${storageOf(alice)}from-script.txt`;
    const put = await session.fetch(file, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'written by a bot' });
    expect(put.status).toBe(201);
    const read = await session.fetch(file);
    expect(read.status).toBe(200);
    expect(await read.text()).toBe('written by a bot');
    expect(read.headers.get('wac-allow')).toContain('user="read write append control"');
    // Nobody else reads Alice's storage, and her token does not open Bob's.
    expect((await fetch(file)).status).toBe(401);
    expect((await session.fetch(`${storageOf(bob)}x.txt`, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'no' })).status)
      .toBe(403);
    // The same token on a route that is not LDP: the account's own client list.
    const clients = await session.fetch(`${server.baseUrl}auth/clients`);
    expect(clients.status).toBe(200);
    expect((await clients.json() as unknown[]).length).toBeGreaterThanOrEqual(1);
  });

  it('refuses a token whose DPoP proof is missing or made for another request', async() => {
    const session = await clientSession(await makeClient(alice));
    const captured: Record<string, string> = {};
    // Capture the headers the library sends for one URL, then replay them for another.
    const original = globalThis.fetch;
    globalThis.fetch = (async(input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      new Headers(init?.headers).forEach((value, name): void => {
        captured[name] = value;
      });
      return original(input, init);
    }) as typeof fetch;
    try {
      await session.fetch(`${storageOf(alice)}`);
    } finally {
      globalThis.fetch = original;
    }
    expect(captured.authorization).toMatch(/^DPoP /u);
    const elsewhere = await fetch(`${storageOf(alice)}other`, { headers: captured });
    expect(elsewhere.status).toBe(401);
    const withoutProof = await fetch(`${storageOf(alice)}`, { headers: { authorization: captured.authorization }});
    expect(withoutProof.status).toBe(401);
  });

  it('revokes client credentials: only their owner can, and they no longer log in', async() => {
    const client = await makeClient(alice);
    expect((await fetch(`${server.baseUrl}auth/clients/${client.id}`, { method: 'DELETE',
      headers: { authorization: `Bearer ${bob.token}` }})).status).toBe(404);
    expect((await fetch(`${server.baseUrl}auth/clients/${client.id}`, { method: 'DELETE',
      headers: { authorization: `Bearer ${alice.token}` }})).status).toBe(204);
    await expect(clientSession(client)).rejects.toThrow();
  });

  describe('an app logging a user in (authorization code flow)', () => {
    async function startLogin(browser: Browser): Promise<{ session: Session; page: Response; pageUrl: string }> {
      const session = new Session();
      sessions.push(session);
      let authorizationUrl = '';
      await session.login({ oidcIssuer: server.baseUrl, redirectUrl: CALLBACK, clientName: 'Notes <App>',
        handleRedirect: (url: string): void => {
          authorizationUrl = url;
        } });
      const { response, url } = await browser.follow(authorizationUrl, CALLBACK);
      return { session, page: response, pageUrl: url };
    }

    it('asks for the Fedpod password, then whether the app may act as the user, then hands the app a token', async() => {
      const browser = new Browser();
      const { session, page, pageUrl } = await startLogin(browser);
      expect(pageUrl).toBe(`${server.baseUrl}auth/oidc`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const loginHtml = await page.text();
      expect(loginHtml).toContain('Notes &lt;App&gt;');
      expect(loginHtml).not.toContain('Notes <App>');
      expect(loginHtml).toContain('name="password"');

      const wrong = await browser.open(pageUrl, { method: 'POST', headers: FORM,
        body: new URLSearchParams({ action: 'login', login: 'alice', password: 'not it' }).toString() });
      expect(wrong.status).toBe(401);
      expect(await wrong.text()).toContain('Wrong username, email or password.');

      const loggedIn = await browser.open(pageUrl, { method: 'POST', headers: FORM,
        body: new URLSearchParams({ action: 'login', login: 'alice@example.org', password: PASSWORD }).toString() });
      expect(loggedIn.status).toBe(303);
      const consent = await browser.follow(new URL(loggedIn.headers.get('location')!, pageUrl).href, CALLBACK);
      expect(consent.url).toBe(`${server.baseUrl}auth/oidc`);
      const consentHtml = await consent.response.text();
      expect(consentHtml).toContain('Allow this app?');
      expect(consentHtml).toContain(alice.webId);

      const allowed = await browser.open(consent.url, { method: 'POST', headers: FORM, body: 'action=consent' });
      expect(allowed.status).toBe(303);
      const back = await browser.follow(new URL(allowed.headers.get('location')!, consent.url).href, CALLBACK);
      expect(back.url.startsWith(`${CALLBACK}?code=`)).toBe(true);

      const info = await session.handleIncomingRedirect(back.url);
      expect(info?.isLoggedIn).toBe(true);
      expect(info?.webId).toBe(alice.webId);
      const note = `${storageOf(alice)}from-app.ttl`;
      const put = await session.fetch(note, { method: 'PUT', headers: { 'content-type': 'text/turtle' },
        body: '<#it> <http://schema.org/name> "from an app" .' });
      expect(put.status).toBe(201);
      expect(await (await session.fetch(note, { headers: { accept: 'text/turtle' }})).text()).toContain('from an app');
    });

    it('sends the app an access_denied error when the user cancels', async() => {
      const browser = new Browser();
      const { pageUrl } = await startLogin(browser);
      const cancelled = await browser.open(pageUrl, { method: 'POST', headers: FORM, body: 'action=cancel' });
      expect(cancelled.status).toBe(303);
      const back = await browser.follow(new URL(cancelled.headers.get('location')!, pageUrl).href, CALLBACK);
      expect(new URL(back.url).searchParams.get('error')).toBe('access_denied');
    });

    it('answers a login page opened without a pending login with an explanation, not a form', async() => {
      const response = await fetch(`${server.baseUrl}auth/oidc`);
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('Go back to the app and log in again.');
      const posted = await fetch(`${server.baseUrl}auth/oidc`, { method: 'POST', headers: FORM,
        body: new URLSearchParams({ action: 'login', login: 'alice', password: PASSWORD }).toString() });
      expect(posted.status).toBe(400);
    });
  });

  it('keeps client credentials and signing keys across a restart', async() => {
    const client = await makeClient(alice, 'survivor');
    const before = await clientSession(client);
    const keys = await (await fetch(`${server.baseUrl}.oidc/jwks`)).text();
    await server.stop();
    server = await startFedpod({ config: 'ldp-wac', port, dataDir });
    expect(await (await fetch(`${server.baseUrl}.oidc/jwks`)).text()).toBe(keys);
    // A token issued before the restart still holds, and the credentials log in again.
    expect((await before.fetch(storageOf(alice))).status).toBe(200);
    const after = await clientSession(client);
    expect((await after.fetch(storageOf(alice))).status).toBe(200);
  });
});

describe('Solid-OIDC switched on for accounts made without it', () => {
  it('gives their WebIDs the issuer and a storage, so that they can log in to Solid apps', async() => {
    const port = await freePort();
    const dataDir = makeTempDir('fedpod-oidc-upgrade');
    // Accounts and WebACL, but no OpenID provider and no user storage.
    let server = await startFedpod({ config: path.join(__dirname, '..', '..', 'fixtures', 'config', 'accounts-wac.json'), port, dataDir });
    let account: Account;
    try {
      const response = await fetch(`${server.baseUrl}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'early', email: 'early@example.org', password: PASSWORD }) });
      expect(response.status).toBe(201);
      account = await response.json() as Account;
      const before = await (await fetch(account.webId, { headers: { accept: 'text/turtle' }})).text();
      expect(before).not.toContain('oidcIssuer');
    } finally {
      await server.stop();
    }
    server = await startFedpod({ config: 'ldp-wac', port, dataDir });
    const session = new Session();
    try {
      const after = await (await fetch(account.webId, { headers: { accept: 'text/turtle' }})).text();
      expect(after).toContain(`<http://www.w3.org/ns/solid/terms#oidcIssuer> <${server.baseUrl}>`);
      expect(after).toContain(`<http://www.w3.org/ns/pim/space#storage> <${server.baseUrl}pods/early/>`);
      const made = await fetch(`${server.baseUrl}auth/clients`, { method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${account.token}` }, body: '{}' });
      const client = await made.json() as Client;
      await session.login({ clientId: client.id, clientSecret: client.secret, oidcIssuer: client.issuer, tokenType: 'DPoP' });
      const put = await session.fetch(`${server.baseUrl}pods/early/hello.txt`, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'hi' });
      expect(put.status).toBe(201);
    } finally {
      await session.logout();
      await server.stop();
    }
  });
});
