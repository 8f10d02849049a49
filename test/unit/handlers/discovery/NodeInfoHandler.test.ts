import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NodeInfoHandler, readSoftwareInfo } from '../../../../src/handlers/discovery/NodeInfoHandler';
import type { Reply } from './support';
import { InMemoryAccountStoreFake } from '../support/InMemoryAccountStore';
import { call, get } from './support';

const NODEINFO_21 = 'http://nodeinfo.diaspora.software/ns/schema/2.1';

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
