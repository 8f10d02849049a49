import type { Json } from '../../../../../src/plugins/activitypub/ActivityJson';
import type { RemoteActor, RemoteActorCache } from '../../../../../src/plugins/activitypub/fetch/RemoteActorCache';
import { MoveReceivedEffect } from '../../../../../src/plugins/activitypub/inbound/MoveReceivedEffect';
import type { OutboxService } from '../../../../../src/plugins/activitypub/outbound/OutboxService';
import { MemoryCollections } from './MemoryCollections';

const BASE = 'https://pod.example/';
const OLD = 'https://old.example/users/carol';
const NEW = 'https://new.example/users/carol';

describe('MoveReceivedEffect', (): void => {
  let collections: MemoryCollections;
  let posted: [string, Json][];
  let published: Record<string, RemoteActor>;
  let effect: MoveReceivedEffect;
  const move = (target = NEW): Json => ({ id: 'https://old.example/moves/1', type: 'Move', actor: OLD, object: OLD, target });

  beforeEach(async(): Promise<void> => {
    collections = new MemoryCollections();
    posted = [];
    published = { [NEW]: { id: NEW, inbox: `${NEW}/inbox`, alsoKnownAs: [ OLD ]}};
    const actors = { getActor: async(iri: string): Promise<RemoteActor> => published[iri] } as unknown as RemoteActorCache;
    const outbox = { post: async(username: string, body: Json): Promise<unknown> => posted.push([ username, body ]) } as unknown as OutboxService;
    const store = collections.store();
    effect = new MoveReceivedEffect(BASE, actors, store, outbox);
    await collections.store().add(`${BASE}actors/alice/following`, OLD);
    await collections.store().add(`${BASE}actors/bob/following`, OLD);
    await collections.store().add(`${BASE}actors/bob/followers`, OLD);
  });

  it('makes every local follower of the old account follow the new one, and leave the old', async(): Promise<void> => {
    await effect.apply({ activity: move(), sender: OLD, now: new Date() });
    expect(posted.map(([ username ]): string => username).sort()).toEqual([ 'alice', 'bob' ]);
    expect(posted[0][1]).toEqual({ type: 'Follow', object: NEW, to: [ NEW ]});
    expect(collections.of(`${BASE}actors/alice/following`)).toEqual([]);
    expect(collections.of(`${BASE}actors/bob/following`)).toEqual([]);
    // Only follows move: the old account stays among bob's followers until it leaves itself.
    expect(collections.of(`${BASE}actors/bob/followers`)).toEqual([ OLD ]);
  });

  it('refuses, with the reason, a target that does not name the old account in alsoKnownAs', async(): Promise<void> => {
    published[NEW] = { id: NEW, inbox: `${NEW}/inbox`, alsoKnownAs: [ 'https://elsewhere.example/u/x' ]};
    await expect(effect.apply({ activity: move(), sender: OLD, now: new Date() })).rejects.toThrow('does not name');
    expect(posted).toEqual([]);
    expect(collections.of(`${BASE}actors/alice/following`)).toEqual([ OLD ]);
  });

  it('refuses a Move of someone else, or to nowhere', async(): Promise<void> => {
    await expect(effect.apply({ activity: { ...move(), object: 'https://old.example/users/dan' }, sender: OLD, now: new Date() }))
      .rejects.toThrow('moves only itself');
    await expect(effect.apply({ activity: move(OLD), sender: OLD, now: new Date() })).rejects.toThrow('moves only itself');
    expect(posted).toEqual([]);
  });
});
