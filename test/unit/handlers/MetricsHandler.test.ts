import { MetricsHandler } from '../../../src/handlers/MetricsHandler';
import { PrometheusMetrics } from '../../../src/plugins/observability/PrometheusMetrics';
import { ToggledMetrics } from '../../../src/plugins/observability/ToggledMetrics';
import { serveHandler, type HandlerServer } from './support/handlerServer';

describe('MetricsHandler', (): void => {
  const metrics = new ToggledMetrics(new PrometheusMetrics(1000, 2000, false));
  let server: HandlerServer;
  let base: string;

  beforeAll(async(): Promise<void> => {
    server = await serveHandler(new MetricsHandler(metrics));
    base = server.base;
  });

  afterAll(async(): Promise<void> => {
    await server.close();
  });

  it('answers 404 while metrics are off', async(): Promise<void> => {
    const response = await fetch(`${base}/metrics`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'not_found', message: expect.stringContaining('--metrics') });
  });

  it('serves the Prometheus text once metrics are on', async(): Promise<void> => {
    metrics.enable();
    metrics.httpRequest('GET', '/notes/*', 200, 0.01);
    const response = await fetch(`${base}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toContain('fedpod_http_requests_total{method="GET",route="/notes/*",status="200"} 1');
    // Other methods are left to the pipeline (which answers 405).
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
  });

  it('with a token, serves only scrapes that present it', async(): Promise<void> => {
    const guarded = await serveHandler(new MetricsHandler(metrics, 'scrape-secret-1'));
    const url = `${guarded.base}/metrics`;
    try {
      const missing = await fetch(url);
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toBe('Bearer');
      expect(await missing.json()).toMatchObject({ error: 'authorization_required' });
      for (const authorization of [ 'Bearer scrape-secret-2', 'Bearer scrape-secret-1x', 'Basic c2NyYXBlOnNlY3JldA==', 'Bearer ' ]) {
        const wrong = await fetch(url, { headers: { authorization }});
        expect({ authorization, status: wrong.status }).toEqual({ authorization, status: 401 });
        expect(await wrong.text()).not.toContain('fedpod_http_requests_total');
      }
      const right = await fetch(url, { headers: { authorization: 'Bearer scrape-secret-1' }});
      expect(right.status).toBe(200);
      expect(await right.text()).toContain('fedpod_http_requests_total');
    } finally {
      await guarded.close();
    }
  });
});
