import { ContextHandler } from '../../../src/handlers/ContextHandler';
import { fedpodContext } from '../../../src/plugins/ldp/Contexts';
import type { HandlerServer } from './support/handlerServer';
import { declined, serveHandler } from './support/handlerServer';

describe('ContextHandler', (): void => {
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    server = await serveHandler(new ContextHandler());
  });

  afterAll(async(): Promise<void> => {
    await server.close();
  });

  it('serves Fedpod\'s JSON-LD context, cacheable, with an ETag', async(): Promise<void> => {
    const response = await fetch(`${server.base}/context.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/ld+json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(response.headers.get('etag')).toMatch(/^"[\w-]{22}"$/u);
    expect(await response.json()).toEqual(fedpodContext());
  });

  it('answers 304 to the ETag it gave, and 200 to any other', async(): Promise<void> => {
    const eTag = (await fetch(`${server.base}/context.json`)).headers.get('etag')!;
    const same = await fetch(`${server.base}/context.json`, { headers: { 'if-none-match': eTag }});
    expect(same.status).toBe(304);
    expect(same.headers.get('etag')).toBe(eTag);
    expect((await fetch(`${server.base}/context.json`, { headers: { 'if-none-match': '"other"' }})).status).toBe(200);
  });

  it('answers HEAD with the headers only, and leaves writes to other handlers', async(): Promise<void> => {
    const head = await fetch(`${server.base}/context.json`, { method: 'HEAD' });
    expect(Number(head.headers.get('content-length'))).toBe(Buffer.byteLength(JSON.stringify(fedpodContext(), null, 2)));
    expect(await head.text()).toBe('');
    expect(declined(await fetch(`${server.base}/context.json`, { method: 'PUT', body: '{}' }))).toBe(true);
  });
});
