import { OAuthTokenHandler } from '../../../../src/handlers/mastodon/OAuthTokenHandler';
import type { OAuthWorld } from './support';
import { CALLBACK, startOAuthWorld } from './support';

describe('OAuthTokenHandler', (): void => {
  let world: OAuthWorld;

  beforeAll(async(): Promise<void> => {
    world = await startOAuthWorld((oauth) => new OAuthTokenHandler(oauth));
  });

  afterAll(async(): Promise<void> => world.stop());

  const post = async(body: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${world.server.base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(body).toString() });

  it('exchanges a code, the app authenticated by HTTP Basic', async(): Promise<void> => {
    const code = await world.oauth.issueCode({ clientId: world.clientId, username: 'alice', webId: 'https://pod.example/actors/alice',
      scopes: [ 'read' ], redirectUri: CALLBACK });
    const basic = Buffer.from(`${encodeURIComponent(world.clientId)}:${encodeURIComponent(world.clientSecret)}`).toString('base64');
    const response = await post({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK }, { authorization: `Basic ${basic}` });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String), token_type: 'Bearer',
      scope: 'read', created_at: expect.any(Number) });
  });

  it('answers OAuth 2 errors: missing or unknown grant types, missing codes, unknown clients', async(): Promise<void> => {
    const client = { client_id: world.clientId, client_secret: world.clientSecret };
    const cases: [Record<string, string>, number, string][] = [
      [ client, 400, 'invalid_request' ],
      [{ ...client, grant_type: 'password' }, 400, 'unsupported_grant_type' ],
      [{ ...client, grant_type: 'authorization_code' }, 400, 'invalid_request' ],
      [{ ...client, grant_type: 'refresh_token' }, 400, 'invalid_request' ],
      [{ ...client, grant_type: 'authorization_code', code: 'made-up' }, 400, 'invalid_grant' ],
      [{ grant_type: 'client_credentials' }, 401, 'invalid_client' ],
      [{ client_id: 'nobody', client_secret: 'x', grant_type: 'client_credentials' }, 401, 'invalid_client' ],
    ];
    for (const [ body, status, error ] of cases) {
      const response = await post(body);
      expect([ body, response.status, (await response.json() as { error: string; error_description: string }).error ]).toEqual([ body, status, error ]);
    }
  });
});
