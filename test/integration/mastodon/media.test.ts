/**
 * Media uploads on the default setup: through masto.js and megalodon (the Mastodon API) and the
 * actor's uploadMedia endpoint. Alice uploads and posts; bob follows her; carol is a stranger who
 * must never read an unattached upload, nor the media of a followers-only or direct post.
 */
import { createReadStream } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { createRestAPIClient, type mastodon } from 'masto';
import generator, { type MegalodonInterface } from 'megalodon';
import sharp from 'sharp';
import { startFedpod, type FedpodServer } from '../../support/fedpod';
import { eventually } from '../../support/eventually';
import { postToOutbox, signup, type Session } from '../../support/local-actors';

/** A 64 × 32 JPEG that says "rotate 90°" (EXIF orientation 6), with an EXIF comment that must not survive. */
async function photo(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 32, channels: 3, background: { r: 200, g: 10, b: 10 } } })
    .jpeg().withExif({ IFD0: { Copyright: 'taken at my secret place', Make: 'Cam' } }).withMetadata({ orientation: 6 })
    .toBuffer();
}

async function photoBlob(): Promise<Blob> {
  return new Blob([ new Uint8Array(await photo()) ], { type: 'image/jpeg' });
}

/** A PNG whose header claims 100,000 × 100,000 pixels (a decompression bomb), with a valid header checksum. */
function pngBomb(): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([ Buffer.from(type, 'latin1'), data ]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([ length, body, crc ]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(100_000, 0);
  header.writeUInt32BE(100_000, 4);
  header.set([ 8, 0, 0, 0, 0 ], 8);
  return Buffer.concat([ Buffer.from([ 0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A ]), chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))), chunk('IEND', Buffer.alloc(0)) ]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xFFFFFFFF;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) {
      crc = (crc >>> 1) ^ (0xEDB88320 & -(crc & 1));
    }
  }
  return (crc ^ 0xFFFFFFFF) >>> 0;
}

