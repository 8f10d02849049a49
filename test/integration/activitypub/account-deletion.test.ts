/**
 * Deleting an account, on two real servers: the actor's Delete reaches the other server through the
 * delivery queue (it drops the follows both ways), the account's data is removed here, its name is
 * never given again, its actor answers 410 and its tokens are dead. The refusals (no login, a wrong
 * password); the operator's `fedpod accounts delete`; and a deletion interrupted right after its
 * commit point (a crash) finished at the next start-up.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { eventually } from '../../support/eventually';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { pageItemIds, postToOutbox, signup, type Session } from '../../support/local-actors';
import { REPO_ROOT } from '../../support/processes';

const BIN = path.join(REPO_ROOT, 'bin', 'fedpod.js');
const PASSWORD = 'correct horse';
const JSON_TYPE = { 'content-type': 'application/json' };
const AS_JSON = { accept: 'application/activity+json' };

describe('account deletion', () => {
  let here: FedpodServer;
  let there: FedpodServer;
  const users: Record<string, Session> = {};

  async function deleteAccount(session: Session | undefined, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${here.baseUrl}auth/delete`, { method: 'POST', body: JSON.stringify(body),
      headers: { ...JSON_TYPE, ...session ? { authorization: `Bearer ${session.token}` } : {} } });
    return { status: response.status, body: await response.json() as Record<string, unknown> };
  }

  async function tokenWorks(session: Session): Promise<number> {
    return (await fetch(`${here.baseUrl}auth/invites`, { headers: { authorization: `Bearer ${session.token}` } })).status;
  }

  /** `follower` follows `followed` and waits until both sides record it. */
  async function follow(follower: Session, followed: Session): Promise<void> {
    expect((await postToOutbox(follower, { type: 'Follow', object: followed.webId })).status).toBe(201);
    await eventually(async() => (await pageItemIds(`${follower.webId}/following`)).includes(followed.webId));
    await eventually(async() => (await pageItemIds(`${followed.webId}/followers`)).includes(follower.webId));
  }

  beforeAll(async() => {
    [ here, there ] = await Promise.all([
      startFedpod({ config: 'activitypub', allowPrivateNetwork: true }),
      startFedpod({ config: 'activitypub', allowPrivateNetwork: true }),
    ]);
    for (const name of [ 'alice', 'carol', 'dave', 'erin', 'frank' ]) {
      users[name] = await signup(here.baseUrl, name);
    }
    users.bob = await signup(there.baseUrl, 'bob');
    await follow(users.bob, users.alice);
    await follow(users.alice, users.bob);
    await follow(users.carol, users.alice);
    await follow(users.bob, users.erin);
  }, 180_000);

  afterAll(async() => {
    await Promise.all([ here?.stop(), there?.stop() ]);
  });

  it('refuses without a login (401) and with a wrong password (403), changing nothing', async() => {
    expect(await deleteAccount(undefined, { password: PASSWORD })).toMatchObject({ status: 401 });
    expect(await deleteAccount(users.alice, { password: 'not the password' })).toMatchObject({ status: 403, body: { error: 'wrong_password' }});
    expect(await deleteAccount(users.alice, {})).toMatchObject({ status: 403, body: { error: 'wrong_password' }});
    expect((await fetch(users.alice.webId, { headers: AS_JSON })).status).toBe(200);
    expect(await tokenWorks(users.alice)).toBe(200);
  });

  it('deletes with the password: the other server drops the actor, this one its data, name and tokens', async() => {
    const note = await postToOutbox(users.alice, { type: 'Note', content: 'soon gone', to: [ 'https://www.w3.org/ns/activitystreams#Public' ]});
    expect(note.status).toBe(201);
    const noteId = (note.body.object as { id: string }).id;

    expect(await deleteAccount(users.alice, { password: PASSWORD })).toEqual({ status: 200, body: { username: 'alice', deleted: true }});

    // The other server received the Delete: its follows with alice are gone, both ways.
    await eventually(async() => !(await pageItemIds(`${users.bob.webId}/followers`)).includes(users.alice.webId), 60_000);
    await eventually(async() => !(await pageItemIds(`${users.bob.webId}/following`)).includes(users.alice.webId), 60_000);
    // Here: gone for good, in every representation.
    expect((await fetch(users.alice.webId, { headers: AS_JSON })).status).toBe(410);
    expect((await fetch(users.alice.webId, { headers: { accept: 'text/html' } })).status).toBe(410);
    expect((await fetch(users.alice.webId, { headers: { accept: 'text/turtle' } })).status).toBe(410);
    expect([ 404, 410 ]).toContain((await fetch(noteId, { headers: AS_JSON })).status);
    expect(await tokenWorks(users.alice)).toBe(401);
    const login = await fetch(`${here.baseUrl}auth/login`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ username: 'alice', password: PASSWORD }) });
    expect(login.status).toBe(401);
    const again = await fetch(`${here.baseUrl}auth/signup`, { method: 'POST', headers: JSON_TYPE,
      body: JSON.stringify({ username: 'alice', email: 'new-alice@example.com', password: PASSWORD }) });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: 'username_taken' });
    // A local follower's relation went with it; the others are untouched.
    expect(await pageItemIds(`${users.carol.webId}/following`)).not.toContain(users.alice.webId);
    expect(await tokenWorks(users.carol)).toBe(200);
    expect((await fetch(users.bob.webId, { headers: AS_JSON })).status).toBe(200);
  });

  it('lets the operator delete an account with fedpod accounts delete', async() => {
    const { stdout } = await promisify(execFile)(process.execPath, [ BIN, 'accounts', 'delete', 'dave', '--data-dir', here.dataDir ],
      { timeout: 60_000 });
    expect(stdout.trim()).toBe('dave: deleted');
    expect((await fetch(users.dave.webId, { headers: AS_JSON })).status).toBe(410);
    expect(await tokenWorks(users.dave)).toBe(401);
    await expect(promisify(execFile)(process.execPath, [ BIN, 'accounts', 'delete', 'nobody', '--data-dir', here.dataDir ],
      { timeout: 60_000 })).rejects.toMatchObject({ code: 1 });
  });

  it('deletes from the account pages\' form, which needs the session, its CSRF value and the password', async() => {
    const login = await fetch(`${here.baseUrl}auth/login`, { method: 'POST', redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }, body: `username=frank&password=${encodeURIComponent(PASSWORD)}` });
    expect(login.status).toBe(303);
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const page = { accept: 'text/html', cookie };
    expect((await fetch(`${here.baseUrl}auth/account/delete`, { redirect: 'manual', headers: { accept: 'text/html' } })).status).toBe(303);
    const form = await fetch(`${here.baseUrl}auth/account/delete`, { headers: page });
    expect(form.status).toBe(200);
    const csrf = /name="csrf" value="([^"]+)"/u.exec(await form.text())![1];
    const post = async(body: string): Promise<Response> => fetch(`${here.baseUrl}auth/account/delete`, { method: 'POST',
      headers: { ...page, 'content-type': 'application/x-www-form-urlencoded' }, body });
    expect((await post(`password=${encodeURIComponent(PASSWORD)}`)).status).toBe(403);
    expect((await post(`csrf=${'A'.repeat(csrf.length)}&password=${encodeURIComponent(PASSWORD)}`)).status).toBe(403);
    const wrong = await post(`csrf=${csrf}&password=wrong`);
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).toContain('The password is wrong.');
    expect((await fetch(users.frank.webId, { headers: AS_JSON })).status).toBe(200);
    const done = await post(`csrf=${csrf}&password=${encodeURIComponent(PASSWORD)}`);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Account deleted');
    expect((await fetch(users.frank.webId, { headers: AS_JSON })).status).toBe(410);
  });

  it('finishes at start-up a deletion a crash interrupted right after its commit point', async() => {
    await here.kill9();
    // What the first step writes, and nothing after it: the record marked, no Delete stored or queued.
    const file = path.join(here.dataDir, 'accounts', 'users', 'erin.json');
    const account = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...account, passwordHash: 'deleted', credentialsChanged: new Date().toISOString(),
      deleted: { at: new Date().toISOString(), activity: `${here.baseUrl}activities/interrupted-delete-of-erin` }}));
    await here.restart();
    await eventually(async() => !(await pageItemIds(`${users.bob.webId}/following`)).includes(users.erin.webId), 60_000);
    await eventually(async() => (JSON.parse(readFileSync(file, 'utf8')) as { deleted: { done?: boolean } }).deleted.done === true);
    expect((await fetch(users.erin.webId, { headers: AS_JSON })).status).toBe(410);
    expect(await tokenWorks(users.erin)).toBe(401);
  });
});
