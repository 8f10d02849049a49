import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpHandler } from '@solid/community-server';
import { PublicAccess } from '../../../../src/handlers/access/PublicAccess';
import { readBody } from '../../../../src/handlers/http/HttpUtil';
import type { OperationInput } from '../../../../src/handlers/http/Operation';
import { Authenticator } from '../../../../src/handlers/pipeline/Authenticator';
import { RateLimitGuard } from '../../../../src/handlers/pipeline/RateLimitGuard';
import { RequestPipeline } from '../../../../src/handlers/pipeline/RequestPipeline';
import { Route } from '../../../../src/handlers/pipeline/Route';
import { RouteGroup } from '../../../../src/handlers/pipeline/RouteGroup';
import { MemoryRateCounter } from '../../../../src/plugins/cluster/MemoryRateCounter';

/** Answers 200 with the body it read, counting its calls. */
class EchoHandler extends HttpHandler {
  public calls = 0;

  public async handle({ request, response }: OperationInput): Promise<void> {
    this.calls += 1;
    const body = await readBody(request, 1 << 16);
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(body);
  }
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request from a chosen loopback address (127.0.0.x are all this machine's). */
async function send(url: string, options: { method?: string; from?: string; body?: string; type?: string; headers?: Record<string, string> } = {}):
Promise<Answer> {
  return new Promise((resolve, reject): void => {
    const request = httpRequest(url, {
      method: options.method ?? 'POST',
      localAddress: options.from ?? '127.0.0.1',
      headers: { ...options.body === undefined ? {} : { 'content-type': options.type ?? 'application/json' }, ...options.headers },
    }, (response): void => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer): void => {
        chunks.push(chunk);
      });
      response.on('end', (): void => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString() }));
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

describe('RateLimitGuard (in a request pipeline, counted in memory)', () => {
  let server: Server;
  let base: string;
  const login = new EchoHandler();
  const api = new EchoHandler();
  const open = new EchoHandler();

  beforeAll(async() => {
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const counter = new MemoryRateCounter();
    const byAddress = new RateLimitGuard({ name: 'login-ip', counter, points: 3, durationSeconds: 60, key: 'ip', methods: [ 'POST' ]});
    const byName = new RateLimitGuard({ name: 'login-name', counter, points: 4, durationSeconds: 60, key: 'fields', fields: [ 'username', 'login' ]});
    const mastodon = new RateLimitGuard({ name: 'api', counter, points: 2, durationSeconds: 60, key: 'ip', mastodon: true });
    const off = new RateLimitGuard({ name: 'off', counter, points: 1, durationSeconds: 60, key: 'ip', enabled: false });
    const proxied = new RateLimitGuard({ name: 'proxied', counter, points: 1, durationSeconds: 60, key: 'ip', trustProxy: true });
    const pipeline = new RequestPipeline({
      baseUrl: base,
      routes: [
        new RouteGroup([
          new Route({ name: 'login', paths: [ '/login' ], access: new PublicAccess(), handler: login, guards: [ byAddress, byName ]}),
          new Route({ name: 'open', paths: [ '/open' ], access: new PublicAccess(), handler: open, guards: [ off ]}),
          new Route({ name: 'proxied', paths: [ '/proxied' ], access: new PublicAccess(), handler: open, guards: [ proxied ]}),
        ]),
        new RouteGroup([ new Route({ name: 'api', paths: [ '/api/*' ], access: new PublicAccess(), handler: api }) ], [ mastodon ]),
      ],
      defaultAccess: new PublicAccess(),
      defaultHandler: open,
      authenticator: new Authenticator(base),
      maxBodyBytes: 1 << 16,
    });
    await pipeline.handle(server);
  });

  afterAll(async() => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers 429 with Retry-After and the JSON error past the limit of one address, and the handler does not run', async() => {
    const answers: Answer[] = [];
    for (let n = 0; n < 5; n += 1) {
      answers.push(await send(`${base}login`, { from: '127.0.0.2', body: JSON.stringify({ username: `user${n}`, password: 'x' }) }));
    }
    expect(answers.map((answer): number => answer.status)).toEqual([ 200, 200, 200, 429, 429 ]);
    expect(Number(answers[3].headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(answers[3].headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(JSON.parse(answers[3].body)).toEqual({ error: 'too_many_requests', message: expect.stringContaining('login-ip') });
    expect(login.calls).toBe(3);
    // The handler read the body the guard read first.
    expect(JSON.parse(answers[0].body)).toEqual({ username: 'user0', password: 'x' });
    // Another address is untouched; GET is not counted by a POST limit.
    expect((await send(`${base}login`, { from: '127.0.0.3', body: JSON.stringify({ username: 'other', password: 'x' }) })).status).toBe(200);
    expect((await send(`${base}login`, { from: '127.0.0.2', method: 'GET' })).status).toBe(200);
  });

  it('counts one login name from every address, in JSON and forms alike', async() => {
    const statuses: number[] = [];
    for (let n = 0; n < 3; n += 1) {
      statuses.push((await send(`${base}login`, { from: `127.0.1.${n + 1}`, body: JSON.stringify({ username: 'Victim', password: `guess${n}` }) })).status);
    }
    statuses.push((await send(`${base}login`, { from: '127.0.1.9', type: 'application/x-www-form-urlencoded', body: 'login=victim&password=g' })).status);
    statuses.push((await send(`${base}login`, { from: '127.0.1.10', type: 'application/x-www-form-urlencoded', body: 'login=victim&password=h' })).status);
    expect(statuses).toEqual([ 200, 200, 200, 200, 429 ]);
    expect((await send(`${base}login`, { from: '127.0.1.11', body: JSON.stringify({ username: 'someone-else', password: 'x' }) })).status).toBe(200);
  });

  it('answers Mastodon\'s error text and X-RateLimit headers for a group\'s guard', async() => {
    const first = await send(`${base}api/v1/instance`, { method: 'GET', from: '127.0.2.1' });
    expect(first.status).toBe(200);
    expect(first.headers['x-ratelimit-limit']).toBe('2');
    expect(first.headers['x-ratelimit-remaining']).toBe('1');
    expect(Date.parse(String(first.headers['x-ratelimit-reset']))).toBeGreaterThan(Date.now() - 1000);
    await send(`${base}api/v1/instance`, { method: 'GET', from: '127.0.2.1' });
    const refused = await send(`${base}api/v1/instance`, { method: 'GET', from: '127.0.2.1' });
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({ error: 'Too many requests' });
    expect(refused.headers['retry-after']).toBeDefined();
    expect(api.calls).toBe(2);
  });

  it('counts nothing when switched off, and takes the address from X-Forwarded-For only when trusting a proxy', async() => {
    for (let n = 0; n < 4; n += 1) {
      expect((await send(`${base}open`, { from: '127.0.3.1', method: 'GET' })).status).toBe(200);
    }
    const forwarded = { 'x-forwarded-for': '203.0.113.9, 198.51.100.1' };
    expect((await send(`${base}proxied`, { from: '127.0.3.2', method: 'GET', headers: forwarded })).status).toBe(200);
    // Same peer, another client behind the proxy: its own count.
    expect((await send(`${base}proxied`, { from: '127.0.3.2', method: 'GET', headers: { 'x-forwarded-for': '198.51.100.2' } })).status).toBe(200);
    // The same last hop, whatever the client claims before it: counted as the same client.
    expect((await send(`${base}proxied`, { from: '127.0.3.3', method: 'GET', headers: { 'x-forwarded-for': '1.2.3.4, 198.51.100.1' } })).status).toBe(429);
  });
});
