import { BlockReceivedEffect } from '../../../../../src/plugins/activitypub/inbound/BlockReceivedEffect';
import { MemoryCollections } from './MemoryCollections';

const BASE = 'https://pod.example/';
const ALICE = `${BASE}actors/alice`;
const CAROL = 'https://remote.example/users/carol';

describe('BlockReceivedEffect', (): void => {
  it('ends the follows between the blocker and the blocked local actor, both ways', async(): Promise<void> => {
    const collections = new MemoryCollections();
    const store = collections.store();
    await store.add(`${ALICE}/followers`, CAROL);
    await store.add(`${ALICE}/following`, CAROL);
    await store.add(`${ALICE}/following`, 'https://remote.example/users/dan');
    await new BlockReceivedEffect(BASE, store).apply({ activity: { id: 'https://remote.example/blocks/1', type: 'Block', actor: CAROL,
      object: ALICE }, sender: CAROL, now: new Date() });
    expect(collections.of(`${ALICE}/followers`)).toEqual([]);
    expect(collections.of(`${ALICE}/following`)).toEqual([ 'https://remote.example/users/dan' ]);
  });

  it('changes nothing for a Block of someone elsewhere', async(): Promise<void> => {
    const collections = new MemoryCollections();
    await collections.store().add(`${ALICE}/followers`, CAROL);
    await new BlockReceivedEffect(BASE, collections.store()).apply({ activity: { id: 'https://remote.example/blocks/2', type: 'Block',
      actor: CAROL, object: 'https://third.example/users/erin' }, sender: CAROL, now: new Date() });
    expect(collections.of(`${ALICE}/followers`)).toEqual([ CAROL ]);
  });
});
