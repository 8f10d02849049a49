/**
 * Registration modes on a real server (`--registrations`): approval (a reason, the operator's queue
 * through `fedpod accounts pending|approve|reject`, no login before approval), invite (codes made by
 * the operator and by users, with use counts and expiry; the signup page's field), and closed; and
 * what Mastodon apps read of them in the instance entities.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { REPO_ROOT } from '../../support/processes';

const BIN = path.join(REPO_ROOT, 'bin', 'fedpod.js');
const PASSWORD = 'correct horse battery';
const JSON_TYPE = { 'content-type': 'application/json' };

/** `fedpod accounts <args>` on the server's data directory: exit code and output. */
async function accounts(server: FedpodServer, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [ BIN, 'accounts', ...args, '--data-dir', server.dataDir ],
      { timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error: unknown) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

async function signup(server: FedpodServer, username: string, extra: Record<string, unknown> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.baseUrl}auth/signup`, { method: 'POST', headers: JSON_TYPE,
    body: JSON.stringify({ username, email: `${username}@example.org`, password: PASSWORD, ...extra }) });
  return { status: response.status, body: await response.json() as Record<string, unknown> };
}

async function login(server: FedpodServer, username: string, password = PASSWORD): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.baseUrl}auth/login`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ username, password }) });
  return { status: response.status, body: await response.json() as Record<string, unknown> };
}

async function instance(server: FedpodServer): Promise<{ v1: Record<string, unknown>; v2: Record<string, unknown> }> {
  const v1 = await (await fetch(`${server.baseUrl}api/v1/instance`)).json() as Record<string, unknown>;
  const v2 = await (await fetch(`${server.baseUrl}api/v2/instance`)).json() as Record<string, unknown>;
  return { v1, v2 };
}

describe('registrations by approval', () => {
  let server: FedpodServer;

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub', extraArgs: [ '--registrations', 'approval' ]});
  });

  afterAll(async() => {
    await server?.stop();
  });

  it('takes a signup with its reason as pending: no token, no login until the operator approves', async() => {
    const pending = await signup(server, 'bob', { reason: 'I know alice' });
    expect(pending.status).toBe(202);
    expect(pending.body).toEqual({ webId: `${server.baseUrl}actors/bob`, pending: true, waitsFor: [ 'approval' ], newUser: true });
    expect(await login(server, 'bob')).toMatchObject({ status: 403, body: { error: 'account_pending' }});
    // A wrong password learns nothing of the account's state.
    expect(await login(server, 'bob', 'wrong password')).toMatchObject({ status: 401, body: { error: 'invalid_credentials' }});

    const queue = await accounts(server, 'pending');
    expect(queue.code).toBe(0);
    const listed = queue.stdout.trim().split('\n').map((line): Record<string, unknown> => JSON.parse(line) as Record<string, unknown>);
    expect(listed).toEqual([ expect.objectContaining({ username: 'bob', email: 'bob@example.org', reason: 'I know alice', status: 'pending' }) ]);
    expect(JSON.stringify(listed)).not.toContain('passwordHash');

    expect(await accounts(server, 'approve', 'bob')).toMatchObject({ code: 0, stdout: 'bob: approved\n' });
    const approved = await login(server, 'bob');
    expect(approved.status).toBe(200);
    expect(typeof approved.body.token).toBe('string');
    expect((await accounts(server, 'pending')).stdout).toBe('');
    // Approving twice, or someone unknown: refused, exit 1.
    expect(await accounts(server, 'approve', 'bob')).toMatchObject({ code: 1, stderr: expect.stringContaining('No account bob awaits approval') });
  });

  it('removes a rejected account: it cannot log in, and its name and email are free again', async() => {
    expect((await signup(server, 'mallory', { reason: 'spam' })).status).toBe(202);
    expect(await accounts(server, 'reject', 'mallory')).toMatchObject({ code: 0, stdout: 'mallory: rejected\n' });
    expect((await login(server, 'mallory')).status).toBe(401);
    expect((await fetch(`${server.baseUrl}actors/mallory`, { headers: { accept: 'application/activity+json' } })).status).toBe(404);
    expect((await signup(server, 'mallory', { reason: 'a second try' })).status).toBe(202);
  });

  it('refuses a reason that is not text, and writes nothing', async() => {
    expect(await signup(server, 'trent', { reason: [ 'x' ] })).toMatchObject({ status: 400, body: { error: 'invalid_reason' }});
    expect((await signup(server, 'trent', { reason: 'ok' })).status).toBe(202);
  });

  it('tells Mastodon apps that registrations need approval', async() => {
    const { v1, v2 } = await instance(server);
    expect(v1).toMatchObject({ registrations: true, approval_required: true });
    expect(v2).toMatchObject({ registrations: { enabled: true, approval_required: true }});
  });

  it('answers the operator routes to nobody else', async() => {
    const response = await fetch(`${server.baseUrl}operator/accounts/pending`);
    expect(response.status).toBe(404);
    const forged = await fetch(`${server.baseUrl}operator/accounts/trent/approve`, { method: 'POST', headers: { authorization: 'Bearer nope' } });
    expect(forged.status).toBe(404);
    expect((await login(server, 'trent')).status).toBe(403);
  });
});

