/**
 * Incoming webhooks end to end, on the real server (config/activitypub.json, embedded store), once with
 * the journalled local queue and once with BullMQ on the test run's redis-server: generation over HTTP
 * and with the CLI, every refusal, privacy of the webhooks container, revocation, dead letters, and a
 * burst of POSTs with the server killed (SIGKILL) in the middle: every POST answered 202 runs.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { claimRedisDb } from '../../support/env';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { freePort } from '../../support/ports';
import { REPO_ROOT } from '../../support/processes';
import { eventually as eventuallyWithin } from '../../support/eventually';

interface Session { token: string; webId: string }

const BIN = path.join(REPO_ROOT, 'bin', 'fedpod.js');

async function signup(server: FedpodServer, username: string): Promise<Session> {
  const response = await fetch(`${server.baseUrl}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.com`, password: 'correct horse battery' }) });
  expect(response.status).toBe(201);
  return response.json() as Promise<Session>;
}

async function generate(server: FedpodServer, body: unknown, token?: string, contentType = 'application/json'): Promise<Response> {
  return fetch(`${server.baseUrl}webhooks`, { method: 'POST',
    headers: { 'content-type': contentType, ...token ? { authorization: `Bearer ${token}` } : {} },
    body: typeof body === 'string' ? body : JSON.stringify(body) });
}

async function hook(server: FedpodServer, session: Session, action: string): Promise<string> {
  const response = await generate(server, { action }, session.token);
  expect(response.status).toBe(201);
  return response.headers.get('location')!;
}

async function post(uri: string, body: string, contentType = 'application/json'): Promise<Response> {
  return fetch(uri, { method: 'POST', headers: { 'content-type': contentType }, body });
}

/** The text of the user's webhook data container (payloads embedded), read with the owner's token. */
async function storedText(server: FedpodServer, session: Session, username: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}webhook-data/${username}/`, {
    headers: { accept: 'application/ld+json', authorization: `Bearer ${session.token}` } });
  if (response.status === 404) return '';
  expect(response.status).toBe(200);
  return response.text();
}

const eventually = <T>(check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> =>
  eventuallyWithin(check, timeoutMs, 250);

interface CliResult { code: number; stdout: string; stderr: string }

function cli(server: FedpodServer, redisUrl: string | undefined, args: string[]): Promise<CliResult> {
  const all = [ BIN, 'webhooks', ...args, '--data-dir', server.dataDir, '--store-port', String(server.storePort),
    '--base-url', server.baseUrl, ...redisUrl ? [ '--redis-url', redisUrl ] : [] ];
  return new Promise((resolve) => {
    execFile(process.execPath, all, { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe.each([
  [ 'the local queue', (): string | undefined => undefined ],
  [ 'BullMQ (Redis)', (): string | undefined => claimRedisDb() ],
])('webhooks with %s', (_name, redis) => {
  let server: FedpodServer;
  let redisUrl: string | undefined;
  let alice: Session;
  let bob: Session;

  beforeAll(async() => {
    redisUrl = redis();
    // BullMQ runs a killed server's job again once its claim lapses: within 20 s here rather than a minute
    // (the kill test waits for it). Long enough that a claim is renewed in time on a busy machine.
    server = await startFedpod({ config: 'activitypub', redisUrl, extraArgs: redisUrl ? [ '--job-lock-duration', '10000' ] : [] });
    alice = await signup(server, 'alice');
    bob = await signup(server, 'bob');
  });

  afterAll(async() => {
    await server?.stop();
  });

  it('generates a webhook over HTTP: 201, Location, JSON-LD {id, user, action, created}', async() => {
    const response = await generate(server, { action: 'store-in-container' }, alice.token);
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toContain('application/ld+json');
    const body = await response.json() as Record<string, unknown>;
    const location = response.headers.get('location')!;
    expect(body).toMatchObject({ id: location, user: alice.webId, action: 'store-in-container' });
    expect((body['@context'] as Record<string, unknown>)['@vocab']).toBe('urn:fedpod:ns:');
    expect(Number.isNaN(Date.parse(body.created as string))).toBe(false);
    expect(location.startsWith(`${server.baseUrl}webhooks/`)).toBe(true);
    // 32 random bytes, base64url.
    expect(location.slice(`${server.baseUrl}webhooks/`.length)).toMatch(/^[A-Za-z0-9_-]{43}$/u);
  });

  it('refuses generation without a token (401), with a bad token (401), and with a missing or unknown action (400 listing the allowed ones)', async() => {
    expect((await generate(server, { action: 'store-in-container' })).status).toBe(401);
    expect((await generate(server, { action: 'store-in-container' }, `${alice.token.slice(0, -4)}AAAA`)).status).toBe(401);
    for (const body of [ { action: 'launch-missiles' }, {}, [ 1 ], { action: 3 } ]) {
      const response = await generate(server, body, alice.token);
      expect(response.status).toBe(400);
      const error = await response.json() as { error: string; message: string; allowedActions: string[] };
      expect(error.error).toBe('unknown_action');
      expect(error.allowedActions).toEqual([ 'post-to-outbox', 'store-in-container' ]);
      expect(error.message).toContain('store-in-container');
    }
    expect((await generate(server, 'not json', alice.token)).status).toBe(400);
    expect((await generate(server, 'x', alice.token, 'text/plain')).status).toBe(415);
  });

  it('accepts JSON of any shape with 202 and runs store-in-container; refuses 415, 400, 413 and 404 without queueing', async() => {
    const uri = await hook(server, alice, 'store-in-container');
    const shapes = [ `{"marker":"obj-${redisUrl ? 'r' : 'l'}"}`, '["arr-marker", 2]', '"scalar-marker"', '42', 'null' ];
    const jobs: string[] = [];
    for (const shape of shapes) {
      const response = await post(uri, shape);
      expect(response.status).toBe(202);
      const body = await response.json() as { status: string; job: string };
      expect(body.status).toBe('accepted');
      jobs.push(body.job);
    }
    expect((await post(uri, '{"a":1}', 'application/vnd.example+json')).status).toBe(202);
    expect((await post(uri, 'plain', 'text/plain')).status).toBe(415);
    expect((await post(uri, '{"a":1}', '')).status).toBe(415);
    expect((await post(uri, '{broken')).status).toBe(400);
    expect((await post(uri, '')).status).toBe(400);
    expect((await post(uri, `"${'x'.repeat(1_100_000)}"`)).status).toBe(413);
    const unknown = `${server.baseUrl}webhooks/${'A'.repeat(43)}`;
    expect((await post(unknown, '{"a":1}')).status).toBe(404);
    expect((await post(`${server.baseUrl}webhooks/short`, '{"a":1}')).status).toBe(404);
    const text = await eventually(async() => {
      const stored = await storedText(server, alice, 'alice');
      return jobs.every((job) => stored.includes(job)) ? stored : undefined;
    });
    expect(text).toContain('arr-marker');
    expect(text).toContain('scalar-marker');
    // 5 shapes and the +json one; none of the refused POSTs.
    expect(text.match(/"urn:fedpod:ns:job"/gu) ?? text.match(/WebhookPayload/gu)).toHaveLength(6);
  });

  it('never lets the webhooks container or a webhook be read, nor the data of others', async() => {
    const uri = await hook(server, alice, 'store-in-container');
    const secret = uri.slice(uri.lastIndexOf('/') + 1);
    for (const target of [ uri, `${server.baseUrl}webhooks/`, `${server.baseUrl}%77ebhooks/`, `${server.baseUrl}webhooks/.meta` ]) {
      const response = await fetch(target, { headers: { accept: 'text/turtle' } });
      expect([ 401, 404, 405 ]).toContain(response.status);
      expect(await response.text()).not.toContain(secret);
    }
    for (const target of [ server.baseUrl, `${server.baseUrl}webhooks/` ]) {
      for (const accept of [ 'application/ld+json', 'text/turtle', 'application/n-triples' ]) {
        const text = await (await fetch(target, { headers: { accept, authorization: `Bearer ${alice.token}` } })).text();
        expect(text).not.toContain(secret);
      }
    }
    expect((await fetch(uri)).status).toBe(405);
    expect((await fetch(uri, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '<a> <b> <c>.' })).status).toBe(405);
    expect((await fetch(`${server.baseUrl}webhook-data/alice/`)).status).toBe(401);
    expect((await fetch(`${server.baseUrl}webhook-data/alice/`, { headers: { authorization: `Bearer ${bob.token}` } })).status).toBe(403);
    expect((await fetch(`${server.baseUrl}webhook-data/`, { headers: { authorization: `Bearer ${alice.token}` } })).status).toBe(403);
  });

  it('lists only the caller\'s own webhooks; revokes by the owner only (401, 403, 204), after which the URI is 404', async() => {
    const uri = await hook(server, alice, 'post-to-outbox');
    expect((await fetch(`${server.baseUrl}webhooks`)).status).toBe(401);
    const mine = await (await fetch(`${server.baseUrl}webhooks`, { headers: { authorization: `Bearer ${alice.token}` } })).json() as
      { items: { id: string; user: string; action: string }[] };
    expect(mine.items.length).toBeGreaterThanOrEqual(1);
    expect(mine.items.every((item) => item.user === alice.webId)).toBe(true);
    const theirs = await (await fetch(`${server.baseUrl}webhooks`, { headers: { authorization: `Bearer ${bob.token}` } })).json() as
      { items: unknown[] };
    expect(theirs.items).toHaveLength(0);
    expect((await fetch(uri, { method: 'DELETE' })).status).toBe(401);
    expect((await fetch(uri, { method: 'DELETE', headers: { authorization: `Bearer ${bob.token}` } })).status).toBe(403);
    expect((await post(uri, '{"type":"Note","content":"before"}')).status).toBe(202);
    expect((await fetch(uri, { method: 'DELETE', headers: { authorization: `Bearer ${alice.token}` } })).status).toBe(204);
    expect((await post(uri, '{"type":"Note","content":"after"}')).status).toBe(404);
    expect((await fetch(uri, { method: 'DELETE', headers: { authorization: `Bearer ${alice.token}` } })).status).toBe(404);
  });

  it('dead-letters a job its action refuses for good, and the CLI shows it', async() => {
    const uri = await hook(server, alice, 'post-to-outbox');
    // A scalar is not an activity: the outbox answers 400, a permanent failure.
    const response = await post(uri, '"not an activity"');
    expect(response.status).toBe(202);
    const { job } = await response.json() as { job: string };
    const shown = await eventually(async() => {
      const result = await cli(server, redisUrl, [ 'dead-letters' ]);
      expect(result.code).toBe(0);
      return result.stdout.includes(job) ? result.stdout : undefined;
    }, 60_000);
    const letter = JSON.parse(shown.split('\n').find((line) => line.includes(job))!) as { data: { data: unknown }; error: string };
    expect(letter.data.data).toBe('not an activity');
    expect(letter.error).toContain('400');
  });

  it('the CLI generates (by username or WebID), lists and revokes while the server runs; refuses unknown users and actions', async() => {
    const generated = await cli(server, redisUrl, [ 'generate', '--user', 'bob', '--action', 'store-in-container' ]);
    expect(generated.stderr).toBe('');
    expect(generated.code).toBe(0);
    const uri = generated.stdout.trim();
    expect(uri).toMatch(new RegExp(`^${server.baseUrl}webhooks/[A-Za-z0-9_-]{43}$`, 'u'));
    const response = await post(uri, '{"cli":"bob-cli-marker"}');
    expect(response.status).toBe(202);
    await eventually(async() => (await storedText(server, bob, 'bob')).includes('bob-cli-marker') ? true : undefined);

    const byWebId = await cli(server, redisUrl, [ 'generate', '--user', bob.webId, '--action', 'post-to-outbox' ]);
    expect(byWebId.code).toBe(0);

    const listed = await cli(server, redisUrl, [ 'list', '--user', 'bob' ]);
    expect(listed.code).toBe(0);
    expect(listed.stdout.trim().split('\n')).toHaveLength(2);
    expect(listed.stdout).not.toContain(uri);

    const unknownUser = await cli(server, redisUrl, [ 'generate', '--user', 'nobody', '--action', 'store-in-container' ]);
    expect(unknownUser.code).not.toBe(0);
    expect(unknownUser.stderr).toContain('nobody');
    const unknownAction = await cli(server, redisUrl, [ 'generate', '--user', 'bob', '--action', 'explode' ]);
    expect(unknownAction.code).not.toBe(0);
    expect(unknownAction.stderr).toContain('store-in-container');

    const revoked = await cli(server, redisUrl, [ 'revoke', uri ]);
    expect(revoked.code).toBe(0);
    // Another process revoked it: this server stops accepting it within its cache time (2 s).
    await eventually(async() => (await post(uri, '{"late":true}')).status === 404 ? true : undefined, 10_000);
    expect((await cli(server, redisUrl, [ 'revoke', uri ])).code).not.toBe(0);
  });

  it('runs every POST answered 202 at least once when the server is killed (SIGKILL) in the middle of a burst', async() => {
    const uri = await hook(server, alice, 'store-in-container');
    const run = `${redisUrl ? 'redis' : 'local'}${Date.now().toString(36)}`;
    const accepted: string[] = [];
    const total = 150;
    let killed = false;
    const sender = (async() => {
      for (let index = 0; index < total; index += 10) {
        await Promise.all(Array.from({ length: 10 }, async(_unused, offset) => {
          const marker = `m${run}n${index + offset}z`;
          try {
            const response = await post(uri, JSON.stringify({ marker }));
            if (response.status === 202) accepted.push(marker);
          } catch {
            // Killed under it: not acknowledged.
          }
        }));
        if (killed) break;
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 400));
    await server.kill9();
    killed = true;
    await sender;
    expect(accepted.length).toBeGreaterThan(0);
    await server.restart();
    const text = await eventually(async() => {
      const stored = await storedText(server, alice, 'alice');
      return accepted.every((marker) => stored.includes(marker)) ? stored : undefined;
    }, 100_000);
    expect(accepted.every((marker) => text.includes(marker))).toBe(true);
  }, 240_000);
});

describe('the webhooks CLI given only the data directory', () => {
  let server: FedpodServer | undefined;

  afterAll(async() => {
    await server?.stop();
  });

  function run(args: string[]): Promise<CliResult> {
    return new Promise((resolve) => {
      execFile(process.execPath, [ BIN, 'webhooks', ...args ], { timeout: 90_000 }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      });
    });
  }

  it('asks the running server, which mints under its own base URL; once it stopped, still lists under that base', async() => {
    server = await startFedpod({ config: 'activitypub' });
    const dataDir = server.dataDir;
    await signup(server, 'carol');
    const generated = await run([ 'generate', '--user', 'carol', '--action', 'store-in-container', '--data-dir', dataDir ]);
    expect(generated.stderr).toBe('');
    expect(generated.code).toBe(0);
    // The server runs on a port of its own, not the default the CLI would assume.
    expect(generated.stdout.trim()).toMatch(new RegExp(`^${server.baseUrl}webhooks/[A-Za-z0-9_-]{43}$`, 'u'));
    expect((await post(generated.stdout.trim(), '{"cli":"carol"}')).status).toBe(202);
    // The operator route answers only the secret in the data directory: 404 to anyone else, nothing made.
    const operator = `${server.baseUrl}operator/webhooks`;
    for (const headers of [ {}, { authorization: 'Bearer not-the-secret' } ] as Record<string, string>[]) {
      expect((await fetch(operator, { headers })).status).toBe(404);
      const stranger = await fetch(operator, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ user: 'carol', action: 'store-in-container' }) });
      expect(stranger.status).toBe(404);
      expect(await stranger.json()).toMatchObject({ error: 'not_found' });
    }
    const listedLive = await run([ 'list', '--data-dir', dataDir ]);
    expect(listedLive.stdout.trim().split('\n')).toHaveLength(1);
    const baseUrl = server.baseUrl;
    await server.stop();
    server = undefined;
    const listed = await run([ 'list', '--data-dir', dataDir, '--store-port', String(await freePort()) ]);
    expect(listed.stderr).toContain('no server answers');
    expect(listed.code).toBe(0);
    const [ line ] = listed.stdout.trim().split('\n');
    expect(line.split('\t').slice(1, 3)).toEqual([ `${baseUrl}actors/carol`, 'store-in-container' ]);
    expect(line.startsWith(`${baseUrl}webhooks/`)).toBe(true);
  }, 180_000);
});
