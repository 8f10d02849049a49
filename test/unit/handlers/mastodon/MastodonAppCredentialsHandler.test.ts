import { MastodonAppCredentialsHandler } from '../../../../src/handlers/mastodon/MastodonAppCredentialsHandler';
import type { OAuthWorld } from './support';
import { startOAuthWorld } from './support';

describe('MastodonAppCredentialsHandler', (): void => {
  let world: OAuthWorld;

  beforeAll(async(): Promise<void> => {
    // The agent the pipeline would find: the app named in the x-app header.
    world = await startOAuthWorld((oauth) => new MastodonAppCredentialsHandler(oauth),
      (headers) => headers.has('x-app') ? { scopes: [ 'read' ], app: headers.get('x-app')! } : undefined);
  });

  afterAll(async(): Promise<void> => world.stop());

  const get = async(headers: Record<string, string> = {}, method = 'GET'): Promise<Response> =>
    fetch(`${world.server.base}/api/v1/apps/verify_credentials`, { method, headers });

  it('answers the token\'s app, without its secret', async(): Promise<void> => {
    const response = await get({ 'x-app': world.clientId });
    expect(response.status).toBe(200);
    const app = await response.json() as Record<string, unknown>;
    expect(app).toEqual(expect.objectContaining({ id: world.clientId, name: 'Test app', scopes: [ 'read', 'write' ]}));
    expect(app).not.toHaveProperty('client_secret');
  });

  it('answers 401 to a token of no app (or of an app gone)', async(): Promise<void> => {
    expect((await get()).status).toBe(401);
    expect((await get({ 'x-app': 'gone' })).status).toBe(401);
  });
});
