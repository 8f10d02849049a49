import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AccountPagesHandler } from '../../../../src/handlers/html/AccountPagesHandler';
import type { AccountService, Session } from '../../../../src/plugins/accounts/AccountService';
import { TokenService } from '../../../../src/plugins/accounts/TokenService';
import { conflict, unauthorized } from '../../../../src/util/HttpErrors';
import type { HandlerServer } from '../support/handlerServer';
import { declined, serveHandler } from '../support/handlerServer';
import type { WebhookWorld } from '../webhooks/support';
import { ALICE, BASE, startWebhookWorld } from '../webhooks/support';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const FORM = 'application/x-www-form-urlencoded';

/** Signup takes any username but "alice" (taken); login takes alice with the password "right"; "crash" fails unexpectedly. */
function accountsFor(tokens: TokenService): AccountService {
  return {
    signup: async(body: Record<string, string>): Promise<Session> => {
      if (body.username === 'alice') {
        throw conflict('That username is taken.', 'username_taken');
      }
      if (body.username === 'crash') {
        throw new Error('disk on fire');
      }
      const webId = `${BASE}actors/${body.username}`;
      return { token: await tokens.issue({ webId, username: body.username }), webId };
    },
    login: async(body: Record<string, string>): Promise<Session> => {
      if (body.username !== 'alice' || body.password !== 'right') {
        throw unauthorized('Wrong username or password.', 'invalid_credentials');
      }
      return { token: await tokens.issue({ webId: ALICE, username: 'alice' }), webId: ALICE };
    },
  } as unknown as AccountService;
}

interface Page {
  status: number;
  headers: Headers;
  html: string;
}

