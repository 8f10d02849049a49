/**
 * Password reset by a mailed one-time link (`--smtp-url`), against a real SMTP receiver: the request
 * is answered alike whether or not the account exists (and only an existing one gets mail); the link
 * sets a new password once, revokes every earlier token, and leaves other users alone. Three users:
 * alice resets hers, bob has his reset asked for by someone else and ignores it, carol is untouched.
 */
import type { SMTPServer } from 'smtp-server';
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { freePort } from '../../support/ports';
import { mailText, startSmtp, type Received } from '../../support/smtp';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new passphrase';
const JSON_TYPE = { 'content-type': 'application/json' };

/** The first link to `path` in a mail. */
function linkIn(raw: string, path: string): string {
  const match = new RegExp(`https?://\\S+/${path}\\?\\S+`, 'u').exec(mailText(raw));
  if (!match) {
    throw new Error(`no ${path} link in:\n${raw}`);
  }
  return match[0];
}

describe('password reset by mail (--smtp-url)', () => {
  let server: FedpodServer;
  let smtp: SMTPServer;
  const received: Received[] = [];
  const tokens: Record<string, string> = {};

  const mailsTo = (address: string): Received[] => received.filter((mail): boolean => mail.to.includes(address));

  async function login(username: string, password: string): Promise<number> {
    return (await fetch(`${server.baseUrl}auth/login`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ username, password }) })).status;
  }

  async function forgot(login: string): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${server.baseUrl}auth/password/forgot`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ login }) });
    return { status: response.status, body: await response.json() };
  }

  async function reset(body: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${server.baseUrl}auth/password/reset`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify(body) });
    return { status: response.status, body: await response.json() as Record<string, unknown> };
  }

  async function tokenWorks(token: string): Promise<number> {
    return (await fetch(`${server.baseUrl}auth/invites`, { headers: { authorization: `Bearer ${token}` } })).status;
  }

  beforeAll(async() => {
    const port = await freePort();
    smtp = await startSmtp(port, received);
    server = await startFedpod({ config: 'activitypub', extraArgs: [ '--smtp-url', `smtp://127.0.0.1:${port}` ]});
    for (const name of [ 'alice', 'bob', 'carol' ]) {
      const signed = await fetch(`${server.baseUrl}auth/signup`, { method: 'POST', headers: JSON_TYPE,
        body: JSON.stringify({ username: name, email: `${name}@example.org`, password: PASSWORD }) });
      expect(signed.status).toBe(202);
      expect((await fetch(linkIn(mailsTo(`${name}@example.org`)[0].raw, 'auth/confirm'))).status).toBe(200);
      const response = await fetch(`${server.baseUrl}auth/login`, { method: 'POST', headers: JSON_TYPE,
        body: JSON.stringify({ username: name, password: PASSWORD }) });
      tokens[name] = ((await response.json()) as { token: string }).token;
    }
  });

  afterAll(async() => {
    await server?.stop();
    await new Promise<void>((resolve): void => {
      smtp?.close(resolve);
    });
  });

  it('answers alike for an account that exists and one that does not, and mails only the first', async() => {
    const unknown = await forgot('nobody@example.org');
    const known = await forgot('alice@example.org');
    expect(unknown.status).toBe(202);
    expect(known).toEqual(unknown);
    await eventually(async() => mailsTo('alice@example.org').length === 2);
    expect(mailsTo('nobody@example.org')).toHaveLength(0);
  });

  it('sets a new password once through the link, revoking every earlier token', async() => {
    const link = new URL(linkIn(mailsTo('alice@example.org')[1].raw, 'auth/password/reset'));
    expect(link.searchParams.get('user')).toBe('alice');
    const token = link.searchParams.get('token')!;
    // The page's form for a browser; the link's state for the API.
    const page = await fetch(link, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('name="newPassword"');
    expect(await (await fetch(link)).json()).toEqual({ username: 'alice', valid: true });

    expect(await reset({ user: 'alice', token: 'A'.repeat(43), newPassword: NEW_PASSWORD })).toMatchObject({ status: 400, body: { error: 'invalid_reset' }});
    expect(await reset({ user: 'bob', token, newPassword: NEW_PASSWORD })).toMatchObject({ status: 400, body: { error: 'invalid_reset' }});
    expect(await reset({ user: 'alice', token, newPassword: 'short' })).toMatchObject({ status: 400, body: { error: 'invalid_password' }});
    expect(await login('alice', PASSWORD)).toBe(200);

    expect(await reset({ user: 'alice', token, newPassword: NEW_PASSWORD })).toEqual({ status: 200, body: { username: 'alice', reset: true }});
    expect(await login('alice', NEW_PASSWORD)).toBe(200);
    expect(await login('alice', PASSWORD)).toBe(401);
    expect(await tokenWorks(tokens.alice)).toBe(401);
    // Once only.
    expect((await reset({ user: 'alice', token, newPassword: 'yet another passphrase' })).status).toBe(400);
    expect((await fetch(link)).status).toBe(400);
    expect(await tokenWorks(tokens.carol)).toBe(200);
  });

  it('takes a username and a browser form; an unused link changes nothing', async() => {
    const form = await fetch(`${server.baseUrl}auth/password/forgot`, { method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }, body: 'login=bob' });
    expect(form.status).toBe(202);
    expect(await form.text()).toContain('Check your mail');
    await eventually(async() => mailsTo('bob@example.org').length === 2);
    expect(linkIn(mailsTo('bob@example.org')[1].raw, 'auth/password/reset')).toContain('user=bob&token=');
    // Bob did not ask and ignores the mail: his password and tokens stay as they were.
    expect(await login('bob', PASSWORD)).toBe(200);
    expect(await tokenWorks(tokens.bob)).toBe(200);
    expect((await forgot('')).status).toBe(400);
  });
});

describe('password reset without mail', () => {
  let server: FedpodServer;

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub' });
  });

  afterAll(async() => {
    await server?.stop();
  });

  it('sends nothing and points to the operator', async() => {
    const response = await fetch(`${server.baseUrl}auth/password/forgot`, { method: 'POST', headers: JSON_TYPE,
      body: JSON.stringify({ login: 'anyone' }) });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'password_reset_unavailable' });
  });
});
