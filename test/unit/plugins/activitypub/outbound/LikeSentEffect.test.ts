import { LikeSentEffect } from '../../../../../src/plugins/activitypub/outbound/LikeSentEffect';
import { MemoryCollections } from '../inbound/MemoryCollections';

const BASE = 'https://pod.example/';

describe('LikeSentEffect', (): void => {
  it('puts the liked object in the actor\'s liked collection', async(): Promise<void> => {
    const collections = new MemoryCollections();
    const effect = new LikeSentEffect(BASE, collections.store());
    await effect.apply({ activity: { type: 'Like', object: 'https://remote.example/notes/1' }, username: 'alice',
      actor: `${BASE}actors/alice`, now: new Date() });
    expect(collections.of(`${BASE}actors/alice/liked`)).toEqual([ 'https://remote.example/notes/1' ]);
    expect(effect.types).toEqual([ 'Like' ]);
  });
});