describe('AccountPagesHandler', (): void => {
  let world: WebhookWorld;
  let server: HandlerServer;
  let plainServer: HandlerServer;
  let plainDir: string;

  beforeAll(async(): Promise<void> => {
    world = await startWebhookWorld();
    server = await serveHandler(new AccountPagesHandler(BASE, accountsFor(world.tokens), world.tokens, world.service));
    // A setup without webhooks, on a plain-HTTP base URL.
    plainDir = mkdtempSync(path.join(tmpdir(), 'fedpod-account-pages-'));
    const plainTokens = new TokenService('http://localhost:3000/', plainDir);
    plainServer = await serveHandler(new AccountPagesHandler('http://localhost:3000', accountsFor(plainTokens), plainTokens));
  });

  afterAll(async(): Promise<void> => {
    await server.close();
    await plainServer.close();
    await world.stop();
    rmSync(plainDir, { recursive: true, force: true });
  });

  async function open(target: string, options: { form?: Record<string, string>; cookie?: string; on?: HandlerServer } = {}): Promise<Page> {
    const response = await fetch(`${(options.on ?? server).base}${target}`, { method: options.form ? 'POST' : 'GET', redirect: 'manual',
      headers: { accept: BROWSER, ...options.form ? { 'content-type': FORM } : {}, ...options.cookie ? { cookie: options.cookie } : {}},
      ...options.form ? { body: new URLSearchParams(options.form).toString() } : {}});
    return { status: response.status, headers: response.headers, html: await response.text() };
  }

  /** Logs alice in: the session cookie as a browser sends it back. */
  async function logIn(on?: HandlerServer): Promise<string> {
    const page = await open('/auth/login', { form: { username: 'alice', password: 'right' }, on });
    return page.headers.get('set-cookie')!.split(';')[0];
  }

  /** The form key of an account page. */
  function formKey(html: string): string {
    return /name="csrf" value="([^"]+)"/u.exec(html)![1];
  }

  it('shows the login and signup forms to a browser, never framed or cached', async(): Promise<void> => {
    const login = await open('/auth/login');
    expect(login.status).toBe(200);
    expect(login.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(login.headers.get('cache-control')).toBe('no-store');
    expect(login.headers.get('x-frame-options')).toBe('DENY');
    // The web app's policy: no framing, no script but the server's own files.
    expect(login.headers.get('content-security-policy')).toContain('frame-ancestors \'none\'');
    expect(login.headers.get('content-security-policy')).toContain('script-src \'self\'');
    expect(login.html).toContain(`<form method="post" action="${BASE}auth/login">`);
    const signup = await open('/auth/signup?from=x');
    expect(signup.html).toContain(`<form method="post" action="${BASE}auth/signup">`);
    expect(signup.html).toContain('name="email"');
  });

  it('leaves API clients, JSON posts and other methods and paths to other handlers', async(): Promise<void> => {
    const refused = [
      await fetch(`${server.base}/auth/login`),
      await fetch(`${server.base}/auth/login`, { headers: { accept: 'application/json' }}),
      await fetch(`${server.base}/auth/login`, { method: 'POST', headers: { accept: BROWSER, 'content-type': 'application/json' }, body: '{}' }),
      await fetch(`${server.base}/auth/login`, { method: 'PUT', headers: { accept: BROWSER, 'content-type': FORM }, body: '' }),
      await fetch(`${server.base}/auth/clients`, { headers: { accept: BROWSER }}),
    ];
    expect(refused.map(declined)).toEqual([ true, true, true, true, true ]);
  });

  it('logs in from the form: a Strict session cookie for /auth/, a Lax one for the OAuth pages, and the account page', async(): Promise<void> => {
    const page = await open('/auth/login', { form: { username: 'alice', password: 'right' }});
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(`${BASE}auth/account`);
    const [ pages, oauth, web ] = page.headers.getSetCookie();
    expect(pages).toMatch(/^fedpod_session=[\w.-]+; Path=\/auth\/; HttpOnly; SameSite=Strict; Secure$/u);
    expect(oauth).toMatch(/^fedpod_oauth_session=[\w.-]+; Path=\/oauth\/; HttpOnly; SameSite=Lax; Secure$/u);
    expect(web).toMatch(/^fedpod_web_session=[\w.-]+; Path=\/; HttpOnly; SameSite=Lax; Secure$/u);
  });

  it('goes on to the web app page the login was opened for, and never to another site', async(): Promise<void> => {
    const form = await open('/auth/login?next=web/notifications');
    expect(form.html).toContain('<input type="hidden" name="next" value="web/notifications">');
    const to = async(next: string): Promise<string | null> =>
      (await open('/auth/login', { form: { username: 'alice', password: 'right', next }})).headers.get('location');
    expect(await to('web/notifications')).toBe(`${BASE}web/notifications`);
    for (const next of [ '//evil.example/web/', 'https://evil.example/', 'web//evil.example', 'auth/logout', '/web/home' ]) {
      expect(await to(next)).toBe(`${BASE}auth/account`);
    }
  });

  it('shows the form again with the reason and status of a refused login or signup, keeping what was typed', async(): Promise<void> => {
    const login = await open('/auth/login', { form: { username: 'al"ice', password: 'wrong' }});
    expect(login.status).toBe(401);
    expect(login.html).toContain('<p class="error" role="alert">Wrong username or password.</p>');
    expect(login.html).toContain('value="al&quot;ice"');
    expect(login.headers.get('set-cookie')).toBeNull();
    const signup = await open('/auth/signup', { form: { username: 'alice', email: 'a@mail.example', password: 'long enough' }});
    expect(signup.status).toBe(409);
    expect(signup.html).toContain('That username is taken.');
    expect(signup.html).toContain('value="a@mail.example"');
  });

  it('signs up from the form straight into the account', async(): Promise<void> => {
    const page = await open('/auth/signup', { form: { username: 'bob', email: 'bob@mail.example', password: 'long enough' }});
    expect(page.status).toBe(303);
    const account = await open('/auth/account', { cookie: page.headers.get('set-cookie')!.split(';')[0] });
    expect(account.html).toContain(`Logged in as <a href="${BASE}actors/bob">@bob</a>`);
  });

  it('answers an unexpected failure with a 500 page, not the form', async(): Promise<void> => {
    const page = await open('/auth/signup', { form: { username: 'crash', email: 'c@mail.example', password: 'long enough' }});
    expect(page.status).toBe(500);
    expect(page.html).not.toContain('disk on fire');
  });

  it('sends a visitor without a valid session to the login form', async(): Promise<void> => {
    for (const cookie of [ undefined, 'fedpod_session=not-a-token', 'other=1', 'fedpod_session=' ]) {
      const page = await open('/auth/account', { cookie });
      expect({ cookie, status: page.status, location: page.headers.get('location') })
        .toEqual({ cookie, status: 303, location: `${BASE}auth/login` });
    }
  });

  it('lets the user create and revoke webhooks from the account page', async(): Promise<void> => {
    const cookie = await logIn();
    const account = await open('/auth/account', { cookie: `theme=dark; ${cookie}` });
    expect(account.status).toBe(200);
    expect(account.html).toContain(`Logged in as <a href="${ALICE}">@alice</a>`);
    expect(account.html).toContain('<option>store-in-container</option>');
    const csrf = formKey(account.html);
    const generated = await open('/auth/account', { cookie, form: { csrf, do: 'generate', action: 'store-in-container' }});
    expect(generated.status).toBe(200);
    const uri = /<code class="webhook-uri">([^<]+)<\/code>/u.exec(generated.html)![1];
    expect(uri).toMatch(/^https:\/\/pod\.example\/webhooks\/[A-Za-z0-9_-]{43}$/u);
    expect(await world.service.lookup(uri.slice(`${BASE}webhooks/`.length))).toBeDefined();
    const iri = /name="iri" value="([^"]+)"/u.exec(generated.html)![1];
    const revoked = await open('/auth/account', { cookie, form: { csrf, do: 'revoke', iri }});
    expect(revoked.html).toContain('<p class="notice" role="status">Revoked.</p>');
    expect(await world.service.lookup(uri.slice(`${BASE}webhooks/`.length))).toBeUndefined();
  });

  it('refuses a form without this session\'s key (403) or with an unknown request (400)', async(): Promise<void> => {
    const cookie = await logIn();
    for (const csrf of [ undefined, 'guessed' ]) {
      const page = await open('/auth/account', { cookie, form: { ...csrf ? { csrf } : {}, do: 'generate', action: 'store-in-container' }});
      expect(page.status).toBe(403);
      expect(page.html).toContain('This form was not sent from your account page');
    }
    const csrf = formKey((await open('/auth/account', { cookie })).html);
    expect((await open('/auth/account', { cookie, form: { csrf, do: 'explode' }})).status).toBe(400);
  });

  it('logs out by clearing the cookie', async(): Promise<void> => {
    const page = await open('/auth/logout', { form: {}});
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(`${BASE}auth/login`);
    expect(page.headers.getSetCookie()).toEqual([ 'fedpod_session=; Path=/auth/; HttpOnly; SameSite=Strict; Secure; Max-Age=0',
      'fedpod_oauth_session=; Path=/oauth/; HttpOnly; SameSite=Lax; Secure; Max-Age=0',
      'fedpod_web_session=; Path=/; HttpOnly; SameSite=Lax; Secure; Max-Age=0' ]);
  });

  it('on a plain-HTTP base, sets no Secure cookie, and without webhooks shows no webhooks and no form', async(): Promise<void> => {
    const login = await open('/auth/login', { form: { username: 'alice', password: 'right' }, on: plainServer });
    expect(login.headers.get('set-cookie')).not.toContain('Secure');
    expect(login.headers.get('location')).toBe('http://localhost:3000/auth/account');
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const account = await open('/auth/account', { cookie, on: plainServer });
    expect(account.status).toBe(200);
    expect(account.html).not.toContain('Webhooks');
    // Its page carries no form key: no form can change anything.
    expect(account.html).not.toContain('name="csrf"');
    expect((await open('/auth/account', { cookie, form: { csrf: 'guessed', do: 'generate' }, on: plainServer })).status).toBe(403);
  });
});