describe('registrations by invite', () => {
  let server: FedpodServer;

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub', extraArgs: [ '--registrations', 'invite' ]});
  });

  afterAll(async() => {
    await server?.stop();
  });

  it('admits a signup only with a valid invite code, as many times as the code allows', async() => {
    expect(await signup(server, 'alice')).toMatchObject({ status: 403, body: { error: 'invalid_invite' }});
    expect(await signup(server, 'alice', { invite: 'not-a-code-at-all' })).toMatchObject({ status: 403, body: { error: 'invalid_invite' }});
    const made = await accounts(server, 'invite', '--max-uses', '1');
    expect(made.code).toBe(0);
    const code = made.stdout.trim();
    expect((await signup(server, 'alice', { invite: code })).status).toBe(201);
    // Used up; and the refused signup wrote nothing: its name stays free.
    expect(await signup(server, 'eve', { invite: code })).toMatchObject({ status: 403, body: { error: 'invalid_invite' }});
    expect((await fetch(`${server.baseUrl}actors/eve`, { headers: { accept: 'application/activity+json' } })).status).toBe(404);
    const listed = (await accounts(server, 'invites')).stdout.trim().split('\n').map((line): Record<string, unknown> => JSON.parse(line) as Record<string, unknown>);
    expect(listed).toEqual([ expect.objectContaining({ code, createdBy: 'operator', maxUses: 1, uses: 1 }) ]);
  });

  it('lets a user invite others: the code, its link, its uses, its expiry', async() => {
    const token = (await login(server, 'alice')).body.token as string;
    const auth = { ...JSON_TYPE, authorization: `Bearer ${token}` };
    const created = await fetch(`${server.baseUrl}auth/invites`, { method: 'POST', headers: auth, body: JSON.stringify({ maxUses: 2 }) });
    expect(created.status).toBe(201);
    const invite = await created.json() as { code: string; url: string; createdBy: string };
    expect(invite).toMatchObject({ createdBy: 'alice', url: `${server.baseUrl}auth/signup?invite=${invite.code}` });
    // The signup page from the link carries the code in its form; the form signs up with it.
    const page = await (await fetch(invite.url, { headers: { accept: 'text/html' } })).text();
    expect(page).toContain(`name="invite" required value="${invite.code}"`);
    const form = await fetch(`${server.baseUrl}auth/signup`, { method: 'POST', redirect: 'manual',
      headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'bob', email: 'bob@example.org', password: PASSWORD, invite: invite.code }).toString() });
    expect(form.status).toBe(303);
    expect((await signup(server, 'carol', { invite: invite.code })).status).toBe(201);
    expect((await signup(server, 'dave', { invite: invite.code })).status).toBe(403);
    const mine = await (await fetch(`${server.baseUrl}auth/invites`, { headers: auth })).json() as { code: string; uses: number }[];
    expect(mine).toEqual([ expect.objectContaining({ code: invite.code, uses: 2 }) ]);
    // Nobody else's list shows it; anonymous requests are refused.
    const bobToken = (await login(server, 'bob')).body.token as string;
    expect(await (await fetch(`${server.baseUrl}auth/invites`, { headers: { authorization: `Bearer ${bobToken}` } })).json()).toEqual([]);
    expect((await fetch(`${server.baseUrl}auth/invites`, { method: 'POST', headers: JSON_TYPE, body: '{}' })).status).toBe(401);

    const expiring = await (await fetch(`${server.baseUrl}auth/invites`, { method: 'POST', headers: auth,
      body: JSON.stringify({ expiresInSeconds: 1 }) })).json() as { code: string };
    await new Promise((resolve): void => {
      setTimeout(resolve, 1500);
    });
    expect(await signup(server, 'dave', { invite: expiring.code })).toMatchObject({ status: 403, body: { error: 'invalid_invite' }});
    expect((await fetch(`${server.baseUrl}auth/invites`, { method: 'POST', headers: auth, body: JSON.stringify({ maxUses: 0 }) })).status).toBe(400);
  });

  it('tells Mastodon apps that anyone cannot sign up', async() => {
    const { v1, v2 } = await instance(server);
    expect(v1).toMatchObject({ registrations: false, approval_required: false });
    expect(v2).toMatchObject({ registrations: { enabled: false, approval_required: false }});
  });
});

describe('registrations closed', () => {
  let server: FedpodServer;

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub', extraArgs: [ '--registrations', 'closed' ]});
  });

  afterAll(async() => {
    await server?.stop();
  });

  it('refuses every signup, writes nothing, and says so to apps and browsers', async() => {
    expect(await signup(server, 'alice')).toMatchObject({ status: 403, body: { error: 'registrations_closed' }});
    expect((await fetch(`${server.baseUrl}actors/alice`, { headers: { accept: 'application/activity+json' } })).status).toBe(404);
    const page = await (await fetch(`${server.baseUrl}auth/signup`, { headers: { accept: 'text/html' } })).text();
    expect(page).toContain('Registrations are closed');
    const { v1, v2 } = await instance(server);
    expect(v1).toMatchObject({ registrations: false });
    expect(v2).toMatchObject({ registrations: { enabled: false }});
  });
});
