import type { Json } from '../../../../../src/plugins/activitypub/ActivityJson';
import { DeleteSentEffect } from '../../../../../src/plugins/activitypub/outbound/DeleteSentEffect';
import { BASE, LocalWorld, PUBLIC } from './LocalWorld';

describe('DeleteSentEffect', (): void => {
  let world: LocalWorld;
  let effect: DeleteSentEffect;
  let alice: string;

  beforeEach(async(): Promise<void> => {
    world = new LocalWorld();
    effect = new DeleteSentEffect(BASE, world.graphs.store(), world.parser, world.collections.store());
    alice = await world.addActor('alice');
  });

  it('leaves a Tombstone and takes the object out of the outbox and the featured collection', async(): Promise<void> => {
    const note = await world.addNote('n1', alice, [ PUBLIC ]);
    const create = `${BASE}activities/c1`;
    world.graphs.put(create, await world.parser.toQuads({ '@context': 'https://www.w3.org/ns/activitystreams', id: create,
      type: 'Create', actor: alice, object: note }, create));
    const store = world.collections.store();
    await store.add(`${alice}/outbox`, create);
    await store.add(`${alice}/featured`, note);
    const activity: Json = { type: 'Delete', object: { id: note }};
    await effect.apply({ activity, username: 'alice', actor: alice, now: new Date('2026-02-01T00:00:00Z') });
    expect(activity.object).toBe(note);
    const values = world.graphs.resources.get(note)!.data.map((entry): string => entry.object.value);
    expect(values).toContain('https://www.w3.org/ns/activitystreams#Tombstone');
    expect(values).not.toContain('n1');
    expect(world.collections.of(`${alice}/outbox`)).toEqual([]);
    expect(world.collections.of(`${alice}/featured`)).toEqual([]);
  });

  it('sends an unaddressed Delete to whoever received the post; an addressed one as addressed', async(): Promise<void> => {
    const followers = `${alice}/followers`;
    const note = await world.addNote('n3', alice, [ followers ]);
    const activity: Json = { type: 'Delete', object: note };
    await effect.apply({ activity, username: 'alice', actor: alice, now: new Date() });
    expect(activity.to).toEqual([ followers ]);
    const other = await world.addNote('n4', alice, [ followers ]);
    const addressed: Json = { type: 'Delete', object: other, cc: [ PUBLIC ]};
    await effect.apply({ activity: addressed, username: 'alice', actor: alice, now: new Date() });
    expect(addressed.to).toBeUndefined();
  });

  it('refuses another actor\'s object with 403, leaving it', async(): Promise<void> => {
    const note = await world.addNote('n2', `${BASE}actors/bob`, [ PUBLIC ]);
    await expect(effect.apply({ activity: { type: 'Delete', object: note }, username: 'alice', actor: alice, now: new Date() }))
      .rejects.toMatchObject({ statusCode: 403, errorCode: 'not_owner' });
    expect(world.graphs.resources.get(note)!.data.map((entry): string => entry.object.value)).toContain('n2');
  });
});
