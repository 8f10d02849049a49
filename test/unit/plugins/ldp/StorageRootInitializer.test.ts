import type { ResourceStore } from '@solid/community-server';
import { BasicRepresentation, INTERNAL_QUADS } from '@solid/community-server';
import { StorageRootInitializer } from '../../../../src/plugins/ldp/StorageRootInitializer';
import { PIM_STORAGE, RDF_TYPE } from '../../../../src/storage/StoreVocabulary';
import { cssMemoryStore, failingCreations } from '../../support/cssMemoryStore';
import { startEmbeddedGraphs, type EmbeddedGraphs } from '../../support/embeddedGraphs';

const BASE = 'https://pod.example/';

describe('StorageRootInitializer', (): void => {
  let graphs: EmbeddedGraphs;
  let store: ResourceStore;

  beforeAll(async(): Promise<void> => {
    graphs = await startEmbeddedGraphs(BASE);
  });

  afterAll(async(): Promise<void> => {
    await graphs.stop();
  });

  beforeEach(async(): Promise<void> => {
    store = cssMemoryStore(BASE);
    await graphs.client.update('DROP ALL');
  });

  async function storageTypes(): Promise<number> {
    return (await graphs.resources.readMetadata(BASE)).filter((entry): boolean => entry.subject.value === BASE &&
      entry.predicate.value === RDF_TYPE && entry.object.value === PIM_STORAGE).length;
  }

  it('creates a missing root and types it as a storage', async(): Promise<void> => {
    await new StorageRootInitializer('https://pod.example', store, graphs.resources).handle();
    expect(await store.hasResource({ path: BASE })).toBe(true);
    expect(await storageTypes()).toBe(1);
  });

  it('types a root stored before, once however often it starts', async(): Promise<void> => {
    await store.setRepresentation({ path: BASE }, new BasicRepresentation([], { path: BASE }, INTERNAL_QUADS));
    await new StorageRootInitializer(BASE, store, graphs.resources).handle();
    await new StorageRootInitializer(BASE, store, graphs.resources).handle();
    expect(await storageTypes()).toBe(1);
  });


  it('takes a root another node made meanwhile', async(): Promise<void> => {
    await new StorageRootInitializer(BASE, failingCreations(store, true), graphs.resources).handle();
    expect(await storageTypes()).toBe(1);
  });

  it('fails, typing nothing, when the root cannot be made', async(): Promise<void> => {
    await expect(new StorageRootInitializer(BASE, failingCreations(store, false), graphs.resources).handle()).rejects.toThrow('store refused');
    expect(await storageTypes()).toBe(0);
  });
});
