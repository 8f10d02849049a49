import type { DeliveryScheduler } from '../../../../src/plugins/activitypub/DeliveryScheduler';
import { OutboxService } from '../../../../src/plugins/activitypub/OutboxService';
import type { JsonLdParser } from '../../../../src/plugins/ldp/JsonLdParser';
import type { CollectionStore } from '../../../../src/storage/CollectionStore';
import type { ResourceGraphStore } from '../../../../src/storage/ResourceGraphStore';

const BASE = 'https://pod.example/';

describe('OutboxService', () => {
  it('refuses a post to the outbox of an actor without an actor document (a token that outlived its account), writing nothing', async() => {
    // Stand-ins recording calls: every write method must stay untouched.
    const store = {
      exists: jest.fn(async(): Promise<boolean> => false),
      createInContainer: jest.fn(), write: jest.fn(), read: jest.fn(), delete: jest.fn(),
    };
    const collections = { add: jest.fn(), remove: jest.fn() };
    const delivery = { schedule: jest.fn() };
    const service = new OutboxService(BASE, store as unknown as ResourceGraphStore, {} as JsonLdParser,
      collections as unknown as CollectionStore, delivery as unknown as DeliveryScheduler, []);
    await expect(service.post('ghost', { type: 'Note', content: 'hello', to: [ 'https://www.w3.org/ns/activitystreams#Public' ] }))
      .rejects.toMatchObject({ statusCode: 404, errorCode: 'unknown_actor' });
    expect(store.exists).toHaveBeenCalledWith(`${BASE}actors/ghost`);
    expect(store.createInContainer).not.toHaveBeenCalled();
    expect(store.write).not.toHaveBeenCalled();
    expect(collections.add).not.toHaveBeenCalled();
    expect(delivery.schedule).not.toHaveBeenCalled();
  });
});
