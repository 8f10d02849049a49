import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardStream } from '@solid/community-server';
import { MetricsHandler } from '../../../src/handlers/MetricsHandler';
import { PrometheusMetrics } from '../../../src/plugins/observability/PrometheusMetrics';
import { ToggledMetrics } from '../../../src/plugins/observability/ToggledMetrics';

describe('MetricsHandler', (): void => {
  const metrics = new ToggledMetrics(new PrometheusMetrics(1000, 2000, false));
  const handler = new MetricsHandler(metrics);
  let server: Server;
  let base: string;

  beforeAll(async(): Promise<void> => {
    server = createServer((raw, response): void => {
      const request = guardStream(raw);
      void handler.canHandle({ request, response }).then(
        async(): Promise<void> => handler.handle({ request, response }),
        (): void => {
          response.writeHead(404).end();
        },
      );
    });
    await new Promise<void>((resolve): void => {
      server.listen(0, '127.0.0.1', resolve);
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async(): Promise<void> => {
    server.closeAllConnections();
    await new Promise((resolve): void => {
      server.close(resolve);
    });
  });

  it('leaves /metrics to other handlers while metrics are off', async(): Promise<void> => {
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
  });

  it('serves the Prometheus text once metrics are on', async(): Promise<void> => {
    metrics.enable();
    metrics.httpRequest('GET', '/notes/*', 200, 0.01);
    const response = await fetch(`${base}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toContain('fedpod_http_requests_total{method="GET",route="/notes/*",status="200"} 1');
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${base}/metricsz`)).status).toBe(404);
  });
});
