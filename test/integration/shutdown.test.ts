/**
 * Graceful shutdown on SIGTERM and SIGINT, on the real server (config/activitypub.json, embedded store):
 * a stream of LDP and webhook POSTs is running, a few requests are known to be in flight (the server
 * has answered `100 Continue` to them) when the signal comes. The process must answer those, refuse
 * new connections, exit 0, and every POST answered 2xx must be there after a restart on the same data
 * directory, webhook jobs queued before the signal included (local journal queue, and BullMQ).
 */
import * as http from 'node:http';
import * as path from 'node:path';
import { claimRedisDb } from '../support/env';
import { freePort } from '../support/ports';
import { isAlive, killByPid, makeTempDir, REPO_ROOT, spawnLogged, tailFile, waitForHttp, type SpawnedProcess } from '../support/processes';
import { eventually as eventuallyWithin } from '../support/eventually';

/** The ActivityPub setup with public append under /notes/, so LDP writes can be tested with federation. */
const PUBLIC_APPEND_CONFIG = path.join(REPO_ROOT, 'test', 'fixtures', 'config', 'activitypub-public-append.json');

const BIN = path.join(REPO_ROOT, 'bin', 'fedpod.js');
const AS = 'https://www.w3.org/ns/activitystreams';

interface Server {
  proc: SpawnedProcess;
  baseUrl: string;
}

interface Outcome {
  kind: 'ldp' | 'webhook';
  marker: string;
  status?: number;
  error?: string;
}

interface Session { token: string; webId: string }

async function start(options: { port: number; storePort: number; dataDir: string; redisUrl?: string; extraArgs?: string[]; logFile?: string }): Promise<Server> {
  const baseUrl = `http://localhost:${options.port}/`;
  const args = [ BIN, 'start', '--config', PUBLIC_APPEND_CONFIG, '--port', String(options.port), '--base-url', baseUrl,
    '--data-dir', options.dataDir, '--store-port', String(options.storePort), ...options.redisUrl ? [ '--redis-url', options.redisUrl ] : [],
    ...options.extraArgs ?? [] ];
  const proc = await spawnLogged(process.execPath, args, { name: 'fedpod-shutdown', logFile: options.logFile });
  let exited: string | undefined;
  void proc.exited.then(({ code, signal }) => {
    exited = `exited with ${code ?? signal}`;
  });
  try {
    await waitForHttp(`${baseUrl}healthz`, { timeoutMs: 120_000, abortIf: () => exited });
  } catch (error) {
    await killByPid(proc.pid, { graceMs: 1000 });
    throw new Error(`${String(error)}\n${tailFile(proc.logFile, 60)}`);
  }
  return { proc, baseUrl };
}

