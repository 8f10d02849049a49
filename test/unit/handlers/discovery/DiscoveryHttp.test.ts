import type { HttpRequest } from '@solid/community-server';
import { allowAnyOrigin, DISCOVERY_ALLOW, JRD, parseBaseUrl, requireGetOrHead, sendDocument }
  from '../../../../src/handlers/discovery/DiscoveryHttp';
import { rejection } from '../../../support/rejection';
import type { HandlerServer } from '../support/handlerServer';
import { serveHandler } from '../support/handlerServer';
import { HttpHandler } from '@solid/community-server';
import type { HttpHandlerInput } from '@solid/community-server';

function at(url: string | undefined, method = 'GET'): HttpRequest {
  let resumed = false;
  return { url, method, headers: {}, resume: (): void => {
    resumed = true;
  }, get resumed(): boolean {
    return resumed;
  } } as unknown as HttpRequest;
}

/** Answers every request with a document, through allowAnyOrigin and sendDocument. */
class DocumentProbe extends HttpHandler {
  public async handle({ request, response }: HttpHandlerInput): Promise<void> {
    if (request.headers['x-preset'] !== undefined) {
      response.setHeader('access-control-allow-origin', 'https://app.example');
    }
    allowAnyOrigin(response);
    sendDocument(request, response, `${JRD}; charset=utf-8`, '{"links":[]}', { 'cache-control': 'public, max-age=60' });
  }
}

describe('DiscoveryHttp', (): void => {
  it('parses the base URL with a trailing slash', (): void => {
    expect(parseBaseUrl('https://pod.example/pod').href).toBe('https://pod.example/pod/');
    expect(parseBaseUrl('https://pod.example/').href).toBe('https://pod.example/');
  });

  it('lets GET and HEAD through and answers others 405 with Allow, reading on past their body', async(): Promise<void> => {
    expect((): void => requireGetOrHead(at('/x', 'GET'))).not.toThrow();
    expect((): void => requireGetOrHead(at('/x', 'HEAD'))).not.toThrow();
    const post = at('/x', 'POST');
    const error = await rejection((async(): Promise<void> => requireGetOrHead(post))()) as { statusCode: number; headers: Record<string, string>; message: string };
    expect([ error.statusCode, error.headers.allow, error.message ]).toEqual([ 405, DISCOVERY_ALLOW, 'POST is not supported here.' ]);
    expect((post as unknown as { resumed: boolean }).resumed).toBe(true);
  });

  describe('over HTTP', (): void => {
    let server: HandlerServer;

    beforeAll(async(): Promise<void> => {
      server = await serveHandler(new DocumentProbe());
    });

    afterAll(async(): Promise<void> => {
      await server.close();
    });

    it('sends a document with its type, length and headers, open to any origin', async(): Promise<void> => {
      const response = await fetch(`${server.base}/doc`);
      expect(response.headers.get('content-type')).toBe('application/jrd+json; charset=utf-8');
      expect(response.headers.get('content-length')).toBe('12');
      expect(response.headers.get('cache-control')).toBe('public, max-age=60');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.text()).toBe('{"links":[]}');
    });

    it('keeps an origin already allowed, and sends the headers only for HEAD', async(): Promise<void> => {
      expect((await fetch(`${server.base}/doc`, { headers: { 'x-preset': '1' }})).headers.get('access-control-allow-origin'))
        .toBe('https://app.example');
      const head = await fetch(`${server.base}/doc`, { method: 'HEAD' });
      expect(head.headers.get('content-length')).toBe('12');
      expect(await head.text()).toBe('');
    });
  });
});
