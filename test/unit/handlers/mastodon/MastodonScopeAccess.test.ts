import { LocalUserAccess } from '../../../../src/handlers/access/LocalUserAccess';
import { MastodonScopeAccess } from '../../../../src/handlers/mastodon/MastodonScopeAccess';
import { accessRequest, statusOf } from '../access/support';

describe('MastodonScopeAccess', (): void => {
  const target = 'https://pod.example/api/v1/statuses';
  const alice = { webId: 'https://pod.example/actors/alice', username: 'alice' };
  const write = new MastodonScopeAccess({ scope: 'write:statuses', policy: new LocalUserAccess() });

  it('takes OAuth tokens, unlike every other policy', (): void => {
    expect(write.acceptsScopedTokens).toBe(true);
    expect(new LocalUserAccess()).not.toHaveProperty('acceptsScopedTokens');
  });

  it('lets a token through whose scopes grant the route\'s, then asks the inner policy', async(): Promise<void> => {
    expect(await statusOf(write.authorize(accessRequest('POST', target, { ...alice, scopes: [ 'write' ], app: 'app' })))).toBe(200);
    expect(await statusOf(write.authorize(accessRequest('POST', target, { ...alice, scopes: [ 'write:statuses' ], app: 'app' })))).toBe(200);
    // An app's own token is no user: the inner policy refuses it.
    expect(await statusOf(write.authorize(accessRequest('POST', target, { scopes: [ 'write' ], app: 'app' })))).toBe(401);
  });

  it('refuses a token without the scope with Mastodon\'s 403', async(): Promise<void> => {
    const refused = write.authorize(accessRequest('POST', target, { ...alice, scopes: [ 'read' ], app: 'app' }));
    await expect(refused).rejects.toThrow(expect.objectContaining({ statusCode: 403, errorCode: 'This action is outside the authorized scopes' }));
  });

  it('gives Fedpod and Solid-OIDC tokens (no scopes) every scope, and asks anonymous callers for a token', async(): Promise<void> => {
    expect(await statusOf(write.authorize(accessRequest('POST', target, alice)))).toBe(200);
    expect(await statusOf(write.authorize(accessRequest('POST', target)))).toBe(401);
    expect(await statusOf(write.authorize(accessRequest('OPTIONS', target)))).toBe(200);
  });

  it('accepts any of several scopes, and without a scope or policy any token', async(): Promise<void> => {
    const profile = new MastodonScopeAccess({ scope: 'profile read:accounts', policy: new LocalUserAccess() });
    expect(await statusOf(profile.authorize(accessRequest('GET', target, { ...alice, scopes: [ 'profile' ], app: 'a' })))).toBe(200);
    expect(await statusOf(profile.authorize(accessRequest('GET', target, { ...alice, scopes: [ 'read' ], app: 'a' })))).toBe(200);
    expect(await statusOf(profile.authorize(accessRequest('GET', target, { ...alice, scopes: [ 'write' ], app: 'a' })))).toBe(403);
    const anyToken = new MastodonScopeAccess();
    expect(await statusOf(anyToken.authorize(accessRequest('GET', target, { scopes: [ 'read' ], app: 'a' })))).toBe(200);
    expect(await statusOf(anyToken.authorize(accessRequest('GET', target, alice)))).toBe(200);
    expect(await statusOf(anyToken.authorize(accessRequest('GET', target)))).toBe(401);
    expect(await statusOf(anyToken.authorize(accessRequest('GET', target, { remoteActor: 'https://social.example/users/eve' })))).toBe(401);
  });
});
