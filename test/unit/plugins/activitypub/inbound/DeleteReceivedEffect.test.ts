import type { ActivityRepository } from '../../../../../src/plugins/activitypub/ActivityRepository';
import type { RemoteActorCache } from '../../../../../src/plugins/activitypub/fetch/RemoteActorCache';
import { DeleteReceivedEffect } from '../../../../../src/plugins/activitypub/inbound/DeleteReceivedEffect';
import { MemoryCollections } from './MemoryCollections';

const BASE = 'https://pod.example/';
const CAROL = 'https://remote.example/users/carol';

describe('DeleteReceivedEffect', (): void => {
  let tombstoned: string[];
  let forgotten: string[];
  let collections: MemoryCollections;
  let effect: DeleteReceivedEffect;

  beforeEach((): void => {
    tombstoned = [];
    forgotten = [];
    collections = new MemoryCollections();
    const activities = { tombstone: async(iri: string): Promise<void> => {
      tombstoned.push(iri);
    } } as unknown as ActivityRepository;
    const actors = { forget: (iri: string): number => forgotten.push(iri) } as unknown as RemoteActorCache;
    const store = collections.store();
    effect = new DeleteReceivedEffect(activities, store, actors);
  });

  it('turns the stored copy of the object into a Tombstone, whether the object is given by id or embedded', async(): Promise<void> => {
    const now = new Date();
    await effect.apply({ activity: { type: 'Delete', object: 'https://remote.example/notes/1' }, sender: CAROL, now });
    await effect.apply({ activity: { type: 'Delete', object: { id: 'https://remote.example/notes/2', type: 'Tombstone' } }, sender: CAROL, now });
    await effect.apply({ activity: { type: 'Delete' }, sender: CAROL, now });
    expect(tombstoned).toEqual([ 'https://remote.example/notes/1', 'https://remote.example/notes/2' ]);
  });

  it('takes an actor that deletes itself out of every followers and following, and out of the cache', async(): Promise<void> => {
    await collections.store().add(`${BASE}actors/alice/followers`, CAROL);
    await collections.store().add(`${BASE}actors/bob/following`, CAROL);
    await collections.store().add(`${BASE}actors/bob/followers`, 'https://remote.example/users/dan');
    await effect.apply({ activity: { type: 'Delete', actor: CAROL, object: CAROL }, sender: CAROL, now: new Date() });
    expect(collections.of(`${BASE}actors/alice/followers`)).toEqual([]);
    expect(collections.of(`${BASE}actors/bob/following`)).toEqual([]);
    expect(collections.of(`${BASE}actors/bob/followers`)).toEqual([ 'https://remote.example/users/dan' ]);
    expect(forgotten).toEqual([ CAROL ]);
    expect(tombstoned).toEqual([]);
  });
});
