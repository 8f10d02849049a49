import { StoreReadinessCheck } from '../../../../src/plugins/observability/StoreReadinessCheck';
import { SparqlClient } from '../../../../src/storage/SparqlClient';
import { FakeStore } from './support/FakeStore';

describe('StoreReadinessCheck', (): void => {
  const store = new FakeStore();
  let client: SparqlClient;

  beforeAll(async(): Promise<void> => {
    await store.start();
    client = new SparqlClient(store.url, store.url, '', '', 5000);
  });

  afterAll(async(): Promise<void> => {
    client.close();
    await store.stop();
  });

  it('passes when the store answers an ASK, and fails when it refuses it', async(): Promise<void> => {
    const check = new StoreReadinessCheck(client);
    expect(check.name).toBe('store');
    expect(check.applies).toBe(true);
    store.mode = 'ok';
    await expect(check.check()).resolves.toBeUndefined();
    expect(store.seen.at(-1)).toBe('query');
    store.mode = 503;
    await expect(check.check()).rejects.toThrow('503');
  });

  it('fails when nothing listens at the store URL', async(): Promise<void> => {
    const gone = new SparqlClient('http://127.0.0.1:1/ds/query', 'http://127.0.0.1:1/ds/update');
    await expect(new StoreReadinessCheck(gone, 'triples').check()).rejects.toThrow();
    gone.close();
  });
});
