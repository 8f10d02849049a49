import { PrometheusMetrics } from '../../../../src/plugins/observability/PrometheusMetrics';

/** The value of one sample line of the exposition, or undefined when absent. */
function sample(text: string, line: string): number | undefined {
  const found = text.split('\n').find((candidate): boolean => candidate.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

describe('PrometheusMetrics', (): void => {
  it('counts HTTP requests by method, route and status, with a latency histogram', async(): Promise<void> => {
    const metrics = new PrometheusMetrics(1000, 2000, false);
    metrics.httpRequest('GET', '/notes/*', 200, 0.004);
    metrics.httpRequest('GET', '/notes/*', 200, 0.2);
    metrics.httpRequest('BREW', '/', 405, 0.001);
    const { contentType, body } = await metrics.expose();
    expect(contentType).toContain('text/plain');
    expect(sample(body, 'fedpod_http_requests_total{method="GET",route="/notes/*",status="200"}')).toBe(2);
    expect(sample(body, 'fedpod_http_requests_total{method="other",route="/",status="405"}')).toBe(1);
    expect(sample(body, 'fedpod_http_request_duration_seconds_count{method="GET",route="/notes/*"}')).toBe(2);
    expect(sample(body, 'fedpod_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/notes/*"}')).toBe(1);
    expect(body).not.toContain('process_cpu');
  });

  it('records store latencies, retries, dead letters and deliveries', async(): Promise<void> => {
    const metrics = new PrometheusMetrics(1000, 2000, false);
    metrics.storeRequest('query', true, 0.01);
    metrics.storeRequest('update', false, 0.02);
    metrics.jobRetried('delivery');
    metrics.jobRetried('delivery');
    metrics.jobDead('webhooks');
    metrics.delivery('Remote.Example:8443', 'delivered');
    metrics.delivery('remote.example:8443', 'refused');
    const { body } = await metrics.expose();
    expect(sample(body, 'fedpod_store_request_duration_seconds_count{operation="query",outcome="ok"}')).toBe(1);
    expect(sample(body, 'fedpod_store_request_duration_seconds_count{operation="update",outcome="error"}')).toBe(1);
    expect(sample(body, 'fedpod_queue_retries_total{queue="delivery"}')).toBe(2);
    expect(sample(body, 'fedpod_queue_dead_letters_total{queue="webhooks"}')).toBe(1);
    expect(sample(body, 'fedpod_deliveries_total{host="remote.example:8443",outcome="delivered"}')).toBe(1);
    expect(sample(body, 'fedpod_deliveries_total{host="remote.example:8443",outcome="refused"}')).toBe(1);
  });

  it('labels remote hosts beyond the limit as other', async(): Promise<void> => {
    const metrics = new PrometheusMetrics(2, 2000, false);
    for (const host of [ 'a.example', 'b.example', 'c.example', 'd.example', 'a.example' ]) {
      metrics.delivery(host, 'delivered');
    }
    const { body } = await metrics.expose();
    expect(sample(body, 'fedpod_deliveries_total{host="a.example",outcome="delivered"}')).toBe(2);
    expect(sample(body, 'fedpod_deliveries_total{host="other",outcome="delivered"}')).toBe(2);
    expect(body).not.toContain('c.example');
  });

  it('reads queue depths on each scrape, skipping a source that fails or hangs', async(): Promise<void> => {
    const metrics = new PrometheusMetrics(1000, 100, false);
    let waiting = 3;
    metrics.watchQueues(async(): Promise<{ queue: string; counts: { waiting: number; active: number; delayed: number; dead: number } }[]> =>
      [{ queue: 'inbox', counts: { waiting, active: 1, delayed: 2, dead: 0 }}]);
    metrics.watchQueues(async(): Promise<never> => Promise.reject(new Error('Redis is away')));
    metrics.watchQueues(async(): Promise<never> => new Promise((): void => undefined));
    let { body } = await metrics.expose();
    expect(sample(body, 'fedpod_queue_jobs{queue="inbox",state="waiting"}')).toBe(3);
    expect(sample(body, 'fedpod_queue_jobs{queue="inbox",state="active"}')).toBe(1);
    expect(sample(body, 'fedpod_queue_jobs{queue="inbox",state="delayed"}')).toBe(2);
    expect(sample(body, 'fedpod_queue_jobs{queue="inbox",state="dead"}')).toBe(0);
    waiting = 0;
    ({ body } = await metrics.expose());
    expect(sample(body, 'fedpod_queue_jobs{queue="inbox",state="waiting"}')).toBe(0);
  });

  it('adds process metrics from the first scrape when asked to', async(): Promise<void> => {
    const { body } = await new PrometheusMetrics().expose();
    expect(body).toContain('process_cpu_user_seconds_total');
    expect(body).toContain('nodejs_heap_size_used_bytes');
  });
});
