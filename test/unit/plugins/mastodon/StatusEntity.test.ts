import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Json } from '../../../../src/plugins/activitypub/ActivityJson';
import { ActivityStreamsSerializer } from '../../../../src/plugins/activitypub/ActivityStreamsSerializer';
import { DocumentLoader } from '../../../../src/plugins/ldp/DocumentLoader';
import { JsonLdParser } from '../../../../src/plugins/ldp/JsonLdParser';
import type { MastodonAccount } from '../../../../src/plugins/mastodon/AccountEntity';
import { toStatus, visibilityOf } from '../../../../src/plugins/mastodon/StatusEntity';

const BASE = 'https://pod.example/';
const FIXTURES = path.join(__dirname, '../../../fixtures/fediverse');
const loader = new DocumentLoader(BASE);
const parser = new JsonLdParser(BASE, loader);
const serializer = new ActivityStreamsSerializer(loader);

function fixture(name: string): Json {
  return JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8')) as Json;
}

/** The object of a captured activity (or the object itself) as the store gives it back: parsed, stored as quads, read as JSON. */
async function stored(name: string): Promise<Json> {
  const document = fixture(name);
  const object = (document.type === 'Create' ? { '@context': document['@context'], ...document.object as Json } : document);
  const id = object.id as string;
  return await serializer.toJson(await parser.toQuads(object, id, { lenient: true, fediverse: true }), id) as Json;
}

const account = (uri: string): MastodonAccount => ({ id: 'a1', uri } as MastodonAccount);

