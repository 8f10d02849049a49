import { request as httpRequest } from 'node:http';
import type { HttpHandlerInput } from '@solid/community-server';
import { ForbiddenHttpError, NotFoundHttpError } from '@solid/community-server';
import { JsonHttpHandler } from '../../../../src/handlers/http/JsonHttpHandler';
import { StoreUnavailableHttpError } from '../../../../src/storage/StoreUnavailableHttpError';
import { FedpodHttpError, payloadTooLarge } from '../../../../src/util/HttpErrors';
import type { HandlerServer } from '../support/handlerServer';
import { serveHandler } from '../support/handlerServer';

/** Throws, before reading any body, the error the request's path names. */
class Thrower extends JsonHttpHandler {
  protected async serve({ request, response }: HttpHandlerInput): Promise<void> {
    switch (request.url) {
      case '/fedpod': throw new FedpodHttpError(422, 'odd_thing', 'Something odd.', { 'x-extra': 'yes' }, { hint: 'h' });
      case '/css-404': throw new NotFoundHttpError();
      case '/css-403': throw new ForbiddenHttpError('Not yours.');
      case '/store': throw new StoreUnavailableHttpError('The triple store is not reachable.');
      case '/large': throw payloadTooLarge('Too large.');
      case '/gone': throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      case '/ok':
        response.writeHead(200).end('fine');
        return;
      default: throw new Error('secret internals');
    }
  }
}

describe('JsonHttpHandler', (): void => {
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    server = await serveHandler(new Thrower());
  });

  afterAll(async(): Promise<void> => {
    await server.close();
  });

  it('serves what serve writes', async(): Promise<void> => {
    expect(await (await fetch(`${server.base}/ok`)).text()).toBe('fine');
  });

  it('answers a FedpodHttpError with its status, headers, code, message and details', async(): Promise<void> => {
    const response = await fetch(`${server.base}/fedpod`);
    expect(response.status).toBe(422);
    expect(response.headers.get('x-extra')).toBe('yes');
    expect(await response.json()).toEqual({ error: 'odd_thing', message: 'Something odd.', hint: 'h' });
  });

  it('answers CSS\'s 4xx errors with their status and a code from their name', async(): Promise<void> => {
    const notFound = await fetch(`${server.base}/css-404`);
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toEqual({ error: 'not_found', message: 'Not Found.' });
    expect(await (await fetch(`${server.base}/css-403`)).json()).toEqual({ error: 'forbidden', message: 'Not yours.' });
  });

  it('answers a dependency that is away with 503 and Retry-After', async(): Promise<void> => {
    const response = await fetch(`${server.base}/store`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
  });

  it('hides anything unexpected behind a 500', async(): Promise<void> => {
    const response = await fetch(`${server.base}/boom`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'internal_error', message: 'The server could not complete the request.' });
  });

  it('answers a browser with an HTML error page', async(): Promise<void> => {
    const response = await fetch(`${server.base}/fedpod`, { headers: { accept: 'text/html' }});
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain('<code>odd_thing</code>');
  });

  it('lets a client still sending its body read the answer, not a reset', async(): Promise<void> => {
    const status = await new Promise<number>((resolve, reject): void => {
      const sent = httpRequest(`${server.base}/large`, { method: 'PUT', headers: { 'content-length': String(4 * 1024 * 1024) }},
        (response): void => {
          response.resume();
          resolve(response.statusCode!);
          sent.destroy();
        });
      sent.on('error', reject);
      // Keep sending, up to the declared length, until the answer comes.
      const chunk = Buffer.alloc(64 * 1024);
      let left = 64;
      const pump = (): void => {
        while (!sent.destroyed && left > 0) {
          left -= 1;
          if (left === 0) {
            sent.end(chunk);
          } else if (!sent.write(chunk)) {
            // Until the socket's buffer is full.
            return;
          }
        }
      };
      sent.on('drain', pump);
      pump();
    });
    expect(status).toBe(413);
  });

  it('answers nothing to a client that went away: the connection is closed', async(): Promise<void> => {
    await expect(fetch(`${server.base}/gone`)).rejects.toThrow();
  });
});
