import { BasicRepresentation, INTERNAL_QUADS, readableToString } from '@solid/community-server';
import type { ResourceStore } from '@solid/community-server';
import { ContainerInitializer } from '../../../../src/plugins/ldp/ContainerInitializer';
import { cssMemoryStore, failingCreations } from '../../support/cssMemoryStore';

const BASE = 'https://pod.example/';

describe('ContainerInitializer (on CSS\'s in-memory store)', (): void => {
  let store: ResourceStore;

  beforeEach(async(): Promise<void> => {
    store = cssMemoryStore(BASE);
    await store.setRepresentation({ path: BASE }, new BasicRepresentation([], { path: BASE }, INTERNAL_QUADS));
  });

  it('creates each configured container, with its parents, whatever its slashes', async(): Promise<void> => {
    await new ContainerInitializer('https://pod.example', store, [ 'notes/', '/activities', 'deep/er/' ]).handle();
    for (const path of [ 'notes/', 'activities/', 'deep/', 'deep/er/' ]) {
      expect(await store.hasResource({ path: `${BASE}${path}` })).toBe(true);
    }
    const listing = await store.getRepresentation({ path: BASE }, { type: { 'text/turtle': 1 }});
    expect(listing.metadata.quads().some((entry): boolean => entry.object.value === `${BASE}notes/`)).toBe(true);
    await readableToString(listing.data);
  });

  it('leaves a container that exists as it is', async(): Promise<void> => {
    await new ContainerInitializer(BASE, store, [ 'notes/' ]).handle();
    await store.setRepresentation({ path: `${BASE}notes/kept` }, new BasicRepresentation('kept', { path: `${BASE}notes/kept` }, 'text/plain'));
    await new ContainerInitializer(BASE, store, [ 'notes/' ]).handle();
    expect(await store.hasResource({ path: `${BASE}notes/kept` })).toBe(true);
  });


  it('takes a container made by another initializer meanwhile', async(): Promise<void> => {
    await expect(new ContainerInitializer(BASE, failingCreations(store, true), [ 'raced/' ]).handle()).resolves.toBeUndefined();
    expect(await store.hasResource({ path: `${BASE}raced/` })).toBe(true);
  });

  it('fails when a container could not be made and does not exist', async(): Promise<void> => {
    await expect(new ContainerInitializer(BASE, failingCreations(store, false), [ 'other/' ]).handle()).rejects.toThrow('store refused');
  });
});
