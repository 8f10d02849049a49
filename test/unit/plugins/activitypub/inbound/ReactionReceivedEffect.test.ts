import { ReactionReceivedEffect } from '../../../../../src/plugins/activitypub/inbound/ReactionReceivedEffect';
import { MemoryCollections } from './MemoryCollections';

const BASE = 'https://pod.example/';
const NOTE = `${BASE}objects/n1`;
const CAROL = 'https://remote.example/users/carol';

describe('ReactionReceivedEffect', (): void => {
  it.each([ [ 'Like', 'likes' ], [ 'Announce', 'shares' ], [ 'Dislike', 'dislikes' ], [ 'EmojiReact', 'reactions' ] ])(
    'records a %s of a local object in its %s', async(type, collection): Promise<void> => {
      const collections = new MemoryCollections();
      const effect = new ReactionReceivedEffect(BASE, collections.store());
      const id = `https://remote.example/${type}/1`;
      await effect.apply({ activity: { id, type, actor: CAROL, object: NOTE, content: '🐱' }, sender: CAROL, now: new Date() });
      expect(collections.of(`${NOTE}/${collection}`)).toEqual([ id ]);
      expect(effect.types).toContain(type);
    },
  );

  it('keeps reactions to other servers\' objects in the inbox only', async(): Promise<void> => {
    const collections = new MemoryCollections();
    await new ReactionReceivedEffect(BASE, collections.store()).apply({ activity: { id: 'https://remote.example/like/2', type: 'Like',
      actor: CAROL, object: 'https://third.example/notes/1' }, sender: CAROL, now: new Date() });
    expect(collections.items.size).toBe(0);
  });

  it('records a reaction whose object is embedded, by the object\'s id', async(): Promise<void> => {
    const collections = new MemoryCollections();
    await new ReactionReceivedEffect(BASE, collections.store()).apply({ activity: { id: 'https://remote.example/like/3', type: 'Like',
      actor: CAROL, object: { id: NOTE, type: 'Note' }}, sender: CAROL, now: new Date() });
    expect(collections.of(`${NOTE}/likes`)).toEqual([ 'https://remote.example/like/3' ]);
  });

  it('takes an object on a host that only begins like this server\'s for another server\'s', async(): Promise<void> => {
    const collections = new MemoryCollections();
    // Without its slash the base would be a prefix of this host too.
    await new ReactionReceivedEffect('https://pod.example', collections.store()).apply({ activity: { id: 'https://remote.example/like/4',
      type: 'Announce', actor: CAROL, object: 'https://pod.example.evil/objects/n1' }, sender: CAROL, now: new Date() });
    expect(collections.items.size).toBe(0);
  });

  it('records nothing for a reaction without an object', async(): Promise<void> => {
    const collections = new MemoryCollections();
    await new ReactionReceivedEffect(BASE, collections.store()).apply({ activity: { id: 'https://remote.example/like/5', type: 'Like',
      actor: CAROL }, sender: CAROL, now: new Date() });
    expect(collections.items.size).toBe(0);
  });
});
