import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HttpHandler, HttpRequest, HttpResponse } from '@solid/community-server';
import { FirstMatchHandler } from '../../../../src/handlers/FirstMatchHandler';
import { NOT_HANDLED } from '../../../../src/handlers/http/NotHandled';
import { HostMetaHandler } from '../../../../src/handlers/discovery/HostMetaHandler';
import { NodeInfoHandler, readSoftwareInfo } from '../../../../src/handlers/discovery/NodeInfoHandler';
import { WebFingerHandler } from '../../../../src/handlers/discovery/WebFingerHandler';
import type { Account } from '../../../../src/plugins/accounts/Account';
import type { AccountStore } from '../../../../src/plugins/accounts/AccountStore';

const PROFILE_PAGE = 'http://webfinger.net/rel/profile-page';
const NODEINFO_21 = 'http://nodeinfo.diaspora.software/ns/schema/2.1';

/** A tiny AccountStore kept in a Map; counts list() calls and can be told to fail the next one. */
class InMemoryAccountStoreFake implements AccountStore {
  private readonly accounts = new Map<string, Account>();
  public listCalls = 0;
  public failNextList = false;

  public constructor(baseUrl: string, usernames: string[] = []) {
    for (const username of usernames) {
      this.add(baseUrl, username);
    }
  }

  public add(baseUrl: string, username: string): void {
    this.accounts.set(username, {
      username,
      email: `${username}@mail.example`,
      webId: `${baseUrl}actors/${username}`,
      passwordHash: 'not-a-hash',
      created: '2024-01-01T00:00:00.000Z',
    });
  }

  public async create(account: Account): Promise<{ created: true } | { created: false; taken: 'username' | 'email' }> {
    if (this.accounts.has(account.username)) {
      return { created: false, taken: 'username' };
    }
    if ([ ...this.accounts.values() ].some((known): boolean => known.email === account.email)) {
      return { created: false, taken: 'email' };
    }
    this.accounts.set(account.username, account);
    return { created: true };
  }

  public async findByUsername(username: string): Promise<Account | undefined> {
    return this.accounts.get(username);
  }

  public async findByEmail(email: string): Promise<Account | undefined> {
    return [ ...this.accounts.values() ].find((account): boolean => account.email === email);
  }

  public async remove(username: string): Promise<void> {
    this.accounts.delete(username);
  }

  public async list(): Promise<string[]> {
    this.listCalls += 1;
    if (this.failNextList) {
      this.failNextList = false;
      throw new Error('disk on fire');
    }
    return [ ...this.accounts.keys() ];
  }
}

/** Records what a handler writes, merging setHeader() headers into writeHead() as node does. */
class FakeResponse {
  public statusCode = 200;
  public headersSent = false;
  public headers: Record<string, string | number | string[]> = {};
  public body = '';
  public ended = false;
  private readonly pending = new Map<string, string | number | string[]>();

  public setHeader(name: string, value: string | number | string[]): this {
    this.pending.set(name.toLowerCase(), value);
    return this;
  }

  public getHeader(name: string): string | number | string[] | undefined {
    return this.pending.get(name.toLowerCase());
  }

  public hasHeader(name: string): boolean {
    return this.pending.has(name.toLowerCase());
  }

  public removeHeader(name: string): void {
    this.pending.delete(name.toLowerCase());
  }

  public writeHead(status: number, headers: Record<string, string | number | string[]> = {}): this {
    this.statusCode = status;
    this.headers = Object.fromEntries(this.pending);
    for (const [ name, value ] of Object.entries(headers)) {
      this.headers[name.toLowerCase()] = value;
    }
    this.headersSent = true;
    return this;
  }

  public end(chunk?: string | Buffer): this {
    if (chunk !== undefined) {
      this.body += chunk.toString();
    }
    this.ended = true;
    return this;
  }

  public destroy(): void {
    this.ended = true;
  }
}

