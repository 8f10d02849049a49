import { request as httpRequest } from 'node:http';
import { BodyLimitHandler } from '../../../src/handlers/BodyLimitHandler';
import type { HandlerServer } from './support/handlerServer';
import { declined, serveHandler } from './support/handlerServer';

describe('BodyLimitHandler', (): void => {
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    server = await serveHandler(new BodyLimitHandler(100));
  });

  afterAll(async(): Promise<void> => {
    await server.close();
  });

  it('refuses a declared body over the limit with 413, answering while the body is still sent', async(): Promise<void> => {
    const response = await fetch(`${server.base}/anything`, { method: 'PUT', body: 'x'.repeat(101) });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: 'payload_too_large', message: 'The body is larger than the limit of 100 bytes.' });
  });

  it('leaves bodies within the limit, requests without a length and chunked bodies to other handlers', async(): Promise<void> => {
    expect(declined(await fetch(`${server.base}/x`, { method: 'PUT', body: 'x'.repeat(100) }))).toBe(true);
    expect(declined(await fetch(`${server.base}/x`))).toBe(true);
    const chunked = await new Promise<number>((resolve, reject): void => {
      const sent = httpRequest(`${server.base}/x`, { method: 'PUT', headers: { 'transfer-encoding': 'chunked' }}, (response): void => {
        response.resume();
        resolve(response.headers['x-handler-declined'] === 'true' ? 0 : response.statusCode!);
      });
      sent.on('error', reject);
      sent.end('x'.repeat(500));
    });
    expect(chunked).toBe(0);
  });

  it('uses a 1 MiB limit by default', async(): Promise<void> => {
    const defaults = await serveHandler(new BodyLimitHandler());
    try {
      expect(declined(await fetch(`${defaults.base}/x`, { method: 'PUT', body: Buffer.alloc(1_048_576) }))).toBe(true);
      expect((await fetch(`${defaults.base}/x`, { method: 'PUT', body: Buffer.alloc(1_048_577) })).status).toBe(413);
    } finally {
      await defaults.close();
    }
  });
});
