/**
 * Observability on the real server: /readyz (200, and 503 naming the store once a private store is
 * stopped), /metrics (404 by default; with --metrics the families are there and count), request ids
 * (X-Request-Id echoed or made, carried in JSON log lines), and secrets kept out of the log: a signup
 * password, a bearer token and webhook secret URIs used in requests never appear in it. Runs with the
 * embedded store and local queues, and with the shared Virtuoso and Redis.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { claimRedisDb, sharedServers } from '../support/env';
import { startFedpod, type FedpodServer } from '../support/fedpod';
import { freePort } from '../support/ports';
import { REPO_ROOT, killByPid, makeTempDir, reaped, spawnLogged, waitForHttp, type SpawnedProcess } from '../support/processes';

interface Session { token: string; webId: string }

const BIN = path.join(REPO_ROOT, 'bin', 'fedpod.js');
const unique = (): string => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

async function signup(server: FedpodServer, username: string, password: string): Promise<Session> {
  const response = await fetch(`${server.baseUrl}auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.com`, password }) });
  expect(response.status).toBe(201);
  return response.json() as Promise<Session>;
}

async function generateWebhook(server: FedpodServer, token: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}webhooks`, { method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ action: 'store-in-container' }) });
  expect(response.status).toBe(201);
  return response.headers.get('location')!;
}

/** The JSON log lines of the server (the test harness's own header lines left out). */
function logLines(server: FedpodServer): string[] {
  return fs.readFileSync(server.logFile, 'utf8').split('\n').filter((line): boolean => line !== '' && !line.startsWith('### '));
}