describe('media uploads', () => {
  let server: FedpodServer;
  let url: string;
  const sessions: Record<string, Session> = {};
  const tokens: Record<string, string> = {};
  const masto: Record<string, mastodon.rest.Client> = {};
  const megalodon: Record<string, MegalodonInterface> = {};

  async function login(username: string): Promise<string> {
    const response = await fetch(`${server.baseUrl}auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: 'correct horse' }) });
    expect(response.status).toBe(200);
    return (await response.json() as { token: string }).token;
  }

  /** The status of a GET of `target` by `username` (anonymous without one). */
  async function readStatus(target: string, username?: string): Promise<number> {
    const response = await fetch(target, { headers: username ? { authorization: `Bearer ${tokens[username]}` } : {} });
    await response.arrayBuffer();
    return response.status;
  }

  async function upload(path: string, form: FormData, username = 'alice'): Promise<{ status: number; body: Record<string, unknown>; location: string | null }> {
    const response = await fetch(`${url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${tokens[username]}` }, body: form });
    return { status: response.status, body: await response.json() as Record<string, unknown>, location: response.headers.get('location') };
  }

  function fileForm(bytes: Buffer, type: string, name = 'file.bin'): FormData {
    const form = new FormData();
    form.append('file', new Blob([ new Uint8Array(bytes) ], { type }), name);
    return form;
  }

  /** Every stored file of the server (uploads and anything else written as a file). */
  async function storedFiles(): Promise<number> {
    const root = join(server.dataDir, 'files');
    let count = 0;
    for (const first of await readdir(root).catch(() => [])) {
      for (const second of await readdir(join(root, first))) {
        count += (await readdir(join(root, first, second))).length;
      }
    }
    return count;
  }

  beforeAll(async() => {
    server = await startFedpod({ config: 'activitypub' });
    url = server.baseUrl.replace(/\/$/u, '');
    await Promise.all([ 'alice', 'bob', 'carol' ].map(async(username) => {
      sessions[username] = await signup(server.baseUrl, username);
      tokens[username] = await login(username);
      masto[username] = createRestAPIClient({ url, accessToken: tokens[username] });
      megalodon[username] = generator('mastodon', url, tokens[username]);
    }));
    expect((await postToOutbox(sessions.bob, { type: 'Follow', object: sessions.alice.webId })).status).toBe(201);
    await eventually(async() => (await masto.alice.v1.accounts.verifyCredentials()).followersCount === 1);
  });

  afterAll(async() => {
    await server?.stop();
  });

  it('uploads an image: re-encoded without EXIF, turned upright, with a thumbnail and a blurhash; its owner alone reads it', async() => {
    const media = await masto.alice.v2.media.create({ file: await photoBlob(),
      description: 'a red square' });
    expect(media).toMatchObject({ type: 'image', description: 'a red square', remoteUrl: null,
      meta: { original: { width: 32, height: 64 }, small: { width: 32, height: 64 } } });
    expect(media.blurhash).toMatch(/^[0-9A-Za-z#$%*+,\-.:;=?@[\]^_{|}~]{6,}$/u);
    expect(media.url).toMatch(new RegExp(`^${server.baseUrl}pods/alice/media/${media.id}\\.jpg$`, 'u'));
    expect(media.previewUrl).toBe(`${server.baseUrl}pods/alice/media/${media.id}-small.jpg`);

    const response = await fetch(media.url!, { headers: { authorization: `Bearer ${tokens.alice}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = Buffer.from(await response.arrayBuffer());
    const stored = await sharp(bytes).metadata();
    expect(stored).toMatchObject({ format: 'jpeg', width: 32, height: 64 });
    expect(stored.exif).toBeUndefined();
    expect(stored.orientation).toBeUndefined();
    expect(bytes.includes('secret place')).toBe(false);

    // Revalidation (the files are no-cache): a 304 without the bytes to the uploader, still a 404 to others.
    const eTag = response.headers.get('etag');
    expect(eTag).toMatch(/^"\d+-image\/jpeg"$/u);
    expect(response.headers.get('last-modified')).toBeTruthy();
    const again = await fetch(media.previewUrl!, { headers: { authorization: `Bearer ${tokens.alice}` } });
    await again.arrayBuffer();
    const revalidated = await fetch(media.previewUrl!, { headers: { authorization: `Bearer ${tokens.alice}`,
      'if-none-match': again.headers.get('etag')! } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('cache-control')).toBe('private, no-cache');
    expect((await revalidated.arrayBuffer()).byteLength).toBe(0);
    expect((await fetch(media.previewUrl!, { headers: { authorization: `Bearer ${tokens.bob}`,
      'if-none-match': again.headers.get('etag')! } })).status).toBe(404);
    expect((await fetch(media.previewUrl!, { headers: { 'if-none-match': '*' } })).status).toBe(404);

    for (const reader of [ undefined, 'bob', 'carol' ]) {
      expect(await readStatus(media.url!, reader)).toBe(404);
      expect(await readStatus(media.previewUrl!, reader)).toBe(404);
    }
    // Nor through the Mastodon API: an upload is its uploader's.
    await expect(masto.bob.v1.media.$select(media.id).fetch()).rejects.toThrow(/Record not found/u);
    expect(await masto.alice.v1.media.$select(media.id).fetch()).toMatchObject({ id: media.id, url: media.url });
  });

  it('changes the description and focus of an unattached upload (PUT), not of an attached one', async() => {
    const media = await masto.alice.v1.media.create({ file: await photoBlob() });
    const updated = await masto.alice.v1.media.$select(media.id).update({ description: 'now described', focus: '0.5,-0.25' });
    expect(updated).toMatchObject({ description: 'now described', meta: { focus: { x: 0.5, y: -0.25 } } });
    await expect(masto.alice.v1.media.$select(media.id).update({ focus: '2,0' })).rejects.toThrow(/Focus/u);
    await masto.alice.v1.statuses.create({ status: 'focused', mediaIds: [ media.id ], visibility: 'public' });
    await expect(masto.alice.v1.media.$select(media.id).update({ description: 'too late' })).rejects.toThrow(/Record not found/u);
  });

  it('lets the audience of the post read its media: everyone, followers, addressees', async() => {
    const image = async(): Promise<mastodon.v1.MediaAttachment> =>
      masto.alice.v2.media.create({ file: await photoBlob(), description: 'shared' });
    const [ forAll, forFollowers, forBob ] = [ await image(), await image(), await image() ];
    const publicPost = await masto.alice.v1.statuses.create({ status: 'public picture', mediaIds: [ forAll.id ], visibility: 'public' });
    const privatePost = await masto.alice.v1.statuses.create({ status: 'for followers', mediaIds: [ forFollowers.id ], visibility: 'private' });
    const directPost = await masto.alice.v1.statuses.create({ status: '@bob for you', mediaIds: [ forBob.id ], visibility: 'direct' });
    expect(publicPost.mediaAttachments).toEqual([ expect.objectContaining({ id: forAll.id, type: 'image', url: forAll.url,
      previewUrl: forAll.previewUrl, remoteUrl: null, description: 'shared', blurhash: forAll.blurhash,
      meta: expect.objectContaining({ original: expect.objectContaining({ width: 32, height: 64 }) }) }) ]);

    for (const reader of [ undefined, 'bob', 'carol' ]) {
      expect(await readStatus(forAll.url!, reader)).toBe(200);
      expect(await readStatus(forAll.previewUrl!, reader)).toBe(200);
    }
    expect(await readStatus(forFollowers.url!, 'bob')).toBe(200);
    expect(await readStatus(forBob.url!, 'bob')).toBe(200);
    for (const reader of [ undefined, 'carol' ]) {
      expect(await readStatus(forFollowers.url!, reader)).toBe(404);
      expect(await readStatus(forBob.url!, reader)).toBe(404);
      expect(await readStatus(forBob.previewUrl!, reader)).toBe(404);
    }
    // Bob sees the attachment in his timeline; carol cannot read the post at all.
    expect((await masto.bob.v1.statuses.$select(directPost.id).fetch()).mediaAttachments[0]).toMatchObject({ id: forBob.id });
    await expect(masto.carol.v1.statuses.$select(privatePost.id).fetch()).rejects.toThrow(/Record not found/u);

    // The Note other servers read carries the attachment as Mastodon sends one.
    const note = await (await fetch(publicPost.uri, { headers: { accept: 'application/activity+json' } })).json() as Record<string, unknown>;
    expect([ note.attachment ].flat()).toEqual([ expect.objectContaining({ type: 'Image', mediaType: 'image/jpeg', url: forAll.url,
      name: 'shared', blurhash: forAll.blurhash, width: 32, height: 64 }) ]);

    // Once the post is deleted, its media is nobody's but the uploader's.
    await masto.alice.v1.statuses.$select(publicPost.id).remove();
    expect(await readStatus(forAll.url!, 'carol')).toBe(404);
    expect(await readStatus(forAll.url!, 'alice')).toBe(200);
  });

  it('attaches only unattached uploads of the user\'s own', async() => {
    const bobs = await masto.bob.v2.media.create({ file: await photoBlob() });
    await expect(masto.alice.v1.statuses.create({ status: 'stolen', mediaIds: [ bobs.id ] })).rejects.toThrow(/Media/u);
    await masto.bob.v1.statuses.create({ status: 'mine', mediaIds: [ bobs.id ], visibility: 'private' });
    await expect(masto.bob.v1.statuses.create({ status: 'again', mediaIds: [ bobs.id ] })).rejects.toThrow(/Media/u);
    // A status of media alone needs no text.
    const only = await masto.bob.v2.media.create({ file: await photoBlob() });
    expect((await masto.bob.v1.statuses.create({ status: '', mediaIds: [ only.id ] })).mediaAttachments).toHaveLength(1);
  });

  it('takes uploads from megalodon, and video and audio as sent', async() => {
    const path = join(tmpdir(), `fedpod-media-${process.pid}.png`);
    await writeFile(path, await sharp({ create: { width: 10, height: 10, channels: 4, background: '#00ff00' } }).png().toBuffer());
    const uploaded = (await megalodon.alice.uploadMedia(createReadStream(path), { description: 'green' })).data as { id: string; type: string; url: string | null; description: string };
    expect(uploaded).toMatchObject({ type: 'image', description: 'green' });
    expect(uploaded.url).toMatch(/\.png$/u);
    // A (tiny) MP4 by its bytes: its ftyp box; kept byte for byte.
    const mp4 = Buffer.concat([ Buffer.from([ 0, 0, 0, 0x18 ]), Buffer.from('ftypisom\u0000\u0000\u0002\u0000isomiso2', 'latin1'), Buffer.alloc(100, 7) ]);
    const video = await upload('/api/v2/media', fileForm(mp4, 'video/mp4', 'clip.mp4'));
    expect(video).toMatchObject({ status: 200, body: { type: 'video', preview_url: expect.stringMatching(/\.mp4$/u) } });
    const response = await fetch(video.body.url as string, { headers: { authorization: `Bearer ${tokens.alice}` } });
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(mp4);
  });

  it('refuses what is no accepted media, a type that lies, a decompression bomb and a file past its limit, storing nothing', async() => {
    const before = await storedFiles();
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    expect(await upload('/api/v2/media', fileForm(html, 'image/png'))).toMatchObject({ status: 422, body: { error: expect.stringMatching(/not accepted/u) } });
    // JPEG bytes sent as audio: refused, whatever the header says.
    expect(await upload('/api/v2/media', fileForm(await photo(), 'audio/mpeg'))).toMatchObject({ status: 422, body: { error: expect.stringMatching(/declared/u) } });
    expect(await upload('/api/v2/media', fileForm(pngBomb(), 'image/png'))).toMatchObject({ status: 422, body: { error: expect.stringMatching(/pixels/u) } });
    // A JPEG's first bytes, then anything: no image.
    const forged = Buffer.concat([ Buffer.from([ 0xFF, 0xD8, 0xFF, 0xE0 ]), Buffer.from('PK\u0003\u0004 not a jpeg at all', 'latin1') ]);
    expect(await upload('/api/v2/media', fileForm(forged, 'image/jpeg'))).toMatchObject({ status: 422 });
    // Past the 16 MB of images.
    const huge = Buffer.concat([ await photo(), Buffer.alloc(17 * 1024 * 1024) ]);
    expect(await upload('/api/v2/media', fileForm(huge, 'image/jpeg'))).toMatchObject({ status: 413 });
    expect(await upload('/api/v2/media', new FormData())).toMatchObject({ status: 422 });
    // A bad field after a good file: the file goes too.
    const badFocus = fileForm(await photo(), 'image/jpeg');
    badFocus.append('focus', 'left');
    expect(await upload('/api/v2/media', badFocus)).toMatchObject({ status: 422 });
    expect(await storedFiles()).toBe(before);
    // An app token without write:media is refused before anything is read.
    const anonymous = await fetch(`${url}/api/v2/media`, { method: 'POST', body: fileForm(await photo(), 'image/jpeg') });
    expect(anonymous.status).toBe(401);
    expect(await storedFiles()).toBe(before);
  });

  it('takes an upload at the actor\'s uploadMedia endpoint, the actor\'s only', async() => {
    const actor = await (await fetch(sessions.alice.webId, { headers: { accept: 'application/activity+json' } })).json() as { endpoints: Record<string, string> };
    expect(actor.endpoints.uploadMedia).toBe(`${sessions.alice.webId}/uploadMedia`);
    const form = fileForm(await photo(), 'image/jpeg', 'photo.jpg');
    form.append('object', JSON.stringify({ type: 'Image', name: 'by ActivityPub' }));
    const created = await fetch(actor.endpoints.uploadMedia, { method: 'POST', headers: { authorization: `Bearer ${sessions.alice.token}` }, body: form });
    expect(created.status).toBe(201);
    const object = await created.json() as Record<string, unknown>;
    expect(object).toMatchObject({ type: 'Image', name: 'by ActivityPub', mediaType: 'image/jpeg', attributedTo: sessions.alice.webId });
    expect(created.headers.get('location')).toBe(object.id);
    const read = await fetch(object.id as string, { headers: { authorization: `Bearer ${sessions.alice.token}` } });
    expect(await read.json()).toMatchObject({ id: object.id, url: object.url });
    expect(await readStatus(object.id as string, 'carol')).toBe(404);
    // A post through the outbox carries it like any attachment.
    expect((await postToOutbox(sessions.alice, { type: 'Note', content: 'via C2S', to: [ 'https://www.w3.org/ns/activitystreams#Public' ],
      attachment: [{ type: 'Image', mediaType: 'image/jpeg', url: object.url }] })).status).toBe(201);

    const other = fileForm(await photo(), 'image/jpeg');
    const refused = await fetch(actor.endpoints.uploadMedia, { method: 'POST', headers: { authorization: `Bearer ${sessions.carol.token}` }, body: other });
    expect(refused.status).toBe(403);
  });

  it('attaches the poster\'s uploads a Create through the outbox names: the post\'s audience reads them, nobody else', async() => {
    const form = fileForm(await photo(), 'image/jpeg', 'photo.jpg');
    form.append('object', JSON.stringify({ type: 'Image', name: 'for my followers' }));
    const byActivityPub = await (await fetch(`${sessions.alice.webId}/uploadMedia`, { method: 'POST',
      headers: { authorization: `Bearer ${sessions.alice.token}` }, body: form })).json() as { id: string; url: string };
    const byApi = await masto.alice.v2.media.create({ file: await photoBlob(), description: 'by the API' });
    const unattached = await masto.alice.v2.media.create({ file: await photoBlob() });
    for (const file of [ byActivityPub.url, byApi.url!, unattached.url! ]) {
      expect(await readStatus(file, 'bob')).toBe(404);
    }

    const posted = await postToOutbox(sessions.alice, { type: 'Note', content: 'followers only', to: [ `${sessions.alice.webId}/followers` ],
      attachment: [{ type: 'Image', url: byActivityPub.url }, { type: 'Document', url: byApi.url, name: 'renamed' }] });
    expect(posted.status).toBe(201);
    for (const file of [ byActivityPub.url, byApi.url!, byApi.previewUrl! ]) {
      expect(await readStatus(file, 'alice')).toBe(200);
      expect(await readStatus(file, 'bob')).toBe(200);
      expect(await readStatus(file, 'carol')).toBe(404);
      expect(await readStatus(file)).toBe(404);
    }
    // An upload no post names stays its owner's.
    expect(await readStatus(unattached.url!, 'bob')).toBe(404);
    expect(await readStatus(unattached.url!, 'alice')).toBe(200);
    // The post carries the attachments as the Mastodon API makes them, with the names the client gave.
    const object = (posted.body as { object: string | { id: string } }).object;
    const note = typeof object === 'string' ? object : object.id;
    const stored = await (await fetch(note, { headers: { accept: 'application/activity+json',
      authorization: `Bearer ${sessions.bob.token}` } })).json() as { attachment: Record<string, unknown>[] };
    expect(stored.attachment).toEqual([
      expect.objectContaining({ type: 'Image', url: byActivityPub.url, name: 'for my followers', mediaType: 'image/jpeg', blurhash: expect.any(String) }),
      expect.objectContaining({ type: 'Image', url: byApi.url, name: 'renamed', blurhash: byApi.blurhash }),
    ]);

    // Naming another's upload attaches nothing; an upload attached already is refused for another post.
    expect((await postToOutbox(sessions.bob, { type: 'Note', content: 'not mine', to: [ 'https://www.w3.org/ns/activitystreams#Public' ],
      attachment: [{ type: 'Image', url: unattached.url }] })).status).toBe(201);
    expect(await readStatus(unattached.url!, 'carol')).toBe(404);
    const again = await postToOutbox(sessions.alice, { type: 'Note', content: 'again', to: [ 'https://www.w3.org/ns/activitystreams#Public' ],
      attachment: [{ type: 'Image', url: byApi.url }] });
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ error: expect.any(String), message: expect.stringMatching(/attached/u) });
    expect(await readStatus(byApi.url!, 'carol')).toBe(404);
  });

  it('changes the profile with update_credentials: name, note, fields, avatar and header, sent as an Update', async() => {
    const account = await masto.alice.v1.accounts.updateCredentials({ displayName: 'Alice A.', note: 'Hi there',
      locked: false, fieldsAttributes: [{ name: 'Site', value: 'https://example.org/' }],
      avatar: await photoBlob(), header: await photoBlob() });
    expect(account).toMatchObject({ displayName: 'Alice A.', fields: [{ name: 'Site', value: 'https://example.org/' }] });
    expect(account.note).toContain('Hi there');
    expect(account.avatar).toMatch(new RegExp(`^${server.baseUrl}pods/alice/media/.+\\.jpg$`, 'u'));
    expect(account.header).toMatch(/\/pods\/alice\/media\//u);
    // The profile picture is as public as the profile; the actor document says the same.
    expect(await readStatus(account.avatar)).toBe(200);
    const actor = await (await fetch(sessions.alice.webId, { headers: { accept: 'application/activity+json' } })).json() as Record<string, unknown>;
    expect(actor).toMatchObject({ name: 'Alice A.', icon: { url: account.avatar }, image: { url: account.header } });
    // megalodon sends JSON.
    expect((await megalodon.alice.updateCredentials({ display_name: 'Alice' })).data).toMatchObject({ display_name: 'Alice', avatar: account.avatar });
    await expect(masto.alice.v1.accounts.updateCredentials({ displayName: 'x'.repeat(31) })).rejects.toThrow(/too long/u);
    // Bob reads the new profile.
    await eventually(async() => (await masto.bob.v1.accounts.$select('alice').fetch()).displayName === 'Alice');
  });

  it('keeps an answered upload through kill -9 and a restart', async() => {
    const media = await masto.alice.v2.media.create({ file: await photoBlob() });
    const before = Buffer.from(await (await fetch(media.url!, { headers: { authorization: `Bearer ${tokens.alice}` } })).arrayBuffer());
    await server.kill9();
    await server.restart();
    const after = await fetch(media.url!, { headers: { authorization: `Bearer ${tokens.alice}` } });
    expect(after.status).toBe(200);
    expect(Buffer.from(await after.arrayBuffer())).toEqual(before);
    expect(await masto.alice.v1.media.$select(media.id).fetch()).toMatchObject({ id: media.id, blurhash: media.blurhash });
  });
});
