import type { Json } from '../../../../src/plugins/activitypub/ActivityJson';
import { ActivityRepository } from '../../../../src/plugins/activitypub/ActivityRepository';
import { ActivityStreamsSerializer } from '../../../../src/plugins/activitypub/ActivityStreamsSerializer';
import { DocumentLoader } from '../../../../src/plugins/ldp/DocumentLoader';
import { JsonLdParser } from '../../../../src/plugins/ldp/JsonLdParser';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../../support/embeddedGraphs';

const BASE = 'https://pod.example/';
const AS = 'https://www.w3.org/ns/activitystreams';
const CAROL = 'https://remote.example/users/carol';
const RECEIVED = new Date('2026-04-01T12:00:00.000Z');

describe('ActivityRepository (on the embedded store)', (): void => {
  let graphs: EmbeddedGraphs;
  let activities: ActivityRepository;
  let parser: JsonLdParser;
  let counter = 0;
  /** A fresh remote id for each use. */
  const remote = (kind: string): string => {
    counter += 1;
    return `https://remote.example/${kind}/${counter}`;
  };

  beforeAll(async(): Promise<void> => {
    graphs = await startEmbeddedGraphs(BASE);
    const loader = new DocumentLoader(BASE);
    parser = new JsonLdParser(BASE, loader);
    activities = new ActivityRepository(graphs.resources, parser, new ActivityStreamsSerializer(loader));
  });

  afterAll(async(): Promise<void> => {
    await graphs.stop();
  });

  function create(id: string, note: Json): Json {
    return { '@context': AS, id, type: 'Create', actor: CAROL, to: [ `${AS}#Public` ], object: note };
  }

  it('stores a remote Create with its Note under the Note\'s own id, and reads it back embedded', async(): Promise<void> => {
    const id = remote('create');
    const noteId = remote('note');
    await activities.storeRemote(create(id, { id: noteId, type: 'Note', content: 'hello', attributedTo: CAROL }), RECEIVED, true, false);
    const read = await activities.read(id);
    expect(read).toMatchObject({ id, type: 'Create', actor: CAROL, object: { id: noteId, type: 'Note', content: 'hello' }});
    expect(read!['@context']).toContain(AS);
    expect(await activities.read(noteId)).toMatchObject({ id: noteId, type: 'Note', content: 'hello', attributedTo: CAROL });
    expect(await activities.exists(noteId)).toBe(true);
  });

  it('keeps a text and its language-tagged copy (Mastodon\'s content and contentMap)', async(): Promise<void> => {
    const id = remote('create');
    const noteId = remote('note');
    await activities.storeRemote(create(id, { id: noteId, type: 'Note', content: '<p>hi</p>', contentMap: { en: '<p>hi</p>' },
      attributedTo: CAROL }), RECEIVED, true, false);
    expect(await activities.read(noteId)).toMatchObject({ content: '<p>hi</p>', contentMap: { en: '<p>hi</p>' }});
    expect(await activities.read(id)).toMatchObject({ object: { content: '<p>hi</p>', contentMap: { en: '<p>hi</p>' }}});
  });

  it('keeps only the reference to an object the sender may not speak for', async(): Promise<void> => {
    const id = remote('announce');
    const noteId = remote('note');
    await activities.storeRemote({ '@context': AS, id, type: 'Announce', actor: CAROL,
      object: { id: noteId, type: 'Note', content: 'not theirs' }}, RECEIVED, false);
    expect(await activities.exists(noteId)).toBe(false);
    expect((await activities.read(id))!.object).toBe(noteId);
  });

  it('embeds the object of a Create, Update, Accept, Reject or Undo only, and only when stored here', async(): Promise<void> => {
    const noteId = remote('note');
    await activities.storeRemote(create(remote('create'), { id: noteId, type: 'Note', content: 'x' }), RECEIVED, true, false);
    const like = remote('like');
    await activities.storeRemote({ '@context': AS, id: like, type: 'Like', actor: CAROL, object: noteId }, RECEIVED, false, false);
    expect((await activities.read(like))!.object).toBe(noteId);
    const undo = remote('undo');
    await activities.storeRemote({ '@context': AS, id: undo, type: 'Undo', actor: CAROL, object: like }, RECEIVED, false, false);
    expect((await activities.read(undo))!.object).toMatchObject({ id: like, type: 'Like', object: noteId });
    const accept = remote('accept');
    const missing = remote('follow');
    await activities.storeRemote({ '@context': AS, id: accept, type: 'Accept', actor: CAROL, object: missing }, RECEIVED, false, false);
    expect((await activities.read(accept))!.object).toBe(missing);
  });

  it('reads nothing of what is not stored', async(): Promise<void> => {
    expect(await activities.read(remote('absent'))).toBeUndefined();
    expect(await activities.exists(remote('absent'))).toBe(false);
  });

  it('tracks whether a received activity\'s side effects are done', async(): Promise<void> => {
    const id = remote('follow');
    expect(await activities.receivedState(id)).toBe('absent');
    await activities.storeRemote({ '@context': AS, id, type: 'Follow', actor: CAROL, object: `${BASE}actors/alice` }, RECEIVED, false);
    expect(await activities.receivedState(id)).toBe('pending');
    await graphs.resources.writeMany([ activities.doneWrite(id, RECEIVED) ]);
    expect(await activities.receivedState(id)).toBe('done');
    // The activity itself is untouched by the mark.
    expect(await activities.read(id)).toMatchObject({ id, type: 'Follow', object: `${BASE}actors/alice` });
    const quiet = remote('create');
    await activities.storeRemote(create(quiet, { id: remote('note'), type: 'Note', content: 'x' }), RECEIVED, true, false);
    expect(await activities.receivedState(quiet)).toBe('done');
  });

  it('reads many at once, each as read() gives it, leaving out what is not stored', async(): Promise<void> => {
    const noteId = remote('note');
    const createId = remote('create');
    await activities.storeRemote(create(createId, { id: noteId, type: 'Note', content: 'many' }), RECEIVED, true, false);
    const likeId = remote('like');
    await activities.storeRemote({ '@context': AS, id: likeId, type: 'Like', actor: CAROL, object: noteId }, RECEIVED, false, false);
    const absent = remote('absent');
    const many = await activities.readMany([ createId, likeId, absent, noteId ]);
    expect([ ...many.keys() ].sort()).toEqual([ createId, likeId, noteId ].sort());
    expect(many.get(createId)).toEqual(await activities.read(createId));
    expect(many.get(likeId)).toEqual(await activities.read(likeId));
    expect((many.get(createId)!.object as Json).content).toBe('many');
    expect((await activities.readMany([])).size).toBe(0);
  });

  it('replaces a stored remote object by a Tombstone, and leaves alone one that is not stored', async(): Promise<void> => {
    const noteId = remote('note');
    await activities.storeRemote(create(remote('create'), { id: noteId, type: 'Note', content: 'gone soon' }), RECEIVED, true, false);
    const deleted = new Date('2026-04-02T00:00:00.000Z');
    await activities.tombstone(noteId, deleted);
    const read = await activities.read(noteId);
    expect(read).toMatchObject({ id: noteId, type: 'Tombstone' });
    expect(read!.content).toBeUndefined();
    expect(new Date(read!.deleted as string).toISOString()).toBe(deleted.toISOString());
    const never = remote('note');
    await activities.tombstone(never, deleted);
    expect(await activities.exists(never)).toBe(false);
  });
});
