/**
 * Password changes and the operator's reset on a real server: the current password is required (a
 * wrong one changes nothing, and every token still works); a change or reset revokes every token
 * issued before it, Fedpod's and Mastodon apps' alike, and leaves other users alone. Three users:
 * alice changes hers, bob is reset by the operator, carol is untouched.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { createRestAPIClient } from 'masto';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { appToken } from '../../support/mastodon-oauth';
import { REPO_ROOT } from '../../support/processes';

const BIN = path.join(REPO_ROOT, 'bin', 'fedpod.js');
const PASSWORD = 'correct horse battery';
const JSON_TYPE = { 'content-type': 'application/json' };

describe('password change and reset', () => {
  let server: FedpodServer;
  const tokens: Record<string, string> = {};

  async function login(username: string, password: string): Promise<Response> {
    return fetch(`${server.baseUrl}auth/login`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ username, password }) });
  }

  /** The status of a request that needs a local user's token (their invite codes). */
  async function tokenWorks(token: string): Promise<number> {
    return (await fetch(`${server.baseUrl}auth/invites`, { headers: { authorization: `Bearer ${token}` } })).status;
  }

  async function mastodonWorks(token: string): Promise<boolean> {
    const client = createRestAPIClient({ url: server.baseUrl.replace(/\/$/u, ''), accessToken: token });
    try {
      await client.v1.accounts.verifyCredentials();
      return true;
    } catch {
      return false;
    }
  }

  async function change(token: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${server.baseUrl}auth/password`, { method: 'POST',
      headers: { ...JSON_TYPE, authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    return { status: response.status, body: await response.json() as Record<string, unknown> };
  }

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub' });
    for (const name of [ 'alice', 'bob', 'carol' ]) {
      const response = await fetch(`${server.baseUrl}auth/signup`, { method: 'POST', headers: JSON_TYPE,
        body: JSON.stringify({ username: name, email: `${name}@example.org`, password: PASSWORD }) });
      expect(response.status).toBe(201);
      tokens[name] = ((await response.json()) as { token: string }).token;
      tokens[`${name}-app`] = await appToken(server.baseUrl, name, PASSWORD, 'read');
    }
  });

  afterAll(async() => {
    await server?.stop();
  });

  it('changes nothing on a wrong current password or a bad new one', async() => {
    expect(await change(tokens.alice, { currentPassword: 'not it at all', newPassword: 'a brand new password' }))
      .toMatchObject({ status: 403, body: { error: 'wrong_password' }});
    expect(await change(tokens.alice, { currentPassword: PASSWORD, newPassword: 'short' }))
      .toMatchObject({ status: 400, body: { error: 'invalid_password' }});
    expect(await change(tokens.alice, { newPassword: 'a brand new password' })).toMatchObject({ status: 400 });
    expect((await fetch(`${server.baseUrl}auth/password`, { method: 'POST', headers: JSON_TYPE,
      body: JSON.stringify({ currentPassword: PASSWORD, newPassword: 'a brand new password' }) })).status).toBe(401);
    expect((await login('alice', PASSWORD)).status).toBe(200);
    expect(await tokenWorks(tokens.alice)).toBe(200);
    expect(await mastodonWorks(tokens['alice-app'])).toBe(true);
  });

  it('changes the password with the current one, and revokes every other token of the account at once', async() => {
    const changed = await change(tokens.alice, { currentPassword: PASSWORD, newPassword: 'a brand new password' });
    expect(changed.status).toBe(200);
    const fresh = changed.body.token as string;
    expect(await tokenWorks(fresh)).toBe(200);
    expect(await tokenWorks(tokens.alice)).toBe(401);
    expect(await mastodonWorks(tokens['alice-app'])).toBe(false);
    expect((await login('alice', PASSWORD)).status).toBe(401);
    expect((await login('alice', 'a brand new password')).status).toBe(200);
    // Others are untouched.
    expect(await tokenWorks(tokens.carol)).toBe(200);
    expect(await mastodonWorks(tokens['carol-app'])).toBe(true);
  });

  it('lets the operator reset a password (printed once) with fedpod accounts reset-password, revoking the tokens', async() => {
    const { stdout } = await promisify(execFile)(process.execPath, [ BIN, 'accounts', 'reset-password', 'bob', '--data-dir', server.dataDir ],
      { timeout: 60_000 });
    const password = stdout.trim();
    expect(password.length).toBeGreaterThanOrEqual(16);
    expect((await login('bob', PASSWORD)).status).toBe(401);
    expect((await login('bob', password)).status).toBe(200);
    expect(await tokenWorks(tokens.bob)).toBe(401);
    expect(await mastodonWorks(tokens['bob-app'])).toBe(false);
    expect(await tokenWorks(tokens.carol)).toBe(200);
    await expect(promisify(execFile)(process.execPath, [ BIN, 'accounts', 'reset-password', 'nobody', '--data-dir', server.dataDir ],
      { timeout: 60_000 })).rejects.toMatchObject({ code: 1 });
  });
});
