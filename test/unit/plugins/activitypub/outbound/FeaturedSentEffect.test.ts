import type { Json } from '../../../../../src/plugins/activitypub/ActivityJson';
import { FeaturedSentEffect } from '../../../../../src/plugins/activitypub/outbound/FeaturedSentEffect';
import { BASE, LocalWorld, PUBLIC } from './LocalWorld';

describe('FeaturedSentEffect', (): void => {
  let world: LocalWorld;
  let effect: FeaturedSentEffect;
  let alice: string;
  let featured: string;

  beforeEach(async(): Promise<void> => {
    world = new LocalWorld();
    effect = new FeaturedSentEffect(BASE, world.graphs.store(), world.collections.store(), world.profiles);
    alice = await world.addActor('alice');
    featured = `${alice}/featured`;
  });

  async function send(activity: Json): Promise<Json> {
    await effect.apply({ activity, username: 'alice', actor: alice, now: new Date() });
    return activity;
  }

  it('pins an own public object and unpins it, addressed to Public and followers', async(): Promise<void> => {
    const note = await world.addNote('n1', alice, [ PUBLIC ]);
    expect(await send({ type: 'Add', object: note, target: featured })).toMatchObject({ to: [ PUBLIC ], cc: [ `${alice}/followers` ]});
    expect(world.collections.of(featured)).toEqual([ note ]);
    await send({ type: 'Remove', object: note, target: featured });
    expect(world.collections.of(featured)).toEqual([]);
  });

  it('gives an actor without a featured property one with its first pin', async(): Promise<void> => {
    const graph = world.graphs.resources.get(alice)!;
    graph.data = graph.data.filter((entry): boolean => !entry.predicate.value.endsWith('#featured'));
    expect((await world.profiles.read(alice))!.featured).toBeUndefined();
    await send({ type: 'Add', object: await world.addNote('n2', alice, [ PUBLIC ]), target: featured });
    expect((await world.profiles.read(alice))!.featured).toBe(featured);
  });

  it('refuses non-public and other actors\' objects, pinning nothing', async(): Promise<void> => {
    const hidden = await world.addNote('n3', alice, [ `${alice}/followers` ]);
    await expect(send({ type: 'Add', object: hidden, target: featured })).rejects.toMatchObject({ statusCode: 400, errorCode: 'not_public' });
    const others = await world.addNote('n4', `${BASE}actors/bob`, [ PUBLIC ]);
    await expect(send({ type: 'Add', object: others, target: featured })).rejects.toMatchObject({ statusCode: 403 });
    expect(world.collections.of(featured)).toEqual([]);
  });

  it('leaves Add and Remove with other targets alone', async(): Promise<void> => {
    const activity = await send({ type: 'Add', object: 'https://remote.example/notes/1', target: 'https://remote.example/albums/1' });
    expect(activity.to).toBeUndefined();
    expect(world.collections.items.size).toBe(0);
  });
});
