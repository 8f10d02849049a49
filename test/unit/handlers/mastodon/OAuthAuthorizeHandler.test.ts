import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OAuthAuthorizeHandler } from '../../../../src/handlers/mastodon/OAuthAuthorizeHandler';
import type { AccountService, Session } from '../../../../src/plugins/accounts/AccountService';
import { TokenService } from '../../../../src/plugins/accounts/TokenService';
import { unauthorized } from '../../../../src/util/HttpErrors';
import type { OAuthWorld } from './support';
import { CALLBACK, startOAuthWorld } from './support';

const BASE = 'https://pod.example/';
const OOB = 'urn:ietf:wg:oauth:2.0:oob';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('OAuthAuthorizeHandler', (): void => {
  let world: OAuthWorld;
  let tokens: TokenService;
  let keysDir: string;

  beforeAll(async(): Promise<void> => {
    keysDir = mkdtempSync(join(tmpdir(), 'fedpod-authorize-'));
    tokens = new TokenService(BASE, keysDir);
    // alice's password is "right".
    const accounts = {
      login: async(body: Record<string, string>): Promise<Session> => {
        if (body.username !== 'alice' || body.password !== 'right') {
          throw unauthorized('Wrong username or password.', 'invalid_credentials');
        }
        return { token: await tokens.issue({ webId: `${BASE}actors/alice`, username: 'alice' }), webId: `${BASE}actors/alice` };
      },
    } as unknown as AccountService;
    world = await startOAuthWorld((oauth) => new OAuthAuthorizeHandler(BASE, oauth, accounts, tokens));
  });

  afterAll(async(): Promise<void> => {
    await world.stop();
    rmSync(keysDir, { recursive: true, force: true });
  });

  const url = (query: Record<string, string>): string =>
    `${world.server.base}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: world.clientId, ...query }).toString()}`;

  /** The browser's cookies (one of each name) and the page's CSRF token, after a GET. */
  async function open(query: Record<string, string>, cookie = ''): Promise<{ status: number; html: string; cookie: string; csrf: string }> {
    const response = await fetch(url(query), { redirect: 'manual', headers: { cookie }});
    const set = response.headers.getSetCookie().map((line): string => line.split(';')[0]);
    const html = await response.text();
    return { status: response.status, html, cookie: [ cookie, ...set ].filter(Boolean).join('; '), csrf: /name="csrf" value="([^"]+)"/u.exec(html)?.[1] ?? '' };
  }

  const post = async(query: Record<string, string>, cookie: string, form: Record<string, string>): Promise<Response> =>
    fetch(url(query), { method: 'POST', redirect: 'manual', headers: { ...FORM, cookie }, body: new URLSearchParams(form).toString() });

  /** Logs alice in through the form; the cookies after it. */
  async function logIn(query: Record<string, string>): Promise<string> {
    const page = await open(query);
    const response = await post(query, page.cookie, { csrf: page.csrf, action: 'login', login: 'alice', password: 'right' });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Allow this app?');
    const session = response.headers.getSetCookie()[0];
    expect(session).toMatch(/^fedpod_oauth_session=[\w.-]+; Path=\/oauth\/; HttpOnly; SameSite=Lax; Secure$/u);
    return `${page.cookie}; ${session.split(';')[0]}`;
  }

  it('shows the login form with a CSRF cookie, framed by no one and cached by no one', async(): Promise<void> => {
    const response = await fetch(url({ redirect_uri: CALLBACK }));
    expect(response.status).toBe(200);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.getSetCookie()[0]).toMatch(/^fedpod_oauth_csrf=[\w-]+; Path=\/oauth\/; HttpOnly; SameSite=Lax; Secure$/u);
    const html = await response.text();
    expect(html).toContain('Test app');
    expect(html).toContain('name="password"');
    // The app's header: the server's home link and the host the user logs in to.
    expect(html).toContain(`<a class="home" href="${BASE}">Fedpod</a><span class="meta">pod.example</span>`);
  });

  it('logs in, shows the scopes, and sends the code with the state back to the app', async(): Promise<void> => {
    const query = { redirect_uri: CALLBACK, scope: 'read write', state: 'abc' };
    const cookie = await logIn(query);
    const consent = await open(query, cookie);
    expect(consent.html).toContain('read everything your account can read');
    expect(consent.html).toContain('post, change and delete in your name');
    const answer = await post(query, cookie, { csrf: consent.csrf, action: 'consent' });
    expect(answer.status).toBe(303);
    const location = new URL(answer.headers.get('location')!);
    expect(location.href.startsWith(`${CALLBACK}?`)).toBe(true);
    expect(location.searchParams.get('state')).toBe('abc');
    const token = await world.oauth.exchangeCode({ clientId: world.clientId, clientSecret: world.clientSecret },
      location.searchParams.get('code')!, CALLBACK, undefined);
    expect(token.scope).toBe('read write');
    // force_login shows the login form even with a session.
    expect((await open({ ...query, force_login: 'true' }, cookie)).html).toContain('name="password"');
  });

  it('keeps the PKCE challenge with the code, and shows an out-of-band code on a page', async(): Promise<void> => {
    const verifier = 'v'.repeat(43);
    const query = { redirect_uri: OOB, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' };
    const cookie = await logIn(query);
    const answer = await post(query, cookie, { csrf: (await open(query, cookie)).csrf, action: 'consent' });
    expect(answer.status).toBe(200);
    const code = /<code class="authorization-code">([^<]+)<\/code>/u.exec(await answer.text())![1];
    const client = { clientId: world.clientId, clientSecret: world.clientSecret };
    await expect(world.oauth.exchangeCode(client, code, OOB, 'w'.repeat(43))).rejects.toMatchObject({ errorCode: 'invalid_grant' });
  });

  it('answers an unknown app or an unregistered redirect URI with a page, never a redirect', async(): Promise<void> => {
    for (const target of [ url({ client_id: 'nobody', redirect_uri: CALLBACK }), url({ redirect_uri: 'https://evil.example/' }) ]) {
      const response = await fetch(target, { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
    }
  });

  it('sends request errors back to the app: response type, scopes, PKCE method', async(): Promise<void> => {
    for (const [ query, error ] of [
      [{ response_type: 'token' }, 'unsupported_response_type' ],
      [{ scope: 'follow' }, 'invalid_scope' ],
      [{ scope: 'read nonsense' }, 'invalid_scope' ],
      [{ code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' }, 'invalid_request' ],
      [{ code_challenge: 'short', code_challenge_method: 'S256' }, 'invalid_request' ],
    ] as [Record<string, string>, string][]) {
      const response = await fetch(url({ redirect_uri: CALLBACK, state: 's', ...query }), { redirect: 'manual' });
      expect(response.status).toBe(303);
      const location = new URL(response.headers.get('location')!);
      expect([ query, location.searchParams.get('error'), location.searchParams.get('state') ]).toEqual([ query, error, 's' ]);
    }
  });

  it('refuses a form without the CSRF cookie\'s value, a wrong password, and consent without a session', async(): Promise<void> => {
    const query = { redirect_uri: CALLBACK };
    const page = await open(query);
    expect((await post(query, page.cookie, { csrf: 'other', action: 'login', login: 'alice', password: 'right' })).status).toBe(403);
    expect((await post(query, '', { csrf: page.csrf, action: 'login', login: 'alice', password: 'right' })).status).toBe(403);
    const wrong = await post(query, page.cookie, { csrf: page.csrf, action: 'login', login: 'alice', password: 'wrong' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('Wrong username, email or password.');
    expect((await post(query, page.cookie, { csrf: page.csrf, action: 'consent' })).status).toBe(401);
    expect((await post(query, page.cookie, { csrf: page.csrf, action: 'dance' })).status).toBe(400);
    const json = await fetch(url(query), { method: 'POST', headers: { 'content-type': 'application/json', cookie: page.cookie }, body: '{}' });
    expect(json.status).toBe(415);
    expect((await fetch(url(query), { method: 'DELETE' })).status).toBe(405);
  });
});
