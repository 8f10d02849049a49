/**
 * The OAuth login and consent pages in a real headless Chromium, as a person meets them when an app
 * (Elk, Tusky, ...) sends them to this server: log in, see what the app asks for, allow or deny. The
 * out-of-band redirect shows the code on a page, as mobile apps without a callback ask for. Screenshots
 * are kept in the run directory.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Browser, Page } from 'puppeteer-core';
import { keepScreenshot, launchBrowser } from '../../support/browser';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { signup } from '../../support/local-actors';

const OOB = 'urn:ietf:wg:oauth:2.0:oob';

interface App { client_id: string; client_secret: string }

describe('OAuth pages in a browser', () => {
  let server: FedpodServer;
  let browser: Browser;
  let page: Page;
  let app: App;

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub' });
    await signup(server.baseUrl, 'alice');
    await signup(server.baseUrl, 'bob');
    const registered = await fetch(`${server.baseUrl}api/v1/apps`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Pocket Reader', redirect_uris: OOB, scopes: 'read write' }) });
    expect(registered.status).toBe(200);
    app = await registered.json() as App;
    browser = await launchBrowser();
  });

  beforeEach(async() => {
    // A new incognito context per test: no session cookie carried from one test to the next.
    const context = await browser.createBrowserContext();
    page = await context.newPage();
  });

  afterEach(async() => {
    await page?.browserContext().close();
  });

  afterAll(async() => {
    await browser?.close();
    await server?.stop();
  });

  const pkce = (): { verifier: string; challenge: string } => {
    const verifier = randomBytes(32).toString('base64url');
    return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
  };

  const authorizeUrl = (challenge: string, scope = 'read write'): string => `${server.baseUrl}oauth/authorize?${new URLSearchParams({
    response_type: 'code', client_id: app.client_id, redirect_uri: OOB, scope, code_challenge: challenge, code_challenge_method: 'S256',
  }).toString()}`;

  const logIn = async(username: string, password: string): Promise<void> => {
    await page.type('#login', username);
    await page.type('#password', password);
    await Promise.all([ page.waitForNavigation(), page.click('form button[type=submit]') ]);
  };

  const text = async(): Promise<string> => page.$eval('main', (element) => (element as HTMLElement).innerText);

  it('logs in, names the app and its scopes, and shows the code that gets the app its token', async() => {
    const { verifier, challenge } = pkce();
    const answer = await page.goto(authorizeUrl(challenge));
    expect(answer?.status()).toBe(200);
    expect(await text()).toContain('Pocket Reader');
    // Every field has its label, so a screen reader names it.
    expect(await page.$eval('label[for=login]', (element) => element.textContent)).toBe('Username or email');
    expect(await page.$eval('label[for=password]', (element) => element.textContent)).toBe('Password');
    await keepScreenshot(page, 'oauth-login');

    await logIn('alice', 'wrong password');
    expect(await page.$eval('[role=alert]', (element) => element.textContent)).toContain('Wrong username, email or password');
    expect(await page.$eval('#login', (element) => (element as HTMLInputElement).value)).toBe('alice');

    await page.$eval('#login', (element) => {
      (element as HTMLInputElement).value = '';
    });
    await logIn('alice', 'correct horse');
    const consent = await text();
    expect(consent).toContain('Pocket Reader');
    expect(consent).toContain(`${server.baseUrl}actors/alice`);
    expect(await page.$$eval('ul.scopes li', (items) => items.length)).toBe(2);
    await keepScreenshot(page, 'oauth-consent');

    await Promise.all([ page.waitForNavigation(), page.click('xpath/.//button[text()="Allow"]') ]);
    const code = await page.$eval('code.authorization-code', (element) => element.textContent ?? '');
    expect(code).not.toBe('');
    await keepScreenshot(page, 'oauth-code');

    const token = await fetch(`${server.baseUrl}oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code', code, client_id: app.client_id, client_secret: app.client_secret,
        redirect_uri: OOB, code_verifier: verifier }) });
    expect(token.status).toBe(200);
    const { access_token: accessToken, scope } = await token.json() as { access_token: string; scope: string };
    expect(scope).toBe('read write');
    const me = await fetch(`${server.baseUrl}api/v1/accounts/verify_credentials`, { headers: { authorization: `Bearer ${accessToken}` }});
    expect(me.status).toBe(200);
    expect((await me.json() as { username: string }).username).toBe('alice');
  });

  it('remembers the login in this browser only: the next app request asks for consent, not the password', async() => {
    await page.goto(authorizeUrl(pkce().challenge));
    await logIn('bob', 'correct horse');
    expect(await text()).toContain(`${server.baseUrl}actors/bob`);
    // The same browser, a new request of the app: straight to the question, as bob.
    await page.goto(authorizeUrl(pkce().challenge, 'read'));
    expect(await page.$('#password')).toBeNull();
    expect(await text()).toContain(`${server.baseUrl}actors/bob`);
    expect(await page.$$eval('ul.scopes li', (items) => items.length)).toBe(1);
    // Another browser (a fresh context) is not logged in.
    const other = await browser.createBrowserContext();
    try {
      const otherPage = await other.newPage();
      await otherPage.goto(authorizeUrl(pkce().challenge));
      expect(await otherPage.$('#password')).not.toBeNull();
    } finally {
      await other.close();
    }
  });

  it('gives the app nothing when the person denies it', async() => {
    await page.goto(authorizeUrl(pkce().challenge));
    await logIn('alice', 'correct horse');
    await Promise.all([ page.waitForNavigation(), page.click('xpath/.//button[text()="Deny"]') ]);
    expect(await text()).toContain('Pocket Reader was not given access to your account.');
    expect(await page.$('code.authorization-code')).toBeNull();
    await keepScreenshot(page, 'oauth-denied');
  });

  it('publishes its OAuth endpoints (RFC 8414), the ones this flow uses', async() => {
    const answer = await fetch(`${server.baseUrl}.well-known/oauth-authorization-server`);
    expect(answer.status).toBe(200);
    const metadata = await answer.json() as Record<string, unknown>;
    expect(metadata).toEqual(expect.objectContaining({
      issuer: server.baseUrl,
      authorization_endpoint: `${server.baseUrl}oauth/authorize`,
      token_endpoint: `${server.baseUrl}oauth/token`,
      revocation_endpoint: `${server.baseUrl}oauth/revoke`,
      app_registration_endpoint: `${server.baseUrl}api/v1/apps`,
      code_challenge_methods_supported: [ 'S256' ],
    }));
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining([ 'read', 'write', 'follow', 'push', 'profile', 'write:media' ]));
    // The endpoint named is the page this test logs in on.
    await page.goto(`${metadata.authorization_endpoint as string}?${authorizeUrl(pkce().challenge).split('?')[1]}`);
    expect(await page.$('#password')).not.toBeNull();
  });

  it('answers a request naming no registered app with a page, not a redirect', async() => {
    const answer = await page.goto(`${server.baseUrl}oauth/authorize?response_type=code&client_id=nobody&redirect_uri=${encodeURIComponent(OOB)}`);
    expect(answer?.status()).toBeGreaterThanOrEqual(400);
    expect(answer?.status()).toBeLessThan(500);
    expect(answer?.headers()['content-type']).toMatch(/^text\/html/u);
    expect(await page.$('#password')).toBeNull();
  });
});