/** One request on its own connection: no keep-alive, so each request's fate is its own. */
function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent: false, headers: body === undefined ? headers :
      { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A POST the server has certainly received when this resolves: sent with `Expect: 100-continue`, its
 * body held back until the server answers `100 Continue` (so it has parsed the request), then only
 * half of it sent. `finish()` sends the rest; `answer` is the final response.
 */
async function heldPost(url: string, body: string, contentType: string): Promise<{ finish: () => void; answer: Promise<{ status: number; text: string }> }> {
  const bytes = Buffer.from(body);
  const half = Math.floor(bytes.length / 2);
  let req!: http.ClientRequest;
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    req = http.request(url, { method: 'POST', agent: false,
      headers: { 'content-type': contentType, 'content-length': String(bytes.length), expect: '100-continue' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  answer.catch(() => undefined);
  await new Promise<void>((resolve, reject) => {
    req.once('continue', () => resolve());
    answer.catch(reject);
  });
  req.write(bytes.subarray(0, half));
  return { finish: () => req.end(bytes.subarray(half)), answer };
}

const eventually = <T>(check: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> =>
  eventuallyWithin(check, timeoutMs, 500);

describe.each([
  [ 'SIGTERM', 'the local queue' ],
  [ 'SIGTERM', 'BullMQ' ],
  [ 'SIGINT', 'the local queue' ],
] as const)('graceful stop on %s with %s', (signal, queue) => {
  const servers: Server[] = [];

  afterAll(async() => {
    for (const server of servers) {
      if (isAlive(server.proc.pid)) await killByPid(server.proc.pid, { graceMs: 30_000 });
    }
  });

  it('answers requests in flight, exits 0, and keeps every 2xx POST and every queued job across a restart', async() => {
    const ports = { port: await freePort(), storePort: await freePort(), dataDir: makeTempDir('fedpod-shutdown') };
    const redisUrl = queue === 'BullMQ' ? claimRedisDb() : undefined;
    const first = await start({ ...ports, redisUrl });
    servers.push(first);
    const base = first.baseUrl;
    const signup = await send(`${base}auth/signup`, 'POST', { 'content-type': 'application/json' },
      JSON.stringify({ username: 'alice', email: 'alice@example.com', password: 'correct horse battery' }));
    expect(signup.status).toBe(201);
    const alice = JSON.parse(signup.text) as Session;
    const generated = await send(`${base}webhooks`, 'POST', { 'content-type': 'application/json', authorization: `Bearer ${alice.token}` },
      JSON.stringify({ action: 'store-in-container' }));
    expect(generated.status).toBe(201);
    const hook = (JSON.parse(generated.text) as { id: string }).id;
    const container = `${base}notes/notes-${signal.toLowerCase()}/`;
    expect((await send(container, 'PUT', { 'content-type': 'text/turtle' }, '')).status).toBe(201);

    const note = (marker: string): string => JSON.stringify({ '@context': AS, type: 'Note', content: marker });
    const outcomes: Outcome[] = [];
    let stopping = false;
    let sent = 0;
    let reachedLoad!: () => void;
    const underLoad = new Promise<void>((resolve) => {
      reachedLoad = resolve;
    });
    // The stream: 12 lanes of POSTs, LDP and webhook in turn, each lane until its connection is refused.
    const lanes = Array.from({ length: 12 }, async(_unused, lane) => {
      for (let index = 0; ; index++) {
        const kind = (lane + index) % 2 === 0 ? 'ldp' : 'webhook';
        const marker = `m${lane}x${index}z`;
        const outcome: Outcome = { kind, marker };
        outcomes.push(outcome);
        try {
          const answer = kind === 'ldp' ?
            await send(container, 'POST', { 'content-type': 'application/ld+json' }, note(marker)) :
            await send(hook, 'POST', { 'content-type': 'application/json' }, JSON.stringify({ marker }));
          outcome.status = answer.status;
        } catch (error) {
          outcome.error = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
          if (stopping) return;
        }
        sent += 1;
        if (sent === 120) reachedLoad();
      }
    });
    await underLoad;

    const held = [
      await heldPost(container, note('held-ldp-1'), 'application/ld+json'),
      await heldPost(hook, JSON.stringify({ marker: 'held-hook-1' }), 'application/json'),
      await heldPost(container, note('held-ldp-2'), 'application/ld+json'),
      await heldPost(hook, JSON.stringify({ marker: 'held-hook-2' }), 'application/json'),
    ];
    stopping = true;
    process.kill(first.proc.pid, signal);
    // The listening socket closes first: wait until a new connection is refused, then complete the held requests.
    await eventually(async() => {
      try {
        await send(`${base}healthz`, 'GET', {});
        return undefined;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code === 'ECONNREFUSED' ? true : undefined;
      }
    }, 30_000);
    for (const request of held) request.finish();
    const heldAnswers = await Promise.all(held.map(async(request) => request.answer));
    expect(heldAnswers.map((answer) => answer.status)).toEqual([ 201, 202, 201, 202 ]);
    await Promise.all(lanes);
    const exit = await first.proc.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(tailFile(first.proc.logFile, 400)).toContain(`${signal}: stopping`);

    // No request got a server error; those refused never reached it.
    expect(outcomes.filter((outcome) => outcome.status !== undefined && (outcome.status < 200 || outcome.status >= 300))).toEqual([]);
    const accepted = outcomes.filter((outcome) => outcome.status !== undefined);
    expect(accepted.length).toBeGreaterThanOrEqual(120);
    const ldp = [ ...accepted.filter((outcome) => outcome.kind === 'ldp').map((outcome) => outcome.marker), 'held-ldp-1', 'held-ldp-2' ];
    const hooks = [ ...accepted.filter((outcome) => outcome.kind === 'webhook').map((outcome) => outcome.marker), 'held-hook-1', 'held-hook-2' ];

    const second = await start({ ...ports, redisUrl, logFile: first.proc.logFile });
    servers.push(second);
    let listing = '';
    for (let page: string | undefined = container; page;) {
      const answer: http.IncomingMessage & { text?: string } = await new Promise((resolve, reject) => {
        http.get(page!, { agent: false, headers: { accept: 'application/ld+json' } }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => resolve(Object.assign(res, { text })));
        }).on('error', reject);
      });
      expect(answer.statusCode).toBe(200);
      listing += answer.text;
      page = /<([^>]+)>;\s*rel="next"/u.exec(String(answer.headers.link ?? ''))?.[1];
    }
    expect(ldp.filter((marker) => !listing.includes(`"${marker}"`))).toEqual([]);
    // Webhook jobs accepted before the signal run, now if not before.
    await eventually(async() => {
      const stored = await send(`${base}webhook-data/alice/`, 'GET', { accept: 'application/ld+json', authorization: `Bearer ${alice.token}` });
      return stored.status === 200 && hooks.every((marker) => stored.text.includes(marker)) ? true : undefined;
    });
    process.kill(second.proc.pid, signal);
    expect(await second.proc.exited).toEqual({ code: 0, signal: null });
  }, 600_000);
});

describe('the shutdown bound', () => {
  let server: Server | undefined;

  afterAll(async() => {
    if (server && isAlive(server.proc.pid)) await killByPid(server.proc.pid, { graceMs: 30_000 });
  });

  it('exits 1 when stopping takes longer than --shutdown-timeout (a request is held open)', async() => {
    server = await start({ port: await freePort(), storePort: await freePort(), dataDir: makeTempDir('fedpod-shutdown-bound'),
      extraArgs: [ '--shutdown-timeout', '1' ] });
    const container = `${server.baseUrl}notes/held/`;
    expect((await send(container, 'PUT', { 'content-type': 'text/turtle' }, '')).status).toBe(201);
    const held = await heldPost(container, JSON.stringify({ '@context': AS, type: 'Note', content: 'never finished' }), 'application/ld+json');
    process.kill(server.proc.pid, 'SIGTERM');
    expect(await server.proc.exited).toEqual({ code: 1, signal: null });
    await expect(held.answer).rejects.toThrow();
    expect(tailFile(server.proc.logFile, 100)).toContain('not stopped after 1 s');
  }, 300_000);
});
