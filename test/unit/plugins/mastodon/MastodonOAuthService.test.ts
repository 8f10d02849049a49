import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OAuthApp } from '../../../../src/plugins/mastodon/OAuthRecords';
import { MastodonOAuthService } from '../../../../src/plugins/mastodon/MastodonOAuthService';

const ALICE = { username: 'alice', webId: 'https://pod.example/actors/alice' };
const CALLBACK = 'https://app.example/callback';

/** The error code and status a promise rejects with. */
async function refusal(promise: Promise<unknown>): Promise<{ status: number; error: string }> {
  try {
    await promise;
  } catch (error: unknown) {
    const { statusCode, errorCode } = error as { statusCode: number; errorCode: string };
    return { status: statusCode, error: errorCode };
  }
  throw new Error('not refused');
}

describe('MastodonOAuthService', (): void => {
  let dataDir: string;
  let oauth: MastodonOAuthService;
  let app: OAuthApp;
  let client: { clientId: string; clientSecret: string };

  beforeEach(async(): Promise<void> => {
    dataDir = mkdtempSync(join(tmpdir(), 'fedpod-oauth-'));
    oauth = new MastodonOAuthService(dataDir);
    const registered = await oauth.register({ client_name: 'Test app', redirect_uris: `${CALLBACK}\nmyapp://cb`, scopes: 'read write follow' });
    app = registered.app;
    client = { clientId: app.clientId, clientSecret: registered.clientSecret };
  });

  afterEach((): void => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  const codeFor = async(challenge?: string, scopes = [ 'read' ]): Promise<string> =>
    oauth.issueCode({ clientId: app.clientId, ...ALICE, scopes, redirectUri: CALLBACK, ...challenge ? { challenge } : {}});

  it('registers an app with its redirect URIs and scopes, keeping only a hash of its secret', async(): Promise<void> => {
    expect(app).toEqual(expect.objectContaining({ name: 'Test app', redirectUris: [ CALLBACK, 'myapp://cb' ], scopes: [ 'read', 'write', 'follow' ]}));
    const stored = readdirSync(join(dataDir, 'mastodon', 'apps')).map((file): string => readFileSync(join(dataDir, 'mastodon', 'apps', file), 'utf8')).join();
    expect(stored).not.toContain(client.clientSecret);
    expect((await oauth.register({ client_name: 'x', redirect_uris: [ 'urn:ietf:wg:oauth:2.0:oob' ]})).app.scopes).toEqual([ 'read' ]);
  });

  it('refuses invalid registrations with 422', async(): Promise<void> => {
    for (const input of [
      { redirect_uris: CALLBACK },
      { client_name: 'x' },
      { client_name: 'x', redirect_uris: 'javascript:alert(1)' },
      { client_name: 'x', redirect_uris: 'not a uri' },
      { client_name: 'x', redirect_uris: 'https://app.example/#fragment' },
      { client_name: 'x', redirect_uris: CALLBACK, scopes: 'read admin:write:everything' },
    ]) {
      expect(await refusal(oauth.register(input))).toEqual({ status: 422, error: expect.stringMatching(/^Validation failed: /u) });
    }
  });

  it('exchanges a code once, for a token whose agent is the user with the code\'s scopes', async(): Promise<void> => {
    const code = await codeFor();
    const answer = await oauth.exchangeCode(client, code, CALLBACK, undefined);
    expect(answer).toEqual(expect.objectContaining({ token_type: 'Bearer', scope: 'read', refresh_token: expect.any(String) }));
    expect(await oauth.bearer(answer.access_token)).toEqual({ clientId: app.clientId, scopes: [ 'read' ], ...ALICE });
    expect(await refusal(oauth.exchangeCode(client, code, CALLBACK, undefined))).toEqual({ status: 400, error: 'invalid_grant' });
  });

  it('checks PKCE, the redirect URI, the client and the code\'s age', async(): Promise<void> => {
    const verifier = 'a'.repeat(50);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    expect(await refusal(oauth.exchangeCode(client, await codeFor(challenge), CALLBACK, 'b'.repeat(50)))).toEqual({ status: 400, error: 'invalid_grant' });
    expect(await refusal(oauth.exchangeCode(client, await codeFor(challenge), CALLBACK, undefined))).toEqual({ status: 400, error: 'invalid_grant' });
    expect((await oauth.exchangeCode(client, await codeFor(challenge), CALLBACK, verifier)).scope).toBe('read');
    expect(await refusal(oauth.exchangeCode(client, await codeFor(), 'myapp://cb', undefined))).toEqual({ status: 400, error: 'invalid_grant' });
    expect(await refusal(oauth.exchangeCode({ ...client, clientSecret: 'wrong' }, await codeFor(), CALLBACK, undefined)))
      .toEqual({ status: 401, error: 'invalid_client' });
    const other = await oauth.register({ client_name: 'Other', redirect_uris: CALLBACK });
    expect(await refusal(oauth.exchangeCode({ clientId: other.app.clientId, clientSecret: other.clientSecret }, await codeFor(), CALLBACK, undefined)))
      .toEqual({ status: 400, error: 'invalid_grant' });
    const code = await codeFor();
    const now = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(now + 11 * 60_000);
    try {
      expect(await refusal(oauth.exchangeCode(client, code, CALLBACK, undefined))).toEqual({ status: 400, error: 'invalid_grant' });
    } finally {
      jest.restoreAllMocks();
    }
  });

  it('gives an app its own token, within its registered scopes', async(): Promise<void> => {
    const answer = await oauth.clientToken(client, 'read write:statuses');
    expect(answer.refresh_token).toBeUndefined();
    expect(await oauth.bearer(answer.access_token)).toEqual({ clientId: app.clientId, scopes: [ 'read', 'write:statuses' ]});
    expect(await refusal(oauth.clientToken(client, 'push'))).toEqual({ status: 400, error: 'invalid_scope' });
    expect(await refusal(oauth.clientToken(client, 'nonsense'))).toEqual({ status: 400, error: 'invalid_scope' });
  });

  it('refreshes a token once, revoking the old pair, never widening the scopes', async(): Promise<void> => {
    const first = await oauth.exchangeCode(client, await codeFor(undefined, [ 'read', 'write' ]), CALLBACK, undefined);
    expect(await refusal(oauth.refresh(client, first.refresh_token!, 'follow'))).toEqual({ status: 400, error: 'invalid_scope' });
    const second = await oauth.refresh(client, first.refresh_token!, 'read');
    expect(second.scope).toBe('read');
    expect(await oauth.bearer(first.access_token)).toBeUndefined();
    expect(await oauth.bearer(second.access_token)).toEqual(expect.objectContaining({ username: 'alice', scopes: [ 'read' ]}));
    expect(await refusal(oauth.refresh(client, first.refresh_token!, undefined))).toEqual({ status: 400, error: 'invalid_grant' });
  });

  it('revokes a token of the app (by the access or the refresh token), and leaves other apps\' tokens alone', async(): Promise<void> => {
    const first = await oauth.exchangeCode(client, await codeFor(), CALLBACK, undefined);
    const other = await oauth.register({ client_name: 'Other', redirect_uris: CALLBACK });
    await oauth.revoke({ clientId: other.app.clientId, clientSecret: other.clientSecret }, first.access_token);
    expect(await oauth.bearer(first.access_token)).toBeDefined();
    await oauth.revoke(client, first.access_token);
    expect(await oauth.bearer(first.access_token)).toBeUndefined();
    expect(await refusal(oauth.refresh(client, first.refresh_token!, undefined))).toEqual({ status: 400, error: 'invalid_grant' });
    const second = await oauth.exchangeCode(client, await codeFor(), CALLBACK, undefined);
    await oauth.revoke(client, second.refresh_token!);
    expect(await oauth.bearer(second.access_token)).toBeUndefined();
  });

  it('tells the holder of a token as bearer() does, for work done on its behalf, until it is revoked', async(): Promise<void> => {
    const answer = await oauth.exchangeCode(client, await codeFor(undefined, [ 'read', 'push' ]), CALLBACK, undefined);
    expect(await oauth.holder(answer.access_token)).toEqual({ clientId: app.clientId, scopes: [ 'read', 'push' ], ...ALICE });
    expect(await oauth.holder('not a token')).toBeUndefined();
    await oauth.revoke(client, answer.access_token);
    expect(await oauth.holder(answer.access_token)).toBeUndefined();
  });

  it('sees a revocation made by another instance over the same data directory at once', async(): Promise<void> => {
    const answer = await oauth.exchangeCode(client, await codeFor(), CALLBACK, undefined);
    const otherNode = new MastodonOAuthService(dataDir);
    expect(await otherNode.bearer(answer.access_token)).toBeDefined();
    await oauth.revoke(client, answer.access_token);
    expect(await otherNode.bearer(answer.access_token)).toBeUndefined();
  });

  it('lists a user\'s authorizations by app and revokes them, only that user\'s', async(): Promise<void> => {
    const mine = await oauth.exchangeCode(client, await codeFor(), CALLBACK, undefined);
    await oauth.exchangeCode(client, await codeFor(undefined, [ 'write' ]), CALLBACK, undefined);
    const bobs = await oauth.exchangeCode(client, await oauth.issueCode({ clientId: app.clientId, username: 'bob', webId: 'https://pod.example/actors/bob',
      scopes: [ 'read' ], redirectUri: CALLBACK }), CALLBACK, undefined);
    await oauth.clientToken(client, 'read');
    expect(await oauth.authorizations('alice')).toEqual([ expect.objectContaining({ clientId: app.clientId, name: 'Test app', scopes: [ 'read', 'write' ]}) ]);
    expect(await oauth.revokeAuthorization('alice', app.clientId)).toBe(true);
    expect(await oauth.revokeAuthorization('alice', app.clientId)).toBe(false);
    expect(await oauth.authorizations('alice')).toEqual([]);
    expect(await oauth.bearer(mine.access_token)).toBeUndefined();
    expect(await oauth.bearer(bobs.access_token)).toBeDefined();
  });

  it('knows no token it did not issue', async(): Promise<void> => {
    expect(await oauth.bearer('made-up')).toBeUndefined();
    expect(await oauth.app('')).toBeUndefined();
  });
});