interface Reply {
  status: number;
  headers: Record<string, string | number | string[]>;
  body: string;
  json: () => Record<string, unknown>;
}

interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Headers set before the handler runs (as CSS's middleware does). */
  preset?: Record<string, string>;
}

/** Offers one request to the handler: undefined when it refuses (with the shared NOT_HANDLED), else the reply. */
async function call(handler: HttpHandler, url: string, options: CallOptions = {}): Promise<Reply | undefined> {
  // A request without a body, read to its end.
  const request = { method: options.method ?? 'GET', url, headers: options.headers ?? {}, readableEnded: true, resume: (): void => undefined };
  const response = new FakeResponse();
  for (const [ name, value ] of Object.entries(options.preset ?? {})) {
    response.setHeader(name, value);
  }
  const input = { request: request as unknown as HttpRequest, response: response as unknown as HttpResponse };
  try {
    await handler.canHandle(input);
  } catch (error: unknown) {
    expect(error).toBe(NOT_HANDLED);
    return undefined;
  }
  await handler.handle(input);
  expect(response.ended).toBe(true);
  return {
    status: response.statusCode,
    headers: response.headers,
    body: response.body,
    json: (): Record<string, unknown> => JSON.parse(response.body) as Record<string, unknown>,
  };
}

/** Like call, but the handler must take the request. */
async function get(handler: HttpHandler, url: string, options: CallOptions = {}): Promise<Reply> {
  const reply = await call(handler, url, options);
  if (!reply) {
    throw new Error(`${url} was not handled`);
  }
  return reply;
}

function webfinger(resource: string, extra = ''): string {
  return `/.well-known/webfinger?resource=${encodeURIComponent(resource)}${extra}`;
}

