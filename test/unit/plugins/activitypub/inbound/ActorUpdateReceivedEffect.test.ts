import type { RemoteActorCache } from '../../../../../src/plugins/activitypub/fetch/RemoteActorCache';
import { ActorUpdateReceivedEffect } from '../../../../../src/plugins/activitypub/inbound/ActorUpdateReceivedEffect';

const CAROL = 'https://remote.example/users/carol';

describe('ActorUpdateReceivedEffect', (): void => {
  it('drops the cached actor and keys when an actor updates itself, and only then', async(): Promise<void> => {
    const forgotten: string[] = [];
    const effect = new ActorUpdateReceivedEffect({ forget: (iri: string): number => forgotten.push(iri) } as unknown as RemoteActorCache);
    await effect.apply({ activity: { type: 'Update', actor: CAROL, object: { id: CAROL, type: 'Person', name: 'Carol' } }, sender: CAROL, now: new Date() });
    await effect.apply({ activity: { type: 'Update', actor: CAROL, object: { id: 'https://remote.example/notes/1', type: 'Note' } },
      sender: CAROL, now: new Date() });
    expect(forgotten).toEqual([ CAROL ]);
  });
});
