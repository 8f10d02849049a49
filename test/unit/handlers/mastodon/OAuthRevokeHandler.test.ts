import { OAuthRevokeHandler } from '../../../../src/handlers/mastodon/OAuthRevokeHandler';
import type { OAuthWorld } from './support';
import { startOAuthWorld } from './support';

describe('OAuthRevokeHandler', (): void => {
  let world: OAuthWorld;

  beforeAll(async(): Promise<void> => {
    world = await startOAuthWorld((oauth) => new OAuthRevokeHandler(oauth));
  });

  afterAll(async(): Promise<void> => world.stop());

  const post = async(body: Record<string, string>): Promise<Response> =>
    fetch(`${world.server.base}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('revokes the app\'s token at once; an unknown token is answered the same', async(): Promise<void> => {
    const { access_token: token } = await world.oauth.clientToken({ clientId: world.clientId, clientSecret: world.clientSecret }, 'read');
    const client = { client_id: world.clientId, client_secret: world.clientSecret };
    for (const body of [{ ...client, token }, { ...client, token: 'unknown' }]) {
      const response = await post(body);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({});
    }
    expect(await world.oauth.bearer(token)).toBeUndefined();
  });

  it('needs the token and the app\'s credentials', async(): Promise<void> => {
    expect((await post({ client_id: world.clientId, client_secret: world.clientSecret })).status).toBe(400);
    expect((await post({ client_id: world.clientId, client_secret: 'wrong', token: 'x' })).status).toBe(401);
  });
});
