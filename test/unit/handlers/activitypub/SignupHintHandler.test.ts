import { SignupHintHandler } from '../../../../src/handlers/activitypub/SignupHintHandler';
import type { HandlerServer } from '../support/handlerServer';
import { declined, serveHandler } from '../support/handlerServer';

describe('SignupHintHandler', (): void => {
  let server: HandlerServer;

  beforeAll(async(): Promise<void> => {
    server = await serveHandler(new SignupHintHandler('https://pod.example/pod'));
  });

  afterAll(async(): Promise<void> => {
    await server.close();
  });

  it('answers a POST 405 use_signup, pointing at the signup endpoint under the base URL', async(): Promise<void> => {
    const response = await fetch(`${server.base}/actors`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'alice', password: 'secret' }) });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(response.headers.get('link')).toBe('<https://pod.example/pod/auth/signup>; rel="create-form"');
    expect(await response.json()).toEqual({ error: 'use_signup',
      message: 'Actors are created by signing up: POST {"username","email","password"} as JSON to https://pod.example/pod/auth/signup.' });
  });

  it('leaves every other method to other handlers', async(): Promise<void> => {
    for (const method of [ 'GET', 'HEAD', 'PUT', 'DELETE' ]) {
      expect({ method, declined: declined(await fetch(`${server.base}/actors`, { method })) }).toEqual({ method, declined: true });
    }
  });
});
