import { MastodonAppsHandler } from '../../../../src/handlers/mastodon/MastodonAppsHandler';
import type { OAuthWorld } from './support';
import { CALLBACK, startOAuthWorld } from './support';

describe('MastodonAppsHandler', (): void => {
  let world: OAuthWorld;

  beforeAll(async(): Promise<void> => {
    world = await startOAuthWorld((oauth) => new MastodonAppsHandler(oauth));
  });

  afterAll(async(): Promise<void> => world.stop());

  const post = async(body: BodyInit, type?: string): Promise<Response> =>
    fetch(`${world.server.base}/api/v1/apps`, { method: 'POST', body, ...type ? { headers: { 'content-type': type }} : {}});

  it('registers an app sent as JSON, answering Mastodon\'s Application with its credentials', async(): Promise<void> => {
    const response = await post(JSON.stringify({ client_name: 'Elk', redirect_uris: [ CALLBACK, 'elk://cb' ], scopes: 'read write push', website: 'https://elk.zone' }),
      'application/json');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const app = await response.json() as Record<string, unknown>;
    expect(app).toEqual({ id: app.client_id, name: 'Elk', website: 'https://elk.zone', scopes: [ 'read', 'write', 'push' ],
      redirect_uri: `${CALLBACK}\nelk://cb`, redirect_uris: [ CALLBACK, 'elk://cb' ], client_id: expect.any(String),
      client_secret: expect.any(String), client_secret_expires_at: 0 });
    expect(await world.oauth.app(app.client_id as string)).toBeDefined();
  });

  it('takes forms and multipart form data as mobile apps send them', async(): Promise<void> => {
    const form = await post(new URLSearchParams({ client_name: 'Tusky', redirect_uris: 'tusky://oauth', scopes: 'read write follow push' }).toString(),
      'application/x-www-form-urlencoded');
    expect(await form.json()).toEqual(expect.objectContaining({ name: 'Tusky', redirect_uris: [ 'tusky://oauth' ]}));
    const data = new FormData();
    data.set('client_name', 'Ivory');
    data.append('redirect_uris[]', 'ivory://a');
    data.append('redirect_uris[]', 'ivory://b');
    const multipart = await post(data);
    expect(await multipart.json()).toEqual(expect.objectContaining({ name: 'Ivory', redirect_uris: [ 'ivory://a', 'ivory://b' ], scopes: [ 'read' ]}));
  });

  it('refuses an invalid app with 422, other bodies with 415 or 400', async(): Promise<void> => {
    const invalid = await post(JSON.stringify({ client_name: 'x', redirect_uris: 'javascript:alert(1)' }), 'application/json');
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toEqual(expect.objectContaining({ error: expect.stringMatching(/^Validation failed: Redirect URI/u) }));
    expect((await post('<xml/>', 'application/xml')).status).toBe(415);
    expect((await post('[1]', 'application/json')).status).toBe(400);
  });
});
