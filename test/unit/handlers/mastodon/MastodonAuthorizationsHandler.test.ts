import { MastodonAuthorizationsHandler } from '../../../../src/handlers/mastodon/MastodonAuthorizationsHandler';
import type { OAuthWorld } from './support';
import { CALLBACK, startOAuthWorld } from './support';

describe('MastodonAuthorizationsHandler', (): void => {
  let world: OAuthWorld;

  beforeAll(async(): Promise<void> => {
    // The local user the pipeline would find: the one named in the x-user header.
    world = await startOAuthWorld((oauth) => new MastodonAuthorizationsHandler(oauth),
      (headers) => ({ username: headers.get('x-user')!, webId: `https://pod.example/actors/${headers.get('x-user')}` }),
      (path): Record<string, string> => path.startsWith('/auth/apps/') ? { client: path.slice('/auth/apps/'.length) } : {});
  });

  afterAll(async(): Promise<void> => world.stop());

  const request = async(user: string, target: string, method = 'GET'): Promise<Response> =>
    fetch(`${world.server.base}${target}`, { method, headers: { 'x-user': user }});

  it('lists the user\'s authorized apps and revokes one, for that user only', async(): Promise<void> => {
    for (const username of [ 'alice', 'bob' ]) {
      const code = await world.oauth.issueCode({ clientId: world.clientId, username, webId: `https://pod.example/actors/${username}`,
        scopes: [ 'read' ], redirectUri: CALLBACK });
      await world.oauth.exchangeCode({ clientId: world.clientId, clientSecret: world.clientSecret }, code, CALLBACK, undefined);
    }
    const listed = await request('alice', '/auth/apps');
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual([ expect.objectContaining({ clientId: world.clientId, name: 'Test app', scopes: [ 'read' ]}) ]);
    expect((await request('alice', `/auth/apps/${world.clientId}`, 'DELETE')).status).toBe(204);
    expect(await (await request('alice', '/auth/apps')).json()).toEqual([]);
    expect(await (await request('bob', '/auth/apps')).json()).toHaveLength(1);
    expect((await request('alice', `/auth/apps/${world.clientId}`, 'DELETE')).status).toBe(404);
  });

  it('answers 405 to other methods', async(): Promise<void> => {
    expect((await request('alice', '/auth/apps', 'POST')).status).toBe(405);
    expect((await request('alice', `/auth/apps/${world.clientId}`)).status).toBe(405);
  });
});
