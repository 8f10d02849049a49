/**
 * OAuth 2 for Mastodon apps, end to end on the default setup (with two test routes of the Mastodon
 * API's group: test/fixtures/config/activitypub-mastodon-scopes.json), driven by the client
 * libraries apps are built on: masto.js registers an app, a cookie-keeping fetch plays the browser
 * (Fedpod's login page with the password of /auth/signup, then the consent page), the code is
 * exchanged with PKCE, and the token works with masto.js; megalodon does the same with an
 * out-of-band code. Then the refusals: PKCE, codes, redirect URIs, client secrets, revocation,
 * scopes, and three users whose tokens never act for each other.
 */
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { createOAuthAPIClient, createRestAPIClient, type mastodon } from 'masto';
import generator from 'megalodon';
import { Browser } from '../../support/cookie-browser';
import { startFedpod, type FedpodServer } from '../../support/fedpod';

interface Account { token: string; webId: string }
interface App { client_id: string; client_secret: string }
interface TokenAnswer { access_token: string; refresh_token?: string; scope: string; token_type: string }

const PASSWORD = 'correct horse battery';
const CALLBACK = 'http://localhost:9/callback';
const MOBILE = 'org.example.app://oauth';
const OOB = 'urn:ietf:wg:oauth:2.0:oob';
const FIXTURE = path.join(__dirname, '..', '..', 'fixtures', 'config', 'activitypub-mastodon-scopes.json');
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };

const pkce = (): { verifier: string; challenge: string } => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

const csrfOf = (html: string): string => /name="csrf" value="([^"]+)"/u.exec(html)![1];

