import { MetricsInitializer } from '../../../../src/plugins/observability/MetricsInitializer';
import { PrometheusMetrics } from '../../../../src/plugins/observability/PrometheusMetrics';
import { ToggledMetrics } from '../../../../src/plugins/observability/ToggledMetrics';

function record(metrics: ToggledMetrics): void {
  metrics.httpRequest('GET', '/', 200, 0.01);
  metrics.storeRequest('query', true, 0.01);
  metrics.jobRetried('q');
  metrics.jobDead('q');
  metrics.delivery('h.example', 'failed');
}

describe('ToggledMetrics and MetricsInitializer', (): void => {
  it('record nothing until enabled, then everything', async(): Promise<void> => {
    const prometheus = new PrometheusMetrics(1000, 2000, false);
    const metrics = new ToggledMetrics(prometheus);
    expect(metrics.enabled).toBe(false);
    record(metrics);
    expect(await metrics.expose()).toEqual({ contentType: expect.any(String), body: '' });
    expect((await prometheus.expose()).body).not.toMatch(/^fedpod_\w+\{/mu);

    await new MetricsInitializer(metrics, true).handle();
    expect(metrics.enabled).toBe(true);
    record(metrics);
    const { body } = await metrics.expose();
    for (const family of [ 'fedpod_http_requests_total{', 'fedpod_store_request_duration_seconds_count{',
      'fedpod_queue_retries_total{', 'fedpod_queue_dead_letters_total{', 'fedpod_deliveries_total{' ]) {
      expect(body).toContain(family);
    }
  });

  it('stay off when the initializer is told metrics are off', async(): Promise<void> => {
    const metrics = new ToggledMetrics(new PrometheusMetrics(1000, 2000, false));
    await new MetricsInitializer(metrics, false).handle();
    expect(metrics.enabled).toBe(false);
  });

  it('register queue sources with the implementation even while off', async(): Promise<void> => {
    const prometheus = new PrometheusMetrics(1000, 2000, false);
    const metrics = new ToggledMetrics(prometheus);
    metrics.watchQueues(async(): Promise<{ queue: string; counts: { waiting: number; active: number; delayed: number; dead: number } }[]> =>
      [{ queue: 'q', counts: { waiting: 1, active: 0, delayed: 0, dead: 0 }}]);
    metrics.enable();
    expect((await metrics.expose()).body).toContain('fedpod_queue_jobs{queue="q",state="waiting"} 1');
  });
});
