import { RemoteFetchError, SsrfBlockedError } from '../../../../src/plugins/outbound/OutboundErrors';
import { OutboundGuard } from '../../../../src/plugins/outbound/OutboundGuard';
import { startCanary, type Canary } from '../../../support/canary';

describe('OutboundGuard.get', () => {
  let canary: Canary;
  /** Stands for the server itself: its origin is the guard's base URL. */
  let self: Canary;

  beforeAll(async () => {
    canary = await startCanary();
    self = await startCanary();
    self.routes.set('/doc', (request, response) => {
      response.writeHead(200, { 'content-type': 'text/turtle; charset=utf-8' });
      response.end('<#me> <http://www.w3.org/ns/solid/terms#oidcIssuer> <http://localhost/> .');
    });
    self.routes.set('/to-canary', (request, response) => {
      response.writeHead(302, { location: `${canary.origin}/after-redirect` }).end();
    });
    self.routes.set('/loop', (request, response) => {
      response.writeHead(301, { location: '/loop' }).end();
    });
    self.routes.set('/big', (request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
      response.end('x'.repeat(5000));
    });
    self.routes.set('/big-chunked', (request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('x'.repeat(3000));
      response.end('x'.repeat(3000));
    });
    self.routes.set('/slow', (request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[');
      // Never ends.
    });
  });

  afterAll(async () => {
    await canary.close();
    await self.close();
  });

  const guardOf = (allowPrivateNetwork: boolean, maxResponseBytes = 1_048_576, timeoutMs = 2_000): OutboundGuard =>
    new OutboundGuard(`${self.origin}/`, allowPrivateNetwork, timeoutMs, maxResponseBytes);

  it.each([
    [ 'a host name on loopback', (port: number) => `http://localhost:${port}/x` ],
    [ 'an IPv4 literal', (port: number) => `http://127.0.0.1:${port}/x` ],
    [ 'an IPv6 literal', (port: number) => `http://[::1]:${port}/x` ],
    [ 'https on loopback', (port: number) => `https://127.0.0.1:${port}/x` ],
  ])('refuses %s without --allow-private-network, and never connects', async (label, url) => {
    const before = canary.hits.length;
    await expect(guardOf(false).get(url(canary.port))).rejects.toThrow(SsrfBlockedError);
    expect(canary.since(before)).toEqual([]);
  });

  it('reaches loopback with --allow-private-network (so the case above would see a bypass)', async () => {
    const before = canary.hits.length;
    const answer = await guardOf(true).get(`${canary.origin}/allowed`);
    expect(answer.status).toBe(200);
    expect(canary.since(before)).toContain('GET /allowed');
  });

  it('always reaches the server\'s own origin, with the body, media type and final URL', async () => {
    const answer = await guardOf(false).get(`${self.origin}/doc#me`, { accept: 'text/turtle' });
    expect(answer).toMatchObject({ status: 200, contentType: 'text/turtle', url: `${self.origin}/doc` });
    expect(answer.body.toString()).toContain('oidcIssuer');
  });

  it('checks each redirect again: the own origin cannot send the guard to loopback', async () => {
    const before = canary.hits.length;
    await expect(guardOf(false).get(`${self.origin}/to-canary`)).rejects.toThrow(SsrfBlockedError);
    expect(canary.since(before)).toEqual([]);
    const followed = await guardOf(true).get(`${self.origin}/to-canary`);
    expect(followed.url).toBe(`${canary.origin}/after-redirect`);
  });

  it('follows 3 redirects at most', async () => {
    await expect(guardOf(false).get(`${self.origin}/loop`)).rejects.toMatchObject({ code: 'TOO_MANY_REDIRECTS' });
  });

  it('refuses a body over the limit, declared or not', async () => {
    await expect(guardOf(false, 4000).get(`${self.origin}/big`)).rejects.toMatchObject({ code: 'TOO_LARGE' });
    await expect(guardOf(false, 4000).get(`${self.origin}/big-chunked`)).rejects.toMatchObject({ code: 'TOO_LARGE' });
    await expect(guardOf(false).get(`${self.origin}/big`, { maxBytes: 100 })).rejects.toMatchObject({ code: 'TOO_LARGE' });
  });

  it('gives up on a response that does not end in time', async () => {
    const started = Date.now();
    await expect(guardOf(false, 1_048_576, 300).get(`${self.origin}/slow`)).rejects.toBeInstanceOf(RemoteFetchError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('refuses schemes other than http(s), and credentials in URLs', async () => {
    await expect(guardOf(true).get('file:///etc/passwd')).rejects.toThrow(SsrfBlockedError);
    await expect(guardOf(true).get(`http://user:secret@localhost:${canary.port}/`)).rejects.toThrow(SsrfBlockedError);
  });
});
