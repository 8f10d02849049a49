/**
 * Rate limits on a real server (config/parts/http/rate-limits.json) with the redis backend, so the
 * counts live in Redis: a brute force of one account's password is refused with 429 and Retry-After
 * once the login limits are used up, from its address and for that account from any address; other
 * users and addresses, and ordinary use, go on as before; the counts outlive a restart of the node.
 * Requests come from several loopback addresses (127.0.0.x), as clients on other machines would.
 */
import { request as httpRequest } from 'node:http';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { claimRedisDb } from '../../support/env';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: Record<string, unknown>;
}

const PASSWORD = 'correct horse battery';

describe('rate limits (activitypub, redis backend)', () => {
  let server: FedpodServer;

  async function send(path: string, options: { method?: string; from?: string; body?: unknown; token?: string; type?: string } = {}): Promise<Answer> {
    const text = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    return new Promise((resolve, reject): void => {
      const request = httpRequest(new URL(path, server.baseUrl), {
        method: options.method ?? 'POST',
        localAddress: options.from ?? '127.0.0.1',
        headers: {
          accept: 'application/json',
          ...text === undefined ? {} : { 'content-type': options.type ?? 'application/json' },
          ...options.token ? { authorization: `Bearer ${options.token}` } : {},
        },
      }, (response): void => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer): void => {
          chunks.push(chunk);
        });
        response.on('end', (): void => {
          const body = Buffer.concat(chunks).toString();
          let json: Record<string, unknown> = {};
          try {
            json = JSON.parse(body) as Record<string, unknown>;
          } catch {
            // Not JSON: the tests that read the body say so.
          }
          resolve({ status: response.statusCode!, headers: response.headers, json });
        });
      });
      request.on('error', reject);
      request.end(text);
    });
  }

  async function signup(username: string, from: string): Promise<Answer> {
    return send('auth/signup', { from, body: { username, email: `${username}@example.org`, password: PASSWORD }});
  }

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub', redisUrl: claimRedisDb(), env: { FEDPOD_RATE_LIMITS: 'true' }});
    for (const name of [ 'alice', 'bob', 'carol' ]) {
      expect((await signup(name, '127.0.0.1')).status).toBe(201);
    }
  });

  afterAll(async() => {
    await server?.stop();
  });

  it('throttles 40 wrong passwords for one account (429, Retry-After, JSON)', async() => {
    const statuses: number[] = [];
    let refusal: Answer | undefined;
    for (let n = 0; n < 40; n += 1) {
      const answer = await send('auth/login', { from: '127.0.0.5', body: { username: 'alice', password: `guess ${n}` }});
      statuses.push(answer.status);
      refusal = answer.status === 429 ? answer : refusal;
    }
    // Mastodon's limits: 25 logins per 5 minutes from one address, 25 an hour for one account.
    expect(statuses.slice(0, 25)).toEqual(Array.from({ length: 25 }, () => 401));
    expect(statuses.slice(25)).toEqual(Array.from({ length: 15 }, () => 429));
    const retryAfter = Number(refusal!.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refusal!.json).toEqual({ error: 'too_many_requests', message: expect.any(String) });
    // Even the right password is refused now, from that address and, for alice, from any other.
    expect((await send('auth/login', { from: '127.0.0.5', body: { username: 'alice', password: PASSWORD }})).status).toBe(429);
    expect((await send('auth/login', { from: '127.0.0.6', body: { username: 'alice', password: PASSWORD }})).status).toBe(429);
    // A form login counts for the same account, whatever the case of its name.
    expect((await send('auth/login', { from: '127.0.0.7', type: 'application/x-www-form-urlencoded', body: 'username=ALICE&password=x' })).status)
      .toBe(429);
  });

  it('leaves other users and other addresses untouched', async() => {
    // bob from a fresh address: the address is fresh and bob has not been guessed at.
    const bob = await send('auth/login', { from: '127.0.0.8', body: { username: 'bob', password: PASSWORD }});
    expect(bob.status).toBe(200);
    // carol from the brute force's address: that address used up its logins.
    expect((await send('auth/login', { from: '127.0.0.5', body: { username: 'carol', password: PASSWORD }})).status).toBe(429);
    // What bob does with his token is not a login: it goes on.
    const token = bob.json.token as string;
    for (let n = 0; n < 10; n += 1) {
      const posted = await send('actors/bob/outbox', { from: '127.0.0.5', token, type: 'application/activity+json',
        body: { '@context': 'https://www.w3.org/ns/activitystreams', type: 'Create', object: { type: 'Note', content: `note ${n}` }}});
      expect(posted.status).toBe(201);
    }
    expect((await send('actors/bob', { method: 'GET', from: '127.0.0.5' })).status).toBe(200);
  });

  it('throttles signups from one address (5 in 30 minutes), not from another', async() => {
    // Three signups from 127.0.0.1 in beforeAll.
    expect((await signup('dave', '127.0.0.1')).status).toBe(201);
    expect((await signup('erin', '127.0.0.1')).status).toBe(201);
    const refused = await signup('frank', '127.0.0.1');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await signup('frank', '127.0.0.9')).status).toBe(201);
    // Nothing was written for the refused signup: its name was free for the other address.
  });

  it('answers the Mastodon API\'s shape on its token endpoint', async() => {
    let last: Answer | undefined;
    for (let n = 0; n < 26; n += 1) {
      last = await send('oauth/token', { from: '127.0.0.10', body: { grant_type: 'authorization_code', code: 'wrong', client_id: 'x',
        client_secret: 'y', redirect_uri: 'urn:ietf:wg:oauth:2.0:oob' }});
    }
    expect(last!.status).toBe(429);
    expect(last!.json).toMatchObject({ error: 'Too many requests' });
    expect(last!.headers['x-ratelimit-limit']).toBe('25');
    expect(last!.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('keeps the counts in Redis: a restarted node still refuses', async() => {
    await server.restart();
    expect((await send('auth/login', { from: '127.0.0.6', body: { username: 'alice', password: PASSWORD }})).status).toBe(429);
    expect((await send('auth/login', { from: '127.0.0.11', body: { username: 'carol', password: PASSWORD }})).status).toBe(200);
  });
});
