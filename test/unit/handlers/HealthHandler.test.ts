import { HealthHandler } from '../../../src/handlers/HealthHandler';
import type { HandlerServer } from './support/handlerServer';
import { declined, serveHandler } from './support/handlerServer';

describe('HealthHandler', (): void => {
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    server = await serveHandler(new HealthHandler());
  });

  afterAll(async(): Promise<void> => {
    await server.close();
  });

  it('answers GET with status ok, never cached', async(): Promise<void> => {
    const response = await fetch(`${server.base}/healthz`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('answers HEAD with the headers only', async(): Promise<void> => {
    const response = await fetch(`${server.base}/healthz`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('leaves other methods to other handlers', async(): Promise<void> => {
    for (const method of [ 'POST', 'PUT', 'DELETE', 'OPTIONS' ]) {
      expect({ method, declined: declined(await fetch(`${server.base}/healthz`, { method })) }).toEqual({ method, declined: true });
    }
  });
});
