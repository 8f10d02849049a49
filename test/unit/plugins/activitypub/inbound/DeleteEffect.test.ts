import type { ActivityRepository } from '../../../../../src/plugins/activitypub/ActivityRepository';
import { DeleteEffect } from '../../../../../src/plugins/activitypub/inbound/DeleteEffect';

describe('DeleteEffect', (): void => {
  it('turns the stored copy of the object into a Tombstone, whether the object is given by id or embedded', async(): Promise<void> => {
    const tombstoned: string[] = [];
    const activities = { tombstone: async(iri: string): Promise<void> => {
      tombstoned.push(iri);
    } } as unknown as ActivityRepository;
    const effect = new DeleteEffect(activities);
    const now = new Date();
    await effect.apply({ activity: { type: 'Delete', object: 'https://remote.example/notes/1' }, sender: 'https://remote.example/u/c', now });
    await effect.apply({ activity: { type: 'Delete', object: { id: 'https://remote.example/notes/2', type: 'Tombstone' } },
      sender: 'https://remote.example/u/c', now });
    await effect.apply({ activity: { type: 'Delete' }, sender: 'https://remote.example/u/c', now });
    expect(tombstoned).toEqual([ 'https://remote.example/notes/1', 'https://remote.example/notes/2' ]);
  });
});
