import { PrometheusMetrics } from '../../../src/plugins/observability/PrometheusMetrics';
import { SparqlClient } from '../../../src/storage/SparqlClient';
import { FakeStore } from '../plugins/observability/support/FakeStore';

describe('SparqlClient metrics', (): void => {
  const store = new FakeStore();

  beforeAll(async(): Promise<void> => {
    await store.start();
  });

  afterAll(async(): Promise<void> => {
    await store.stop();
  });

  it('records the latency of queries and updates, with their outcome', async(): Promise<void> => {
    const metrics = new PrometheusMetrics(1000, 2000, false);
    const client = new SparqlClient(store.url, store.url, '', '', 5000, metrics);
    store.mode = 'ok';
    await client.ask('ASK {}');
    await client.ask('ASK {}');
    store.mode = 500;
    await expect(client.update('INSERT DATA {}')).rejects.toThrow('500');
    client.close();
    const { body } = await metrics.expose();
    expect(body).toContain('fedpod_store_request_duration_seconds_count{operation="query",outcome="ok"} 2');
    expect(body).toContain('fedpod_store_request_duration_seconds_count{operation="update",outcome="error"} 1');
  });
});