describe('the Status entity, from stored objects captured from other servers', (): void => {
  it('maps a Mastodon reply with a mention: unlisted (Public in cc), content, language, reply', async(): Promise<void> => {
    const note = await stored('mastodon/create_note.json');
    const status = toStatus(note, { id: 's1', account: account('https://mastodon.madrid/users/felix'), inReplyToId: 's0' });
    expect(status).toMatchObject({
      id: 's1',
      uri: 'https://mastodon.madrid/users/felix/statuses/107224289116410645',
      url: 'https://mastodon.madrid/@felix/107224289116410645',
      created_at: '2021-11-05T11:46:50Z',
      visibility: 'unlisted',
      sensitive: false,
      spoiler_text: '',
      language: 'en',
      in_reply_to_id: 's0',
      reblog: null,
      poll: null,
      media_attachments: [],
      favourited: false,
    });
    expect(status.content).toContain('i have never been disappointed by a thinkpad');
  });

  it('maps a direct message: addressed to one actor only', async(): Promise<void> => {
    const note = await stored('mastodon/objects/private_message.json');
    expect(toStatus(note, { id: 's2', account: account('https://mastodon.world/users/nutomic') }).visibility).toBe('direct');
  });

  it('maps a poll from a Question', async(): Promise<void> => {
    const question = await stored('mastodon-x/mastodon-question-activity.json');
    const status = toStatus(question, { id: 's3', account: account('https://mastodon.sdf.org/users/rinpatch') },
      new Date('2019-05-10T12:00:00Z'));
    expect(status.visibility).toBe('public');
    expect(status.poll).toMatchObject({ id: 's3', expires_at: '2019-05-11T09:03:36Z', expired: false, multiple: false });
    expect(status.poll!.options.length).toBeGreaterThan(1);
    expect(status.poll!.options[0]).toEqual({ title: expect.any(String), votes_count: expect.any(Number) });
  });

  it('maps attachments by reference, and hashtags', async(): Promise<void> => {
    const withImage = toStatus(await stored('mastodon-x/mastodon-create-with-attachment.json'),
      { id: 's4', account: account('http://mastodon.example.org/users/admin') });
    expect(withImage.media_attachments).toEqual([{ id: 's4-0', type: 'image',
      url: 'http://mastodon.example.org/system/media_attachments/files/000/000/002/original/334ce029e7bfb920.jpg',
      preview_url: 'http://mastodon.example.org/system/media_attachments/files/000/000/002/original/334ce029e7bfb920.jpg',
      remote_url: 'http://mastodon.example.org/system/media_attachments/files/000/000/002/original/334ce029e7bfb920.jpg',
      description: null, blurhash: null, meta: {}}]);
    const tagged = toStatus(await stored('mastodon-x/mastodon-post-activity-hashtag.json'),
      { id: 's5', account: account('http://mastodon.example.org/users/admin') });
    expect(tagged.tags).toEqual([{ name: 'moo', url: 'http://mastodon.example.org/tags/moo' }]);
  });

  it('maps a Mastodon attachment with its description, blurhash, size and focal point', async(): Promise<void> => {
    const note = await stored('mastodon/objects/note_2.json');
    const [ attachment ] = toStatus(note, { id: 's6', account: account(note.attributedTo as string) }).media_attachments;
    const url = 'https://cdn.masto.host/floss/media_attachments/files/113/306/826/682/985/891/original/c8d906a2f2ab2334.jpg';
    expect(attachment).toEqual({ id: 's6-0', type: 'image', url, preview_url: url, remote_url: url,
      description: expect.stringContaining('Katie and Konqi'), blurhash: 'USQv:h-W-qI-^,W;RPs=^-R%NZxbo#sDobSc',
      meta: { original: { width: 1500, height: 1095, size: '1500x1095', aspect: 1500 / 1095 }, focus: { x: 0, y: 0 }}});
  });

  it('maps an upload of this server by its id, with its thumbnail and no remote_url', (): void => {
    const file = 'https://pod.example/pods/alice/media/0193a0b2-7c1d-7e3f-8a4b-5c6d7e8f9a0b';
    const note: Json = { id: 'https://pod.example/objects/1', type: 'Note', attributedTo: 'https://pod.example/actors/alice',
      to: [ 'https://www.w3.org/ns/activitystreams#Public' ], content: 'x',
      attachment: { type: 'Image', mediaType: 'image/png', url: `${file}.png`, width: 20, height: 10, focalPoint: [ 0.5, -0.5 ],
        icon: { type: 'Image', url: `${file}-small.jpg`, width: 20, height: 10 }}};
    const [ attachment ] = toStatus(note, { id: 's7', account: account('https://pod.example/actors/alice'), local: true }).media_attachments;
    expect(attachment).toMatchObject({ id: '0193a0b2-7c1d-7e3f-8a4b-5c6d7e8f9a0b', url: `${file}.png`, preview_url: `${file}-small.jpg`,
      remote_url: null, meta: { original: { width: 20, height: 10 }, small: { width: 20, height: 10 }, focus: { x: 0.5, y: -0.5 }}});
  });

  it('takes a content warning as spoiler_text, and marks the status sensitive', (): void => {
    const status = toStatus({ id: 'https://pod.example/objects/n', type: 'Note', summary: 'cw', content: '<p>x</p>',
      to: 'https://www.w3.org/ns/activitystreams#Public' }, { id: 'n', account: account('https://pod.example/actors/alice') });
    expect(status).toMatchObject({ spoiler_text: 'cw', sensitive: true, visibility: 'public' });
  });

  it('reads the sensitive flag as a stored object with an RDF list gives it back (a typed literal)', (): void => {
    const note = (sensitive: unknown): Json => ({ id: 'https://pod.example/objects/n', type: 'Note', content: '<p>x</p>', sensitive,
      to: 'https://www.w3.org/ns/activitystreams#Public' });
    const context = { id: 'n', account: account('https://pod.example/actors/alice') };
    expect(toStatus(note({ type: 'xsd:boolean', '@value': 'true' }), context).sensitive).toBe(true);
    expect(toStatus(note({ type: 'xsd:boolean', '@value': 'false' }), context).sensitive).toBe(false);
    expect(toStatus(note(true), context).sensitive).toBe(true);
    expect(toStatus(note('yes'), context).sensitive).toBe(false);
  });

  it.each([
    [{ to: [ 'as:Public' ] }, 'public'],
    [{ to: [ 'https://pod.example/actors/alice/followers' ], cc: [ 'https://www.w3.org/ns/activitystreams#Public' ] }, 'unlisted'],
    [{ to: [ 'https://pod.example/actors/alice/followers' ], cc: [ 'https://pod.example/actors/bob' ] }, 'private'],
    [{ to: [ 'https://pod.example/actors/bob' ] }, 'direct'],
  ])('derives visibility from the addressing as Mastodon does: %j is %s', (addressing, visibility): void => {
    expect(visibilityOf({ attributedTo: 'https://pod.example/actors/alice', ...addressing }, undefined)).toBe(visibility);
  });
});