/** The parsed log lines, once a line matching `found` is there (lines are written asynchronously). */
async function logOnce(server: FedpodServer, found: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>[]> {
  const until = Date.now() + 30_000;
  for (;;) {
    const lines = logLines(server).filter((line): boolean => line.startsWith('{'))
      .map((line): Record<string, unknown> => JSON.parse(line) as Record<string, unknown>);
    if (lines.some(found)) return lines;
    if (Date.now() > until) throw new Error(`no such log line in ${server.logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function readyz(server: FedpodServer): Promise<{ status: number; body: Record<string, unknown>; cacheControl: string | null }> {
  const response = await fetch(`${server.baseUrl}readyz`);
  return { status: response.status, body: await response.json() as Record<string, unknown>, cacheControl: response.headers.get('cache-control') };
}

async function scrape(server: FedpodServer, token?: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {}});
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
}

/** The value of one sample of the exposition (0 when absent). */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((candidate): boolean => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!await check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const FAMILIES = [
  'fedpod_http_requests_total', 'fedpod_http_request_duration_seconds', 'fedpod_store_request_duration_seconds',
  'fedpod_queue_jobs', 'fedpod_queue_retries_total', 'fedpod_queue_dead_letters_total', 'fedpod_deliveries_total',
  'process_cpu_user_seconds_total', 'nodejs_eventloop_lag_seconds',
];

describe('observability with the embedded store and local queues (metrics off, debug logs)', () => {
  let server: FedpodServer;

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub', extraArgs: [ '--log-level', 'debug' ] });
  });

  afterAll(async() => {
    await server?.stop();
  });

  it('answers /readyz 200 with the store and queue checks, never cached; /healthz stays as it was', async() => {
    const ready = await readyz(server);
    expect(ready.status).toBe(200);
    expect(ready.cacheControl).toBe('no-store');
    expect(ready.body).toEqual({ status: 'ready', checks: { store: { status: 'ok' }, queues: { status: 'ok' }}});
    expect((await fetch(`${server.baseUrl}readyz`, { method: 'HEAD' })).status).toBe(200);
    const health = await fetch(`${server.baseUrl}healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
  });

  it('answers /metrics 404 like any unknown path when metrics are off', async() => {
    const metrics = await fetch(`${server.baseUrl}metrics`);
    const unknown = await fetch(`${server.baseUrl}no-such-thing-${unique()}`);
    expect(metrics.status).toBe(404);
    expect(unknown.status).toBe(404);
  });

  it('echoes a well-formed X-Request-Id, makes one otherwise, and logs the request as a JSON line with it', async() => {
    const id = `obs-${unique()}`;
    const given = await fetch(`${server.baseUrl}readyz`, { headers: { 'x-request-id': id } });
    expect(given.headers.get('x-request-id')).toBe(id);
    const bad = await fetch(`${server.baseUrl}healthz`, { headers: { 'x-request-id': 'no spaces\tor tabs' } });
    const made = bad.headers.get('x-request-id')!;
    expect(made).toMatch(/^[0-9a-f-]{36}$/u);
    // Fast-lane requests (webhook POSTs) get one too.
    const fast = await fetch(`${server.baseUrl}webhooks/${'A'.repeat(43)}`, { method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': `${id}-fast` }, body: '{}' });
    expect(fast.status).toBe(404);
    expect(fast.headers.get('x-request-id')).toBe(`${id}-fast`);

    const lines = await logOnce(server, (line) => line.reqId === `${id}-fast` && line.component === 'http');
    expect(lines.find((line) => line.reqId === id && line.component === 'http'))
      .toMatchObject({ level: 'info', msg: 'request', method: 'GET', route: '/readyz', status: 200 });
    expect(lines.find((line) => line.reqId === made && line.component === 'http'))
      .toMatchObject({ route: '/healthz', status: 200 });
    expect(lines.find((line) => line.reqId === `${id}-fast` && line.component === 'http'))
      .toMatchObject({ method: 'POST', route: '/webhooks/:secret', status: 404 });
    // Lines written while serving a request carry its id too (a signup logs the new account).
    const username = `rid${unique()}`.slice(0, 20);
    const created = await fetch(`${server.baseUrl}auth/signup`, { method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': `${id}-signup` },
      body: JSON.stringify({ username, email: `${username}@example.com`, password: `pw-${unique()}-long enough` }) });
    expect(created.status).toBe(201);
    const withSignup = await logOnce(server, (line) => line.reqId === `${id}-signup` && line.component === 'http');
    expect(withSignup.find((line) => line.reqId === `${id}-signup` && line.component === 'AccountService'))
      .toMatchObject({ level: 'info', msg: `New account ${username}` });
    // Every line of the log is one JSON object, the start-up lines of bin/fedpod.js included.
    for (const line of logLines(server)) {
      expect(() => JSON.parse(line) as unknown).not.toThrow();
    }
    expect(lines.some((line) => line.component === 'fedpod' && String(line.msg).startsWith('ready:'))).toBe(true);
    // The base URL is plain http on localhost: the start-up says federation needs HTTPS, as a note (a
    // trial run on this machine is no mistake; another host name makes it a warning).
    expect(lines.find((line) => line.component === 'fedpod' && String(line.msg).includes('needs an HTTPS')))
      .toMatchObject({ level: 'info', msg: expect.stringMatching(/^note: /u) });
  });

  it('never writes a signup password, a bearer token or a webhook secret to the log', async() => {
    const username = `obs${unique()}`.slice(0, 20);
    const password = `pw-${unique()}-correct horse battery staple`;
    const session = await signup(server, username, password);
    const login = await fetch(`${server.baseUrl}auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }) });
    expect(login.status).toBe(200);
    const wrong = await fetch(`${server.baseUrl}auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: `${password}-wrong` }) });
    expect(wrong.status).toBe(401);
    const uri = await generateWebhook(server, session.token);
    const secret = new URL(uri).pathname.split('/').pop()!;
    expect(secret.length).toBeGreaterThan(20);
    const id = `obs-secret-${unique()}`;
    const accepted = await fetch(uri, { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': id },
      body: JSON.stringify({ hello: 'world' }) });
    expect(accepted.status).toBe(202);
    // Refusals too: a bad body on the real URI, an unknown secret, a token that is not valid.
    expect((await fetch(uri, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' })).status).toBe(400);
    const fakeSecret = `Fake${unique()}${'x'.repeat(30)}`.slice(0, 43);
    expect((await fetch(`${server.baseUrl}webhooks/${fakeSecret}`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: '{}' })).status).toBe(404);
    const forged = `${session.token.slice(0, -6)}AAAAAA`;
    expect((await fetch(`${server.baseUrl}webhooks`, { method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${forged}` }, body: '{"action":"store-in-container"}' })).status).toBe(401);
    const data = await fetch(`${server.baseUrl}webhook-data/${username}/`, { headers: { authorization: `Bearer ${session.token}`, 'x-request-id': `${id}-read` } });
    expect([ 200, 404 ]).toContain(data.status);

    await logOnce(server, (line) => line.reqId === `${id}-read` && line.component === 'http');
    const log = fs.readFileSync(server.logFile, 'utf8');
    expect(log).toContain(id);
    expect(log).not.toContain(password);
    expect(log).not.toContain(session.token);
    expect(log).not.toContain(session.token.split('.')[2]);
    expect(log).not.toContain(forged);
    expect(log).not.toContain(secret);
    expect(log).not.toContain(fakeSecret);
    expect(log).not.toContain('PRIVATE KEY');
  });
});

describe('observability with a private store that goes away (metrics on)', () => {
  let storeProc: SpawnedProcess | undefined;
  let storePort: number;
  let storeDir: string;
  let server: FedpodServer;

  async function startStore(): Promise<void> {
    storeProc = await spawnLogged(process.execPath, [ BIN, 'store', '--host', '127.0.0.1', '--store-port', String(storePort),
      '--data-dir', storeDir ], { name: 'obs-store', logFile: storeProc?.logFile });
    await waitForHttp(`http://127.0.0.1:${storePort}/$/ping`, { timeoutMs: 60_000 });
  }

  async function stopStore(): Promise<void> {
    if (storeProc) {
      await killByPid(storeProc.pid);
      await reaped(storeProc);
    }
  }

  beforeAll(async() => {
    storePort = await freePort();
    storeDir = makeTempDir('obs-store');
    await startStore();
    server = await startFedpod({ config: 'activitypub', sparqlEndpoint: `http://127.0.0.1:${storePort}/`, extraArgs: [ '--metrics' ] });
  });

  afterAll(async() => {
    await server?.stop();
    await stopStore();
  });

  it('serves the metric families, and the counts move with requests', async() => {
    const before = await scrape(server);
    for (const family of FAMILIES) {
      expect(before).toContain(`# TYPE ${family} `);
    }
    const series = 'fedpod_http_requests_total{method="GET",route="/healthz",status="200"}';
    const healthBefore = sample(before, series);
    const storeBefore = sample(before, 'fedpod_store_request_duration_seconds_count{operation="query",outcome="ok"}');
    for (let i = 0; i < 3; i++) {
      expect((await fetch(`${server.baseUrl}healthz`)).status).toBe(200);
    }
    // The request is counted once its answer is done, so a scrape may run just before.
    await eventually(async() => sample(await scrape(server), series) >= healthBefore + 3);
    expect((await readyz(server)).status).toBe(200);
    const after = await scrape(server);
    expect(sample(after, 'fedpod_store_request_duration_seconds_count{operation="query",outcome="ok"}')).toBeGreaterThan(storeBefore);
    expect(sample(after, 'fedpod_http_request_duration_seconds_count{method="GET",route="/healthz"}')).toBeGreaterThanOrEqual(healthBefore + 3);
    // Queue depths are read on scrape, per queue and state.
    expect(after).toMatch(/^fedpod_queue_jobs\{queue="ap-inbox",state="waiting"\} \d+$/mu);
  });

  it('labels webhook requests by template: the secret is in no metric', async() => {
    const session = await signup(server, `m${unique()}`.slice(0, 20), `pw-${unique()}-long enough`);
    const uri = await generateWebhook(server, session.token);
    const secret = new URL(uri).pathname.split('/').pop()!;
    expect((await fetch(uri, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n":1}' })).status).toBe(202);
    await eventually(async() => sample(await scrape(server), 'fedpod_http_requests_total{method="POST",route="/webhooks/:secret",status="202"}') >= 1);
    const text = await scrape(server);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(session.token);
  });

  it('answers /readyz 503 naming the store while the store is down, and 200 once it is back', async() => {
    expect((await readyz(server)).status).toBe(200);
    await stopStore();
    const down = await readyz(server);
    expect(down.status).toBe(503);
    expect(down.cacheControl).toBe('no-store');
    expect(down.body).toMatchObject({ error: 'not_ready', message: 'Not ready: store',
      checks: { store: { status: 'failed' }, queues: { status: 'ok' }}});
    // Liveness is not readiness.
    expect((await fetch(`${server.baseUrl}healthz`)).status).toBe(200);
    await startStore();
    await eventually(async() => (await readyz(server)).status === 200);
  });
});

describe('observability with the shared Virtuoso and Redis (metrics on, behind a token)', () => {
  const token = 'metrics-token-for-tests';
  let server: FedpodServer;

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub', sparqlEndpoint: sharedServers().sparqlEndpoint, redisUrl: claimRedisDb(),
      extraArgs: [ '--metrics', '--metrics-token', token ] });
  });

  it('refuses a scrape without the metrics token, or with another', async() => {
    const missing = await fetch(`${server.baseUrl}metrics`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ error: 'authorization_required' });
    const wrong = await fetch(`${server.baseUrl}metrics`, { headers: { authorization: 'Bearer not-the-token' }});
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain('fedpod_');
  });

  afterAll(async() => {
    await server?.stop();
  });

  it('checks the store, Redis and the queues for /readyz', async() => {
    const ready = await readyz(server);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { store: { status: 'ok' }, queues: { status: 'ok' }, redis: { status: 'ok' }}});
  });

  it('reads the BullMQ queue depths on scrape and counts requests', async() => {
    expect((await fetch(`${server.baseUrl}healthz`)).status).toBe(200);
    await eventually(async() => sample(await scrape(server, token), 'fedpod_http_requests_total{method="GET",route="/healthz",status="200"}') >= 1);
    const text = await scrape(server, token);
    for (const family of FAMILIES) {
      expect(text).toContain(`# TYPE ${family} `);
    }
    expect(text).toMatch(/^fedpod_queue_jobs\{queue="ap-delivery",state="delayed"\} \d+$/mu);
  });
});
