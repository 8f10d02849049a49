import { GreedyReadWriteLocker, MemoryMapStorage, MemoryResourceLocker } from '@solid/community-server';
import type { Json } from '../../../../src/plugins/activitypub/ActivityJson';
import type { ActivityRepository, ReceivedState } from '../../../../src/plugins/activitypub/ActivityRepository';
import { InboxService } from '../../../../src/plugins/activitypub/InboxService';
import { InboundPermissions } from '../../../../src/plugins/activitypub/InboundPermissions';
import { FollowEffect } from '../../../../src/plugins/activitypub/inbound/FollowEffect';
import type { ActorProfiles } from '../../../../src/plugins/activitypub/ActorProfiles';
import type { OutboxService } from '../../../../src/plugins/activitypub/OutboxService';
import type { CollectionStore } from '../../../../src/storage/CollectionStore';
import type { ResourceGraphStore } from '../../../../src/storage/ResourceGraphStore';

const BASE = 'https://pod.example/';
const REMOTE = 'https://remote.example/users/carol';

/** What the store holds for activities and collections, as the inbox sees it (stand-ins: no store runs in unit tests). */
class World {
  public readonly states = new Map<string, ReceivedState>();
  public readonly collections = new Map<string, Set<string>>();
  public readonly accepts: Json[] = [];
  /** Each store call yields, as a real store round trip does, so concurrent runs interleave. */
  private async tick(): Promise<void> {
    await new Promise((resolve): void => {
      setImmediate(resolve);
    });
  }

  public service(withLocker: boolean): InboxService {
    const activities = {
      receivedState: async(id: string): Promise<ReceivedState> => {
        await this.tick();
        return this.states.get(id) ?? 'absent';
      },
      storeRemote: async(activity: Json): Promise<void> => {
        await this.tick();
        this.states.set(activity.id as string, 'pending');
      },
      markDone: async(id: string): Promise<void> => {
        await this.tick();
        this.states.set(id, 'done');
      },
    } as unknown as ActivityRepository;
    const collections = {
      add: async(collection: string, item: string): Promise<void> => {
        await this.tick();
        const items = this.collections.get(collection) ?? new Set<string>();
        items.add(item);
        this.collections.set(collection, items);
      },
      contains: async(collection: string, item: string): Promise<boolean> => {
        await this.tick();
        return this.collections.get(collection)?.has(item) ?? false;
      },
      collectionsContaining: async(): Promise<string[]> => [],
    } as unknown as CollectionStore;
    const outbox = {
      post: async(username: string, body: Json): Promise<unknown> => {
        await this.tick();
        this.accepts.push({ ...body, actor: username });
        return { id: `${BASE}activities/${this.accepts.length}` };
      },
    } as unknown as OutboxService;
    // Stand-in for the store-backed profiles: no actor here approves followers manually.
    const profiles = { values: async(): Promise<string[]> => [] } as unknown as ActorProfiles;
    const locker = withLocker ? new GreedyReadWriteLocker(new MemoryResourceLocker(), new MemoryMapStorage()) : undefined;
    return new InboxService(BASE, activities, collections, new InboundPermissions(BASE, {} as ResourceGraphStore), [ new FollowEffect(BASE, outbox, collections, profiles) ], locker);
  }
}

function follow(id: string, actor: string, object: string): Json {
  return { '@context': 'https://www.w3.org/ns/activitystreams', id, type: 'Follow', actor, object, to: [ object ]};
}

describe('InboxService', (): void => {
  it('accepts a remote Follow once when it is delivered several times at once', async(): Promise<void> => {
    const world = new World();
    // Five workers of one node at once; across nodes the locker is the Redis one (test/integration/cluster).
    const service = world.service(true);
    const activity = follow('https://remote.example/activities/1', REMOTE, `${BASE}actors/alice`);
    await Promise.all(Array.from({ length: 5 }, async(): Promise<void> => service.receive(structuredClone(activity), 'alice')));
    expect(world.accepts).toHaveLength(1);
    expect(world.states.get(activity.id as string)).toBe('done');
    expect([ ...world.collections.get(`${BASE}actors/alice/inbox`)! ]).toEqual([ activity.id ]);
    await service.receive(structuredClone(activity), 'alice');
    expect(world.accepts).toHaveLength(1);
  });

  it('runs the side effects again for an activity stored but left pending (a run cut short)', async(): Promise<void> => {
    const world = new World();
    const service = world.service(true);
    const activity = follow('https://remote.example/activities/2', REMOTE, `${BASE}actors/alice`);
    world.states.set(activity.id as string, 'pending');
    await service.receive(activity, 'alice');
    expect(world.accepts).toHaveLength(1);
    expect(world.states.get(activity.id as string)).toBe('done');
  });

  it('delivers a local Follow to its recipient once however often its job runs', async(): Promise<void> => {
    const world = new World();
    const service = world.service(true);
    const activity = follow(`${BASE}activities/3`, `${BASE}actors/bob`, `${BASE}actors/alice`);
    await Promise.all(Array.from({ length: 5 }, async(): Promise<void> => service.receiveLocal(structuredClone(activity), 'alice')));
    await service.receiveLocal(structuredClone(activity), 'alice');
    expect(world.accepts).toHaveLength(1);
    expect(world.accepts[0]).toMatchObject({ type: 'Accept', object: activity.id, actor: 'alice' });
  });

  it('needs the locker: without one, concurrent deliveries may each run the side effects', async(): Promise<void> => {
    const world = new World();
    const service = world.service(false);
    const activity = follow('https://remote.example/activities/4', REMOTE, `${BASE}actors/alice`);
    await Promise.all(Array.from({ length: 5 }, async(): Promise<void> => service.receive(structuredClone(activity), 'alice')));
    expect(world.accepts.length).toBeGreaterThan(1);
  });

  it('refuses two effects registered for one type, naming them', (): void => {
    const outbox = {} as OutboxService;
    expect((): InboxService => new InboxService(BASE, {} as ActivityRepository, {} as CollectionStore, {} as InboundPermissions,
      [ new FollowEffect(BASE, outbox, {} as CollectionStore, {} as ActorProfiles),
        new FollowEffect(BASE, outbox, {} as CollectionStore, {} as ActorProfiles) ])).toThrow('Two inbound effects for Follow: FollowEffect and FollowEffect');
  });
});
