import { HostMetaHandler } from '../../../../src/handlers/discovery/HostMetaHandler';
import { call, get } from './support';

describe('HostMetaHandler', (): void => {
  const BASE = 'http://localhost:3000/';
  const TEMPLATE = 'http://localhost:3000/.well-known/webfinger?resource={uri}';
  const handler = new HostMetaHandler(BASE);

  it('serves host-meta as XRD with the lrdd template', async(): Promise<void> => {
    const reply = await get(handler, '/.well-known/host-meta');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/xrd+xml; charset=utf-8');
    expect(reply.headers['access-control-allow-origin']).toBe('*');
    expect(reply.headers['content-length']).toBe(Buffer.byteLength(reply.body));
    expect(reply.body).toBe([
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">',
      `  <Link rel="lrdd" template="${TEMPLATE}"/>`,
      '</XRD>',
      '',
    ].join('\n'));
  });

  it('serves host-meta.json as JRD', async(): Promise<void> => {
    const reply = await get(handler, '/.well-known/host-meta.json');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/jrd+json; charset=utf-8');
    expect(reply.json()).toEqual({ links: [{ rel: 'lrdd', template: TEMPLATE }]});
  });

  it.each([
    [ undefined, 'application/xrd+xml' ],
    [ '*/*', 'application/xrd+xml' ],
    [ 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'application/xrd+xml' ],
    [ 'application/xrd+xml', 'application/xrd+xml' ],
    [ 'application/json', 'application/jrd+json' ],
    [ 'application/jrd+json, application/xrd+xml;q=0.5', 'application/jrd+json' ],
    [ 'image/png', 'application/xrd+xml' ],
  ])('answers host-meta with Accept %j as %s', async(accept, type): Promise<void> => {
    const reply = await get(handler, '/.well-known/host-meta', { headers: accept ? { accept } : {}});
    expect(reply.headers['content-type']).toBe(`${type}; charset=utf-8`);
  });

  it('escapes the base URL in the XML', async(): Promise<void> => {
    const odd = new HostMetaHandler('https://host.example/a&b/');
    // The pipeline hands handlers the canonical path (CSS's spelling).
    const reply = await get(odd, '/a%26b/.well-known/host-meta');
    expect(reply.body).toContain('template="https://host.example/a&#38;b/.well-known/webfinger?resource={uri}"');
  });

  it('answers HEAD with the headers only and other methods with 405', async(): Promise<void> => {
    for (const url of [ '/.well-known/host-meta', '/.well-known/host-meta.json' ]) {
      const head = await get(handler, url, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.body).toBe('');
      const put = await get(handler, url, { method: 'PUT' });
      expect(put.status).toBe(405);
      expect(put.headers.allow).toBe('GET, HEAD');
    }
  });

  it('matches the path part only and refuses other paths', async(): Promise<void> => {
    expect((await get(handler, '/.well-known/host-meta?x=1')).status).toBe(200);
    for (const url of [ '/.well-known/host-meta.xml', '/.well-known/host', '/host-meta' ]) {
      await expect(call(handler, url)).resolves.toBeUndefined();
    }
  });
});
