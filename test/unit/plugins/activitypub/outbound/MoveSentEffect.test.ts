import type { Json } from '../../../../../src/plugins/activitypub/ActivityJson';
import type { RemoteActorCache } from '../../../../../src/plugins/activitypub/fetch/RemoteActorCache';
import { RemoteFetchError } from '../../../../../src/plugins/activitypub/fetch/FetchErrors';
import { MoveSentEffect } from '../../../../../src/plugins/activitypub/outbound/MoveSentEffect';
import { BASE, LocalWorld } from './LocalWorld';

const NEW_HOME = 'https://new.example/users/alice';

describe('MoveSentEffect', (): void => {
  let world: LocalWorld;
  let effect: MoveSentEffect;
  let alice: string;
  let remote: Json;
  const refreshed: string[] = [];

  beforeEach(async(): Promise<void> => {
    world = new LocalWorld();
    remote = { id: NEW_HOME, type: 'Person', inbox: `${NEW_HOME}/inbox` };
    refreshed.length = 0;
    // Stand-in for the fetching cache: one remote account, or a network failure for any other.
    const actors = { getActor: async(iri: string, options: { refresh?: boolean }): Promise<Json> => {
      refreshed.push(`${iri} ${String(options.refresh)}`);
      if (iri !== NEW_HOME) {
        throw new RemoteFetchError('connection refused', true, 'ECONNREFUSED');
      }
      return remote;
    } } as unknown as RemoteActorCache;
    effect = new MoveSentEffect(BASE, world.profiles, actors);
    alice = await world.addActor('alice');
  });

  async function move(target: string): Promise<Json> {
    const activity: Json = { type: 'Move', object: alice, target };
    await effect.apply({ activity, username: 'alice', actor: alice, now: new Date() });
    return activity;
  }

  it('moves to an account that names this one in alsoKnownAs, read afresh, and tells the followers', async(): Promise<void> => {
    remote.alsoKnownAs = [ alice ];
    expect(await move(NEW_HOME)).toMatchObject({ to: [ `${alice}/followers` ]});
    expect(refreshed).toEqual([ `${NEW_HOME} true` ]);
    expect((await world.profiles.read(alice))!.movedTo).toBe(NEW_HOME);
  });

  it('moves to a local account the same way', async(): Promise<void> => {
    const bob = await world.addActor('bob');
    await world.profiles.change(bob, await world.profiles.parse(bob, { alsoKnownAs: [ alice ]}), new Date());
    await move(bob);
    expect((await world.profiles.read(alice))!.movedTo).toBe(bob);
  });

  it.each([
    [ 'an account that does not name it', NEW_HOME ],
    [ 'an account that cannot be read', 'https://down.example/users/alice' ],
    [ 'a local account that does not exist', `${BASE}actors/nobody` ],
  ])('refuses a move to %s with 400, changing nothing', async(what, target): Promise<void> => {
    await expect(move(target)).rejects.toMatchObject({ statusCode: 400 });
    expect((await world.profiles.read(alice))!.movedTo).toBeUndefined();
  });

  it('refuses to move another actor or to move nowhere', async(): Promise<void> => {
    for (const activity of [ { type: 'Move', object: `${BASE}actors/bob`, target: NEW_HOME }, { type: 'Move', object: alice },
      { type: 'Move', object: alice, target: alice } ]) {
      await expect(effect.apply({ activity, username: 'alice', actor: alice, now: new Date() }))
        .rejects.toMatchObject({ statusCode: 400, errorCode: 'invalid_activity' });
    }
  });
});
