import type { Json } from '../../../../../src/plugins/activitypub/ActivityJson';
import type { ActivityRepository } from '../../../../../src/plugins/activitypub/ActivityRepository';
import { UndoReceivedEffect } from '../../../../../src/plugins/activitypub/inbound/UndoReceivedEffect';
import { MemoryCollections } from './MemoryCollections';

const BASE = 'https://pod.example/';
const ALICE = `${BASE}actors/alice`;
const NOTE = `${BASE}objects/n1`;
const CAROL = 'https://remote.example/users/carol';

describe('UndoReceivedEffect', (): void => {
  let collections: MemoryCollections;
  let effect: UndoReceivedEffect;
  const stored = new Map<string, Json>([ [ 'https://remote.example/react/1', { id: 'https://remote.example/react/1', type: 'EmojiReact', actor: CAROL, object: NOTE } ] ]);
  const activities = { read: async(iri: string): Promise<Json | undefined> => stored.get(iri) } as unknown as ActivityRepository;

  beforeEach(async(): Promise<void> => {
    collections = new MemoryCollections();
    effect = new UndoReceivedEffect(BASE, activities, collections.store());
    await collections.store().add(`${ALICE}/followers`, CAROL);
    await collections.store().add(`${NOTE}/reactions`, 'https://remote.example/react/1');
    await collections.store().add(`${NOTE}/dislikes`, 'https://remote.example/dislike/1');
  });

  it('takes the follower out of followers on Undo of their Follow', async(): Promise<void> => {
    await effect.apply({ activity: { type: 'Undo', actor: CAROL, object: { id: 'https://remote.example/f/1', type: 'Follow', actor: CAROL, object: ALICE } },
      sender: CAROL, now: new Date() });
    expect(collections.of(`${ALICE}/followers`)).toEqual([]);
  });

  it('takes a reaction out of its collection, the undone activity embedded or stored', async(): Promise<void> => {
    await effect.apply({ activity: { type: 'Undo', actor: CAROL, object: 'https://remote.example/react/1' }, sender: CAROL, now: new Date() });
    expect(collections.of(`${NOTE}/reactions`)).toEqual([]);
    await effect.apply({ activity: { type: 'Undo', actor: CAROL, object: { id: 'https://remote.example/dislike/1', type: 'Dislike', actor: CAROL, object: NOTE } },
      sender: CAROL, now: new Date() });
    expect(collections.of(`${NOTE}/dislikes`)).toEqual([]);
  });

  it('undoes nothing of someone else\'s', async(): Promise<void> => {
    const mallory = 'https://evil.example/u/m';
    await effect.apply({ activity: { type: 'Undo', actor: mallory, object: { id: 'https://remote.example/f/1', type: 'Follow', actor: CAROL, object: ALICE } },
      sender: mallory, now: new Date() });
    await effect.apply({ activity: { type: 'Undo', actor: mallory, object: 'https://remote.example/react/1' }, sender: mallory, now: new Date() });
    expect(collections.of(`${ALICE}/followers`)).toEqual([ CAROL ]);
    expect(collections.of(`${NOTE}/reactions`)).toEqual([ 'https://remote.example/react/1' ]);
  });

  it.each([ [ 'Like', 'likes' ], [ 'Announce', 'shares' ] ])('takes an undone %s out of the object\'s %s', async(type, name): Promise<void> => {
    const reaction = `https://remote.example/${type}/9`;
    await collections.store().add(`${NOTE}/${name}`, reaction);
    await collections.store().add(`${NOTE}/${name}`, 'https://remote.example/other/1');
    await effect.apply({ activity: { type: 'Undo', actor: CAROL, object: { id: reaction, type, actor: CAROL, object: NOTE }},
      sender: CAROL, now: new Date() });
    expect(collections.of(`${NOTE}/${name}`)).toEqual([ 'https://remote.example/other/1' ]);
  });

  it('does nothing for an undone activity it cannot find, nor for types without a collection', async(): Promise<void> => {
    await effect.apply({ activity: { type: 'Undo', actor: CAROL, object: 'https://remote.example/unknown/1' }, sender: CAROL, now: new Date() });
    await effect.apply({ activity: { type: 'Undo', actor: CAROL }, sender: CAROL, now: new Date() });
    await effect.apply({ activity: { type: 'Undo', actor: CAROL, object: { id: 'https://remote.example/c/1', type: 'Create', actor: CAROL,
      object: NOTE }}, sender: CAROL, now: new Date() });
    expect(collections.of(`${ALICE}/followers`)).toEqual([ CAROL ]);
    expect(collections.of(`${NOTE}/reactions`)).toEqual([ 'https://remote.example/react/1' ]);
    expect(collections.of(`${NOTE}/dislikes`)).toEqual([ 'https://remote.example/dislike/1' ]);
  });

  it('leaves followers alone on Undo of a Follow of another server\'s actor', async(): Promise<void> => {
    await effect.apply({ activity: { type: 'Undo', actor: CAROL, object: { id: 'https://remote.example/f/2', type: 'Follow', actor: CAROL,
      object: 'https://third.example/users/alice' }}, sender: CAROL, now: new Date() });
    expect(collections.of(`${ALICE}/followers`)).toEqual([ CAROL ]);
  });
});