describe('OAuth 2 for Mastodon apps (activitypub)', () => {
  let server: FedpodServer;
  const accounts: Record<string, Account> = {};

  async function signup(username: string): Promise<Account> {
    const response = await fetch(`${server.baseUrl}auth/signup`, { method: 'POST', headers: JSON_TYPE,
      body: JSON.stringify({ username, email: `${username}@example.org`, password: PASSWORD }) });
    expect(response.status).toBe(201);
    return await response.json() as Account;
  }

  async function register(redirectUris: string, scopes = 'read write'): Promise<App> {
    const response = await fetch(`${server.baseUrl}api/v1/apps`, { method: 'POST', headers: JSON_TYPE,
      body: JSON.stringify({ client_name: 'Raw client', redirect_uris: redirectUris, scopes }) });
    expect(response.status).toBe(200);
    return await response.json() as App;
  }

  /** The browser's part: log in as `username` on Fedpod's page, then allow; the Location it is sent to (or the page). */
  async function authorize(username: string, query: Record<string, string>, browser = new Browser()): Promise<{ location?: string; page: string }> {
    const url = `${server.baseUrl}oauth/authorize?${new URLSearchParams({ response_type: 'code', ...query }).toString()}`;
    const login = await browser.open(url);
    expect(login.status).toBe(200);
    const loginPage = await login.text();
    expect(loginPage).toContain('name="password"');
    const consent = await browser.open(url, { method: 'POST', headers: FORM,
      body: new URLSearchParams({ csrf: csrfOf(loginPage), action: 'login', login: username, password: PASSWORD }).toString() });
    expect(consent.status).toBe(200);
    const consentPage = await consent.text();
    expect(consentPage).toContain('Allow this app?');
    const answer = await browser.open(url, { method: 'POST', headers: FORM,
      body: new URLSearchParams({ csrf: csrfOf(consentPage), action: 'consent' }).toString() });
    if (answer.status === 303) {
      return { location: answer.headers.get('location')!, page: '' };
    }
    expect(answer.status).toBe(200);
    return { page: await answer.text() };
  }

  async function codeFor(username: string, app: App, redirectUri: string, extra: Record<string, string> = {}): Promise<string> {
    const { location } = await authorize(username, { client_id: app.client_id, redirect_uri: redirectUri, scope: 'read write', ...extra });
    return new URL(location!).searchParams.get('code')!;
  }

  async function token(body: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${server.baseUrl}oauth/token`, { method: 'POST', headers: { ...FORM, ...headers }, body: new URLSearchParams(body).toString() });
  }

  async function userToken(username: string, app: App, scope = 'read write'): Promise<TokenAnswer> {
    const code = await codeFor(username, app, CALLBACK, { scope });
    const response = await token({ grant_type: 'authorization_code', code, client_id: app.client_id, client_secret: app.client_secret, redirect_uri: CALLBACK });
    expect(response.status).toBe(200);
    return await response.json() as TokenAnswer;
  }

  const bearer = (accessToken: string): Record<string, string> => ({ authorization: `Bearer ${accessToken}` });

  beforeAll(async() => {
    server = await startFedpod({ config: FIXTURE });
    for (const username of [ 'alice', 'bob', 'carol' ]) {
      accounts[username] = await signup(username);
    }
  });

  afterAll(async() => {
    await server?.stop();
  });

  it('lets masto.js register an app, log a user in with PKCE and use the token', async() => {
    const rest = createRestAPIClient({ url: server.baseUrl });
    const app = await rest.v1.apps.create({ clientName: 'Elk-like', redirectUris: `${CALLBACK}\n${MOBILE}`, scopes: 'read write follow', website: 'https://elk.example' });
    expect(app).toEqual(expect.objectContaining({ name: 'Elk-like', website: 'https://elk.example', redirectUris: [ CALLBACK, MOBILE ] }));
    expect(app.clientId).toEqual(expect.any(String));
    expect(app.clientSecret).toEqual(expect.any(String));
    const { verifier, challenge } = pkce();
    const { location } = await authorize('alice', { client_id: app.clientId!, redirect_uri: MOBILE, scope: 'read write',
      state: 'opaque-state', code_challenge: challenge, code_challenge_method: 'S256' });
    const back = new URL(location!);
    expect(`${back.protocol}//${back.host}`).toBe(MOBILE);
    expect(back.searchParams.get('state')).toBe('opaque-state');
    const oauth = createOAuthAPIClient({ url: server.baseUrl });
    const created = await oauth.token.create({ grantType: 'authorization_code', clientId: app.clientId!, clientSecret: app.clientSecret!,
      redirectUri: MOBILE, code: back.searchParams.get('code')!, codeVerifier: verifier } as mastodon.oauth.CreateTokenParams);
    expect(created.scope).toBe('read write');
    expect(created.accessToken).not.toContain('.');
    const client = createRestAPIClient({ url: server.baseUrl, accessToken: created.accessToken });
    expect(await client.v1.apps.verifyCredentials()).toEqual(expect.objectContaining({ name: 'Elk-like', scopes: [ 'read', 'write', 'follow' ]}));
    // The token acts as alice on a route of hers, and not as bob.
    expect((await fetch(`${server.baseUrl}api/v1/fixture/read/alice`, { headers: bearer(created.accessToken) })).status).toBe(200);
    expect((await fetch(`${server.baseUrl}api/v1/fixture/read/bob`, { headers: bearer(created.accessToken) })).status).toBe(403);
  });

  it('lets megalodon register an app and exchange an out-of-band code shown on a page', async() => {
    const client = generator('mastodon', server.baseUrl.replace(/\/$/u, ''));
    const app = await client.registerApp('Megalodon app', { scopes: [ 'read' ], redirect_uris: OOB });
    expect(app.url).toContain('/oauth/authorize?');
    const { page } = await authorize('bob', { client_id: app.client_id, redirect_uri: OOB, scope: 'read' });
    const code = /<code class="authorization-code">([^<]+)<\/code>/u.exec(page)![1];
    const tokens = await client.fetchAccessToken(app.client_id, app.client_secret, code, OOB);
    expect(tokens.access_token).toEqual(expect.any(String));
    const authorized = generator('mastodon', server.baseUrl.replace(/\/$/u, ''), tokens.access_token);
    expect((await authorized.verifyAppCredentials()).data).toEqual(expect.objectContaining({ name: 'Megalodon app' }));
  });

  it('refuses a wrong PKCE verifier, a reused code and a code for another redirect URI (400 invalid_grant)', async() => {
    const app = await register(`${CALLBACK} ${MOBILE}`);
    const { challenge } = pkce();
    const badVerifier = await token({ grant_type: 'authorization_code', client_id: app.client_id, client_secret: app.client_secret,
      redirect_uri: CALLBACK, code: await codeFor('alice', app, CALLBACK, { code_challenge: challenge, code_challenge_method: 'S256' }),
      code_verifier: pkce().verifier });
    expect(badVerifier.status).toBe(400);
    expect(await badVerifier.json()).toEqual(expect.objectContaining({ error: 'invalid_grant', error_description: expect.stringContaining('PKCE') }));

    const code = await codeFor('alice', app, CALLBACK);
    const body = { grant_type: 'authorization_code', code, client_id: app.client_id, client_secret: app.client_secret, redirect_uri: CALLBACK };
    expect((await token(body)).status).toBe(200);
    const reused = await token(body);
    expect(reused.status).toBe(400);
    expect((await reused.json() as { error: string }).error).toBe('invalid_grant');

    const otherUri = await token({ ...body, code: await codeFor('alice', app, CALLBACK), redirect_uri: MOBILE });
    expect(otherUri.status).toBe(400);
    expect((await otherUri.json() as { error: string }).error).toBe('invalid_grant');
  });

  it('never sends the browser to a redirect URI the app did not register', async() => {
    const app = await register(CALLBACK);
    const response = await fetch(`${server.baseUrl}oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: app.client_id,
      redirect_uri: 'https://attacker.example/steal' }).toString()}`, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    const unknownScope = await fetch(`${server.baseUrl}oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: app.client_id,
      redirect_uri: CALLBACK, scope: 'push', state: 's' }).toString()}`, { redirect: 'manual' });
    expect(unknownScope.status).toBe(303);
    expect(Object.fromEntries(new URL(unknownScope.headers.get('location')!).searchParams)).toEqual(expect.objectContaining({ error: 'invalid_scope', state: 's' }));
  });

  it('refuses a form posted without the page\'s CSRF token, and sends the app access_denied on Deny', async() => {
    const app = await register(CALLBACK);
    const url = `${server.baseUrl}oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: app.client_id, redirect_uri: CALLBACK, state: 'z' }).toString()}`;
    const browser = new Browser();
    const page = await (await browser.open(url)).text();
    const forged = await browser.open(url, { method: 'POST', headers: FORM,
      body: new URLSearchParams({ csrf: 'guessed', action: 'login', login: 'alice', password: PASSWORD }).toString() });
    expect(forged.status).toBe(403);
    const denied = await browser.open(url, { method: 'POST', headers: FORM, body: new URLSearchParams({ csrf: csrfOf(page), action: 'cancel' }).toString() });
    expect(denied.status).toBe(303);
    expect(denied.headers.get('location')).toBe(`${CALLBACK}?error=access_denied&error_description=The+user+said+no.&state=z`);
  });

  it('authenticates the app by its secret, in the body or with HTTP Basic (401 invalid_client otherwise)', async() => {
    const app = await register(CALLBACK);
    const wrong = await token({ grant_type: 'client_credentials', client_id: app.client_id, client_secret: 'not-it' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual(expect.objectContaining({ error: 'invalid_client' }));
    const basic = await token({ grant_type: 'client_credentials', scope: 'read write' },
      { authorization: `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64')}` });
    expect(basic.status).toBe(200);
    const appToken = await basic.json() as TokenAnswer;
    expect(appToken.refresh_token).toBeUndefined();
    // An app's own token knows its app, and is no user.
    expect((await fetch(`${server.baseUrl}api/v1/apps/verify_credentials`, { headers: bearer(appToken.access_token) })).status).toBe(200);
    expect((await fetch(`${server.baseUrl}api/v1/fixture/write`, { headers: bearer(appToken.access_token) })).status).toBe(401);
  });

  it('refreshes a token: the new one works, the old pair is dead', async() => {
    const app = await register(CALLBACK);
    const first = await userToken('carol', app);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: app.client_id, client_secret: app.client_secret });
    expect(refreshed.status).toBe(200);
    const second = await refreshed.json() as TokenAnswer;
    expect(second.scope).toBe('read write');
    expect((await fetch(`${server.baseUrl}api/v1/fixture/read/carol`, { headers: bearer(second.access_token) })).status).toBe(200);
    expect((await fetch(`${server.baseUrl}api/v1/fixture/read/carol`, { headers: bearer(first.access_token) })).status).toBe(401);
    const again = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: app.client_id, client_secret: app.client_secret });
    expect(again.status).toBe(400);
  });

  it('refuses a revoked token at once, and only its app may revoke it', async() => {
    const app = await register(CALLBACK);
    const other = await register(CALLBACK);
    const { access_token: accessToken } = await userToken('alice', app);
    const url = `${server.baseUrl}api/v1/apps/verify_credentials`;
    expect((await fetch(url, { headers: bearer(accessToken) })).status).toBe(200);
    const byOther = await fetch(`${server.baseUrl}oauth/revoke`, { method: 'POST', headers: JSON_TYPE,
      body: JSON.stringify({ token: accessToken, client_id: other.client_id, client_secret: other.client_secret }) });
    expect(byOther.status).toBe(200);
    expect((await fetch(url, { headers: bearer(accessToken) })).status).toBe(200);
    const revoked = await fetch(`${server.baseUrl}oauth/revoke`, { method: 'POST', headers: JSON_TYPE,
      body: JSON.stringify({ token: accessToken, client_id: app.client_id, client_secret: app.client_secret }) });
    expect(revoked.status).toBe(200);
    const after = await fetch(url, { headers: bearer(accessToken) });
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual(expect.objectContaining({ error: 'The access token is invalid' }));
  });

  it('enforces scopes: a read token may read and not write; a token counts on the Mastodon API only', async() => {
    const app = await register(CALLBACK);
    const readOnly = await userToken('bob', app, 'read');
    expect((await fetch(`${server.baseUrl}api/v1/fixture/read/bob`, { headers: bearer(readOnly.access_token) })).status).toBe(200);
    const write = await fetch(`${server.baseUrl}api/v1/fixture/write`, { headers: bearer(readOnly.access_token) });
    expect(write.status).toBe(403);
    expect(await write.json()).toEqual(expect.objectContaining({ error: 'This action is outside the authorized scopes' }));
    const writer = await userToken('bob', app, 'write:statuses');
    expect((await fetch(`${server.baseUrl}api/v1/fixture/write`, { headers: bearer(writer.access_token) })).status).toBe(200);
    expect((await fetch(`${server.baseUrl}api/v1/fixture/write`)).status).toBe(401);
    // Outside the Mastodon API (an outbox, a pod), an app's token is no credential: it cannot write there.
    const outbox = await fetch(`${server.baseUrl}actors/bob/outbox`, { method: 'POST',
      headers: { ...bearer(writer.access_token), 'content-type': 'application/activity+json' },
      body: JSON.stringify({ type: 'Note', content: 'via an app token' }) });
    expect(outbox.status).toBe(401);
    // Fedpod's own token has every scope.
    expect((await fetch(`${server.baseUrl}api/v1/fixture/write`, { headers: bearer(accounts.bob.token) })).status).toBe(200);
    expect((await fetch(`${server.baseUrl}api/v1/fixture/read/bob`, { headers: bearer(accounts.bob.token) })).status).toBe(200);
  });

  it('keeps three users apart: a token acts only as the user who authorized it', async() => {
    const app = await register(CALLBACK);
    const tokens = {
      alice: (await userToken('alice', app, 'read')).access_token,
      bob: (await userToken('bob', app, 'read')).access_token,
      carol: (await userToken('carol', app, 'read')).access_token,
    };
    for (const [ owner, accessToken ] of Object.entries(tokens)) {
      for (const username of Object.keys(tokens)) {
        const response = await fetch(`${server.baseUrl}api/v1/fixture/read/${username}`, { headers: bearer(accessToken) });
        expect([ owner, username, response.status ]).toEqual([ owner, username, owner === username ? 200 : 403 ]);
      }
    }
  });

  it('lists the authorized apps (JSON and the account page), where the user revokes one', async() => {
    const app = await register(CALLBACK);
    const { access_token: accessToken } = await userToken('carol', app, 'read');
    // As JSON, to the user's own token, and never to an app's.
    const listed = await fetch(`${server.baseUrl}auth/apps`, { headers: bearer(accounts.carol.token) });
    expect(await listed.json()).toEqual(expect.arrayContaining([ expect.objectContaining({ clientId: app.client_id, scopes: [ 'read' ]}) ]));
    expect((await fetch(`${server.baseUrl}auth/apps`, { headers: bearer(accessToken) })).status).toBe(401);
    const browser = new Browser();
    const login = await browser.open(`${server.baseUrl}auth/login`, { method: 'POST', headers: { ...FORM, accept: 'text/html' },
      body: new URLSearchParams({ username: 'carol', password: PASSWORD }).toString() });
    expect(login.status).toBe(303);
    const page = await (await browser.open(`${server.baseUrl}auth/account`, { headers: { accept: 'text/html' }})).text();
    expect(page).toContain('Authorized apps');
    expect(page).toContain(app.client_id);
    const revoked = await browser.open(`${server.baseUrl}auth/account`, { method: 'POST', headers: { ...FORM, accept: 'text/html' },
      body: new URLSearchParams({ csrf: csrfOf(page), do: 'revoke-app', client: app.client_id }).toString() });
    expect(revoked.status).toBe(200);
    expect(await revoked.text()).not.toContain(app.client_id);
    expect((await fetch(`${server.baseUrl}api/v1/fixture/read/carol`, { headers: bearer(accessToken) })).status).toBe(401);
  });
});