describe('WebFingerHandler', (): void => {
  const BASE = 'http://localhost:3000/';
  let store: InMemoryAccountStoreFake;
  let handler: WebFingerHandler;

  beforeEach((): void => {
    store = new InMemoryAccountStoreFake(BASE, [ 'alice', 'bob.b' ]);
    handler = new WebFingerHandler(BASE, store);
  });

  it('answers the JRD of acct:user@host:port as application/jrd+json, with CORS', async(): Promise<void> => {
    const reply = await get(handler, webfinger('acct:alice@localhost:3000'));
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/jrd+json; charset=utf-8');
    expect(reply.headers['access-control-allow-origin']).toBe('*');
    expect(reply.headers['content-length']).toBe(Buffer.byteLength(reply.body));
    expect(reply.json()).toEqual({
      subject: 'acct:alice@localhost:3000',
      aliases: [ 'http://localhost:3000/actors/alice' ],
      links: [
        { rel: 'self', type: 'application/activity+json', href: 'http://localhost:3000/actors/alice' },
        { rel: PROFILE_PAGE, type: 'text/html', href: 'http://localhost:3000/actors/alice' },
      ],
    });
  });

  it('answers acct:user@host when the base URL has no port', async(): Promise<void> => {
    const base = 'https://pod.example/';
    const portless = new WebFingerHandler(base, new InMemoryAccountStoreFake(base, [ 'alice' ]));
    const reply = await get(portless, webfinger('acct:alice@pod.example'));
    expect(reply.status).toBe(200);
    expect(reply.json()).toMatchObject({ subject: 'acct:alice@pod.example', aliases: [ 'https://pod.example/actors/alice' ]});
    // The scheme's default port written out is the same host.
    expect((await get(portless, webfinger('acct:alice@pod.example:443'))).status).toBe(200);
    // Any other port is another host.
    const other = await get(portless, webfinger('acct:alice@pod.example:8443'));
    expect(other.status).toBe(404);
  });

  it('requires the port when the base URL has one', async(): Promise<void> => {
    const reply = await get(handler, webfinger('acct:alice@localhost'));
    expect(reply.status).toBe(404);
    expect(reply.json()).toMatchObject({ error: 'not_found' });
    expect((await get(handler, webfinger('acct:alice@localhost:3001'))).status).toBe(404);
  });

  it('compares the host case-insensitively and answers the canonical subject', async(): Promise<void> => {
    const reply = await get(handler, webfinger('acct:Alice@LocalHost:3000'));
    expect(reply.status).toBe(200);
    expect(reply.json().subject).toBe('acct:alice@localhost:3000');
    expect((await get(handler, webfinger('ACCT:alice@localhost:3000'))).status).toBe(200);
  });

  it('accepts a percent-encoded acct: URI (also encoded twice)', async(): Promise<void> => {
    const once = await get(handler, '/.well-known/webfinger?resource=acct%3Aalice%40localhost%3A3000');
    expect(once.status).toBe(200);
    expect(once.json().subject).toBe('acct:alice@localhost:3000');
    const plain = await get(handler, '/.well-known/webfinger?resource=acct:bob.b@localhost:3000');
    expect(plain.json().subject).toBe('acct:bob.b@localhost:3000');
    const twice = await get(handler, '/.well-known/webfinger?resource=acct%253Aalice%2540localhost%253A3000');
    expect(twice.status).toBe(200);
    expect(twice.json().subject).toBe('acct:alice@localhost:3000');
  });

  it('answers 404 for another host', async(): Promise<void> => {
    const reply = await get(handler, webfinger('acct:alice@mastodon.example'));
    expect(reply.status).toBe(404);
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(reply.json()).toEqual({ error: 'not_found', message: expect.any(String) });
    expect(reply.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers 404 for an unknown user, also one no account could have', async(): Promise<void> => {
    for (const resource of [ 'acct:carol@localhost:3000', 'acct:no%20such@localhost:3000', 'acct:a%40b@localhost:3000' ]) {
      const reply = await get(handler, webfinger(resource));
      expect(reply.status).toBe(404);
      expect(reply.json().error).toBe('not_found');
    }
  });

  it('answers 400 for a missing resource', async(): Promise<void> => {
    for (const url of [ '/.well-known/webfinger', '/.well-known/webfinger?resource=', '/.well-known/webfinger?rel=self' ]) {
      const reply = await get(handler, url);
      expect(reply.status).toBe(400);
      expect(reply.json()).toEqual({ error: 'missing_resource', message: expect.any(String) });
      expect(reply.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it.each([
    [ 'alice' ],
    [ 'alice@localhost:3000' ],
    [ 'acct:alice' ],
    [ 'acct:@localhost:3000' ],
    [ 'acct:alice@' ],
    [ 'acct:alice@localhost:3000/actors' ],
    [ 'acct:alice@localhost:3000?x=1' ],
    [ 'acct:alice@local host' ],
    [ 'acct:%E0%A4%A@localhost:3000' ],
    [ 'acct:alice@localhost:99999' ],
    [ 'acct%3Aalice%40localhost%3' ],
  ])('answers 400 for the malformed resource %j', async(resource): Promise<void> => {
    const reply = await get(handler, webfinger(resource));
    expect(reply.status).toBe(400);
    expect(reply.json()).toEqual({ error: 'invalid_resource', message: expect.any(String) });
  });

  it('answers 400 when the resource is given twice', async(): Promise<void> => {
    const reply = await get(handler, `${webfinger('acct:alice@localhost:3000')}&resource=acct:bob.b@localhost:3000`);
    expect(reply.status).toBe(400);
    expect(reply.json().error).toBe('invalid_resource');
  });

  it('accepts the actor URL itself as resource', async(): Promise<void> => {
    const reply = await get(handler, webfinger('http://localhost:3000/actors/alice'));
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual({
      subject: 'acct:alice@localhost:3000',
      aliases: [ 'http://localhost:3000/actors/alice' ],
      links: [
        { rel: 'self', type: 'application/activity+json', href: 'http://localhost:3000/actors/alice' },
        { rel: PROFILE_PAGE, type: 'text/html', href: 'http://localhost:3000/actors/alice' },
      ],
    });
    // The host of an actor URL is case-insensitive too.
    expect((await get(handler, webfinger('http://LOCALHOST:3000/actors/alice'))).status).toBe(200);
  });

  it('answers 404 for URLs that are not actors of an existing account here', async(): Promise<void> => {
    for (const resource of [
      'http://localhost:3000/actors/carol',
      'http://localhost:3000/actors/alice/inbox',
      'http://localhost:3000/notes/1',
      'https://localhost:3000/actors/alice',
      'http://mastodon.example/users/alice',
      'mailto:alice@localhost',
    ]) {
      const reply = await get(handler, webfinger(resource));
      expect(reply.status).toBe(404);
    }
  });

  it('answers application/jrd+json also when application/json is asked for', async(): Promise<void> => {
    for (const accept of [ 'application/json', 'application/jrd+json', 'text/html', '*/*' ]) {
      const reply = await get(handler, webfinger('acct:alice@localhost:3000'), { headers: { accept }});
      expect(reply.status).toBe(200);
      expect(reply.headers['content-type']).toBe('application/jrd+json; charset=utf-8');
    }
  });

  it('keeps only the links of the requested rels', async(): Promise<void> => {
    const self = await get(handler, webfinger('acct:alice@localhost:3000', '&rel=self'));
    expect(self.json().links).toEqual([
      { rel: 'self', type: 'application/activity+json', href: 'http://localhost:3000/actors/alice' },
    ]);
    const both = await get(handler, webfinger('acct:alice@localhost:3000', `&rel=self&rel=${encodeURIComponent(PROFILE_PAGE)}`));
    expect(both.json().links).toHaveLength(2);
    const none = await get(handler, webfinger('acct:alice@localhost:3000', '&rel=http%3A%2F%2Fexample.org%2Fother'));
    expect(none.json()).toMatchObject({ subject: 'acct:alice@localhost:3000', links: []});
  });

  it('answers HEAD with the headers only', async(): Promise<void> => {
    const get200 = await get(handler, webfinger('acct:alice@localhost:3000'));
    const head = await get(handler, webfinger('acct:alice@localhost:3000'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(get200.headers['content-length']);
    expect(head.headers['content-type']).toBe('application/jrd+json; charset=utf-8');
  });

  it('answers 405 with Allow to other methods and leaves OPTIONS to CSS', async(): Promise<void> => {
    for (const method of [ 'POST', 'PUT', 'DELETE', 'PATCH' ]) {
      const reply = await get(handler, webfinger('acct:alice@localhost:3000'), { method });
      expect(reply.status).toBe(405);
      expect(reply.headers.allow).toBe('GET, HEAD');
      expect(reply.json().error).toBe('method_not_allowed');
    }
    await expect(call(handler, webfinger('acct:alice@localhost:3000'), { method: 'OPTIONS' })).resolves.toBeUndefined();
  });

  it('refuses other paths with NOT_HANDLED, matching on the path part only', async(): Promise<void> => {
    for (const url of [ '/', '/.well-known/webfinger/', '/.well-known/webfingers', '/x/.well-known/webfinger',
      '/.well-known/nodeinfo?resource=acct:alice@localhost:3000' ]) {
      await expect(call(handler, url)).resolves.toBeUndefined();
    }
    expect(await call(handler, '/.well-known/webfinger?')).toBeDefined();
  });

  it('keeps an Access-Control-Allow-Origin that CSS middleware already set', async(): Promise<void> => {
    const reply = await get(handler, webfinger('acct:alice@localhost:3000'),
      { headers: { origin: 'https://app.example' }, preset: { 'Access-Control-Allow-Origin': 'https://app.example' }});
    expect(reply.headers['access-control-allow-origin']).toBe('https://app.example');
  });

  it('serves under the path of a base URL that has one', async(): Promise<void> => {
    const base = 'https://host.example/pod/';
    const nested = new WebFingerHandler(base, new InMemoryAccountStoreFake(base, [ 'alice' ]));
    await expect(call(nested, webfinger('acct:alice@host.example'))).resolves.toBeUndefined();
    const reply = await get(nested, `/pod${webfinger('acct:alice@host.example')}`);
    expect(reply.json()).toMatchObject({ subject: 'acct:alice@host.example', aliases: [ 'https://host.example/pod/actors/alice' ]});
    const byActor = await get(nested, `/pod${webfinger('https://host.example/pod/actors/alice')}`);
    expect(byActor.status).toBe(200);
  });

  it('accepts a base URL without trailing slash', async(): Promise<void> => {
    const slashless = new WebFingerHandler('http://localhost:3000', store);
    const reply = await get(slashless, webfinger('acct:alice@localhost:3000'));
    expect(reply.json().aliases).toEqual([ 'http://localhost:3000/actors/alice' ]);
  });
});

describe('NodeInfoHandler', (): void => {
  const BASE = 'http://localhost:3000/';
  const packageJson = JSON.parse(readFileSync(path.join(__dirname, '../../../../package.json'), 'utf8')) as { version: string };
  let store: InMemoryAccountStoreFake;
  let handler: NodeInfoHandler;

  beforeEach((): void => {
    store = new InMemoryAccountStoreFake(BASE, [ 'alice', 'bob', 'carol' ]);
    handler = new NodeInfoHandler(BASE, store);
  });

  afterEach((): void => {
    jest.restoreAllMocks();
  });

  it('links the NodeInfo 2.1 document from /.well-known/nodeinfo', async(): Promise<void> => {
    const reply = await get(handler, '/.well-known/nodeinfo');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(reply.headers['access-control-allow-origin']).toBe('*');
    expect(reply.json()).toEqual({ links: [{ rel: NODEINFO_21, href: 'http://localhost:3000/nodeinfo/2.1' }]});
  });

  it('serves the NodeInfo 2.1 document', async(): Promise<void> => {
    const reply = await get(handler, '/nodeinfo/2.1');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe(`application/json; profile="${NODEINFO_21}#"`);
    expect(reply.headers['access-control-allow-origin']).toBe('*');
    expect(reply.headers['content-length']).toBe(Buffer.byteLength(reply.body));
    const document = reply.json();
    expect(document).toEqual({
      version: '2.1',
      software: expect.objectContaining({ name: 'fedpod', version: packageJson.version }),
      protocols: [ 'activitypub' ],
      services: { inbound: [], outbound: []},
      openRegistrations: true,
      usage: { users: { total: 3 }, localPosts: 0 },
      metadata: {},
    });
    // NodeInfo 2.1's schema: software.name matches ^[a-z0-9-]+$, no other keys than these four.
    expect((document.software as { name: string }).name).toMatch(/^[a-z0-9-]+$/u);
    expect([ 'name', 'version', 'repository', 'homepage' ]).toEqual(expect.arrayContaining(Object.keys(document.software as object)));
  });

  it('says whether registrations are open as configured', async(): Promise<void> => {
    const closed = new NodeInfoHandler(BASE, store, false);
    expect((await get(closed, '/nodeinfo/2.1')).json().openRegistrations).toBe(false);
  });

  it('counts the users, listing the accounts at most once a minute', async(): Promise<void> => {
    let now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation((): number => now);
    const total = async(): Promise<unknown> => ((await get(handler, '/nodeinfo/2.1')).json().usage as { users: { total: number }}).users.total;
    expect(await total()).toBe(3);
    store.add(BASE, 'dave');
    now += 59_000;
    expect(await total()).toBe(3);
    expect(store.listCalls).toBe(1);
    now += 1_000;
    expect(await total()).toBe(4);
    expect(store.listCalls).toBe(2);
  });

  it('lets concurrent requests share one listing', async(): Promise<void> => {
    const replies = await Promise.all([ 1, 2, 3, 4 ].map((): Promise<Reply> => get(handler, '/nodeinfo/2.1')));
    expect(replies.map((reply): number => reply.status)).toEqual([ 200, 200, 200, 200 ]);
    expect(store.listCalls).toBe(1);
  });

  it('does not keep a failed count', async(): Promise<void> => {
    store.failNextList = true;
    const failed = await get(handler, '/nodeinfo/2.1');
    expect(failed.status).toBe(500);
    expect(failed.json().error).toBe('internal_error');
    const next = await get(handler, '/nodeinfo/2.1');
    expect(next.status).toBe(200);
    expect(store.listCalls).toBe(2);
  });

  it('answers HEAD with the headers only and other methods with 405', async(): Promise<void> => {
    for (const url of [ '/.well-known/nodeinfo', '/nodeinfo/2.1' ]) {
      const head = await get(handler, url, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.body).toBe('');
      expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
      const post = await get(handler, url, { method: 'POST' });
      expect(post.status).toBe(405);
      expect(post.headers.allow).toBe('GET, HEAD');
    }
  });

  it('matches the path part only and refuses other paths', async(): Promise<void> => {
    expect((await get(handler, '/nodeinfo/2.1?x=1')).status).toBe(200);
    expect((await get(handler, '/.well-known/nodeinfo?x=1')).status).toBe(200);
    for (const url of [ '/nodeinfo/2.0', '/nodeinfo', '/.well-known/nodeinfo/', '/nodeinfo/2.1/' ]) {
      await expect(call(handler, url)).resolves.toBeUndefined();
    }
    await expect(call(handler, '/nodeinfo/2.1', { method: 'OPTIONS' })).resolves.toBeUndefined();
  });

  it('links under the path of a base URL that has one', async(): Promise<void> => {
    const nested = new NodeInfoHandler('https://host.example/pod/', store);
    await expect(call(nested, '/.well-known/nodeinfo')).resolves.toBeUndefined();
    const reply = await get(nested, '/pod/.well-known/nodeinfo');
    expect(reply.json()).toEqual({ links: [{ rel: NODEINFO_21, href: 'https://host.example/pod/nodeinfo/2.1' }]});
    expect((await get(nested, '/pod/nodeinfo/2.1')).status).toBe(200);
  });

  describe('readSoftwareInfo', (): void => {
    let dir: string;

    beforeEach((): void => {
      dir = mkdtempSync(path.join(tmpdir(), 'fedpod-nodeinfo-'));
    });

    afterEach((): void => {
      rmSync(dir, { recursive: true, force: true });
    });

    it('reads version, repository and homepage from the nearest fedpod package.json', (): void => {
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify({
        name: 'fedpod', version: '1.2.3', homepage: 'https://fedpod.example/',
        repository: { type: 'git', url: 'git+https://git.example/fedpod.git' },
      }));
      const nested = path.join(dir, 'dist', 'handlers');
      expect(readSoftwareInfo(nested)).toEqual({
        name: 'fedpod', version: '1.2.3', repository: 'https://git.example/fedpod', homepage: 'https://fedpod.example/',
      });
    });

    it('skips other packages and falls back to 0.0.0', (): void => {
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'other', version: '9.9.9' }));
      expect(readSoftwareInfo(dir)).toEqual({ name: 'fedpod', version: '0.0.0' });
    });
  });
});

describe('HostMetaHandler', (): void => {
  const BASE = 'http://localhost:3000/';
  const TEMPLATE = 'http://localhost:3000/.well-known/webfinger?resource={uri}';
  const handler = new HostMetaHandler(BASE);

  it('serves host-meta as XRD with the lrdd template', async(): Promise<void> => {
    const reply = await get(handler, '/.well-known/host-meta');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/xrd+xml; charset=utf-8');
    expect(reply.headers['access-control-allow-origin']).toBe('*');
    expect(reply.headers['content-length']).toBe(Buffer.byteLength(reply.body));
    expect(reply.body).toBe([
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">',
      `  <Link rel="lrdd" template="${TEMPLATE}"/>`,
      '</XRD>',
      '',
    ].join('\n'));
  });

  it('serves host-meta.json as JRD', async(): Promise<void> => {
    const reply = await get(handler, '/.well-known/host-meta.json');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/jrd+json; charset=utf-8');
    expect(reply.json()).toEqual({ links: [{ rel: 'lrdd', template: TEMPLATE }]});
  });

  it.each([
    [ undefined, 'application/xrd+xml' ],
    [ '*/*', 'application/xrd+xml' ],
    [ 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'application/xrd+xml' ],
    [ 'application/xrd+xml', 'application/xrd+xml' ],
    [ 'application/json', 'application/jrd+json' ],
    [ 'application/jrd+json, application/xrd+xml;q=0.5', 'application/jrd+json' ],
    [ 'image/png', 'application/xrd+xml' ],
  ])('answers host-meta with Accept %j as %s', async(accept, type): Promise<void> => {
    const reply = await get(handler, '/.well-known/host-meta', { headers: accept ? { accept } : {}});
    expect(reply.headers['content-type']).toBe(`${type}; charset=utf-8`);
    expect(reply.headers.vary).toBe('Accept');
  });

  it('escapes the base URL in the XML', async(): Promise<void> => {
    const odd = new HostMetaHandler('https://host.example/a&b/');
    const reply = await get(odd, '/a&b/.well-known/host-meta');
    expect(reply.body).toContain('template="https://host.example/a&#38;b/.well-known/webfinger?resource={uri}"');
  });

  it('answers HEAD with the headers only and other methods with 405', async(): Promise<void> => {
    for (const url of [ '/.well-known/host-meta', '/.well-known/host-meta.json' ]) {
      const head = await get(handler, url, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.body).toBe('');
      const put = await get(handler, url, { method: 'PUT' });
      expect(put.status).toBe(405);
      expect(put.headers.allow).toBe('GET, HEAD');
    }
  });

  it('matches the path part only and refuses other paths', async(): Promise<void> => {
    expect((await get(handler, '/.well-known/host-meta?x=1')).status).toBe(200);
    for (const url of [ '/.well-known/host-meta.xml', '/.well-known/host', '/host-meta' ]) {
      await expect(call(handler, url)).resolves.toBeUndefined();
    }
  });
});

describe('the discovery handlers in a FirstMatchHandler (as config/parts/activitypub/components/discovery.json)', (): void => {
  const BASE = 'http://localhost:3000/';
  const store = new InMemoryAccountStoreFake(BASE, [ 'alice' ]);
  const discovery = new FirstMatchHandler([
    new WebFingerHandler(BASE, store),
    new NodeInfoHandler(BASE, store),
    new HostMetaHandler(BASE),
  ]);

  it('routes each path to its handler and refuses the rest with NOT_HANDLED', async(): Promise<void> => {
    expect((await get(discovery, webfinger('acct:alice@localhost:3000'))).json().subject).toBe('acct:alice@localhost:3000');
    expect((await get(discovery, '/.well-known/nodeinfo')).json().links).toHaveLength(1);
    expect(((await get(discovery, '/nodeinfo/2.1')).json().usage as { users: { total: number }}).users.total).toBe(1);
    expect((await get(discovery, '/.well-known/host-meta')).body).toContain('rel="lrdd"');
    expect((await get(discovery, '/.well-known/host-meta.json')).json().links).toHaveLength(1);
    await expect(call(discovery, '/actors/alice')).resolves.toBeUndefined();
    await expect(call(discovery, '/.well-known/solid')).resolves.toBeUndefined();
  });
});
