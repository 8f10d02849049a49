import { Cors } from '../../../../src/handlers/pipeline/Cors';
import type { HandlerServer } from '../support/handlerServer';
import { serveHandler } from '../support/handlerServer';
import { HttpHandler } from '@solid/community-server';
import type { HttpHandlerInput } from '@solid/community-server';

/** Answers preflights as the pipeline does, and anything else 200 with the CORS headers. */
class CorsProbe extends HttpHandler {
  public async handle({ request, response }: HttpHandlerInput): Promise<void> {
    if (Cors.isPreflight(request)) {
      Cors.answerPreflight(request, response);
      return;
    }
    Cors.decorate(request, response);
    response.writeHead(200, { 'x-preflight': 'no' }).end();
  }
}

describe('Cors', (): void => {
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    server = await serveHandler(new CorsProbe());
  });

  afterAll(async(): Promise<void> => {
    await server.close();
  });

  it('allows the request\'s origin with credentials and exposes the headers clients read', async(): Promise<void> => {
    const response = await fetch(`${server.base}/x`, { headers: { origin: 'https://app.example' }});
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    const exposed = response.headers.get('access-control-expose-headers')!.split(', ');
    expect(exposed).toEqual(expect.arrayContaining([ 'Location', 'Link', 'WAC-Allow', 'WWW-Authenticate', 'ETag', 'Allow' ]));
  });

  it('allows any origin, without credentials, to a request without Origin', async(): Promise<void> => {
    const response = await fetch(`${server.base}/x`);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('answers a preflight 204 with every method and the headers asked for, for a day', async(): Promise<void> => {
    const response = await fetch(`${server.base}/x`, { method: 'OPTIONS', headers: { origin: 'https://app.example',
      'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization, content-type' }});
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE');
    expect(response.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
    expect(response.headers.get('access-control-max-age')).toBe('86400');
    const bare = await fetch(`${server.base}/x`, { method: 'OPTIONS', headers: { 'access-control-request-method': 'GET' }});
    expect(bare.headers.get('access-control-allow-headers')).toBeNull();
  });

  it('does not take an OPTIONS without Access-Control-Request-Method for a preflight', async(): Promise<void> => {
    const response = await fetch(`${server.base}/x`, { method: 'OPTIONS' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-preflight')).toBe('no');
  });
});
