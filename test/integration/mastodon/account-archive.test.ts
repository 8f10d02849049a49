/**
 * The archive of an account (`GET /auth/export/archive`) on a real server: alice posts a photo, likes
 * and bookmarks a post of bob's; her tar holds her actor, her outbox with the post embedded, her likes
 * and bookmarks and the photo's bytes, and nobody else's posts.
 */
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { extract } from 'tar-stream';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { signup, type Session } from '../../support/local-actors';
import { appToken } from '../../support/mastodon-oauth';

type Json = Record<string, unknown>;

/** Every file of a tar, by name. */
async function untar(bytes: Buffer): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const reader = extract();
  const done = new Promise<void>((resolve, reject) => {
    reader.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk) => chunks.push(chunk as Buffer));
      stream.on('end', () => {
        files.set(header.name, Buffer.concat(chunks));
        next();
      });
    });
    reader.on('finish', resolve);
    reader.on('error', reject);
  });
  Readable.from([ bytes ]).pipe(reader as unknown as NodeJS.WritableStream);
  await done;
  return files;
}

describe('the archive of an account', () => {
  let server: FedpodServer;
  const users: Record<string, Session> = {};
  const tokens: Record<string, string> = {};

  async function api(name: string, path: string, init: RequestInit = {}): Promise<Json> {
    const response = await fetch(`${server.baseUrl}api/${path}`, { ...init, headers: { authorization: `Bearer ${tokens[name]}`,
      ...init.body && typeof init.body === 'string' ? { 'content-type': 'application/json' } : {} }});
    expect(response.status).toBeLessThan(300);
    return await response.json() as Json;
  }

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub' });
    for (const name of [ 'alice', 'bob' ]) {
      users[name] = await signup(server.baseUrl, name);
      tokens[name] = await appToken(server.baseUrl, name, 'correct horse', 'read write');
    }
  }, 120_000);

  afterAll(async() => {
    await server?.stop();
  });

  it('holds the actor, the outbox with the posts, likes, bookmarks and the posts\' media', async() => {
    const form = new FormData();
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0000ff' } }).png().toBuffer();
    form.append('file', new Blob([ new Uint8Array(png) ], { type: 'image/png' }), 'blue.png');
    const media = await api('alice', 'v2/media', { method: 'POST', body: form });
    const own = await api('alice', 'v1/statuses', { method: 'POST',
      body: JSON.stringify({ status: 'my blue square', media_ids: [ media.id ], visibility: 'public' }) });
    const other = await api('bob', 'v1/statuses', { method: 'POST', body: JSON.stringify({ status: 'bob says hi', visibility: 'public' }) });
    await api('alice', `v1/statuses/${String(other.id)}/favourite`, { method: 'POST' });
    await api('alice', `v1/statuses/${String(other.id)}/bookmark`, { method: 'POST' });

    const response = await fetch(`${server.baseUrl}auth/export/archive`, { headers: { authorization: `Bearer ${users.alice.token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-tar');
    const files = await untar(Buffer.from(await response.arrayBuffer()));

    const actor = JSON.parse(files.get('actor.json')!.toString()) as Json;
    expect(actor.id).toBe(users.alice.webId);
    const outbox = JSON.parse(files.get('outbox.json')!.toString()) as Json;
    expect(outbox).toMatchObject({ type: 'OrderedCollection', id: `${users.alice.webId}/outbox` });
    const items = outbox.orderedItems as Json[];
    const create = items.find((item) => item.type === 'Create' && (item.object as Json)?.id === own.uri);
    expect(create).toBeDefined();
    expect(String((create!.object as Json).content)).toContain('my blue square');
    expect(JSON.stringify(outbox)).not.toContain('bob says hi');
    expect((JSON.parse(files.get('likes.json')!.toString()) as Json).orderedItems).toContain(other.uri);
    expect((JSON.parse(files.get('bookmarks.json')!.toString()) as Json).orderedItems).toEqual([ other.uri ]);

    const mediaFiles = [ ...files.keys() ].filter((name) => name.startsWith('media/'));
    expect(mediaFiles).toHaveLength(1);
    const served = Buffer.from(await (await fetch(String(media.url))).arrayBuffer());
    expect(files.get(mediaFiles[0])!.equals(served)).toBe(true);
    expect(mediaFiles[0]).toBe(`media/${String(media.url).split('/').pop()}`);
  });

  it('is the user\'s own: 401 without a login', async() => {
    expect((await fetch(`${server.baseUrl}auth/export/archive`)).status).toBe(401);
  });
});
